"""Reading posts: JSON Lines, CSV or TSV with a header (each also gzip-compressed), or
Parquet (with pyarrow). Writing them: :mod:`mmbdeid.files.post_writer`.

Every problem with an input file becomes an ``InputError`` naming the file and the 1-based
physical line (for a CSV or TSV record: the line where the record starts; for Parquet:
the row number), because the command line turns it into a one-line ``file:line: message``
and exit status 2.

Readers stream: files are read line by line (Parquet: batch by batch), never whole, since
a dump may hold millions of posts.  Writers go through ``atomic_output`` so that an
interrupted run never leaves a half-written scrubbed file that looks complete.  A dump's
own id and text field names (``--id-field``, ``--text-field``) are read as ``id`` and
``text`` and written back under their own names (:mod:`mmbdeid.files.postfile`).
Annotated posts and CoNLL corpora are read by :mod:`mmbdeid.files.corpora`.
"""
import csv
import json
from typing import (Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional,
                    Tuple)

from ..errors import InputError, MmbdeidValueError
from .formats import (CONLL_EXTENSIONS, CSV_EXTENSIONS, JSONL_EXTENSIONS, PARQUET,
                      POST_FORMATS, TSV_EXTENSIONS, corpus_format, post_format, split_format)
from .jsondepth import TooDeep, check_depth
from .lines import LONE_SURROGATE, numbered_lines
from .post_writer import DELIMITERS, json_line
from .postfile import FieldNames, PostFile, field_names_of
from . import parquet


# --- records ----------------------------------------------------------------------------

class Record(NamedTuple):
    """One post: the line it starts on and all its fields, in input order."""
    line: int
    fields: Dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.fields["id"])

    @property
    def text(self) -> str:
        return self.fields["text"]

    def get(self, name: str) -> str:
        """An optional field (board, thread, author, …) as a string; missing → ``""``."""
        value = self.fields.get(name)
        return "" if value is None else str(value)


class BadRecord(NamedTuple):
    """A rejected record, as handed to ``read_posts(..., on_bad=...)``.

    ``line`` is the 1-based physical line the record starts on, ``reason`` the message an
    ``InputError`` would carry, ``raw`` the record's text as read: its physical line(s)
    without the final line ending (undecodable bytes as ``\\xNN`` escapes, a leading
    byte-order mark dropped).
    """
    line: int
    reason: str
    raw: str

    def as_json(self) -> str:
        """One JSON line (no newline), the reject-file format:
        ``{"line": ..., "reason": ..., "raw": ...}``, non-ASCII kept as is."""
        return json.dumps({"line": self.line, "reason": self.reason, "raw": self.raw},
                          ensure_ascii=False)


OnBad = Callable[[BadRecord], Any]


# --- posts ------------------------------------------------------------------------------

# Fields used as names (store keys, usernames, the person map): they must be real Unicode.
_NAME_FIELDS = ("id", "board", "thread", "author", "parent")


class _NotStandardJson(MmbdeidValueError):
    """Valid for Python's json module, but data would be lost or misread."""


def _object_without_duplicates(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    fields = dict(pairs)
    if len(fields) != len(pairs):
        seen: set = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise _NotStandardJson("key %r appears twice in one object (one value would be "
                               "lost)" % duplicate)
    return fields


def _no_constant(name: str):
    raise _NotStandardJson("%s is not a JSON value (write null or a string)" % name)


# Python's json accepts duplicate keys (the last wins) and NaN/Infinity; JSON does not.
_DECODER = json.JSONDecoder(object_pairs_hook=_object_without_duplicates,
                            parse_constant=_no_constant)


def _post_field_problem(fields: Dict[str, Any], max_chars: Optional[int] = None,
                        names: FieldNames = FieldNames()) -> Optional[str]:
    """Why ``fields`` (named for mmbdeid) is not a post (``id`` string or integer, ``text``
    string, at most ``max_chars`` characters long), or None. Fields are named in the
    message as the dump names them (``names``)."""
    for internal, external, option in (("id", names.id, "--id-field"),
                                       ("text", names.text, "--text-field")):
        if internal not in fields:
            # the record's own fields, and how to name the right one
            return "missing field %r (fields: %s); name the %s field with %s" % (
                external, _listed(names.to_external(fields)), internal, option)
    post_id = fields["id"]
    if isinstance(post_id, bool) or not isinstance(post_id, (str, int)):
        return "field %r must be a string or an integer, not %s" % (names.id,
                                                                      json_type(post_id))
    if post_id == "":
        return "field %r is empty" % names.id
    if not isinstance(fields["text"], str):
        return "field %r must be a string, not %s" % (names.text, json_type(fields["text"]))
    if max_chars is not None and len(fields["text"]) > max_chars:
        return ("field %r has %d characters, over the limit of %d (--max-post-chars)"
                % (names.text, len(fields["text"]), max_chars))
    for name in _NAME_FIELDS:
        value = fields.get(name)
        if isinstance(value, str) and LONE_SURROGATE.search(value):
            return ("field %r is not valid Unicode (a lone surrogate such as \\ud800)"
                    % names.external(name))
    return None


def json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


_ARRAY_HINT = " (a JSON array? expected JSON Lines: one object per line)"


def _without_ending(text: str) -> str:
    """``text`` less one final line ending (``\\r\\n`` or ``\\n``)."""
    if text.endswith("\r\n"):
        return text[:-2]
    if text.endswith("\n"):
        return text[:-1]
    return text


def _reject(on_bad: Optional[OnBad], path: str, line: int, reason: str, raw: str) -> None:
    """Report a bad record to ``on_bad``, or raise it as an ``InputError`` if there is none."""
    if on_bad is None:
        raise InputError(reason, path, line) from None
    on_bad(BadRecord(line, reason, _without_ending(raw)))


def _jsonl_posts(source, on_bad: Optional[OnBad],
                 max_chars: Optional[int] = None) -> Iterator[Record]:
    """Checked posts of a JSON Lines file; returns (``StopIteration.value``) the number of
    records seen, bad ones included."""
    path = str(source)
    names = field_names_of(source)
    count = 0

    def undecodable(number: int, line: str, reason: str) -> bool:
        nonlocal count
        count += 1
        _reject(on_bad, path, number, reason, line)
        return False                     # skip the line: it is a whole record

    for number, line in numbered_lines(source, None if on_bad is None else undecodable):
        if not line.strip():
            continue                     # blank lines (a trailing newline, spacing) are fine
        count += 1
        try:
            check_depth(line)
            value = _DECODER.decode(line)
        except TooDeep as error:
            _reject(on_bad, path, number, str(error), line)
            continue
        except _NotStandardJson as error:
            _reject(on_bad, path, number, "not standard JSON: %s" % error, line)
            continue
        except ValueError as error:
            _reject(on_bad, path, number, "malformed JSON: %s%s"
                    % (getattr(error, "msg", error), _jsonl_hint(number, line)), line)
            continue
        if not isinstance(value, dict):
            _reject(on_bad, path, number, "expected a JSON object, found %s%s"
                    % (json_type(value), _jsonl_hint(number, line)), line)
            continue
        value = names.to_internal(value)
        problem = _post_field_problem(value, max_chars, names)
        if problem is not None:
            _reject(on_bad, path, number, problem, line)
            continue
        yield Record(number, value)
    return count


def _jsonl_hint(number: int, line: str) -> str:
    return _ARRAY_HINT if number == 1 and line.lstrip().startswith("[") else ""


def _csv_rows(source, on_bad: Optional[OnBad] = None, delimiter: str = ","
              ) -> Iterator[Tuple[int, Optional[List[str]], str, Optional[str]]]:
    """``(start_line, row, raw, problem)`` for every non-empty CSV (or, with a tab
    ``delimiter``, TSV) row; quoted fields may span lines.

    Without ``on_bad`` a malformed row or an undecodable line raises ``InputError``, and
    ``raw`` is ``""`` and ``problem`` None.  With it, ``raw`` is the record's physical
    lines and ``problem`` says what is wrong with them (``row`` is None when csv could
    not parse them).  An undecodable line is decoded with backslash escapes and still
    fed to csv, so that its quotes keep the record boundaries right.  A quoted field
    left open at the end of the file raises in both cases.
    """
    _allow_long_csv_fields()
    path = str(source)
    kind = "TSV" if delimiter == "\t" else "CSV"
    pending: List[str] = []              # physical lines of the record being read
    undecodable_lines: List[Tuple[int, str]] = []
    at_end = False

    def undecodable(number: int, line: str, reason: str) -> bool:
        undecodable_lines.append((number, reason))
        return True

    def lenient_lines() -> Iterator[str]:
        nonlocal at_end
        for _, line in numbered_lines(source, undecodable):
            pending.append(line)
            yield line
        at_end = True

    if on_bad is None:
        reader = csv.reader((line for _, line in numbered_lines(source)), strict=True,
                            delimiter=delimiter)
    else:
        reader = csv.reader(lenient_lines(), strict=True, delimiter=delimiter)
    consumed = 0                         # physical lines read before the current record
    while True:
        start = consumed + 1
        problem = None
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if on_bad is None or at_end:
                raise InputError("malformed %s: %s" % (kind, error), path, start) from None
            row, problem = None, "malformed %s: %s" % (kind, error)
        consumed = reader.line_num
        raw = ""
        if on_bad is not None:
            raw = "".join(pending)
            pending.clear()
            if undecodable_lines:
                number, problem = undecodable_lines[0]
                if number != start:
                    problem += " on line %d" % number
                undecodable_lines.clear()
        if row or problem is not None:   # csv yields [] for a blank line
            yield start, row, raw, problem


def _allow_long_csv_fields() -> None:
    # csv refuses fields over 128 KiB by default; a long post (or a pasted article) can
    # exceed that.  The limit is process-wide, so only ever raise it.
    wanted = 256 * 1024 * 1024
    if csv.field_size_limit() < wanted:
        csv.field_size_limit(wanted)


def _listed(names: Iterable[str], most: int = 20) -> str:
    """Field names for a one-line message: as written if printable, the first ``most``."""
    names = [name if isinstance(name, str) and name and name.isprintable() and name.strip() == name
             else repr(name) for name in names]
    more = " ... (%d more)" % (len(names) - most) if len(names) > most else ""
    return ", ".join(names[:most]) + more


def _check_header(header: List[str], names: FieldNames, kind: str, path: str,
                  line: Optional[int]) -> None:
    """A CSV/TSV header or Parquet columns must name the id and text fields, once each.
    A missing one is named with the columns there are and the option that names it."""
    missing = [(internal, name, option) for internal, name, option in (
        ("id", names.id, "--id-field"), ("text", names.text, "--text-field"))
        if name not in header]
    if len(missing) == 1:
        (internal, name, option), = missing
        what, hint = repr(name), "name the %s column with %s" % (internal, option)
    else:
        what = "%r or %r" % (names.id, names.text)
        hint = "name them with --id-field and --text-field"
    if missing:
        raise InputError("%s header has no %s column (columns: %s); %s"
                         % (kind, what, _listed(header), hint), path, line)
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise InputError("%s header repeats column %r" % (kind, duplicates[0]), path, line)


def _csv_posts(source, on_bad: Optional[OnBad], max_chars: Optional[int] = None,
               delimiter: str = ",") -> Iterator[Record]:
    """Checked posts of a CSV (or TSV) file; returns (``StopIteration.value``) the number
    of records seen, bad ones included.  Header problems always raise."""
    path = str(source)
    names = field_names_of(source)
    kind = "TSV" if delimiter == "\t" else "CSV"
    rows = _csv_rows(source, on_bad, delimiter)
    try:
        header_line, header, _, problem = next(rows)
    except StopIteration:
        return 0
    if problem is not None or header is None:
        raise InputError(problem or "malformed %s header" % kind, path, header_line)
    header = [name.strip() for name in header]
    _check_header(header, names, kind, path, header_line)
    header = list(names.to_internal(dict.fromkeys(header)))
    count = 0
    for line, row, raw, problem in rows:
        count += 1
        if problem is None:
            if len(row) != len(header):
                problem = ("expected %d fields as in the header, found %d"
                           % (len(header), len(row)))
            else:
                fields = dict(zip(header, row))
                problem = _post_field_problem(fields, max_chars, names)
                if problem is None:
                    yield Record(line, fields)
                    continue
        _reject(on_bad, path, line, problem, raw)
    return count


def _parquet_posts(source, on_bad: Optional[OnBad],
                   max_chars: Optional[int] = None) -> Iterator[Record]:
    """Checked posts of a Parquet file, a row's number (1-based) as its line; returns
    (``StopIteration.value``) the number of rows seen, bad ones included.  Missing or
    repeated columns always raise."""
    path = str(source)
    names = field_names_of(source)
    _check_header(parquet.column_names(source), names, "Parquet", path, None)
    count = 0
    for row, values in parquet.read_rows(source):
        count += 1
        fields = names.to_internal(values)
        problem = _post_field_problem(fields, max_chars, names)
        if problem is None:
            yield Record(row, fields)
        else:
            _reject(on_bad, path, row, problem, json_line(values))   # the row as JSON
    return count


def read_posts(source, fmt: Optional[str] = None, on_bad: Optional[OnBad] = None,
               max_chars: Optional[int] = None) -> Iterator[Record]:
    """The posts of a dump (JSON Lines, CSV or TSV with a header, each possibly gzip;
    Parquet), as ``Record``s, streamed. ``source`` is a path or a
    :class:`~mmbdeid.files.postfile.PostFile` (its format and field names). A post whose
    text is longer than ``max_chars`` is a bad record (its cost in memory and time grows
    with its length).

    Each record must have ``id`` (string or integer) and ``text`` (string), read from the
    fields the ``PostFile`` names; every other field is kept as it is, in input order.
    Optional fields (board, thread, author, parent, time) are not added when missing:
    use ``Record.get``.  ``fmt`` overrides the format found from the extension.

    Without ``on_bad`` the first bad record raises ``InputError`` (file and line).  With
    it, each bad record is passed to ``on_bad(BadRecord(line, reason, raw))``, in file
    order, and reading goes on with the next one.  Bad records are: malformed JSON, a
    JSON value that is not an object, a missing or invalid ``id`` / ``text``, a CSV row
    with the wrong number of fields or that csv cannot parse, and a line that is not
    UTF-8 (in CSV: the record holding it).  File-level problems raise ``InputError``
    even with ``on_bad``: a missing or unreadable file, a damaged gzip or Parquet file,
    an empty file (no records at all), a bad CSV header (unparsable, not UTF-8, no
    ``id`` / ``text`` column, a repeated column) and a CSV quoted field left open at the
    end of the file.  A file whose records are *all* bad is not an error with ``on_bad``:
    every record is reported and nothing is yielded (the caller shows 0 posts, N
    rejected).
    """
    kind = split_format(fmt or post_format(source))[0]
    if kind == PARQUET:
        count = yield from _parquet_posts(source, on_bad, max_chars)
    elif kind in DELIMITERS:
        count = yield from _csv_posts(source, on_bad, max_chars, DELIMITERS[kind])
    else:
        count = yield from _jsonl_posts(source, on_bad, max_chars)
    if count == 0:
        raise InputError("empty file: no records", str(source))


# Also importable from here, as before the formats had a module of their own.
__all__ = ["BadRecord", "CONLL_EXTENSIONS", "CSV_EXTENSIONS", "FieldNames", "JSONL_EXTENSIONS",
           "POST_FORMATS", "PostFile", "Record", "TSV_EXTENSIONS",
           "corpus_format", "numbered_lines", "post_format", "read_posts"]
