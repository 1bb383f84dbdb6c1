"""From a post to identifier spans and scrubbed text, as small separate steps.

pattern spans + CRF name spans (every token, with its probability) -> threshold step ->
drug filter step -> the board's usernames -> spaced-out names (``R o b e r t``) -> allow
list -> deny list -> text stitched back from the spans (``spans.replace_spans``).
"""
import re
from typing import Iterable, List, Optional, Sequence

from ..text.document import Document
from ..model.lexicon import load_wordlist
from ..spans import Span, replace_spans

PATTERN_SCORE = 1.0
NON_NAME_PATTERNS = ("EMAIL", "URL", "PHONE")


def pattern_spans(document: Document) -> List[Span]:
    """Pattern identifiers (e-mail, URL, phone, @handle) as spans with score 1.0."""
    return [Span(label, start, end, PATTERN_SCORE)
            for label, (start, end) in zip(document.pattern_labels, document.offsets) if label]


def crf_name_spans(document: Document, name_marginals, floor: float = -1.0) -> List[Span]:
    """A span per non-pattern token scoring above ``floor`` (default: every token): the
    likelier of NAME/USER, scored P(NAME)+P(USER). ``name_marginals``: (P(NAME), P(USER))
    per token."""
    spans = []
    for (start, end), pattern, (p_name, p_user) in zip(document.offsets,
                                                        document.pattern_labels, name_marginals):
        if not pattern and p_name + p_user > floor:
            spans.append(Span("USER" if p_user > p_name else "NAME", start, end, p_name + p_user))
    return spans


def threshold_step(spans: Iterable[Span], threshold: float) -> List[Span]:
    """Keep spans whose score exceeds the threshold (pattern identifiers always do)."""
    return [s for s in spans if s.score > threshold or s.score >= PATTERN_SCORE]


def drug_filter_step(spans: Iterable[Span], text: str, drugs=None) -> List[Span]:
    """Untag names that are drug names (``Arimidex``, ``doxy``)."""
    drugs = load_wordlist("drugs") if drugs is None else drugs
    return [s for s in spans
            if s.label not in ("NAME", "USER") or s.score >= PATTERN_SCORE
            or text[s.start:s.end].lower() not in drugs]


# Letters separated by single spaces, a stylised signature (paper 003: "R o b e r t").
_SPACED_LETTERS = re.compile(r"(?<!\w)(?:[^\W\d_] ){2,}[^\W\d_](?!\w)")
SPACED_NAME_MIN = 3


def spaced_name_spans(text: str, names=None) -> List[Span]:
    """A NAME span over every run of spaced-out letters that spells a known first name or
    nickname; the tokenizer sees single letters there, which the model cannot read."""
    if " " not in text:
        return []
    spans = []
    for match in _SPACED_LETTERS.finditer(text):
        word = match.group().replace(" ", "").lower()
        if len(word) >= SPACED_NAME_MIN and word in (names or _first_names()):
            spans.append(Span("NAME", match.start(), match.end(), PATTERN_SCORE))
    return spans


def _first_names() -> frozenset:
    return load_wordlist("first_names") | load_wordlist("nicknames")


def distinctive_usernames(stats) -> List[str]:
    """The dump's usernames, and their variants of at least ``VARIANT_MIN`` letters, that
    are not ordinary words: ``gracefulgram``, ``T1since82`` and ``wildflower`` (of
    wildflower_jo) are always usernames, ``hope`` and ``tiger`` mostly are not (the model
    decides those). The audit classes words the same way, so what it searches without
    regard to case is what this step removes."""
    from ..audit import search_mode
    from ..model.usernames import username_variants
    users = {user for users in stats.users_by_board().values() for user in users if user}
    terms = {user for user in users if search_mode(user, "username") == "any-case"}
    for user in users:
        terms.update(v for v in username_variants(user)
                     if len(v) >= VARIANT_MIN and search_mode(v, "variant") == "any-case")
    return sorted(terms)


VARIANT_MIN = 5


def add_spans(spans: Iterable[Span], added: Sequence[Span]) -> List[Span]:
    """``spans`` plus ``added``, dropping spans that overlap an added one (the added span
    covers the whole identifier: a deny-list phrase, a spaced-out name)."""
    if not added:
        return list(spans)
    kept = [s for s in spans if not any(s.start < a.end and a.start < s.end for a in added)]
    return sorted(kept + list(added), key=lambda s: (s.start, s.end))


def _matcher(terms: Sequence[str]):
    if not terms:
        return None
    from ..text.terms import TermMatcher
    return TermMatcher(terms)


def _inside_pattern(spans: Sequence[Span], start: int, end: int) -> bool:
    """A pattern identifier containing a username (``@kaygirl``, an e-mail address) stays
    one identifier."""
    return any(s.score >= PATTERN_SCORE and s.start < end and start < s.end for s in spans)


class Scrubber:
    """Applies a fitted :class:`~mmbdeid.model.NameTagger` to posts.

    ``stats`` are the corpus statistics of the dump being scrubbed; ``threshold`` defaults to
    the model's tuned threshold. ``allow``: terms never removed (public figures, drug
    nicknames); ``deny``: terms always removed (label NAME). Deny wins over allow.
    """

    def __init__(self, tagger, stats=None, threshold: Optional[float] = None,
                 drug_filter: bool = True, allow: Sequence[str] = (),
                 deny: Sequence[str] = ()):
        self.tagger = tagger
        self.stats = stats
        self.threshold = tagger.threshold if threshold is None else threshold
        self.drug_filter = drug_filter
        self.allow = _matcher(allow)
        self.deny = _matcher(deny)
        self.usernames = _matcher(distinctive_usernames(stats)) if stats is not None else None
        self.featurizer = tagger.featurizer(stats)

    def candidate_spans(self, document: Document, floor: float = -1.0) -> List[Span]:
        """Pattern spans and a scored span for every other token scoring above ``floor``
        (default: all of them), before any threshold."""
        name_marginals = self.tagger.name_marginals(self.featurizer.document_items(document))
        spans = pattern_spans(document) + crf_name_spans(document, name_marginals, floor)
        return sorted(spans, key=lambda s: s.start)

    def analyze(self, document: Document, threshold: Optional[float] = None) -> List[Span]:
        """The identifiers to remove, each with its label and probability."""
        threshold = self.threshold if threshold is None else threshold
        # Spans below the threshold are not even built: most tokens are not names.
        spans = threshold_step(self.candidate_spans(document, floor=threshold), threshold)
        if self.drug_filter:
            spans = drug_filter_step(spans, document.text)
        if self.usernames is not None:
            spans = add_spans(spans, [Span("USER", start, end, PATTERN_SCORE) for start, end, _
                                      in self.usernames.finditer(document.text)
                                      if not _inside_pattern(spans, start, end)])
        spans = add_spans(spans, spaced_name_spans(document.text))
        if self.allow is not None:
            from ..text.terms import allow_step
            spans = allow_step(spans, document.text, self.allow)
        if self.deny is not None:
            from ..text.terms import deny_spans
            spans = add_spans(spans, deny_spans(document.text, self.deny))
        return spans

    def scrub_text(self, text: str, board: str = "", thread: str = "", author: str = ""):
        """(scrubbed text, spans) for one post."""
        document = Document.from_text(text, board=board, thread=thread, author=author)
        spans = self.analyze(document)
        return replace_spans(text, spans), spans

    def token_name_scores(self, document: Document) -> List[Optional[float]]:
        """Final name probability per token, for evaluation: pattern handles 1.0, drug names
        0.0 (the filter never lets them through), e-mail/URL/phone tokens None (removed by
        pattern, neither a found name nor a kept word)."""
        spans = {(s.start, s.end): s for s in self.candidate_spans(document)}
        drugs = load_wordlist("drugs") if self.drug_filter else frozenset()
        scores: List[Optional[float]] = []
        for token, offset, pattern in zip(document.tokens, document.offsets,
                                          document.pattern_labels):
            if pattern in NON_NAME_PATTERNS:
                scores.append(None)
            elif pattern:
                scores.append(PATTERN_SCORE)
            elif token.lower() in drugs:
                scores.append(0.0)
            else:
                scores.append(spans[offset].score)
        return scores
