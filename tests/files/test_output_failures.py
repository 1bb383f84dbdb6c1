"""Outputs that cannot betray the user (issue 18): what an output path names (a symbolic
link, a device, a FIFO, a socket), the lock on an output, the leftovers of a run killed
outright, and write errors that name the file."""
import contextlib
import hashlib
import json
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest

from paths import REPO, TINY
from slow_cases import slow_except
from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main

# Fictional posts.
POSTS = [
    {"id": "q1", "board": "b", "thread": "t1", "author": "tansy_w",
     "text": "Hello all, Dr. Pellingham moved my scan to Friday.\nTansy"},
    {"id": "q2", "board": "b", "thread": "t1", "author": "orrin_v", "parent": "q1",
     "text": "Good luck Tansy! Call me at 555-201-4477."},
    {"id": "q3", "board": "b", "thread": "t2", "author": "orrin_v",
     "text": "Round two done today.\nOrrin"},
]

# Every output option of every command, as (argv, extension of the output under test):
# ``{out}`` is that output; the others go to plain files in the run's directory.
OUTPUT_OPTIONS = [
    ("scrub {dump} -o {out} {run}", ".jsonl"),
    ("scrub {dump} -o {out} --mode pseudonym {run}", ".jsonl"),
    ("scrub {dump} -o o.jsonl --spans {out} {run}", ".jsonl"),
    ("scrub {bad_dump} -o o.jsonl --skip-bad --rejects {out} {run}", ".jsonl"),
    ("link {dump} -o {out} {run}", ".map"),
    ("review {dump} -o {out} {run}", ".csv"),
    ("review {dump} -o r.csv --html {out} {run}", ".html"),
    ("evaluate {tiny} --errors {out} --model {model} -q", ".csv"),
    ("sweep {tiny} -o {out} --model {model} -q", ".csv"),
    ("sweep {tiny} --plot {out} --model {model} -q", ".png"),
    ("split {tiny} -o {out} --dev dev.jsonl", ".jsonl"),
    ("train {tiny} -o {out} --max-iterations 3 -q", ".mmbdeid"),
]
# Outputs written in place (SQLite): never streamed.
DATABASE_OPTIONS = [
    ("scrub {dump} -o o.jsonl --stats {out} --stats-rebuild {run}", ".stats"),
    ("stats {dump} -o {out} -q -j 1", ".stats"),
]


def argv_of(template, out, tmp_path, model):
    bad_dump = tmp_path / "bad.jsonl"
    bad_dump.write_text('{"id": "q0", "text": 7}\n' + "".join(
        line + "\n" for line in (tmp_path / "dump.jsonl").read_text().splitlines()),
        encoding="utf-8")
    values = dict(dump=tmp_path / "dump.jsonl", bad_dump=bad_dump, out=out, tiny=TINY,
                  model=model, run="--model %s -q -j 1" % model)
    return template.format(**values).split()


@pytest.fixture
def run_dir(tmp_path, monkeypatch):
    """The run's directory (the current one), holding the dump; ``TMPDIR`` beside it."""
    work = tmp_path / "work"
    work.mkdir()
    write_jsonl(work / "dump.jsonl", POSTS)
    scratch = tmp_path / "tmpdir"
    scratch.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    return work


def hidden(directory):
    return sorted(name for name in os.listdir(directory) if name.startswith("."))


def run(argv, capsys):
    status = main([str(part) for part in argv])
    return status, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("template, extension", slow_except(OUTPUT_OPTIONS + DATABASE_OPTIONS, [
    ("scrub {dump} -o {out} {run}", ".jsonl"),
    ("link {dump} -o {out} {run}", ".map"),
    ("review {dump} -o r.csv --html {out} {run}", ".html"),
    ("train {tiny} -o {out} --max-iterations 3 -q", ".mmbdeid"),
    ("stats {dump} -o {out} -q -j 1", ".stats")]))
def test_a_symbolic_link_is_written_through_to_its_target(run_dir, tiny_model_path,
                                                          template, extension):
    real = run_dir.parent / "real"
    real.mkdir()
    target = real / ("target" + extension)
    target.write_bytes(b"old")
    link = run_dir / ("link" + extension)
    link.symlink_to(target)
    assert main(argv_of(template, link, run_dir, tiny_model_path)) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    written = target.read_bytes()
    assert written and written != b"old"
    assert os.listdir(real) == [target.name]         # no temporary or lock file left
    assert hidden(run_dir) == []


@contextlib.contextmanager
def fifo_reader(path):
    """A FIFO at ``path`` and a thread reading everything written to it."""
    os.mkfifo(path)
    received = []

    def read():
        with open(path, "rb") as handle:
            received.append(handle.read())
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield received
    finally:
        if reader.is_alive():           # never opened by the run: let the reader go
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(30)


@pytest.mark.parametrize("template, extension", slow_except(OUTPUT_OPTIONS, [
    ("scrub {dump} -o {out} {run}", ".jsonl"),
    ("review {dump} -o r.csv --html {out} {run}", ".html"),
    ("sweep {tiny} -o {out} --model {model} -q", ".csv"),
    ("train {tiny} -o {out} --max-iterations 3 -q", ".mmbdeid")]))
def test_a_fifo_is_streamed_to_and_stays_a_fifo(run_dir, tiny_model_path, template,
                                                extension):
    pipe = run_dir / ("pipe" + extension)
    with fifo_reader(pipe) as received:
        assert main(argv_of(template, pipe, run_dir, tiny_model_path)) == 0
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert received and received[0]
    assert hidden(run_dir) == []
    if template.startswith("scrub {dump} -o {out}"):
        assert [record["id"] for record in read_jsonl_bytes(received[0])] == ["q1", "q2", "q3"]


def read_jsonl_bytes(data):
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def make_device(path, kind, major, minor):
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except (PermissionError, OSError) as error:
        pytest.skip("cannot make a device node here: %s" % error)


def test_a_character_device_is_streamed_to_and_stays_a_device(run_dir, tiny_model_path):
    null = run_dir / "null.jsonl"
    make_device(null, stat.S_IFCHR, 1, 3)               # a copy of /dev/null
    before = os.lstat(null)
    assert main(argv_of("scrub {dump} -o {out} --spans {out} {run}", null, run_dir,
                        tiny_model_path)) == 0         # one device may take two outputs
    after = os.lstat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert hidden(run_dir) == []


@pytest.mark.parametrize("template, extension", DATABASE_OPTIONS)
def test_a_database_is_never_streamed(run_dir, tiny_model_path, capsys, template,
                                      extension):
    pipe = run_dir / ("pipe" + extension)
    with fifo_reader(pipe) as received:
        status, err = run(argv_of(template, pipe, run_dir, tiny_model_path), capsys)
    assert status == 2 and len(err) == 1
    assert err[0] == ("mmbdeid: error: %s: is a device or FIFO, but this output (a "
                      "database) is written in place: give a regular file" % pipe)
    assert received == [b""] and stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert sorted(os.listdir(run_dir)) == ["bad.jsonl", "dump.jsonl", pipe.name]


@pytest.mark.parametrize("kind", ["socket", "block device"])
def test_other_special_files_are_refused_and_kept(run_dir, tiny_model_path, capsys, kind):
    special = run_dir / "special.jsonl"
    if kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(special))
    else:
        make_device(special, stat.S_IFBLK, 7, 0)      # a loop device's number, never opened
    before = os.lstat(special)
    try:
        status, err = run(argv_of("scrub {dump} -o {out} {run}", special, run_dir,
                                  tiny_model_path), capsys)
    finally:
        if kind == "socket":
            server.close()
    assert status == 2 and err == [
        "mmbdeid: error: %s: is a %s, not a regular file: refused (outputs are regular "
        "files, character devices or FIFOs)" % (special, kind)]
    after = os.lstat(special)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


# --- the lock ----------------------------------------------------------------------------

HOLDER = """
import sys
from mmbdeid.files.locks import output_lock
with output_lock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


@contextlib.contextmanager
def lock_held_by_another_process(path):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=dict(os.environ, PYTHONPATH=REPO))
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=60) == 0


def test_a_second_run_on_the_same_output_stops_at_once(run_dir, capsys, tiny_model_path):
    out = run_dir / "out.jsonl"
    with lock_held_by_another_process(out):
        status, err = run(argv_of("scrub {dump} -o {out} {run}", out, run_dir,
                                  tiny_model_path), capsys)
        assert status == 2 and err == [
            "mmbdeid: error: %s: another mmbdeid run is writing this file" % out]
    assert hidden(run_dir) == []                         # the lock file went with its run
    assert main(argv_of("scrub {dump} -o {out} {run}", out, run_dir, tiny_model_path)) == 0


def test_a_lock_file_removed_by_its_holder_is_not_taken(tmp_path, monkeypatch):
    """Run B opened the lock file, run A removed it on release, run C made and locked a
    new one: B's lock on the removed file must not count."""
    from mmbdeid.errors import InputError
    from mmbdeid.files import locks
    out = tmp_path / "out.jsonl"
    lock = locks.lock_path(str(out))
    with lock_held_by_another_process(out):              # A
        stale = os.open(lock, os.O_RDWR)                  # B opens A's file
    with lock_held_by_another_process(out):              # C, on a new file
        real_open = os.open
        opened = []

        def open_stale_first(path, *args, **kwargs):
            if path == lock and not opened:
                opened.append(path)
                return stale
            return real_open(path, *args, **kwargs)
        monkeypatch.setattr(locks.os, "open", open_stale_first)
        with pytest.raises(InputError, match="another mmbdeid run is writing this file"):
            with locks.output_lock(str(out)):
                pass
        assert opened                                     # B did lock the removed file
    monkeypatch.undo()
    with locks.output_lock(str(out)):                     # free again
        pass
    assert os.listdir(tmp_path) == []


# --- what a run killed outright leaves ---------------------------------------------------

@pytest.mark.parametrize("name, removed", [
    (".out.jsonl.abcd_123.tmp", True),                  # a temporary of out.jsonl
    ("..out.jsonl.abcd_123.tmp.x1y2z3w4.tmp", True),    # a store built beside one
    pytest.param(".out.jsonl.abc.tmp", False, marks=pytest.mark.slow),  # not a name we make
    (".other.jsonl.abcd_123.tmp", False),               # another output's
    pytest.param(".out.jsonl.abcd_123.tmp.keep", False, marks=pytest.mark.slow),
    pytest.param("out.jsonl.abcd_123.tmp", False, marks=pytest.mark.slow),
])
def test_stale_temporaries_of_the_output_are_removed(run_dir, tiny_model_path, name,
                                                     removed):
    leftover = run_dir / name
    leftover.write_text("a partial output of a killed run")
    out = run_dir / "out.jsonl"
    assert main(argv_of("scrub {dump} -o {out} {run}", out, run_dir, tiny_model_path)) == 0
    assert leftover.exists() != removed


def test_a_symbolic_link_named_like_a_temporary_is_left_alone(run_dir, tiny_model_path):
    (run_dir / "precious").write_text("keep")
    (run_dir / ".out.jsonl.abcd_123.tmp").symlink_to(run_dir / "precious")
    out = run_dir / "out.jsonl"
    assert main(argv_of("scrub {dump} -o {out} {run}", out, run_dir, tiny_model_path)) == 0
    assert (run_dir / ".out.jsonl.abcd_123.tmp").is_symlink()
    assert (run_dir / "precious").read_text() == "keep"


SCRATCH_HOLDER = """
import sys
from mmbdeid.files.scratch import ScratchDirectory
scratch = ScratchDirectory()
print(scratch.path, flush=True)
sys.stdin.read()
scratch.remove()
"""


def test_what_a_live_run_holds_is_left_alone(run_dir, tiny_model_path, capsys):
    out = run_dir / "out.jsonl"
    temporary = run_dir / ".out.jsonl.abcd_123.tmp"
    scratch_dir = run_dir.parent / "tmpdir"
    holder = subprocess.Popen([sys.executable, "-c", SCRATCH_HOLDER], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(scratch_dir)))
    try:
        live_scratch = holder.stdout.readline().strip()
        with lock_held_by_another_process(out):
            temporary.write_text("being written")
            status, _ = run(argv_of("scrub {dump} -o {out} {run}", out, run_dir,
                                    tiny_model_path), capsys)
            assert status == 2 and temporary.exists()
        # a run on another output makes its own scratch directories: the live one stays
        assert main(argv_of("scrub {dump} -o {out} {run}", run_dir / "other.jsonl",
                            run_dir, tiny_model_path)) == 0
        assert os.listdir(scratch_dir) == [os.path.basename(live_scratch)]
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert os.listdir(scratch_dir) == []


KILLED_IN_PASS_3 = """
import os, signal, sys
from mmbdeid.cli import main
from mmbdeid.jobs import passes, person_pass

class Progress(passes.Progress):
    def update(self, posts, tokens=0):
        if self.label.startswith("pass 3/3"):
            os.kill(os.getpid(), signal.SIGKILL)      # the output's temporary is open
        super().update(posts, tokens)

passes.Progress = person_pass.Progress = Progress    # (the person modes' pass 3: there)
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("stats", [False, True])
@pytest.mark.slow
def test_a_run_killed_outright_leaves_what_the_next_run_removes(run_dir, tiny_model_path,
                                                               stats):
    scratch_dir = run_dir.parent / "tmpdir"
    argv = argv_of("scrub {dump} -o {out} --mode pseudonym --spans s.jsonl {run}",
                   run_dir / "out.jsonl", run_dir, tiny_model_path)
    if stats:
        argv += ["--stats", "d.stats"]
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_PASS_3] + argv, cwd=run_dir,
                            env=dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(scratch_dir)),
                            stderr=subprocess.PIPE, text=True, timeout=300)
    assert killed.returncode == -9, killed.stderr
    left = hidden(run_dir)
    assert any(name.startswith(".out.jsonl.") for name in left), left
    assert any(name.startswith(".s.jsonl.") for name in left), left
    assert any(name.startswith(".d.stats.") for name in left) == stats, left
    [scratch] = os.listdir(scratch_dir)           # the run's, with its statistics store
    assert ("stats.sqlite" in os.listdir(scratch_dir / scratch)) != stats
    assert main(argv) == 0
    assert hidden(run_dir) == []
    assert os.listdir(scratch_dir) == []
    assert [r["id"] for r in read_jsonl(run_dir / "out.jsonl")] == ["q1", "q2", "q3"]


DASK_WORKER = """
import hashlib, os, sys
from mmbdeid.jobs import dask_cluster
content = b"a statistics store"
directory = dask_cluster._run_directory("run-1")
dask_cluster._materialise(directory, hashlib.sha256(content).hexdigest(), ".sqlite", content)
print(directory, flush=True)
if sys.argv[1] == "killed":
    os._exit(0)                 # as a worker killed outright: no exit handlers
"""


def test_a_dask_worker_s_copies_go_with_it_or_with_the_next_run(tmp_path):
    from mmbdeid.files.scratch import ScratchDirectory
    environment = dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(tmp_path))
    made = {}
    for how in ("exited", "killed"):
        done = subprocess.run([sys.executable, "-c", DASK_WORKER, how], env=environment,
                              stdout=subprocess.PIPE, text=True, timeout=120, check=True)
        made[how] = done.stdout.strip()
        assert os.path.dirname(made[how]) == str(tmp_path)
    assert os.listdir(tmp_path) == [os.path.basename(made["killed"])]
    assert sorted(os.listdir(made["killed"])) == [
        hashlib.sha256(b"a statistics store").hexdigest() + ".sqlite", "lock"]
    import tempfile
    saved, tempfile.tempdir = tempfile.tempdir, str(tmp_path)
    try:
        ScratchDirectory().remove()                     # the next run sweeps the dead one
    finally:
        tempfile.tempdir = saved
    assert os.listdir(tmp_path) == []


# --- write errors name the file ------------------------------------------------------------

@pytest.mark.parametrize("template, name", [
    ("scrub {dump} -o {out} {run}", "full.jsonl"),
    pytest.param("scrub {dump} -o o.jsonl --spans {out} {run}", "full.jsonl",
                 marks=pytest.mark.slow),
    pytest.param("scrub {dump} -o {out} --mode pseudonym {run}", "full.jsonl",
                 marks=pytest.mark.slow),
    ("review {dump} -o {out} {run}", "full.csv"),
    ("train {tiny} -o {out} --max-iterations 3 -q", "full.mmbdeid"),
])
def test_a_full_device_is_named(run_dir, tiny_model_path, capsys, template, name):
    full = run_dir / name
    make_device(full, stat.S_IFCHR, 1, 7)               # a copy of /dev/full
    status, err = run(argv_of(template, full, run_dir, tiny_model_path), capsys)
    assert status == 2 and err[-1] == (
        "mmbdeid: error: %s: cannot write or read: No space left on device; no output "
        "written" % full)
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_outputs_may_be_path_objects(tmp_path):
    from mmbdeid.files.atomic import atomic_binary_output, atomic_output
    with atomic_output(tmp_path / "a.txt.gz") as handle:
        handle.write("text")
    with atomic_binary_output(tmp_path / "b.bin") as handle:
        handle.write(b"bytes")
    assert sorted(os.listdir(tmp_path)) == ["a.txt.gz", "b.bin"]

# --- the review list opened in a spreadsheet ------------------------------------------------

@pytest.mark.parametrize("cell, shown", [
    ("=HYPERLINK(\"http://example.com\")", "'=HYPERLINK(\"http://example.com\")"),
    ("+Tansy", "'+Tansy"), ("-7", "'-7"), ("@orrin_v", "'@orrin_v"),
    ("\tTansy", "'\tTansy"), ("\rTansy", "'\rTansy"),
    ("Tansy", "Tansy"), ("", ""), ("a=b", "a=b"), ("'quoted", "'quoted"),
])
def test_spreadsheet_text_defuses_formulas(cell, shown):
    from mmbdeid.files.spreadsheet import from_spreadsheet_text, spreadsheet_text
    assert spreadsheet_text(cell) == shown
    assert from_spreadsheet_text(shown) == cell


def test_review_cells_that_would_be_formulas_are_prefixed(run_dir, tiny_model_path):
    import csv
    posts = [{"id": "=1+2", "board": "b", "thread": "t", "author": "orrin_v",
              "text": "Thanks @orrin_v, see you Tuesday.\nTansy"},
             {"id": "-7", "board": "b", "thread": "t", "author": "wren_q",
              "text": "+Tansy said hi."}]
    write_jsonl(run_dir / "odd.jsonl", posts)
    assert main(["review", "odd.jsonl", "-o", "review.csv", "--model", tiny_model_path,
                 "-q", "-j", "1"]) == 0
    with open(run_dir / "review.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    strings = {row["string"]: row for row in rows}
    assert "'@orrin_v" in strings and "@orrin_v" not in strings
    assert strings["'@orrin_v"]["post_ids"] == "'=1+2"
    for row in rows:
        for name in ("string", "example", "post_ids"):
            assert not row[name].startswith(("=", "+", "-", "@", "\t", "\r")), row
    # the list still works as an allow list: its terms are the strings as found
    from mmbdeid.files.termlists import load_terms
    assert "@orrin_v" in load_terms(str(run_dir / "review.csv"))
    # the scrubbed dump's CSV keeps its data as it was
    assert main(["scrub", "odd.jsonl", "-o", "odd.csv", "--model", tiny_model_path,
                 "-q", "-j", "1"]) == 0
    with open(run_dir / "odd.csv", newline="", encoding="utf-8") as handle:
        assert [row["id"] for row in csv.DictReader(handle)] == ["=1+2", "-7"]


# --- standard output by another name -------------------------------------------------------

def scrub_with_stdout(run_dir, tiny_model_path, out, stdout_path):
    """``scrub dump.jsonl -o OUT >> STDOUT_PATH``, in a process of its own. OUT
    ``stdout`` is a link of the run's own to /proc/self/fd/1, as /dev/stdout is: a test
    must never risk the system's /dev/stdout, which the bug replaced."""
    if out == "stdout":
        os.symlink("/proc/self/fd/1", run_dir / "stdout")
    with open(stdout_path, "ab") as stdout:
        return subprocess.run(
            [sys.executable, "-m", "mmbdeid", "scrub", "dump.jsonl", "-o", out, "--model",
             tiny_model_path, "-q", "-j", "1"], cwd=run_dir, stdout=stdout,
            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=REPO),
            timeout=300)


@pytest.mark.slow
def test_a_link_to_stdout_redirected_to_a_file_is_appended_to_not_replaced(run_dir,
                                                                    tiny_model_path):
    log = run_dir / "log.jsonl"
    log.write_text('{"id": "earlier"}\n')
    inode = os.stat(log).st_ino
    done = scrub_with_stdout(run_dir, tiny_model_path, "stdout", log)
    assert done.returncode == 0, done.stderr
    assert os.stat(log).st_ino == inode                  # the same file, not a new one
    assert os.readlink(run_dir / "stdout") == "/proc/self/fd/1"
    assert [r["id"] for r in read_jsonl(log)] == ["earlier", "q1", "q2", "q3"]
    assert hidden(run_dir) == []


@pytest.mark.parametrize("out", ["-", "stdout"])
def test_standard_output_redirected_to_the_dump_is_refused(run_dir, tiny_model_path, out):
    dump = run_dir / "dump.jsonl"
    before = dump.read_bytes()
    done = scrub_with_stdout(run_dir, tiny_model_path, out, dump)
    assert done.returncode == 2
    assert done.stderr == ("mmbdeid: error: %s: is also an input of this run (dump.jsonl): "
                           "it would be overwritten\n" % out)
    assert dump.read_bytes() == before


def test_one_output_by_two_spellings_is_one_lock_in_a_process(tmp_path):
    from mmbdeid.files.locks import output_lock
    (tmp_path / "real").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    with output_lock(str(tmp_path / "real" / "out.jsonl")):
        with output_lock(str(tmp_path / "linked" / "out.jsonl")):
            pass
    assert os.listdir(tmp_path / "real") == []
