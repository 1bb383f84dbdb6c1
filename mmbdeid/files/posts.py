"""Reading and writing posts (JSON Lines or CSV with a header).

Every problem with an input file becomes an ``InputError`` naming the file and the 1-based
physical line (for a CSV record: the line where the record starts), because the command
line turns it into a one-line ``file:line: message`` and exit status 2.

Readers stream: files are read line by line, never whole, since a dump may hold millions
of posts.  Writers go through ``atomic_output`` so that an interrupted run never leaves a
half-written scrubbed file that looks complete.
Annotated posts and CoNLL corpora are read by :mod:`mmbdeid.files.corpora`.
"""
import csv
import json
import os
import re
from typing import (IO, Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple)

from ..errors import InputError

POST_FORMATS = ("jsonl", "csv")
JSONL_EXTENSIONS = (".jsonl", ".ndjson", ".json")
CSV_EXTENSIONS = (".csv",)
CONLL_EXTENSIONS = (".conll", ".txt", ".tsv", ".bio")
REQUIRED_FIELDS = ("id", "text")

_BOM = "\ufeff"


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


# --- low-level line reading -------------------------------------------------------------

def numbered_lines(path: str, undecodable: Optional[Callable[[int, str, str], bool]] = None
           ) -> Iterator[Tuple[int, str]]:
    """``(line_number, line)`` for each physical line, decoded as UTF-8, ending kept.

    Decoding line by line from a binary stream pins an undecodable byte to its line (a
    UTF-8 sequence never spans a newline byte) and lets reading go on after it.  A
    leading byte-order mark is dropped.  An undecodable line raises ``InputError``;
    with ``undecodable``, it is decoded with backslash escapes and handed to
    ``undecodable(line_number, line, reason)`` instead, and is yielded only if that
    returns true.
    """
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error), path) from None
    with handle:
        number = 0
        while True:
            try:
                raw = handle.readline()
            except OSError as error:
                raise InputError("cannot read file: %s" % (error.strerror or error),
                                 path, number + 1) from None
            if not raw:
                return
            number += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                reason = ("not UTF-8: undecodable byte 0x%02x at column %d"
                          % (raw[error.start], error.start + 1))
                if undecodable is None:
                    raise InputError(reason, path, number) from None
                line = raw.decode("utf-8", "backslashreplace")
                if not undecodable(number, line, reason):
                    continue
            if number == 1 and line.startswith(_BOM):
                line = line[len(_BOM):]
            yield number, line


def _first_meaningful_line(path: str) -> str:
    """The first non-blank line of the file ("" if there is none), for sniffing."""
    # An undecodable line is sniffed as decoded with escapes; the reader reports it.
    for _, line in numbered_lines(path, lambda number, line, reason: True):
        if line.strip():
            return line
    return ""


def _extension(path: str) -> str:
    return os.path.splitext(str(path))[1].lower()


def post_format(path: str) -> str:
    """``"jsonl"`` or ``"csv"``: by extension, else by the first non-blank character."""
    extension = _extension(path)
    if extension in JSONL_EXTENSIONS:
        return "jsonl"
    if extension in CSV_EXTENSIONS:
        return "csv"
    return "jsonl" if _first_meaningful_line(path).lstrip().startswith("{") else "csv"


def corpus_format(path: str) -> str:
    """``"conll"``, ``"jsonl"`` or ``"csv"``: by extension, else by sniffing the first line.

    Without a telling extension, a first line starting with ``{`` is JSON Lines, a CSV
    header naming ``id`` and ``text`` is CSV, and anything else is CoNLL.
    """
    extension = _extension(path)
    if extension in CONLL_EXTENSIONS:
        return "conll"
    if extension in JSONL_EXTENSIONS:
        return "jsonl"
    if extension in CSV_EXTENSIONS:
        return "csv"
    first = _first_meaningful_line(path)
    if first.lstrip().startswith("{"):
        return "jsonl"
    header = next(csv.reader([first]), [])
    if all(name in (cell.strip() for cell in header) for name in REQUIRED_FIELDS):
        return "csv"
    return "conll"


# --- posts ------------------------------------------------------------------------------

# Fields used as names (store keys, usernames, the person map): they must be real Unicode.
_NAME_FIELDS = ("id", "board", "thread", "author", "parent")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _NotStandardJson(ValueError):
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


def _post_field_problem(fields: Dict[str, Any], max_chars: Optional[int] = None) -> Optional[str]:
    """Why ``fields`` is not a post (``id`` string or integer, ``text`` string, at most
    ``max_chars`` characters long), or None."""
    if "id" not in fields:
        return "missing field 'id'"
    if "text" not in fields:
        return "missing field 'text'"
    post_id = fields["id"]
    if isinstance(post_id, bool) or not isinstance(post_id, (str, int)):
        return "field 'id' must be a string or an integer, not %s" % json_type(post_id)
    if post_id == "":
        return "field 'id' is empty"
    if not isinstance(fields["text"], str):
        return "field 'text' must be a string, not %s" % json_type(fields["text"])
    if max_chars is not None and len(fields["text"]) > max_chars:
        return ("field 'text' has %d characters, over the limit of %d (--max-post-chars)"
                % (len(fields["text"]), max_chars))
    for name in _NAME_FIELDS:
        value = fields.get(name)
        if isinstance(value, str) and _LONE_SURROGATE.search(value):
            return ("field %r is not valid Unicode (a lone surrogate such as \\ud800)"
                    % name)
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


def _jsonl_posts(path: str, on_bad: Optional[OnBad],
                 max_chars: Optional[int] = None) -> Iterator[Record]:
    """Checked posts of a JSON Lines file; returns (``StopIteration.value``) the number of
    records seen, bad ones included."""
    count = 0

    def undecodable(number: int, line: str, reason: str) -> bool:
        nonlocal count
        count += 1
        _reject(on_bad, path, number, reason, line)
        return False                     # skip the line: it is a whole record

    for number, line in numbered_lines(path, None if on_bad is None else undecodable):
        if not line.strip():
            continue                     # blank lines (a trailing newline, spacing) are fine
        count += 1
        try:
            value = _DECODER.decode(line)
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
        problem = _post_field_problem(value, max_chars)
        if problem is not None:
            _reject(on_bad, path, number, problem, line)
            continue
        yield Record(number, value)
    return count


def _jsonl_hint(number: int, line: str) -> str:
    return _ARRAY_HINT if number == 1 and line.lstrip().startswith("[") else ""


def _csv_rows(path: str, on_bad: Optional[OnBad] = None
              ) -> Iterator[Tuple[int, Optional[List[str]], str, Optional[str]]]:
    """``(start_line, row, raw, problem)`` for every non-empty CSV row; quoted fields may
    span lines.

    Without ``on_bad`` a malformed row or an undecodable line raises ``InputError``, and
    ``raw`` is ``""`` and ``problem`` None.  With it, ``raw`` is the record's physical
    lines and ``problem`` says what is wrong with them (``row`` is None when csv could
    not parse them).  An undecodable line is decoded with backslash escapes and still
    fed to csv, so that its quotes keep the record boundaries right.  A quoted field
    left open at the end of the file raises in both cases.
    """
    _allow_long_csv_fields()
    pending: List[str] = []              # physical lines of the record being read
    undecodable_lines: List[Tuple[int, str]] = []
    at_end = False

    def undecodable(number: int, line: str, reason: str) -> bool:
        undecodable_lines.append((number, reason))
        return True

    def lenient_lines() -> Iterator[str]:
        nonlocal at_end
        for _, line in numbered_lines(path, undecodable):
            pending.append(line)
            yield line
        at_end = True

    if on_bad is None:
        reader = csv.reader((line for _, line in numbered_lines(path)), strict=True)
    else:
        reader = csv.reader(lenient_lines(), strict=True)
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
                raise InputError("malformed CSV: %s" % error, path, start) from None
            row, problem = None, "malformed CSV: %s" % error
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


def _csv_posts(path: str, on_bad: Optional[OnBad],
               max_chars: Optional[int] = None) -> Iterator[Record]:
    """Checked posts of a CSV file; returns (``StopIteration.value``) the number of
    records seen, bad ones included.  Header problems always raise."""
    rows = _csv_rows(path, on_bad)
    try:
        header_line, header, _, problem = next(rows)
    except StopIteration:
        return 0
    if problem is not None or header is None:
        raise InputError(problem or "malformed CSV header", path, header_line)
    header = [name.strip() for name in header]
    for name in REQUIRED_FIELDS:
        if name not in header:
            raise InputError("CSV header has no %r column" % name, path, header_line)
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise InputError("CSV header repeats column %r" % duplicates[0], path, header_line)
    count = 0
    for line, row, raw, problem in rows:
        count += 1
        if problem is None:
            if len(row) != len(header):
                problem = ("expected %d fields as in the header, found %d"
                           % (len(header), len(row)))
            else:
                fields = dict(zip(header, row))
                problem = _post_field_problem(fields, max_chars)
                if problem is None:
                    yield Record(line, fields)
                    continue
        _reject(on_bad, path, line, problem, raw)
    return count


def read_posts(path: str, fmt: Optional[str] = None, on_bad: Optional[OnBad] = None,
               max_chars: Optional[int] = None) -> Iterator[Record]:
    """The posts of a dump (JSON Lines or CSV with a header), as ``Record``s, streamed.
    A post whose text is longer than ``max_chars`` is a bad record (its cost in memory and
    time grows with its length).

    Each record must have ``id`` (string or integer) and ``text`` (string); every other
    field is kept as it is, in input order.  Optional fields (board, thread, author,
    parent, time) are not added when missing: use ``Record.get``.  ``fmt`` overrides
    the format found from the extension.

    Without ``on_bad`` the first bad record raises ``InputError`` (file and line).  With
    it, each bad record is passed to ``on_bad(BadRecord(line, reason, raw))``, in file
    order, and reading goes on with the next one.  Bad records are: malformed JSON, a
    JSON value that is not an object, a missing or invalid ``id`` / ``text``, a CSV row
    with the wrong number of fields or that csv cannot parse, and a line that is not
    UTF-8 (in CSV: the record holding it).  File-level problems raise ``InputError``
    even with ``on_bad``: a missing or unreadable file, an empty file (no records at
    all), a bad CSV header (unparsable, not UTF-8, no ``id`` / ``text`` column, a
    repeated column) and a CSV quoted field left open at the end of the file.  A file
    whose records are *all* bad is not an error with ``on_bad``: every record is
    reported and nothing is yielded (the caller shows 0 posts, N rejected).
    """
    fmt = fmt or post_format(path)
    posts = _jsonl_posts if fmt == "jsonl" else _csv_posts
    count = yield from posts(path, on_bad, max_chars)
    if count == 0:
        raise InputError("empty file: no records", path)


# --- writing ----------------------------------------------------------------------------

class RecordWriter:
    """Writes records as JSON Lines or CSV to an open text handle.

    JSONL keeps each record's field order and non-ASCII text as is.  CSV's header is
    ``fieldnames`` or else the first record's fields; later records may lack a field
    (written empty) but may not add one.  Non-string CSV values are written as JSON
    (``spans`` lists come out as the JSON string column ``read_annotated`` expects).
    """

    def __init__(self, handle: IO[str], fmt: str, fieldnames: Optional[Sequence[str]] = None):
        if fmt not in POST_FORMATS:
            raise ValueError("unknown output format %r (expected jsonl or csv)" % fmt)
        self.handle = handle
        self.format = fmt
        self.fieldnames = list(fieldnames) if fieldnames is not None else None
        self._csv = csv.writer(handle, lineterminator="\r\n") if fmt == "csv" else None
        if self._csv is not None and self.fieldnames is not None:
            self._csv.writerow(self.fieldnames)

    def write(self, record) -> None:
        """Write a ``Record`` (or a plain field dict)."""
        fields = record.fields if isinstance(record, Record) else record
        if self.format == "jsonl":
            line = json.dumps(fields, ensure_ascii=False, allow_nan=False)
            # U+2028/9 are legal in JSON but split lines for str.splitlines-based readers.
            line = line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
            self.handle.write(line + "\n")
            return
        if self.fieldnames is None:
            self.fieldnames = list(fields)
            self._csv.writerow(self.fieldnames)
        unknown = [name for name in fields if name not in self.fieldnames]
        if unknown:
            raise ValueError("field %r is not in the CSV header %r" % (unknown[0], self.fieldnames))
        self._csv.writerow([_csv_cell(fields.get(name)) for name in self.fieldnames])


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, allow_nan=False)
