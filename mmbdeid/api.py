"""The Python API: de-identify texts and records in memory, in one call.

    >>> import mmbdeid
    >>> mmbdeid.scrub("Thanks Linda, my TSH is fine. Write to kay@example.org")
    'Thanks [NAME], my TSH is fine. Write to [EMAIL]'

The functions run the same analyzer chain as ``mmbdeid scrub`` (patterns, the CRF with its
threshold, the drug / medical-term / title filters, the rule steps, allow and deny lists).
Corpus statistics, which the model's tf-idf and border features need, come from the texts
given in the call (all of them together, like one dump), pooled with the shipped reference
statistics where those are thin (see README, "Small inputs"). A single short text therefore
scrubs like a post inside a large dump. For dumps that do not fit in memory use the command
line, which streams.
"""
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Union

from .detect.analyzer import Analyzer
from .kinds import placeholder
from .model.reference import with_reference
from .model.stats import CorpusStats
from .model.tagger import NameTagger, default_model_path
from .spans import Span, join, mention_groups, stitch
from .text.document import Document

# Post fields that carry evidence besides the text (thread, author and board statistics).
CONTEXT_FIELDS = ("board", "thread", "author")


class Scrubber:
    """Removes names, usernames, e-mails, URLs and phone numbers from texts.

    ``model``: a model file path or a fitted :class:`~mmbdeid.model.tagger.NameTagger`
    (default: the bundled model); ``threshold``: None for the model's own; ``stats``: a
    corpus statistics file of the dump the texts come from (``mmbdeid stats``; default: the
    statistics of the texts of each call); ``drug_filter``: keep drug names, medical terms
    and titles; ``rules``: names after a title, the board's usernames, spaced-out names;
    ``allow`` / ``deny``: terms never / always removed.
    """

    def __init__(self, model: Union[str, NameTagger, None] = None,
                 threshold: Optional[float] = None, stats: Optional[str] = None,
                 drug_filter: bool = True, rules: bool = True,
                 allow: Sequence[str] = (), deny: Sequence[str] = ()):
        self.model = model
        self.threshold = threshold
        self.stats = stats
        self.drug_filter = drug_filter
        self.rules = rules
        self.allow = allow
        self.deny = deny
        self._tagger: Optional[NameTagger] = None

    @classmethod
    def default(cls, **options: Any) -> "Scrubber":
        """A scrubber with the bundled model (options as for the constructor)."""
        return cls(**options)

    @property
    def tagger(self) -> NameTagger:
        if self._tagger is None:
            if isinstance(self.model, NameTagger):
                self._tagger = self.model
            else:
                self._tagger = NameTagger.load(self.model or default_model_path())
        return self._tagger

    # -- texts ---------------------------------------------------------------------------
    def analyze(self, text: str, **context: str) -> List[Span]:
        """The identifiers in ``text`` as ``Span(label, start, end, score, source)``, one
        per mention (``Mary Jane`` is one span, with its likelier token's probability), in
        text order. ``context``: the post's ``board``, ``thread`` and ``author``."""
        return self.analyze_many([dict(context, text=text)])[0]

    def scrub(self, text: str, **context: str) -> str:
        """``text`` with each identifier replaced by its placeholder (``[NAME]``, ...)."""
        return self.scrub_many([dict(context, text=text)])[0]

    def analyze_many(self, posts: Sequence[dict]) -> List[List[Span]]:
        """:meth:`analyze` for many posts (dicts with ``text`` and optionally ``board``,
        ``thread``, ``author``), taken together as one dump for the statistics."""
        documents = [_document(post) for post in posts]
        analyzer = self._analyzer(documents)
        analyzer.prefetch(documents)
        return [[join(group) for group in mention_groups(d.original_text, analyzer.analyze(d))]
                for d in documents]

    def scrub_many(self, posts: Sequence[dict]) -> List[str]:
        """:meth:`scrub` for many posts, taken together as one dump."""
        return [_stitched(post["text"], spans)
                for post, spans in zip(posts, self.analyze_many(posts))]

    # -- records -------------------------------------------------------------------------
    def scrub_records(self, records: Iterable[dict], text_field: str = "text") -> Iterator[dict]:
        """Each record (a dict) again, in order, with every field kept and ``text_field``
        scrubbed. The records are read in full first: the statistics are the whole batch's.
        A record whose text is missing or not a string raises ``ValueError`` naming it."""
        records = list(records)
        posts = []
        for number, record in enumerate(records, 1):
            text = record.get(text_field) if isinstance(record, dict) else None
            if not isinstance(text, str):
                raise ValueError("record %d: field %r missing or not a string"
                                 % (number, text_field))
            posts.append(dict({k: record[k] for k in CONTEXT_FIELDS if k in record},
                              text=text))
        for record, text in zip(records, self.scrub_many(posts)):
            yield dict(record, **{text_field: text})

    def scrub_dataframe(self, frame, text: str = "text", id: Optional[str] = "id"):
        """A copy of a pandas DataFrame with column ``text`` scrubbed; other columns, the
        index and the row order kept. ``board``/``thread``/``author`` columns, when
        present, are used as evidence. ``id``: the id column, checked for duplicates
        (None: no check)."""
        if text not in frame.columns:
            raise ValueError("no column %r in the DataFrame (columns: %s)"
                             % (text, ", ".join(map(str, frame.columns))))
        if id is not None and id in frame.columns and frame[id].duplicated().any():
            raise ValueError("column %r has duplicate ids" % id)
        columns = [text] + [c for c in CONTEXT_FIELDS if c in frame.columns and c != text]
        posts = []
        for row_number, row in enumerate(frame[columns].itertuples(index=False), 1):
            values = dict(zip(columns, row))
            if not isinstance(values[text], str):
                raise ValueError("row %d: column %r is not a string" % (row_number, text))
            posts.append(dict({k: _as_field(values[k]) for k in CONTEXT_FIELDS
                               if k in values and k != text}, text=values[text]))
        scrubbed = frame.copy()
        scrubbed[text] = self.scrub_many(posts)
        return scrubbed

    # -- the chain -----------------------------------------------------------------------
    def _analyzer(self, documents: Sequence[Document]) -> Analyzer:
        if self.stats is not None:
            stats = CorpusStats.load(self.stats)
        else:
            stats = CorpusStats.build(documents)
        return Analyzer.build(self.tagger, with_reference(stats), threshold=self.threshold,
                              drug_filter=self.drug_filter, rules=self.rules,
                              allow=self.allow, deny=self.deny)


def _document(post: dict) -> Document:
    return Document.from_post({k: _as_field(v) for k, v in post.items()})


def _as_field(value: Any) -> Any:
    """Context fields as strings (a DataFrame's thread ids may be numbers or NaN)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else str(value)


def _stitched(text: str, spans: Sequence[Span]) -> str:
    return stitch(text, ((span, placeholder(span.label)) for span in spans))


_DEFAULT: Optional[Scrubber] = None


def _scrubber(options: dict) -> Scrubber:
    """The shared default scrubber (its model is loaded once), or a new one with options."""
    global _DEFAULT
    if options:
        return Scrubber(**options)
    if _DEFAULT is None:
        _DEFAULT = Scrubber.default()
    return _DEFAULT


def scrub(text: str, **options: Any) -> str:
    """``text`` with names, usernames, e-mails, URLs and phones replaced by placeholders.
    ``options``: those of :class:`Scrubber` (``model``, ``threshold``, ``allow``, ...)."""
    return _scrubber(options).scrub(text)


def analyze(text: str, **options: Any) -> List[Span]:
    """The identifiers in ``text``: ``Span(label, start, end, score, source)``, one per
    mention, in text order. ``options``: those of :class:`Scrubber`."""
    return _scrubber(options).analyze(text)


def scrub_records(records: Iterable[dict], text_field: str = "text",
                  **options: Any) -> Iterator[dict]:
    """Records (dicts) with ``text_field`` scrubbed, every other field kept, in order."""
    return _scrubber(options).scrub_records(records, text_field=text_field)


def scrub_dataframe(frame, text: str = "text", id: Optional[str] = "id", **options: Any):
    """A pandas DataFrame with column ``text`` scrubbed (pandas is optional: only this
    function needs it, and only as the type of its argument)."""
    return _scrubber(options).scrub_dataframe(frame, text=text, id=id)
