"""From a post to identifier spans and scrubbed text, as small separate steps.

pattern spans + CRF name spans (every token, with its probability) -> threshold step ->
drug filter step -> text stitched back from the spans (``spans.replace_spans``).
"""
from typing import Iterable, List, Optional

from .document import Document
from .lexicon import load_wordlist
from .spans import Span, replace_spans

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


class Scrubber:
    """Applies a fitted :class:`~mmbdeid.model.NameTagger` to posts.

    ``stats`` are the corpus statistics of the dump being scrubbed; ``threshold`` defaults to
    the model's tuned threshold.
    """

    def __init__(self, tagger, stats=None, threshold: Optional[float] = None,
                 drug_filter: bool = True):
        self.tagger = tagger
        self.stats = stats
        self.threshold = tagger.threshold if threshold is None else threshold
        self.drug_filter = drug_filter
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
