"""The board's distinctive usernames and their variants, always removed."""
from typing import List

from ...lexicon.usernames import username_variants
from ...lexicon.word_policy import distinctive_variant, search_mode
from ...spans import USERNAME, Span, overlapping_any
from ...text.document import Document
from ...text.terms import TermMatcher
from ..base import Detector

VARIANT_MIN = 5


def distinctive_usernames(stats) -> List[str]:
    """The dump's usernames, and their variants of at least ``VARIANT_MIN`` letters, that
    are not ordinary words: ``gracefulgram``, ``T1since82`` and ``wildflower`` (of
    wildflower_jo: the username's head) are always usernames, ``hope`` and ``tiger``
    mostly are not (the model decides those), nor ``hauler`` of LongHaulerLuis (a word
    that is only a piece of it: :func:`~mmbdeid.lexicon.word_policy.distinctive_variant`). The audit classes words by the same policy
    (:mod:`mmbdeid.lexicon.word_policy`), so what it searches without regard to case is what
    this step removes."""
    users = {user for users in stats.users_by_board().values() for user in users if user}
    terms = {user for user in users if search_mode(user, "username") == "any-case"}
    for user in users:
        terms.update(v for v in username_variants(user)
                     if len(v) >= VARIANT_MIN and distinctive_variant(v, user))
    return sorted(terms)


class UsernameDetector(Detector):
    """A USER span, score 1.0, on every whole-word occurrence of a distinctive username,
    except inside a pattern identifier (``@kaygirl``, an e-mail address stays one
    identifier)."""

    source = USERNAME

    def __init__(self, usernames):
        self.matcher = TermMatcher(usernames)

    @classmethod
    def of_dump(cls, stats) -> "UsernameDetector":
        return cls(distinctive_usernames(stats))

    def detect(self, document: Document) -> List[Span]:
        found = [Span("USER", start, end, 1.0, USERNAME)
                 for start, end, _ in self.matcher.finditer(document.text)]
        if not found:
            return found
        patterns = [Span(label, start, end, 1.0, "")
                    for label, (start, end) in zip(document.pattern_labels, document.offsets)
                    if label]
        return [span for span, hit in zip(found, overlapping_any(found, patterns)) if not hit]
