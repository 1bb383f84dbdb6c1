"""Model files are not trusted (issue 9, item 7).

Every tampered copy of the shipped model below is refused when loaded: ``NameTagger.load``
raises ``InputError``, and the real command line exits 2 with one line naming the model
and writes nothing. Before, a threshold of 1.5 (or NaN) removed no names with exit 0, as
did most other bad parameters and classes; the cases marked "segfaulted" killed the
process with SIGSEGV and no message, those marked "hung" ran on for minutes (a label or
attribute count of 2**31, a window of 10**6); a flipped byte in the attribute strings gave
a UnicodeDecodeError traceback, and bad metadata, params or zip members gave tracebacks.
"""
import json
import math
import os
import random
import struct
import subprocess
import sys
import textwrap
import zipfile

import pytest

from mmbdeid.errors import InputError
from mmbdeid.model.crfsuite_format import CrfsuiteFormatError, HEADER, check_model_bytes
from mmbdeid.model.tagger import NameTagger, default_model_path

from paths import REPO
from slow_cases import slow_except
DEFAULT = default_model_path()
POSTS = [
    {"id": "m1", "board": "b", "thread": "t1", "author": "quiltmom_bev",
     "text": "Hi all, my counts are fine.\nMarguerite"},
    {"id": "m2", "board": "b", "thread": "t1", "author": "rob_a", "parent": "m1",
     "text": "Glad to hear it Marguerite! @quiltmom_bev\nRobert"},
]


def _members(path=DEFAULT):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("meta.json")), archive.read("model.crfsuite")


META, CRFSUITE = _members()
# the header fields, by name: their byte offsets in the crfsuite model
FIELDS = {name: 4 + 4 * i for i, name in enumerate(
    ("size", "type", "version", "num_features", "num_labels", "num_attrs", "off_features",
     "off_labels", "off_attrs", "off_labelrefs", "off_attrrefs"))}
HEAD = HEADER.unpack_from(CRFSUITE, 0)
OFF_LABELS, OFF_ATTRS, OFF_LABELREFS = HEAD[8], HEAD[9], HEAD[10]


def write_model(path, meta=META, crfsuite=CRFSUITE, meta_bytes=None):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("model.crfsuite", crfsuite)
        archive.writestr("meta.json", meta_bytes if meta_bytes is not None
                         else json.dumps(meta, indent=2))
    return str(path)


def with_params(**changes):
    meta = json.loads(json.dumps(META))
    for name, value in changes.items():
        if value is DELETE:
            del meta["params"][name]
        else:
            meta["params"][name] = value
    return meta


def with_meta(**changes):
    meta = json.loads(json.dumps(META))
    for name, value in changes.items():
        if value is DELETE:
            del meta[name]
        else:
            meta[name] = value
    return meta


DELETE = object()


def header(field, value):
    data = bytearray(CRFSUITE)
    struct.pack_into("<I", data, FIELDS[field], value)
    return bytes(data)


def flipped(start, end, seed, flips=8):
    rng = random.Random(seed)
    data = bytearray(CRFSUITE)
    for _ in range(flips):
        data[rng.randrange(start, end)] ^= rng.randrange(1, 256)
    return bytes(data)


def patched_zip(path, name, **fields):
    """A model whose zip directory entry for ``name`` says something else: file_size,
    flag_bits or compress_type (at their offsets in the central directory record)."""
    write_model(path)
    data = bytearray(open(path, "rb").read())
    at = data.index(b"PK\x01\x02")            # the first central directory record
    while True:
        name_length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46:at + 46 + name_length] == name.encode():
            break
        at = data.index(b"PK\x01\x02", at + 4)
    offsets = {"flag_bits": ("<H", 8), "compress_type": ("<H", 10), "file_size": ("<I", 24)}
    for field, value in fields.items():
        struct.pack_into(offsets[field][0], data, at + offsets[field][1], value)
    open(path, "wb").write(bytes(data))
    return str(path)


def many_members(path):
    """A zip whose directory alone is over a megabyte (millions of members would take
    gigabytes of memory as they are read)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("model.crfsuite", CRFSUITE)
        archive.writestr("meta.json", json.dumps(META))
        for i in range(20000):
            archive.writestr("padding/member-%06d-%s" % (i, "x" * 20), b"")
    return str(path)


def written(path, data):
    path.write_bytes(data)
    return str(path)


def only_meta(path):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("meta.json", json.dumps(META))
    return str(path)


def huge_meta(path):
    """An 11 MB meta.json (a few kilobytes compressed)."""
    return write_model(path, meta_bytes=json.dumps(META) + " " * (11 * 2 ** 20))


# name -> (a function of the path that writes the bad model there, a word of the message)
BAD_MODELS = {
    # parameters
    "threshold 1.5": (lambda p: write_model(p, with_params(threshold=1.5)), "threshold"),
    "threshold 0": (lambda p: write_model(p, with_params(threshold=0)), "threshold"),
    "threshold 1": (lambda p: write_model(p, with_params(threshold=1.0)), "threshold"),
    "threshold -1": (lambda p: write_model(p, with_params(threshold=-1)), "threshold"),
    "threshold string": (lambda p: write_model(p, with_params(threshold="0.05")), "threshold"),
    "threshold NaN": (lambda p: write_model(p, with_params(threshold=math.nan)), "threshold"),
    "threshold inf": (lambda p: write_model(p, with_params(threshold=math.inf)), "threshold"),
    "threshold true": (lambda p: write_model(p, with_params(threshold=True)), "threshold"),
    "threshold null": (lambda p: write_model(p, with_params(threshold=None)), "threshold"),
    "unknown parameter": (lambda p: write_model(p, with_params(bogus=1)), "bogus"),
    "missing parameter": (lambda p: write_model(p, with_params(window=DELETE)), "window"),
    "window 10**6": (lambda p: write_model(p, with_params(window=10 ** 6)), "window"),  # hung
    "window -1": (lambda p: write_model(p, with_params(window=-1)), "window"),
    "window 2.0": (lambda p: write_model(p, with_params(window=2.0)), "window"),  # hung
    "window true": (lambda p: write_model(p, with_params(window=True)), "window"),
    # the shipped model was trained with window 2: window 1 silently dropped features
    "window below the model's": (lambda p: write_model(p, with_params(window=1)), "window"),
    "max_iterations false": (lambda p: write_model(p, with_params(max_iterations=False)),
                             "max_iterations"),
    "max_iterations 0": (lambda p: write_model(p, with_params(max_iterations=0)),
                         "max_iterations"),
    "random_state 1.5": (lambda p: write_model(p, with_params(random_state=1.5)),
                         "random_state"),
    "c1 negative": (lambda p: write_model(p, with_params(c1=-0.5)), "c1"),
    "c2 infinite": (lambda p: write_model(p, with_params(c2=math.inf)), "c2"),
    "lowercase_share 2": (lambda p: write_model(p, with_params(lowercase_share=2)),
                          "lowercase_share"),
    "all_possible_transitions 1": (
        lambda p: write_model(p, with_params(all_possible_transitions=1)),
        "all_possible_transitions"),
    "params a list": (lambda p: write_model(p, with_meta(params=[0.05])), "params"),
    # classes, format, metadata
    "classes without O": (lambda p: write_model(p, with_meta(classes=["NAME", "USER"])),
                          "classes"),
    "classes unknown label": (lambda p: write_model(p, with_meta(classes=["O", "PERSON"])),
                              "classes"),
    "classes a string": (lambda p: write_model(p, with_meta(classes="O")), "classes"),
    "classes twice": (lambda p: write_model(p, with_meta(classes=["O", "O", "NAME", "USER"])),
                      "classes"),
    "classes not the model's": (lambda p: write_model(p, with_meta(classes=["O", "NAME"])),
                                "labels"),
    "format unknown": (lambda p: write_model(p, with_meta(format="mmbdeid-model/2")),
                       "format"),
    "format missing": (lambda p: write_model(p, with_meta(format=DELETE)), "format"),
    "unknown key": (lambda p: write_model(p, with_meta(weights=[1, 2])), "weights"),
    "metadata a list": (lambda p: write_model(p, with_meta(metadata=[1])), "metadata"),
    "metadata a string": (lambda p: write_model(p, with_meta(metadata="x")), "metadata"),
    # meta.json itself
    "meta.json not JSON": (lambda p: write_model(p, meta_bytes="{\"format\": "), "JSON"),
    "meta.json a list": (lambda p: write_model(p, meta_bytes="[1, 2]"), "JSON object"),
    "meta.json UTF-16": (lambda p: write_model(p, meta_bytes=json.dumps(META).encode(
        "utf-16")), "UTF-8"),
    "meta.json nested": (lambda p: write_model(p, meta_bytes="[" * 100000), "JSON"),
    "meta.json 11 MB": (huge_meta, "meta.json"),
    # the zip
    "not a zip": (lambda p: written(p, b"hello"), "not an mmbdeid model"),
    "a directory": (lambda p: p.mkdir() or str(p), "not an mmbdeid model"),
    "no crfsuite member": (only_meta, "model.crfsuite"),
    "crfsuite member declared 300 MB": (
        lambda p: patched_zip(p, "model.crfsuite", file_size=300 * 2 ** 20), "model.crfsuite"),
    "crfsuite member declared smaller": (
        lambda p: patched_zip(p, "model.crfsuite", file_size=1000), "model"),
    "meta.json declared 1 GB": (
        lambda p: patched_zip(p, "meta.json", file_size=2 ** 30), "meta.json"),
    "member encrypted": (lambda p: patched_zip(p, "meta.json", flag_bits=1),
                         "not an mmbdeid model"),
    "member compression unknown": (lambda p: patched_zip(p, "meta.json", compress_type=99),
                                   "not an mmbdeid model"),
    "zip directory of 20000 members": (many_members, "zip directory"),
    # crfsuite bytes; "segfaulted"/"hung": what the same corruption did before
    "crfsuite truncated by half": (lambda p: write_model(
        p, crfsuite=CRFSUITE[:len(CRFSUITE) // 2]), "crfsuite"),          # segfaulted
    "crfsuite truncated to 100 bytes": (lambda p: write_model(
        p, crfsuite=CRFSUITE[:100]), "crfsuite"),                         # segfaulted
    "crfsuite truncated to the header": (lambda p: write_model(
        p, crfsuite=CRFSUITE[:49]), "crfsuite"),                          # segfaulted
    "crfsuite empty": (lambda p: write_model(p, crfsuite=b""), "crfsuite"),
    "crfsuite random bytes": (lambda p: write_model(
        p, crfsuite=b"lCRF" + random.Random(1).randbytes(len(CRFSUITE) - 4)),
        "crfsuite"),                                                      # segfaulted
    "crfsuite random after the header": (lambda p: write_model(
        p, crfsuite=CRFSUITE[:48] + random.Random(2).randbytes(len(CRFSUITE) - 48)),
        "crfsuite"),                                                      # segfaulted
    "crfsuite zeros after the header": (lambda p: write_model(
        p, crfsuite=CRFSUITE[:48] + bytes(len(CRFSUITE) - 48)), "crfsuite"),  # segfaulted
    "header off_labels 2**32-1": (lambda p: write_model(
        p, crfsuite=header("off_labels", 0xFFFFFFFF)), "crfsuite"),       # segfaulted
    "header off_attrs 2**31": (lambda p: write_model(
        p, crfsuite=header("off_attrs", 0x7FFFFFF0)), "crfsuite"),        # segfaulted
    "header off_labelrefs + 1": (lambda p: write_model(
        p, crfsuite=header("off_labelrefs", OFF_LABELREFS + 1)), "crfsuite"),  # segfaulted
    "header off_labelrefs 0": (lambda p: write_model(
        p, crfsuite=header("off_labelrefs", 0)), "crfsuite"),             # segfaulted
    "header off_features + 1": (lambda p: write_model(
        p, crfsuite=header("off_features", HEAD[7] + 1)), "crfsuite"),    # segfaulted
    "header off_attrrefs 0": (lambda p: write_model(
        p, crfsuite=header("off_attrrefs", 0)), "crfsuite"),              # hung
    "header num_labels 4": (lambda p: write_model(
        p, crfsuite=header("num_labels", 4)), "crfsuite"),                # segfaulted
    "header num_labels 2**31": (lambda p: write_model(
        p, crfsuite=header("num_labels", 0x7FFFFFF0)), "crfsuite"),       # segfaulted
    "header num_labels 2**32-1": (lambda p: write_model(
        p, crfsuite=header("num_labels", 0xFFFFFFFF)), "crfsuite"),       # hung
    "header num_attrs 2**31": (lambda p: write_model(
        p, crfsuite=header("num_attrs", 0x7FFFFFF0)), "crfsuite"),        # hung
    "header size": (lambda p: write_model(p, crfsuite=header("size", 12345)), "crfsuite"),
    "header version": (lambda p: write_model(p, crfsuite=header("version", 101)),
                       "crfsuite"),
    "label strings flipped": (lambda p: write_model(
        p, crfsuite=flipped(OFF_LABELS, OFF_ATTRS, 0)), "crfsuite"),      # segfaulted
    "attribute strings flipped": (lambda p: write_model(
        p, crfsuite=flipped(OFF_ATTRS, OFF_ATTRS + 4096, 1)), "crfsuite"),  # segfaulted
    "label references flipped": (lambda p: write_model(
        p, crfsuite=flipped(OFF_LABELREFS, OFF_LABELREFS + 80, 0)), "crfsuite"),  # segfaulted
}


# The cases the default run tries, a few of each kind (parameters, meta.json, the zip, the
# crfsuite bytes); the others are marked slow: ``-m "slow or not slow"`` tries them all.
DEFAULT_RUN_CASES = {"threshold 1.5", "classes without O", "meta.json not JSON", "not a zip",
                     "member encrypted", "header num_labels 4"}
# The structural check, a few cases of each kind of damage in the default run.
DEFAULT_RUN_CRFSUITE_CASES = {"crfsuite truncated by half", "crfsuite empty",
                              "crfsuite random bytes", "header num_labels 4",
                              "header off_attrs 2**31", "header version",
                              "label strings flipped", "attribute strings flipped"}
# The command line's refusal, one case of each kind in the default run.
DEFAULT_RUN_COMMAND_LINE_CASES = {"threshold 1.5", "meta.json not JSON", "header num_labels 4"}


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    path = tmp_path_factory.mktemp("dump") / "dump.jsonl"
    path.write_text("".join(json.dumps(post) + "\n" for post in POSTS), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("case", slow_except(sorted(BAD_MODELS), DEFAULT_RUN_CASES))
def test_a_bad_model_is_an_input_error(tmp_path, case):
    write, word = BAD_MODELS[case]
    path = write(tmp_path / "bad.mmbdeid")
    with pytest.raises(InputError) as raised:
        NameTagger.load(path)
    assert raised.value.path == path
    assert word in raised.value.message
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 400


@pytest.mark.parametrize("case", slow_except(sorted(BAD_MODELS),
                                         DEFAULT_RUN_COMMAND_LINE_CASES))
def test_the_command_line_refuses_a_bad_model_in_one_line(tmp_path, dump, case):
    write, _ = BAD_MODELS[case]
    model = write(tmp_path / "bad.mmbdeid")
    out = tmp_path / "out.jsonl"
    process = subprocess.run(
        [sys.executable, "-m", "mmbdeid", "scrub", dump, "-o", str(out), "--model", model],
        cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=REPO), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, timeout=300)
    assert process.returncode == 2, process.stderr[-2000:]
    lines = process.stderr.splitlines()
    assert len(lines) == 1, process.stderr[-2000:]
    assert lines[0].startswith("mmbdeid: error: %s: " % model), lines[0]
    assert "Traceback" not in process.stderr
    assert not out.exists()
    assert sorted(os.listdir(tmp_path)) == ["bad.mmbdeid"]


@pytest.mark.parametrize("case", slow_except(
    sorted(c for c in BAD_MODELS if BAD_MODELS[c][1] == "crfsuite"), DEFAULT_RUN_CRFSUITE_CASES))
def test_the_structural_check_alone_refuses_the_bad_crfsuite_bytes(tmp_path, case):
    """Before python-crfsuite ever sees them."""
    path = BAD_MODELS[case][0](tmp_path / "bad.mmbdeid")
    with pytest.raises(CrfsuiteFormatError):
        check_model_bytes(_members(path)[1])


# --- good models load ------------------------------------------------------------------

def test_the_shipped_model_loads():
    tagger = NameTagger.load(DEFAULT)
    assert tagger.threshold == META["params"]["threshold"]
    assert sorted(tagger.classes_) == ["NAME", "O", "USER"]
    assert check_model_bytes(CRFSUITE).labels == ["O", "NAME", "USER"]


@pytest.mark.slow
def test_a_freshly_trained_model_loads_and_tags(tiny_model_path, dump, tmp_path):
    tagger = NameTagger.load(tiny_model_path)
    assert "O" in tagger.classes_ and 0 < tagger.threshold < 1
    out = tmp_path / "out.jsonl"
    process = subprocess.run(
        [sys.executable, "-m", "mmbdeid", "scrub", dump, "-o", str(out), "--model",
         tiny_model_path, "-q"], cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=REPO),
        stderr=subprocess.PIPE, text=True, timeout=300)
    assert process.returncode == 0, process.stderr
    assert out.exists()


@pytest.mark.parametrize("window", [0, 1, 2])
def test_models_trained_with_any_window_round_trip(tiny_corpus_path, tmp_path, window):
    from mmbdeid.files.corpora import load_labelled, training_labels
    labelled = load_labelled(tiny_corpus_path)
    tagger = NameTagger(window=window, max_iterations=10).fit(
        [d.document for d in labelled],
        [training_labels(d.document, d.labels) for d in labelled])
    path = str(tmp_path / "m.mmbdeid")
    tagger.save(path)
    loaded = NameTagger.load(path)
    assert loaded.get_params() == tagger.get_params()


@pytest.mark.parametrize("params, word", [
    ({"threshold": 1.5}, "threshold"), ({"threshold": 0.0}, "threshold"),
    ({"window": 11}, "window"), ({"c1": float("nan")}, "c1"), ({"max_iterations": 0},
                                                                "max_iterations")])
def test_save_refuses_what_load_would_refuse(tiny_model_path, tmp_path, params, word):
    tagger = NameTagger.load(tiny_model_path).set_params(**params)
    path = tmp_path / "m.mmbdeid"
    with pytest.raises(InputError, match=word):
        tagger.save(str(path))
    assert not path.exists()


# --- crfsuite never sees bytes that crash it -----------------------------------------

CHILD = textwrap.dedent("""
    import sys, pycrfsuite
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(data)
        labels = tagger.labels()
        info = tagger.info()
        attributes = list(info.attributes)[:5] + ["never-seen"]
        tagger.set([attributes, attributes[:2]])
        tagger.tag()
        for label in labels:
            tagger.marginal(label, 0), tagger.marginal(label, 1)
    print("ok")
""")


def test_crfsuite_bytes_that_pass_the_check_never_crash_crfsuite(tiny_model_path, tmp_path):
    """Random byte flips in a model: those the check lets through (flips in weights or
    string bytes, say) are opened, listed, dumped and used for tagging in a child
    process, which must not crash."""
    _, original = _members(tiny_model_path)
    rng = random.Random(7)
    accepted, refused = [], 0
    for i in range(300):
        data = bytearray(original)
        for _ in range(rng.choice((1, 1, 2, 4))):
            data[rng.randrange(len(data))] ^= rng.randrange(1, 256)
        try:
            check_model_bytes(bytes(data))
        except CrfsuiteFormatError:
            refused += 1
            continue
        path = tmp_path / ("m%03d.crfsuite" % i)
        path.write_bytes(bytes(data))
        accepted.append(str(path))
    assert refused and accepted
    process = subprocess.run([sys.executable, "-c", CHILD] + accepted,
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0 and process.stdout.strip() == "ok", process.stderr[-2000:]
