"""What the chain leaves in a post that a reviewer should look at (``review --html``): the
near-misses, and the capitalised words that are not in the dictionary.

A **near-miss** is a capitalised token the model scores just under the threshold: P(NAME)
+ P(USER) at least a tenth of the threshold and not above it (the model removes what is
above), and that no step removed. One a
KEEP step holds (``Thanks``, a drug, an organisation) is still returned, with that step's
name as its ``source``: lowering the threshold would not remove it, but the keep step may
be wrong about a name, and what might leak is shown rather than hidden. One the user's
allow list holds is left out (the user has decided about it).

An **unknown word** is a capitalised token (sentence starts too) whose lower-case form is
not in the dictionary, or is a given name: a name is a dictionary word too (``Linda``,
``Grace`` are in the common-word list), and a name left in a post is what the review
should catch. The dictionary is the shipped common words, stop words, medical words,
drugs, medical abbreviations and devices, and the chat abbreviations and interjections that
are no one's initials (``LOL``, ``PS``).
"""
import functools
from typing import FrozenSet, List, Optional

import numpy as np

from ..spans import CRF, Span
from ..text.document import Document
from .base import KEEP
from .crf import CrfDetector
from .lists import AllowedTermKeeper
from .registry import STEPS
from .words import capitalised

NEAR_DIVISOR = 10           # a near-miss scores at least the threshold divided by this
UNKNOWN = "WORD"            # the label of an unknown word's span
DICTIONARY_LISTS = ("common_words", "stop_words", "medical_words", "drugs",
                    "medical_abbreviations", "medical_devices", "not_initials")
_STEP_OF = {step.detector: step.name for step in STEPS}


@functools.lru_cache(maxsize=1)
def _dictionary() -> FrozenSet[str]:
    from ..lexicon.wordlists import load_wordlist
    words = frozenset().union(*(load_wordlist(name) for name in DICTIONARY_LISTS))
    # a given name is on both name lists (the nickname file alone also holds "day")
    return words - (load_wordlist("first_names") & load_wordlist("nicknames"))



def unknown_word(token: str) -> bool:
    """Whether ``token`` is capitalised and its lower-case form is not a dictionary word
    (or is a given name)."""
    return capitalised(token) and token.lower() not in _dictionary()


def unknown_words(document: Document) -> List[Span]:
    """The unknown words of ``document`` (not pattern identifiers), as ``WORD`` spans
    (score 0) with offsets into the post's own text."""
    found = [Span(UNKNOWN, start, end, 0.0, "dictionary")
             for token, (start, end), pattern in zip(document.tokens, document.offsets,
                                                     document.pattern_labels)
             if not pattern and unknown_word(token)]
    return document.to_original(found) if found else found


def crf_step(detectors) -> Optional[CrfDetector]:
    return next((d for d in detectors if isinstance(d, CrfDetector)), None)


def near_misses(detectors, document: Document, removed: List[Span]) -> List[Span]:
    """The near-misses of ``document`` given the chain's ``detectors`` (whose model has
    scored it: the marginals are cached) and the spans it removed (offsets into the post's
    own text), with offsets into the post's own text; none without a model step."""
    crf = crf_step(detectors)
    if crf is None:
        return []
    marginals = np.asarray(crf.marginals(document), dtype=float).reshape(-1, 2)
    totals = marginals[:, 0] + marginals[:, 1]
    low = crf.threshold / NEAR_DIVISOR
    found = []
    for i in np.flatnonzero((totals >= low) & (totals <= crf.threshold)).tolist():
        start, end = document.offsets[i]
        if not document.pattern_labels[i] and capitalised(document.tokens[i]):
            label = "USER" if marginals[i, 1] > marginals[i, 0] else "NAME"
            found.append(Span(label, start, end, float(totals[i]), CRF))
    if not found:
        return found
    found = [s for s, original in zip(found, document.to_original(found))
             if not any(original.start < r.end and r.start < original.end for r in removed)]
    return document.to_original(_held(detectors, document, found)) if found else found


def _held(detectors, document: Document, found: List[Span]) -> List[Span]:
    """``found`` with the name of the KEEP step that holds each as its source, less those
    the user's allow list holds."""
    for detector in detectors:
        if detector.effect != KEEP or not found:
            continue
        kept = [(s.start, s.end) for s in detector.detect(document)]
        held = []
        for span in found:
            if span.source == CRF and any(a <= span.start and span.end <= b for a, b in kept):
                if isinstance(detector, AllowedTermKeeper):
                    continue
                span = span._replace(source=_STEP_OF.get(type(detector), detector.source))
            held.append(span)
        found = held
    return found
