"""A full name the model found in pieces made whole before it becomes a mention (issue 30):
``Will Osei-Bonsu`` tagged ``Osei`` as a username at 0.07 and ``Bonsu`` as a name, and
``Will`` left (a word), became ``Will [P28]-[P29]``: two people, and the given name kept.

- the halves of one hyphenated word tagged one a username, one a name, are a name, unless
  the username half is a username of the board (the ``username`` step found it);
- a capitalised first name right before a name that is a surname (no first name, no
  ordinary word) is that person's given name: ``run by Will Osei-Bonsu``, scored as the
  surname (``completion``).
"""
from __future__ import annotations

import functools
import re
from typing import List, Sequence

from ..lexicon.names import first_names
from ..lexicon.wordlists import load_wordlist, load_zipf
from ..spans import COMPLETION, JOINER_GAP, USERNAME, Span

_GIVEN_BEFORE = re.compile(r"(?<![\w'\u2019-])([A-Z][a-z]+)[ \t]$")
SURNAME_ZIPF = 3.0      # a word this frequent in lower case is no surname standing alone


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset:
    return load_wordlist("stop_words")


def whole_full_names(text: str, spans: Sequence[Span]) -> List[Span]:
    """The person spans of a post (in text order), with hyphen-joined halves one label and
    the given names left before surnames added (see module doc)."""
    spans = _one_label_per_word(text, list(spans))
    added = []
    for number, span in enumerate(spans):
        previous_end = spans[number - 1].end if number else 0
        given = _GIVEN_BEFORE.search(text, max(previous_end, span.start - 40), span.start)
        if (span.label == "NAME" and given is not None
                and given.group(1).lower() in first_names()
                and _surname(text[span.start:span.end])):
            added.append(Span("NAME", given.start(1), given.end(1), span.score, COMPLETION))
    return sorted(spans + added, key=lambda span: (span.start, span.end)) if added else spans


def _one_label_per_word(text: str, spans: List[Span]) -> List[Span]:
    """``Osei`` (USER) ``-`` ``Bonsu`` (NAME): both NAME."""
    for number in range(len(spans) - 1):
        first, second = spans[number], spans[number + 1]
        if (first.label != second.label and {first.label, second.label} == {"NAME", "USER"}
                and JOINER_GAP.fullmatch(text, first.end, second.start)):
            user = first if first.label == "USER" else second
            if user.source != USERNAME and text[user.start:user.end].isalpha():
                spans[spans.index(user)] = user._replace(label="NAME")
    return spans


def _surname(word: str) -> bool:
    """Whether a name span reads as a surname: capitalised, no first name, no ordinary
    word (``Osei``, ``Nakamura-Reyes``; not ``Dana``, not ``Menopur`` if it were common)."""
    first = re.split(r"[-\u2010\u2011'\u2019]", word)[0]
    key = first.lower()
    return (first[:1].isupper() and not first.isupper() and key not in first_names()
            and key not in _stop_words() and load_zipf().get(key, 0.0) < SURNAME_ZIPF)
