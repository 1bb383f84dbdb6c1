"""The words the main process sends a worker with each post (issue 22): looked up from the
post's own words, not by going through every word of its scopes (an author's grow with the
dump), with the same answers as going through them all."""
import random
import re
from collections import Counter, defaultdict

import pytest

from mmbdeid.detect.thread_names import merge_type
from mmbdeid.detect import thread_names
from mmbdeid.detect.thread_names import DumpEvidence
from mmbdeid.spans import CRF, Span

NAMES = ["Ann", "Maren", "O'Leary", "Jean-Luc", "Do", "Faith", "Kay", "Zoë", "Will", "Li"]
FILLER = ["the", "annual", "checkup", "don't", "was", "seen", "kind", "faith", "&amp;",
          "<b>", "Annn't", "will", "café", "maren's", "o'leary", "KAY", "jean-luc"]


def every_word(evidence, fields, index, spans):
    """words_for as it was before issue 22: every word of the scopes, then those in the
    text."""
    types = evidence.names.types(evidence.keys(fields, index))
    if not types:
        return None
    text = fields["text"]
    if text.isascii() and "<" not in text and "&" not in text:
        lowered = text.lower()
        covered = {}
        for span in spans:
            word = lowered[span.start:span.end]
            seen = types.get(word)
            if seen is not None and span.score >= seen.prob:
                covered[word] = covered.get(word, 0) + 1
        types = {word: seen for word, seen in types.items() if word in lowered}
        if types:
            runs = defaultdict(Counter)
            for run in re.findall(r"\w+", text):
                low = run.lower()
                if low in types or (low[-1:] == "n" and low[:-1] in types):
                    runs[low][run] += 1
            types = {word: seen for word, seen in types.items()
                     if thread_names._occurrences(word, seen, lowered, runs)
                     > covered.get(word, 0)}
    return types or None


def name_spans(text, rng):
    """Spans over some of the names in ``text``, with random probabilities."""
    spans = []
    for name in NAMES:
        start = text.find(name)
        if start >= 0 and rng.random() < 0.7:
            spans.append(Span(rng.choice(["NAME", "USER"]), start, start + len(name),
                              rng.choice([0.5, 0.8, 0.95]), CRF))
    return sorted(spans, key=lambda s: s.start)


@pytest.mark.parametrize("seed", range(8))
def test_the_words_sent_are_those_of_going_through_every_word(seed):
    rng = random.Random(seed)
    evidence = DumpEvidence(0.6)
    posts = []
    for index in range(300):
        words = rng.choices(NAMES + FILLER, k=rng.randint(1, 12))
        text = " ".join(words)
        fields = {"text": text, "board": "b", "thread": "t%d" % rng.randint(1, 4),
                  "author": "a%d" % rng.randint(1, 3)}
        spans = name_spans(text, rng)
        posts.append((fields, spans))
        evidence.observe(fields, spans)
    sent = 0
    for index, (fields, spans) in enumerate(posts):
        expected = every_word(evidence, fields, index, spans)
        assert evidence.words_for(fields, index, spans) == expected, fields["text"]
        sent += bool(expected)
    assert sent > 50                               # the comparison was not vacuous


def test_the_words_looked_up_are_the_posts_own(monkeypatch):
    """An author with thousands of words: a post's words are looked up, not theirs."""
    evidence = DumpEvidence()
    for number in range(3000):
        name = "Name%d" % number
        evidence.observe({"text": name, "author": "busy", "board": "b"},
                         [Span("NAME", 0, len(name), 0.9, CRF)])
    merged = []
    original = merge_type

    def counted(types, key, seen):
        merged.append(key)
        return original(types, key, seen)

    monkeypatch.setattr("mmbdeid.detect.thread_names.merge_type", counted)
    fields = {"text": "Thanks Name7 and Name2999", "author": "busy", "board": "b"}
    assert sorted(evidence.words_for(fields, 3000)) == ["name2999", "name7"]
    assert len(merged) == 2
