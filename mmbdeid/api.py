"""The Python API: de-identify texts and records in memory, in one call.

    >>> import mmbdeid
    >>> mmbdeid.scrub("Thanks Linda, my TSH is fine. Write to kay@example.org")
    'Thanks [NAME], my TSH is fine. Write to [EMAIL]'

The functions run the same analyzer chain as ``mmbdeid scrub`` (patterns, the CRF with its
threshold, the drug / medical-term / title filters, the rule steps, allow and deny lists).
Corpus statistics, which the model's tf-idf and border features need, come from the texts
given in the call (all of them together, like one dump), pooled with the shipped reference
statistics where those are thin (see docs/pipeline.md, "Small inputs"). A single short text therefore
scrubs like a post inside a large dump. For dumps that do not fit in memory use the command
line, which streams.
"""
import math
import os
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import checks
from .detect.analyzer import Analyzer
from .detect.registry import step_names
from .kinds import DEFAULT_KINDS, parse_kinds
from .model.reference import with_reference
from .model.stats import CorpusStats
from .model.tagger import NameTagger, default_model_path
from .output.modes import operator_for
from .spans import Span, merge_mentions
from .text.document import Document

# Post fields that carry evidence besides the text (thread, author and board statistics).
CONTEXT_FIELDS = ("board", "thread", "author")


class Scrubber:
    """Removes names, usernames, e-mails, URLs and phone numbers from texts.

    ``model``: a model file path or a fitted :class:`~mmbdeid.model.tagger.NameTagger`
    (default: the bundled model); ``threshold``: None for the model's own; ``stats``: a
    corpus statistics file of the dump the texts come from (``mmbdeid stats``; default: the
    statistics of the texts of each call); ``steps``: the names of the chain's steps (None:
    every step, :data:`mmbdeid.detect.registry.STEP_NAMES`); ``without_steps``: steps left
    out (``["drugs"]`` removes drug names the model rates as names); ``allow`` / ``deny``:
    terms never / always removed (lists of strings); ``mode``: what an identifier becomes,
    ``"placeholder"`` (default), ``"mask"``, ``"hash"`` (with ``hash_key``, bytes or a
    string of 16 bytes or more, else the environment variable ``MMBDEID_HASH_KEY``), a
    registered operator's name, an operator, or a function ``(label, original) -> str``
    (see docs/person-modes.md). In the mask and hash modes the ``author`` field of records
    and DataFrames is masked or hashed too. ``kinds``: the kinds of identifier removed,
    labels and presets as a list or a comma list (``"safe-harbor"``, ``["default",
    "DATE"]``; None: the default kinds, :data:`mmbdeid.kinds.DEFAULT_KINDS`).

    The options are checked as the command line checks its own: a wrong one raises
    ``TypeError`` (a value of the wrong kind) or ``ValueError`` (out of range) naming it.
    """

    def __init__(self, model: Union[str, "os.PathLike[str]", NameTagger, None] = None,
                 threshold: Optional[float] = None, stats: Optional[str] = None,
                 steps: Optional[Sequence[str]] = None, without_steps: Sequence[str] = (),
                 allow: Sequence[str] = (), deny: Sequence[str] = (),
                 mode: Any = "placeholder", hash_key: Any = None,
                 kinds: Union[str, Sequence[str], None] = None):
        if isinstance(model, NameTagger):
            model.check_params()
        elif model is not None and not isinstance(model, (str, os.PathLike)):
            raise TypeError("model must be a model file path or a NameTagger, not %s"
                            % checks.kind_of(model))
        self.model = model
        self.threshold = checks.optional_threshold(threshold)
        self.stats = checks.optional_path(stats, "stats")
        self.steps = None if steps is None else checks.terms(steps, "steps", "step")
        self.without_steps = checks.terms(without_steps, "without_steps", "step")
        self.kinds = _kinds(kinds)
        self._step_names = step_names(self.steps, self.without_steps, kinds=self.kinds)
        self.allow = checks.terms(allow, "allow")
        self.deny = checks.terms(deny, "deny")
        self.operator = operator_for(mode, hash_key)    # holds the key, never shown
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
    def analyze(self, text: str, author: Optional[str] = None, thread: Optional[str] = None,
                board: Optional[str] = None) -> List[Span]:
        """The identifiers in ``text`` as ``Span(label, start, end, score, source)``, one
        per mention (``Mary Jane`` is one span, with its likelier token's probability), in
        text order. ``author``, ``thread``, ``board``: the post's fields (see
        :func:`mmbdeid.scrub`)."""
        return self.analyze_many([dict(_context(author, thread, board),
                                       text=checks.text(text))])[0]

    def scrub(self, text: str, author: Optional[str] = None, thread: Optional[str] = None,
              board: Optional[str] = None) -> str:
        """``text`` with each identifier replaced by its placeholder (``[NAME]``, ...), or
        as the scrubber's ``mode`` says.
        ``author``, ``thread``, ``board``: the post's fields (see :func:`mmbdeid.scrub`)."""
        return self.scrub_many([dict(_context(author, thread, board),
                                     text=checks.text(text))])[0]

    def analyze_many(self, posts: Sequence[dict]) -> List[List[Span]]:
        """:meth:`analyze` for many posts (dicts with ``text`` and optionally ``board``,
        ``thread``, ``author``), taken together as one dump for the statistics."""
        documents = [_document(post) for post in _posts(posts)]
        analyzer = self._analyzer(documents)
        analyzer.prefetch(documents)
        return [merge_mentions(d.original_text, spans)
                for d, spans in zip(documents, analyzer.analyze_all(documents))]

    def scrub_many(self, posts: Sequence[dict]) -> List[str]:
        """:meth:`scrub` for many posts, taken together as one dump."""
        return [record["text"] for record in self._rewritten(posts)]

    def _rewritten(self, posts: Sequence[dict]) -> List[dict]:
        """The posts (text and context fields) as the operator rewrites them."""
        posts = _posts(posts)
        return [self.operator.rewrite(post, spans)[0]
                for post, spans in zip(posts, self.analyze_many(posts))]

    # -- records -------------------------------------------------------------------------
    def scrub_records(self, records: Iterable[dict], text_field: str = "text") -> Iterator[dict]:
        """Each record (a dict) again, in order, with every field kept and ``text_field``
        scrubbed. The records are read in full first: the statistics are the whole batch's.
        A record whose text is missing or not a string (None included: the command line
        refuses a null text too) raises ``ValueError`` naming it, before any work."""
        text_field = checks.string(text_field, "text_field")
        records = _many(records, "records")
        posts = _posts(records, text_field, "record")
        for record, rewritten in zip(records, self._rewritten(posts)):
            scrubbed = dict(record, **{text_field: rewritten["text"]})
            if "author" in rewritten and text_field != "author":   # mask, hash: rewritten
                scrubbed["author"] = rewritten["author"]
            yield scrubbed

    def scrub_dataframe(self, frame, text: str = "text", id: Optional[str] = "id"):
        """A copy of a pandas DataFrame with column ``text`` scrubbed; other columns, the
        index and the row order kept. ``board``/``thread``/``author`` columns, when
        present, are used as evidence. ``id``: the id column, checked for duplicates
        (None: no check). A text that is not a string (None or NaN included: the command
        line refuses a null text too) raises ``ValueError`` naming its row."""
        if not hasattr(frame, "columns") or not hasattr(frame, "itertuples"):
            raise TypeError("frame must be a pandas DataFrame, not %s" % checks.kind_of(frame))
        if text not in frame.columns:
            raise ValueError("no column %r in the DataFrame (columns: %s)"
                             % (text, ", ".join(map(str, frame.columns))))
        if id is not None and id in frame.columns and frame[id].duplicated().any():
            raise ValueError("column %r has duplicate ids" % id)
        columns = [text] + [c for c in CONTEXT_FIELDS if c in frame.columns and c != text]
        posts = []
        for row_number, (label, row) in enumerate(zip(frame.index, frame[columns].itertuples(
                index=False)), 1):
            values = dict(zip(columns, row))
            problem = _text_problem(values[text])
            if problem:
                raise ValueError("row %d (index %s): column %r %s"
                                 % (row_number, checks.shown(label), text, problem))
            posts.append(dict({k: _as_field(values[k]) for k in CONTEXT_FIELDS
                               if k in values and k != text}, text=values[text]))
        scrubbed = frame.copy()
        rewritten = self._rewritten(posts)
        scrubbed[text] = [record["text"] for record in rewritten]
        if "author" in columns[1:]:
            # the author cells the mode rewrote (mask, hash); the others as they were
            changed = [record.get("author") != post.get("author")
                       for record, post in zip(rewritten, posts)]
            if any(changed):
                scrubbed["author"] = [record["author"] if change else cell for record, change,
                                      cell in zip(rewritten, changed, frame["author"])]
        return scrubbed

    # -- the chain -----------------------------------------------------------------------
    def _analyzer(self, documents: Sequence[Document]) -> Analyzer:
        self.tagger.check_params()          # a tagger given may have been changed since
        if self.stats is not None:
            stats = CorpusStats.load(self.stats)
        else:
            stats = CorpusStats.build(documents)
        return Analyzer.build(self.tagger, with_reference(stats), threshold=self.threshold,
                              steps=self._step_names, allow=self.allow, deny=self.deny,
                              kinds=self.kinds)


def _kinds(value: Union[str, Sequence[str], None]) -> Tuple[str, ...]:
    """The kinds ``kinds=`` chooses (see :func:`mmbdeid.kinds.parse_kinds`)."""
    if value is None:
        return DEFAULT_KINDS
    if isinstance(value, str):
        return parse_kinds(value)
    return parse_kinds(",".join(checks.terms(value, "kinds", "kind")) or " ")


def _many(items: Any, name: str) -> list:
    """An iterable of posts or records as a list; one dict or string is refused (it would
    be taken as its keys or characters)."""
    if isinstance(items, (dict, str, bytes)):
        raise TypeError("%s must be an iterable of dicts, not %s (for one: [%s])"
                        % (name, checks.kind_of(items), name[:-1]))
    try:
        return list(items)
    except TypeError:
        raise TypeError("%s must be an iterable of dicts, not %s"
                        % (name, checks.kind_of(items))) from None


def _posts(posts: Any, text_field: str = "text", what: str = "post") -> List[dict]:
    """The posts as ``analyze_many`` takes them (the text under ``text``, and the context
    fields), or ``ValueError`` naming the first post that has no text to scrub, in the
    words of the command line's bad records."""
    checked = []
    for number, post in enumerate(_many(posts, what + "s"), 1):
        if not isinstance(post, dict):
            raise ValueError("%s %d must be a dict, not %s"
                             % (what, number, checks.kind_of(post)))
        if text_field not in post:
            raise ValueError("%s %d: missing field %r" % (what, number, text_field))
        problem = _text_problem(post[text_field])
        if problem:
            raise ValueError("%s %d: field %r %s" % (what, number, text_field, problem))
        checked.append(dict({k: post[k] for k in CONTEXT_FIELDS if k in post},
                            text=post[text_field]))
    return checked


def _text_problem(value: Any) -> Optional[str]:
    """Why ``value`` is not a text to scrub, or None."""
    if isinstance(value, str):
        return None
    if isinstance(value, float) and math.isnan(value):
        return "must be a string, not NaN"
    return "must be a string, not %s" % checks.kind_of(value)


def _document(post: dict) -> Document:
    return Document.from_post({k: _as_field(v) for k, v in post.items()})


def _as_field(value: Any) -> Any:
    """Context fields as strings (a DataFrame's thread ids may be numbers or NaN)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else str(value)


_DEFAULT: Optional[Scrubber] = None


def _scrubber(options: dict) -> Scrubber:
    """The shared default scrubber (its model is loaded once), or a new one with options."""
    global _DEFAULT
    if options:
        return Scrubber(**options)
    if _DEFAULT is None:
        _DEFAULT = Scrubber.default()
    return _DEFAULT


def scrub(text: str, author: Optional[str] = None, thread: Optional[str] = None,
          board: Optional[str] = None, **options: Any) -> str:
    """``text`` with names, usernames, e-mails, URLs and phones (and the other ``kinds``
    chosen) replaced by placeholders.
    ``author``, ``thread``, ``board``: the post's fields, evidence as in a dump (the
    author's username is removed from the text, and the author and board statistics are
    those of a post of theirs). ``options``: those of :class:`Scrubber` (``model``,
    ``threshold``, ``allow``, ``kinds``, ...)."""
    return _scrubber(options).scrub(text, **_context(author, thread, board))


def analyze(text: str, author: Optional[str] = None, thread: Optional[str] = None,
            board: Optional[str] = None, **options: Any) -> List[Span]:
    """The identifiers in ``text``: ``Span(label, start, end, score, source)``, one per
    mention, in text order. ``author``, ``thread``, ``board``: as for :func:`scrub`;
    ``options``: those of :class:`Scrubber`."""
    return _scrubber(options).analyze(text, **_context(author, thread, board))


def _context(author: Any, thread: Any, board: Any) -> dict:
    """The post fields given (None: not given), checked to be strings."""
    given = {}
    for name, value in (("author", author), ("thread", thread), ("board", board)):
        if value is not None:
            given[name] = checks.string(value, name)
    return given


def scrub_records(records: Iterable[dict], text_field: str = "text",
                  **options: Any) -> Iterator[dict]:
    """Records (dicts) with ``text_field`` scrubbed, every other field kept, in order."""
    return _scrubber(options).scrub_records(records, text_field=text_field)


def scrub_dataframe(frame, text: str = "text", id: Optional[str] = "id", **options: Any):
    """A pandas DataFrame with column ``text`` scrubbed (pandas is optional: only this
    function needs it, and only as the type of its argument)."""
    return _scrubber(options).scrub_dataframe(frame, text=text, id=id)
