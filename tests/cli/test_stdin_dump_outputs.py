"""Dumps that can be read only once (issue 29). One read from standard input is an input
like a named one: no output of the run may go onto the file standard input is redirected
from, whether it is named as it is (``-o dump``), as ``/dev/stdin`` or as standard output
redirected to it (``-o - >> dump``); each such run is a process of its own, its standard
input the dump file, and the dump must come out byte for byte as it went in. One given
as a pipe (``<(zcat dump.gz)``, ``/dev/fd/N``) is spooled like standard input."""
import json
import os
import subprocess
import sys

import pytest

from paths import REPO
from jsonl_files import read_jsonl, write_jsonl
from slow_cases import slow_except
from mmbdeid.cli import main

# Fictional posts.
POSTS = [
    {"id": "s1", "board": "b", "thread": "t1", "author": "tamsin_q",
     "text": "Dr. Ollerenshaw moved my scan to Friday.\nTamsin"},
    {"id": "s2", "board": "b", "thread": "t1", "author": "bede_w", "parent": "s1",
     "text": "Good luck Tamsin! Call me at 555-201-4477."},
]

# (the command line, the output under test as the message names it, where standard output
# goes: "dump" appends it to the dump). The dump is named "posts": no extension, so it is
# a name every output option takes. "stdin" is the run's own link to /proc/self/fd/0, as
# /dev/stdin is: a test must never risk the system's /dev/stdin.
RUN = "--model {model} -q -j 1"
CASES = [
    ("scrub - -o posts " + RUN, "posts", None),
    ("scrub - -o stdin " + RUN, "stdin", None),
    ("scrub - -o - " + RUN, "-", "dump"),
    ("scrub - -o o.jsonl --spans posts " + RUN, "posts", None),
    ("scrub - -o o.jsonl --skip-bad --rejects posts " + RUN, "posts", None),
    ("scrub - -o o.jsonl --stats posts --stats-rebuild " + RUN, "posts", None),
    ("link - -o posts " + RUN, "posts", None),
    ("link - -o stdin " + RUN, "stdin", None),
    ("review - -o posts " + RUN, "posts", None),
    ("review - -o - " + RUN, "-", "dump"),
    ("review - -o r.csv --html posts " + RUN, "posts", None),
    ("stats - -o posts -q -j 1", "posts", None),
    ("stats - -o stdin -q -j 1", "stdin", None),
    ("audit -", "-", "dump"),
]


def run_with_stdin(run_dir, argv, stdout_to_dump):
    dump = run_dir / "posts"
    with open(dump, "rb") as stdin, open(dump, "ab") as appended:
        return subprocess.run(
            [sys.executable, "-m", "mmbdeid"] + argv, cwd=run_dir, stdin=stdin,
            stdout=appended if stdout_to_dump else subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=dict(os.environ, PYTHONPATH=REPO), timeout=300)


@pytest.mark.parametrize("template, output, stdout", slow_except(CASES, [
    CASES[0], CASES[1], CASES[2], CASES[9], CASES[12], CASES[13]]))
def test_no_output_goes_onto_the_file_standard_input_reads(tmp_path, tiny_model_path,
                                                           template, output, stdout):
    dump = tmp_path / "posts"
    write_jsonl(dump, POSTS)
    os.symlink("/proc/self/fd/0", tmp_path / "stdin")
    before = dump.read_bytes()
    done = run_with_stdin(tmp_path, template.format(model=tiny_model_path).split(),
                          stdout == "dump")
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("mmbdeid: error: %s: is also an input of this run (<stdin>, "
                           "read from %s): it would be overwritten\n"
                           % (output, os.path.realpath(dump)))
    assert dump.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["posts", "stdin"]      # nothing else written


def test_audit_quiet_writes_nothing_so_needs_no_refusal(tmp_path):
    dump = tmp_path / "posts"
    write_jsonl(dump, POSTS)
    before = dump.read_bytes()
    done = run_with_stdin(tmp_path, ["audit", "-", "-q"], True)
    assert done.returncode == 1, done.stderr        # the names are there: leaks
    assert dump.read_bytes() == before


@pytest.mark.slow
def test_standard_input_from_another_file_is_no_reason_to_refuse(tmp_path, tiny_model_path):
    write_jsonl(tmp_path / "posts", POSTS)
    done = run_with_stdin(tmp_path, ["scrub", "-", "-o", "out.jsonl"]
                          + RUN.format(model=tiny_model_path).split(), False)
    assert done.returncode == 0, done.stderr
    assert [line[:12] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == [
        '{"id": "s1",', '{"id": "s2",']


@pytest.mark.parametrize("output", slow_except(["/dev/null", "-"], ["/dev/null"]))
def test_a_character_device_may_be_read_and_written_by_one_run(tmp_path, tiny_model_path,
                                                               output):
    """/dev/null as the allow list and as the output (or standard output) overwrites
    nothing: no reason to refuse."""
    write_jsonl(tmp_path / "posts", POSTS)
    done = subprocess.run(
        [sys.executable, "-m", "mmbdeid", "scrub", "posts", "-o", output, "--allow",
         "/dev/null"] + RUN.format(model=tiny_model_path).split(), cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=REPO), timeout=300)
    assert done.returncode == 0, done.stderr


# --- a dump given as a pipe --------------------------------------------------------------

def pipe_path(data: bytes):
    """A pipe holding ``data`` (no more than a pipe buffers), its writer closed; its path
    /dev/fd/N as bash's <(...) gives it, and its descriptor to close."""
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    return "/dev/fd/%d" % read_end, read_end


def test_a_dump_given_as_a_pipe_is_read_by_every_pass(tmp_path, tiny_model_path, capsys):
    data = "".join(json.dumps(post) + "\n" for post in POSTS).encode()
    path, descriptor = pipe_path(data)
    try:
        # pseudonym mode reads the dump three times
        status = main(["scrub", path, "-o", str(tmp_path / "out.jsonl"), "--mode",
                       "pseudonym", "--model", tiny_model_path, "-q", "-j", "1"])
    finally:
        os.close(descriptor)
    assert status == 0, capsys.readouterr().err
    assert [post["id"] for post in read_jsonl(tmp_path / "out.jsonl")] == ["s1", "s2"]


def test_errors_in_a_piped_dump_name_the_pipe(tmp_path, tiny_model_path, capsys):
    path, descriptor = pipe_path(b'{"id": "s1", "text": "Fine."}\n{"id": "s2"}\n')
    try:
        status = main(["scrub", path, "-o", str(tmp_path / "out.jsonl"), "--model",
                       tiny_model_path, "-q", "-j", "1"])
    finally:
        os.close(descriptor)
    assert status == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s:2: missing field 'text' (fields: id); name the text field "
        "with --text-field\n" % path)
    assert os.listdir(tmp_path) == []


def test_a_training_corpus_and_dev_set_given_as_pipes_are_read_whole(tmp_path, capsys,
                                                                      tiny_corpus_path):
    with open(tiny_corpus_path, "rb") as handle:
        data = handle.read()
    (corpus, corpus_end), (dev, dev_end) = pipe_path(data), pipe_path(data)
    try:
        status = main(["train", corpus, "--dev", dev, "-o", str(tmp_path / "m.mmbdeid"),
                       "--max-iterations", "5", "-q"])
    finally:
        os.close(corpus_end)
        os.close(dev_end)
    assert status == 0, capsys.readouterr().err
    assert os.listdir(tmp_path) == ["m.mmbdeid"]
