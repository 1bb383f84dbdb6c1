"""scrub --mode mask and --mode hash on the command line (issue 21): the same output with one
worker or two, the same key the same output, another key another; the key in no output,
spans file or message; a missing, empty or short key refused before any work. Fictional
posts; the tiny model (the default one in tests/people/test_person_modes.py)."""
import json
import os

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main

KEY = b"fictional hash key, not a secret 0123456789"
OTHER_KEY = b"another fictional hash key 9876543210"
POSTS = [
    {"id": "1", "board": "b", "thread": "t1", "author": "kaygirl",
     "text": "Hi all, I'm Kay. Mail me at kay.b@example.org or call 212-555-0123."},
    {"id": "2", "board": "b", "thread": "t1", "author": "hippie96321",
     "text": "Thanks Kay and Mary Jane! @kaygirl see www.example.com/thyroid"},
    {"id": "3", "board": "b", "thread": "t2", "author": "kaygirl",
     "text": "My TSH is 2.1 now. KAY"},
]


def scrub(tmp_path, model, *options, name="out", posts=POSTS, key=KEY):
    dump = write_jsonl(tmp_path / ("%s.in.jsonl" % name), posts)
    out, spans = tmp_path / ("%s.jsonl" % name), tmp_path / ("%s.spans.jsonl" % name)
    if key is not None:
        (tmp_path / "hash.key").write_bytes(key)
        options += ("--hash-key-file", tmp_path / "hash.key")
    status = main([str(a) for a in ("scrub", dump, "-o", out, "--spans", spans, "--model",
                                    model, "--quiet") + options])
    assert status == 0
    return read_jsonl(out), read_jsonl(spans)


def test_mask_keeps_every_length_and_says_what_it_replaced(tmp_path, tiny_model_path):
    out, spans = scrub(tmp_path, tiny_model_path, "--mode", "mask", "--jobs", "1", key=None)
    for post, scrubbed, line in zip(POSTS, out, spans):
        assert len(scrubbed["text"]) == len(post["text"])
        assert scrubbed["author"] == "*" * len(post["author"])
        assert line["spans"], post["id"]
        for entry in line["spans"]:         # the spans file's offsets hold in the output
            assert set(scrubbed["text"][entry["start"]:entry["end"]]) == {"*"}
    assert "kay.b@example.org" not in out[0]["text"] and "@kaygirl" not in out[1]["text"]


# the workers write the text in pass 2, or in pass 3 after the thread-consistency step
@pytest.mark.parametrize("run", [["--jobs", "1"], ["--jobs", "2"],
                                 ["--jobs", "2", "--no-step", "consistency"]])
def test_hash_is_the_same_across_runs_and_workers(tmp_path, tiny_model_path, run):
    once, spans = scrub(tmp_path, tiny_model_path, "--mode", "hash", "--jobs", "1")
    again, _ = scrub(tmp_path, tiny_model_path, "--mode", "hash", *run, name="again")
    assert again == once
    other, _ = scrub(tmp_path, tiny_model_path, "--mode", "hash", *run, name="other",
                     key=OTHER_KEY)
    assert [p["text"] for p in other] != [p["text"] for p in once]
    assert [p["author"] for p in other] != [p["author"] for p in once]
    # the author's value is that of their handle; the same person, the same value
    assert once[1]["text"].split("! ")[1].startswith(once[0]["author"] + " ")
    assert once[0]["author"] == once[2]["author"] and once[0]["author"].startswith("[USER:")
    assert {e["label"] for e in spans[0]["spans"]} >= {"NAME", "EMAIL", "PHONE"}
    assert "[PHONE:" in once[0]["text"] and "[EMAIL:" in once[0]["text"]


def test_the_environment_variable_is_the_same_key(tmp_path, tiny_model_path, monkeypatch):
    from_file, _ = scrub(tmp_path, tiny_model_path, "--mode", "hash", "--jobs", "1")
    monkeypatch.setenv("MMBDEID_HASH_KEY", KEY.decode())
    from_environment, _ = scrub(tmp_path, tiny_model_path, "--mode", "hash", "--jobs", "1",
                                name="env", key=None)
    assert from_environment == from_file


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_key_is_in_no_output_and_no_message(tmp_path, tiny_model_path, capfd, jobs):
    scrub(tmp_path, tiny_model_path, "--mode", "hash", "--jobs", jobs, "--skip-bad",
          "--rejects", tmp_path / "rejects.jsonl",
          posts=POSTS + [{"id": "4", "text": None}])
    main(["scrub", str(tmp_path / "out.in.jsonl"), "-o", str(tmp_path / "bad.jsonl"),
          "--mode", "hash", "--hash-key-file", str(tmp_path / "hash.key"), "--model",
          str(tmp_path / "no-such.model")])
    captured = capfd.readouterr()
    for piece in (KEY, KEY[:16], KEY[-16:]):
        assert piece.decode() not in captured.out + captured.err
        for name in os.listdir(tmp_path):
            if name != "hash.key":
                with open(tmp_path / name, "rb") as handle:
                    assert piece not in handle.read(), name


NOT_A_KEY_FILE = ("the hash key file is not a regular file (a device, FIFO or directory): "
                  "give a file holding the key, or set MMBDEID_HASH_KEY")


@pytest.mark.parametrize("options, key, message", [
    (["--mode", "hash"], None, "mmbdeid: error: --mode hash needs a key of at least 16 "
                               "bytes: --hash-key-file FILE or the environment variable "
                               "MMBDEID_HASH_KEY"),
    (["--mode", "hash", "--hash-key-file", "{tmp}/missing.key"], None,
     "mmbdeid: error: {tmp}/missing.key: cannot read the hash key file (No such file or "
     "directory)"),
    (["--mode", "hash", "--hash-key-file", "{tmp}/hash.key"], b"",
     "mmbdeid: error: {tmp}/hash.key: the hash key file is empty"),
    (["--mode", "hash", "--hash-key-file", "{tmp}/hash.key"], b"short secret\n",
     "mmbdeid: error: {tmp}/hash.key: the hash key is shorter than 16 bytes"),
    # read whole, so only a regular file, and a small one (/dev/zero filled the memory)
    pytest.param(["--mode", "hash", "--hash-key-file", "/dev/zero"], None,
                 "mmbdeid: error: /dev/zero: " + NOT_A_KEY_FILE, id="device"),
    pytest.param(["--mode", "hash", "--hash-key-file", "{tmp}/hash.key"], "FIFO",
                 "mmbdeid: error: {tmp}/hash.key: " + NOT_A_KEY_FILE, id="fifo"),
    pytest.param(["--mode", "hash", "--hash-key-file", "{tmp}"], None,
                 "mmbdeid: error: {tmp}: " + NOT_A_KEY_FILE, id="directory"),
    pytest.param(["--mode", "hash", "--hash-key-file", "{tmp}/hash.key"], "64 KiB + 1",
                 "mmbdeid: error: {tmp}/hash.key: the hash key file is over 64 KiB: a key "
                 "is a few dozen bytes (the wrong file?)", id="over-64-KiB"),
    (["--hash-key-file", "{tmp}/hash.key"], KEY,
     "mmbdeid: error: --hash-key-file needs --mode hash"),
    (["--mode", "mask", "--hash-key-file", "{tmp}/hash.key"], KEY,
     "mmbdeid: error: --hash-key-file needs --mode hash"),
    (["--mode", "hash", "--map", "{tmp}/people.map"], KEY,
     "mmbdeid: error: --map needs --mode pseudonym or --mode surrogate"),
])
def test_a_bad_key_stops_before_any_work(tmp_path, capsys, monkeypatch, options, key,
                                         message):
    monkeypatch.delenv("MMBDEID_HASH_KEY", raising=False)
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    if key == "FIFO":                       # never opened: no writer would come
        os.mkfifo(tmp_path / "hash.key")
    elif key == "64 KiB + 1":
        (tmp_path / "hash.key").write_bytes(b"k" * (64 * 1024 + 1))
    elif key is not None:
        (tmp_path / "hash.key").write_bytes(key)
    options = [o.format(tmp=tmp_path) for o in options]
    assert main(["scrub", str(dump), "-o", str(tmp_path / "out.jsonl")] + options) == 2
    assert capsys.readouterr().err == message.format(tmp=tmp_path) + "\n"
    assert not (tmp_path / "out.jsonl").exists()


def test_the_key_file_is_never_an_output(tmp_path, capsys):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    (tmp_path / "hash.key").write_bytes(KEY)
    key_file = str(tmp_path / "hash.key")
    assert main(["scrub", str(dump), "-o", key_file, "--mode", "hash",
                 "--hash-key-file", key_file]) == 2
    assert (tmp_path / "hash.key").read_bytes() == KEY
    assert key_file in capsys.readouterr().err


def test_help_lists_the_modes_and_the_key_option(capsys):
    with pytest.raises(SystemExit):
        main(["scrub", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--mode {placeholder,mask,hash,pseudonym,surrogate" in shown   # (and any registered)
    assert "--hash-key-file FILE" in shown and "MMBDEID_HASH_KEY" in shown


def test_the_summary_counts_the_same_in_every_per_post_mode(tmp_path, tiny_model_path,
                                                          capsys):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    (tmp_path / "hash.key").write_bytes(KEY)
    summaries = []
    for mode in ("placeholder", "mask", "hash"):
        assert main(["scrub", str(dump), "-o", str(tmp_path / (mode + ".jsonl")), "--model",
                     tiny_model_path, "--jobs", "1", "--mode", mode]
                    + (["--hash-key-file", str(tmp_path / "hash.key")] if mode == "hash"
                       else [])) == 0
        summaries.append([line for line in capsys.readouterr().err.splitlines()
                          if line.startswith("mmbdeid: removed:")])
    assert summaries[0] == summaries[1] == summaries[2] and summaries[0]
    assert json.loads((tmp_path / "placeholder.jsonl").read_text().splitlines()[2])[
        "author"] == "kaygirl"      # placeholder mode keeps the author, as before
