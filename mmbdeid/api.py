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
import numbers
import os
import threading
from collections import OrderedDict
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import checks
from .detect.analyzer import Analyzer
from .detect.options import ChainOptions
from .detect.registry import step_names
from .detect.reusable import ReusableChain
from .errors import MmbdeidTypeError, MmbdeidValueError
from .kinds import DEFAULT_KINDS, parse_kinds
from .model.reference import with_reference
from .model.stats import CorpusStats
from .model.tagger import NameTagger, default_model_path
from .model.thin_stats import input_stats
from .output.hash_key import ENVIRONMENT_VARIABLE
from .output.modes import operator_for
from .spans import Span, merge_mentions
from .text.document import Document

# Post fields that carry evidence besides the text (thread, author and board statistics).
CONTEXT_FIELDS = ("board", "thread", "author")
# One of them as a call gives it: text, or a number as a dump may hold (101 is "101").
Field = Union[str, int, float, None]


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

    The model and the chain's steps that read no statistics are built on the first call
    and reused by the later ones, in any thread (docs/python-api.md, "Repeated calls").
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
            raise MmbdeidTypeError("model must be a model file path or a NameTagger, not %s"
                                   % checks.kind_of(model))
        self.model = model
        self.stats = checks.optional_path(stats, "stats")
        kinds = _kinds(kinds)
        steps = None if steps is None else checks.terms(steps, "steps", "step")
        # the chain's options, checked there (the steps here: their names and the kinds')
        self.options = ChainOptions(threshold=threshold, allow=allow, deny=deny, kinds=kinds,
                                    steps=step_names(steps, checks.terms(
                                        without_steps, "without_steps", "step"), kinds=kinds))
        self.operator = operator_for(mode, hash_key)    # holds the key, never shown
        self._tagger: Optional[NameTagger] = None
        self._reusable: Optional[tuple] = None      # (model state, ReusableChain)
        self._lock = threading.Lock()

    def __getstate__(self):
        # a copy (pickled: spaCy's pipelines) builds its own chain, with its own lock
        return dict(self.__dict__, _reusable=None, _lock=None)

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @classmethod
    def default(cls, **options: Any) -> "Scrubber":
        """A scrubber with the bundled model (options as for the constructor)."""
        return cls(**options)

    @property
    def kinds(self) -> Tuple[str, ...]:
        """The kinds of identifier removed (the adapters report them)."""
        return self.options.kinds

    @property
    def tagger(self) -> NameTagger:
        if self._tagger is None:
            with self._lock:                # loaded once, whichever thread asks first
                if self._tagger is None:
                    self._tagger = self.model if isinstance(self.model, NameTagger) \
                        else NameTagger.load(self.model or default_model_path())
        return self._tagger

    # -- texts ---------------------------------------------------------------------------
    def analyze(self, text: str, author: Field = None, thread: Field = None,
                board: Field = None) -> List[Span]:
        """The identifiers in ``text`` as ``Span(label, start, end, score, source)``, one
        per mention (``Mary Jane`` is one span, with its likelier token's probability), in
        text order. ``author``, ``thread``, ``board``: the post's fields (see
        :func:`mmbdeid.scrub`)."""
        post = dict(_context(author, thread, board), text=checks.text(text))
        return merge_mentions(post["text"], self._detected([post])[0])

    def scrub(self, text: str, author: Field = None, thread: Field = None,
              board: Field = None) -> str:
        """``text`` with each identifier replaced by its placeholder (``[NAME]``, ...), or
        as the scrubber's ``mode`` says.
        ``author``, ``thread``, ``board``: the post's fields (see :func:`mmbdeid.scrub`)."""
        post = dict(_context(author, thread, board), text=checks.text(text))
        return self._rewritten([post])[0]["text"]

    def analyze_many(self, posts: Sequence[dict]) -> List[List[Span]]:
        """:meth:`analyze` for many posts (dicts with ``text`` and optionally ``board``,
        ``thread``, ``author``), taken together as one dump for the statistics."""
        posts = _posts(posts)
        return [merge_mentions(post["text"], spans)
                for post, spans in zip(posts, self._detected(posts))]

    def _detected(self, posts: List[dict]) -> List[List[Span]]:
        """The chain's spans of each of ``posts`` (checked once, by ``_posts`` or
        ``checks.text``), one per detected token or phrase, as ``scrub`` finds them in a
        dump of these posts: each post analysed as a worker analyses it, then the
        thread-names round of the dump's pass, by the same evidence
        (:meth:`~mmbdeid.detect.thread_names.ThreadNames.completed`).
        What the operator is given, so that it replaces the same parts as in a dump."""
        documents = [Document.from_post(_fields(post)) for post in posts]
        analyzer = self._analyzer(documents)
        analyzer.prefetch(documents)
        return analyzer.analyze_all(documents)

    def scrub_many(self, posts: Sequence[dict]) -> List[str]:
        """:meth:`scrub` for many posts, taken together as one dump."""
        return [record["text"] for record in self._rewritten(_posts(posts))]

    def _rewritten(self, posts: List[dict]) -> List[dict]:
        """The posts (text and context fields, checked) as the operator rewrites them."""
        return [self.operator.rewrite(post, spans)[0]
                for post, spans in zip(posts, self._detected(posts))]

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
            raise MmbdeidTypeError("frame must be a pandas DataFrame, not %s"
                                   % checks.kind_of(frame))
        if text not in frame.columns:
            raise MmbdeidValueError("no column %r in the DataFrame (columns: %s)"
                                    % (text, ", ".join(map(str, frame.columns))))
        if id is not None and id in frame.columns and frame[id].duplicated().any():
            raise MmbdeidValueError("column %r has duplicate ids" % id)
        columns = [text] + [c for c in CONTEXT_FIELDS if c in frame.columns and c != text]
        posts = []
        for row_number, (label, row) in enumerate(zip(frame.index, frame[columns].itertuples(
                index=False)), 1):
            values = dict(zip(columns, row))
            problem = _text_problem(values[text])
            if problem:
                raise MmbdeidValueError("row %d (index %s): column %r %s"
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
            stats = input_stats(documents)
        return self._chain().analyzer(with_reference(stats))

    def _chain(self) -> ReusableChain:
        """The chain's detectors that do not depend on the texts, built on the first call
        and again only when the model has changed since (a NameTagger given may be fitted
        again or given another threshold)."""
        tagger = self.tagger
        state = _model_state(tagger)
        with self._lock:
            if self._reusable is None or self._reusable[0] != state:
                self._reusable = (state, ReusableChain(tagger, self.options))
            return self._reusable[1]


def _model_state(tagger: NameTagger) -> tuple:
    """What the chain is built from that a fitted tagger may change: its models (compared
    by identity first: a refit makes new bytes), threshold and window."""
    return (getattr(tagger, "model_bytes_", None), getattr(tagger, "context_bytes_", None),
            tagger.threshold, tagger.window)


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
        raise MmbdeidTypeError("%s must be an iterable of dicts, not %s (for one: [%s])"
                               % (name, checks.kind_of(items), name[:-1]))
    try:
        return list(items)
    except TypeError:
        raise MmbdeidTypeError("%s must be an iterable of dicts, not %s"
                               % (name, checks.kind_of(items))) from None


def _posts(posts: Any, text_field: str = "text", what: str = "post") -> List[dict]:
    """The posts as ``analyze_many`` takes them (the text under ``text``, and the context
    fields), or ``ValueError`` naming the first post that has no text to scrub, in the
    words of the command line's bad records."""
    checked = []
    for number, post in enumerate(_many(posts, what + "s"), 1):
        if not isinstance(post, dict):
            raise MmbdeidValueError("%s %d must be a dict, not %s"
                                    % (what, number, checks.kind_of(post)))
        if text_field not in post:
            raise MmbdeidValueError("%s %d: missing field %r" % (what, number, text_field))
        problem = _text_problem(post[text_field])
        if problem:
            raise MmbdeidValueError("%s %d: field %r %s" % (what, number, text_field, problem))
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


def _fields(post: dict) -> dict:
    """A checked post's fields as a dump's record holds them."""
    return {k: _as_field(v) for k, v in post.items()}


def _as_field(value: Any) -> Any:
    """Context fields as strings, as the command line reads them (``str``: a DataFrame's
    thread ids may be numbers), NaN as missing."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else str(value)


# The scrubbers of the module-level functions, by their options, the least recently used
# dropped past SCRUBBERS_KEPT: each holds a model and its chain.
SCRUBBERS_KEPT = 4
_SCRUBBERS: "OrderedDict[tuple, Scrubber]" = OrderedDict()
_SCRUBBERS_LOCK = threading.Lock()


def _scrubber(options: dict) -> Scrubber:
    """The scrubber of ``options``, made on the first call with them and then reused (its
    model is loaded and its chain built once); a new one for options that cannot be a key
    (a new Scrubber checks them)."""
    key = _options_key(options)
    if key is None:
        return Scrubber(**options)
    with _SCRUBBERS_LOCK:
        scrubber = _SCRUBBERS.get(key)
        if scrubber is not None:
            _SCRUBBERS.move_to_end(key)
            return scrubber
    scrubber = Scrubber(**options)          # (outside the lock: loading takes seconds)
    with _SCRUBBERS_LOCK:
        scrubber = _SCRUBBERS.setdefault(key, scrubber)
        _SCRUBBERS.move_to_end(key)
        while len(_SCRUBBERS) > SCRUBBERS_KEPT:
            _SCRUBBERS.popitem(last=False)
    return scrubber


def _options_key(options: dict) -> Optional[tuple]:
    """``options`` as a key: lists as tuples, a NameTagger by identity (the scrubber kept
    holds it, so no other object takes its id; one fitted again is noticed by the
    scrubber), a model file with its size and modification time (a file written again is
    read again); None for a value of another kind."""
    key = []
    for name, value in sorted(options.items()):
        if isinstance(value, NameTagger):
            value = ("NameTagger", id(value))
        elif isinstance(value, os.PathLike) or (name == "model" and isinstance(value, str)):
            path = os.fspath(value)
            try:
                found = os.stat(path)
            except (OSError, ValueError):
                return None                 # (the Scrubber says what is wrong)
            value = ("file", path, found.st_size, found.st_mtime_ns)
        elif isinstance(value, (list, tuple)):
            value = tuple(value)
        try:
            hash(value)
        except TypeError:
            return None
        key.append((name, value))
    if options.get("mode") == "hash" and options.get("hash_key") is None:
        # the key read from the environment when the scrubber is made: a new one, a new
        # scrubber
        key.append(("environment", os.environ.get(ENVIRONMENT_VARIABLE)))
    return tuple(key)


def scrub(text: str, author: Field = None, thread: Field = None,
          board: Field = None, **options: Any) -> str:
    """``text`` with names, usernames, e-mails, URLs and phones (and the other ``kinds``
    chosen) replaced by placeholders.
    ``author``, ``thread``, ``board``: the post's fields, evidence as in a dump (the
    author's username is removed from the text, and the author and board statistics are
    those of a post of theirs); strings, or numbers read as a dump's (``author=101`` is
    the member ``"101"``). ``options``: those of :class:`Scrubber` (``model``,
    ``threshold``, ``allow``, ``kinds``, ...)."""
    return _scrubber(options).scrub(text, **_context(author, thread, board))


def analyze(text: str, author: Field = None, thread: Field = None,
            board: Field = None, **options: Any) -> List[Span]:
    """The identifiers in ``text``: ``Span(label, start, end, score, source)``, one per
    mention, in text order. ``author``, ``thread``, ``board``: as for :func:`scrub`;
    ``options``: those of :class:`Scrubber`."""
    return _scrubber(options).analyze(text, **_context(author, thread, board))


def _context(author: Any, thread: Any, board: Any) -> dict:
    """The post fields given (None: not given), each a string or a number, as text: a
    number as a dump's (``101`` is the member ``"101"``), NaN as not given."""
    given = {}
    for name, value in (("author", author), ("thread", thread), ("board", board)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
            raise MmbdeidTypeError("%s must be a string or a number, not %s"
                                   % (name, checks.kind_of(value)))
        given[name] = _as_field(value)
    return given


def scrub_records(records: Iterable[dict], text_field: str = "text",
                  **options: Any) -> Iterator[dict]:
    """Records (dicts) with ``text_field`` scrubbed, every other field kept, in order."""
    return _scrubber(options).scrub_records(records, text_field=text_field)


def scrub_dataframe(frame, text: str = "text", id: Optional[str] = "id", **options: Any):
    """A pandas DataFrame with column ``text`` scrubbed (pandas is optional: only this
    function needs it, and only as the type of its argument)."""
    return _scrubber(options).scrub_dataframe(frame, text=text, id=id)
