"""Golden outputs: every command's files and printed results on the bundled fictional data,
compared byte for byte with the outputs saved in ``tests/fixtures/golden/``.

The saved outputs were made with the code as it stood before the package was reshaped
(issue 8), so a redesign that changes behaviour fails here. Spans files may gain fields
(``source``): they are compared without them. Regenerate only for an intended change of
behaviour, and say so in the commit:

    python3 tests/test_golden_outputs.py --regenerate
"""
import contextlib
import io
import json
import os
import shutil
import sys
import zipfile

import pytest

from paths import DEMO_DUMP as DEMO, GOLDEN, SAMPLE_CORPUS as SAMPLE, TINY
CONLL = os.path.join(GOLDEN, "inputs", "tiny.conll")
ALLOW = os.path.join(GOLDEN, "inputs", "allow.txt")
DENY = os.path.join(GOLDEN, "inputs", "deny.txt")

# Fields a spans file may gain without a change of behaviour.
ADDED_SPAN_FIELDS = ("source",)
# Model metadata that differs between any two runs.
VOLATILE_META = ("created",)


def _commands(out):
    """(name, argv) of every run; ``name`` is the file its printed output goes to."""
    o = lambda name: os.path.join(out, name)   # noqa: E731
    return [
        ("scrub-placeholder", ["scrub", DEMO, "-o", o("placeholder.jsonl"),
                               "--spans", o("placeholder.spans.jsonl")]),
        ("scrub-low-threshold", ["scrub", DEMO, "-o", o("low.jsonl"), "--threshold", "0.001",
                                 "--spans", o("low.spans.jsonl")]),
        ("scrub-lists", ["scrub", DEMO, "-o", o("lists.csv"), "--allow", ALLOW, "--deny", DENY,
                         "--spans", o("lists.spans.jsonl")]),
        ("scrub-pseudonym", ["scrub", DEMO, "-o", o("pseudonym.jsonl"), "--mode", "pseudonym",
                             "--spans", o("pseudonym.spans.jsonl")]),
        ("scrub-surrogate", ["scrub", DEMO, "-o", o("surrogate.jsonl"), "--mode", "surrogate",
                             "--seed", "3", "--spans", o("surrogate.spans.jsonl")]),
        ("link", ["link", DEMO, "-o", o("people.map"), "--allow", ALLOW]),
        ("scrub-map", ["scrub", DEMO, "-o", o("mapped.jsonl"), "--mode", "pseudonym",
                       "--map", o("people.map"), "--scope", "thread",
                       "--spans", o("mapped.spans.jsonl")]),
        ("review", ["review", DEMO, "-o", o("review.csv"), "--deny", DENY]),
        ("audit", ["audit", o("placeholder.jsonl"), "--original", DEMO,
                   "--map", o("people.map")]),
        ("evaluate-sample", ["evaluate", SAMPLE]),
        ("evaluate-conll", ["evaluate", CONLL, "--threshold", "0.2"]),
        # the model chain's sweep, the default before issue 31, keeps its saved figures
        ("sweep-sample", ["sweep", SAMPLE, "--chain", "model", "-o", o("sweep.csv")]),
        ("sweep-sample-scrub", ["sweep", SAMPLE, "--quiet", "-o", o("sweep-scrub.csv")]),
        ("train", ["train", TINY, "-o", o("tiny.mmbdeid"), "--max-iterations", "40"]),
        ("train-dev", ["train", TINY, CONLL, "-o", o("tiny-dev.mmbdeid"), "--dev", TINY,
                       "--target-recall", "0.8", "--max-iterations", "30"]),
        ("evaluate-trained", ["evaluate", TINY, "--model", o("tiny.mmbdeid")]),
        # the model chain's crossval, the default before issue 31
        ("crossval", ["crossval", TINY, "--folds", "2", "--max-iterations", "30",
                      "--chain", "model", "-o", o("crossval.csv")]),
        ("crossval-scrub", ["crossval", TINY, "--folds", "2", "--max-iterations", "30",
                            "--quiet", "-o", o("crossval-scrub.csv")]),
    ]


def run_all(out):
    """Run every command into ``out``; exit status, stdout and stderr to NAME.out (the
    output directory written as ``OUT``)."""
    from mmbdeid.cli import main
    for name, argv in _commands(out):
        printed, said = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
            status = main(argv + (["--jobs", "1", "--quiet"]
                                  if argv[0] in ("scrub", "link", "review") else []))
        with open(os.path.join(out, name + ".out"), "w", encoding="utf-8") as handle:
            handle.write("exit %d\n%s--- stderr\n%s" % (
                status, printed.getvalue(), said.getvalue().replace(out, "OUT")))
    for model in ("tiny.mmbdeid", "tiny-dev.mmbdeid"):
        _unpack_model(os.path.join(out, model))


def _unpack_model(path):
    """A model file as comparable parts: the crfsuite bytes and the metadata less the
    creation time (the zip itself stores file times)."""
    with zipfile.ZipFile(path) as archive:
        crf = archive.read("model.crfsuite")
        meta = json.loads(archive.read("meta.json"))
    for key in VOLATILE_META:
        meta["metadata"].pop(key, None)
    os.remove(path)
    with open(path + ".crfsuite", "wb") as handle:
        handle.write(crf)
    with open(path + ".meta.json", "w", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=2, sort_keys=True)
        handle.write("\n")


def _comparable(path):
    with open(path, "rb") as handle:
        content = handle.read()
    if path.endswith(".spans.jsonl"):
        lines = []
        for line in content.decode("utf-8").splitlines():
            record = json.loads(line)
            for span in record["spans"]:
                for key in ADDED_SPAN_FIELDS:
                    span.pop(key, None)
            lines.append(json.dumps(record, ensure_ascii=False))
        return "\n".join(lines).encode("utf-8")
    return content


def _outputs(directory):
    return sorted(name for name in os.listdir(directory)
                  if os.path.isfile(os.path.join(directory, name)))


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("golden"))
    run_all(out)
    return out


def test_every_golden_output_is_produced(produced):
    assert _outputs(produced) == _outputs(GOLDEN)
    assert len(_outputs(GOLDEN)) >= 30


@pytest.mark.parametrize("name", _outputs(GOLDEN))
def test_output_is_byte_identical(produced, name):
    assert _comparable(os.path.join(produced, name)) == \
        _comparable(os.path.join(GOLDEN, name)), name


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    for name in _outputs(GOLDEN):
        os.remove(os.path.join(GOLDEN, name))
    scratch = os.path.join(GOLDEN, "_new")
    os.makedirs(scratch)
    run_all(scratch)
    for name in _outputs(scratch):
        shutil.move(os.path.join(scratch, name), os.path.join(GOLDEN, name))
    os.rmdir(scratch)
    print("golden outputs written to %s" % GOLDEN)
