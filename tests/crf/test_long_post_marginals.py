"""One long post costs memory in proportion to its length, modestly (issue 9, item 6).

python-crfsuite copied every attribute of every token into C++ strings before tagging:
2-3 GB per MB of one post's text, so a 5 MB post took 11 GB. The name marginals are now
computed by :mod:`mmbdeid.crf.marginals` in bounded memory, identical to the last bit to
python-crfsuite's, and a post is featurized a block of tokens at a time. These tests run a
~300 KB post under an address-space limit that the python-crfsuite path exceeds, check
that the names of its repeated paragraph are found in every repetition, and check the new
marginals, items and documents bit for bit against the old computation.
"""
import json
import os
import struct
import subprocess
import sys
from bisect import bisect_left

import pytest

import mmbdeid
from mmbdeid.crf.backends import CrfsuiteTagger
from mmbdeid.crf.marginals import ChainModel, ExactTagger, chain_model
from mmbdeid.detect.crf import CrfDetector
from mmbdeid.model import features
from mmbdeid.model.features import Featurizer
from mmbdeid.text.document import Document
from mmbdeid.text.patterns import find_identifiers
from mmbdeid.text.tokenize import span_tokenize

from documents import LINE_BREAKS, document_of_tokens

from paths import DEMO_DUMP, SAMPLE_CORPUS
SAMPLES = [DEMO_DUMP, SAMPLE_CORPUS]

# A fictional post: its names, a phone number, a dose, a date and a time, with line breaks.
PARAGRAPH = ("Hi Kay,\nThanks for asking about Marcus. Dr. Hendricks says the tamoxifen (20mg) "
             "is working, and Linda called me at 555-123-4567 on Tuesday, 3/14, around 10:30am! "
             "My neighbour Priya brought soup -- we'll see you soon.\n\nHugs,\nBarb\n\n")
NAMES = ["Kay", "Marcus", "Hendricks", "Linda", "Priya", "Barb"]
REPETITIONS = 1300                       # ~300 KB, ~72,000 tokens
# Address space the long post may add to that of a one-paragraph post. Measured on the
# ~300 KB post: about 20 MB now; about 490 MB with python-crfsuite doing the tagging (its
# copies of the items), so the python-crfsuite path must fail under it.
HEADROOM_MB = 200

CHILD = r"""
import json, sys
reps, limited, crfsuite_path = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3] == "1"
if crfsuite_path:                        # tag with python-crfsuite, as before the fix
    import mmbdeid.crf.backends
    mmbdeid.crf.backends.chain_model = lambda tagger: None
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.model.counting import PartialCounts
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.tagger import NameTagger, default_model_path
from mmbdeid.text.document import Document
text = sys.stdin.read() * reps
document = Document.from_text(text, board="bc", thread="t1", author="kaygirl")
PartialCounts().add(document)
analyzer = Analyzer.build(NameTagger.load(default_model_path()), CorpusStats.build([document]),
                          tagging="crfsuite" if crfsuite_path else "compiled")
spans = analyzer.analyze(document)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(json.dumps({"vm_peak_mb": int(status["VmPeak"].split()[0]) // 1024,
                  "spans": [[s.start, s.end, s.label] for s in spans]}))
"""


def _run_child(repetitions: int, limit_mb=None, crfsuite_path: bool = False):
    def limit_address_space():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    # the child imports the package this test imported (``-c`` puts the working directory
    # first on its path, so that is where it runs)
    here = os.path.dirname(os.path.dirname(mmbdeid.__file__))
    env = dict(os.environ, PYTHONPATH=here,
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(repetitions), "1" if limit_mb else "0",
         "1" if crfsuite_path else "0"],
        input=PARAGRAPH, capture_output=True, text=True, env=env, cwd=here, timeout=600,
        preexec_fn=limit_address_space if limit_mb else None)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and RLIMIT_AS")
def test_a_long_post_is_analysed_within_a_memory_bound_with_every_name_found():
    baseline = _run_child(1)
    assert baseline.returncode == 0, baseline.stderr
    limit = json.loads(baseline.stdout)["vm_peak_mb"] + HEADROOM_MB

    result = _run_child(REPETITIONS, limit)
    assert result.returncode == 0, result.stderr[-2000:]
    spans = json.loads(result.stdout)["spans"]
    text = PARAGRAPH * REPETITIONS
    found = {}
    for start, end, label in spans:
        found.setdefault((start // len(PARAGRAPH), text[start:end]), set()).add(label)
    checked = 0
    for repetition in range(REPETITIONS):
        for name in NAMES:
            assert found.get((repetition, name)) == {"NAME"}, (repetition, name)
            checked += 1
        assert found.get((repetition, "555-123-4567")) == {"PHONE"}, repetition
    assert checked == REPETITIONS * len(NAMES)
    # and as a short post finds them
    short = json.loads(baseline.stdout)["spans"]
    assert [PARAGRAPH[s:e] for s, e, _ in short] == \
        [text[s:e] for s, e, _ in spans if s < len(PARAGRAPH)]

    # The bound is one the python-crfsuite path does not meet (the old code's cost).
    # (It runs out inside Tagger.set: a MemoryError, which Cython may report as a
    # SystemError "returned a result with an exception set".)
    old_way = _run_child(REPETITIONS, limit, crfsuite_path=True)
    assert old_way.returncode != 0 and not old_way.stdout, old_way.stdout[:200]


# -- the marginals, bit for bit --------------------------------------------------------

def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


def _long_documents():
    return [
        Document.from_text(PARAGRAPH * 150, board="breastcancer", thread="demo-bc001",
                           author="kaygirl"),                          # > 2 blocks of tokens
        Document.from_text("12.34/56-78,90;!?" * 1500),                # digits, punctuation
        Document.from_text("Kay " * 9000),                             # one type, all caps
        Document.from_text("x"), Document.from_text(""), Document.from_text("\n\n"),
        document_of_tokens(["Hi", "Kay", "@kaygirl", "555-123-4567", "thanks"]),
    ]


@pytest.mark.parametrize("specialised", [True, False])
@pytest.mark.slow
def test_marginals_are_python_crfsuites_to_the_last_bit(default_tagger, bundled_corpus,
                                                        specialised):
    documents, stats = bundled_corpus
    for stats_ in (stats, None):
        detector = CrfDetector(default_tagger, stats_, tagging="crfsuite")
        assert isinstance(detector.backend, ExactTagger)   # the bundled model is read, checked
        chain = detector.backend.chain
        chain._specialised = specialised           # three labels written out, or the loops
        plain = default_tagger.featurizer(stats_)
        tokens = 0
        for document in documents + _long_documents():
            got = list(detector.marginals(document))
            expected = default_tagger.name_marginals(plain.document_items(document))
            assert len(got) == len(expected) == len(document)
            for (name, user), (name_, user_) in zip(got, expected):
                assert _bits(name) == _bits(name_) and _bits(user) == _bits(user_)
            tokens += len(document)
        assert tokens > 40_000
    chain._specialised = True


def test_every_label_marginal_matches_too(default_tagger):
    chain = chain_model(default_tagger)
    document = _long_documents()[0]
    plain = default_tagger.featurizer(None)
    index_featurizer = Featurizer(None, window=default_tagger.window,
                                  attribute_index=chain.attribute_index)
    expected = default_tagger.marginals_from_items(plain.document_items(document))
    got = chain.marginals(index_featurizer.iter_items(document), len(document),
                          chain.labels + ["NOT-A-LABEL"])
    for t, marginal in enumerate(expected):
        for k, label in enumerate(chain.labels):
            assert _bits(got[k][t]) == _bits(marginal[label])
        assert got[-1][t] == 0.0


def test_items_and_length_must_agree(default_tagger):
    chain = chain_model(default_tagger)
    with pytest.raises(ValueError):
        chain.marginals([[1], [2]], 3, ["NAME"])


@pytest.mark.parametrize("damage", [
    lambda b: b[:100],                                  # truncated
    lambda b: b"xCRF" + b[4:],                          # not a crfsuite model
    lambda b: b[:36] + struct.pack("<I", len(b) + 8) + b[40:],   # attributes past the end
])
def test_a_model_it_cannot_read_leaves_tagging_to_python_crfsuite(default_tagger, damage):
    class Foreign:
        """A tagger whose model bytes this module cannot read."""
        threshold, window = default_tagger.threshold, default_tagger.window
        model_bytes_ = damage(default_tagger.model_bytes_)

        def known_attributes(self):
            return default_tagger.known_attributes()

        def marginals_from_items(self, items, labels=None):
            return default_tagger.marginals_from_items(items, labels)

        def featurizer(self, stats):
            return default_tagger.featurizer(stats)

        def name_marginals(self, items):
            return default_tagger.name_marginals(items)

    foreign = Foreign()
    assert chain_model(foreign) is None
    detector = CrfDetector(foreign)
    assert isinstance(detector.backend, CrfsuiteTagger)
    document = Document.from_text(PARAGRAPH)
    assert detector.detect(document) == CrfDetector(default_tagger,
                                                    tagging="crfsuite").detect(document)


def test_a_model_whose_probe_disagrees_is_not_used(default_tagger, monkeypatch):
    monkeypatch.setattr(ChainModel, "agrees_with", lambda self, tagger: False)
    monkeypatch.setattr("mmbdeid.crf.marginals._CHECKED", {})
    assert chain_model(default_tagger) is None
    assert isinstance(CrfDetector(default_tagger).backend, CrfsuiteTagger)
    assert isinstance(CrfDetector(default_tagger, tagging="crfsuite").backend, CrfsuiteTagger)


# -- items and documents, as before ----------------------------------------------------

def test_items_by_blocks_are_the_items_of_the_whole_post(default_tagger, bundled_corpus,
                                                         monkeypatch):
    documents, stats = bundled_corpus
    long_post = _long_documents()[0]
    chain = chain_model(default_tagger)
    whole = Featurizer(stats, known_attributes=default_tagger.known_attributes(), encoded=True)
    expected = [whole.document_items(d) for d in documents[:20] + [long_post]]
    monkeypatch.setattr(features, "_BLOCK_TOKENS", 7)      # blocks cut every few tokens
    monkeypatch.setattr(features, "_PREFETCH_TYPES", 3)
    blocked = Featurizer(stats, known_attributes=default_tagger.known_attributes(),
                         encoded=True)
    indexed = Featurizer(stats, window=default_tagger.window,
                         attribute_index=chain.attribute_index)
    names = {row: name.encode() for name, row in chain.attribute_index.items()}
    for document, items in zip(documents[:20] + [long_post], expected):
        assert blocked.document_items(document) == items
        assert [[names[row] for row in item] for item in indexed.iter_items(document)] == items


def _document_before(text: str):
    """Document.from_text as it was: paragraph ids by bisection, then renumbered."""
    identifiers = find_identifiers(text)
    offsets = span_tokenize(text, [(s.start, s.end) for s in identifiers])
    label_at = {(s.start, s.end): s.label for s in identifiers}
    breaks = [m.start() for m in LINE_BREAKS.finditer(text)]
    ids, renumbered, previous, current = [bisect_left(breaks, s) for s, _ in offsets], [], None, -1
    for pid in ids:
        if pid != previous:
            current, previous = current + 1, pid
        renumbered.append(current)
    return [text[s:e] for s, e in offsets], offsets, [label_at.get(o) for o in offsets], \
        renumbered


@pytest.mark.parametrize("text", [
    PARAGRAPH * 3, "", "\n", "\n\nHi\n\n\nKay\n", "call 555\n123\n4567 now\nthanks",
    "Kay's\r\ndon't\u2028x\x0by\x0cz\x85end", "!!!,,,...", "a" * 50 + "\n" + "b c " * 20,
    "mail kay@example.com\nor http://example.com/x(y)\n\n@kaygirl u/kay_96",
])
def test_documents_are_as_before(text):
    document = Document.from_text(text)
    assert (document.tokens, document.offsets, document.pattern_labels,
            document.paragraph_ids) == _document_before(text)


def test_sample_documents_are_as_before():
    for path in SAMPLES:
        for line in open(path, encoding="utf-8"):
            text = json.loads(line)["text"]
            document = Document.from_text(text)
            assert (document.tokens, document.offsets, document.pattern_labels,
                    document.paragraph_ids) == _document_before(text)


def test_a_long_post_keeps_one_string_per_token_type():
    document = Document.from_text("Kay and Kay, Kay. " * 1000)
    kays = [token for token in document.tokens if token == "Kay"]
    assert len(kays) == 3000 and len({id(token) for token in kays}) == 1
