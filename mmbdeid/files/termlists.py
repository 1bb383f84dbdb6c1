"""User term lists (allow / deny) read from files: plain text, one term per line, or the
``review`` command's list (CSV, TSV or JSON Lines, as it writes them; each may be .gz).

A reviewer keeps two lists: *allow* terms the model should leave alone (``Arthur C.
Clarke``, a drug the model keeps tagging) and *deny* terms that must always go (a
username the model misses).  How they are applied: :mod:`mmbdeid.detect.lists`.
"""
from __future__ import annotations

import csv
import json
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import InputError
from .spreadsheet import from_spreadsheet_text
from ..text.terms import normalize_term, parse_entry
from .formats import PARQUET, extension_format, split_format
from .lines import numbered_lines

CSV_TERM_COLUMN = "string"   # the column of the ``review`` command's list we read


def load_terms(path: str) -> List[str]:
    """The terms of a user's list file, in file order, duplicates dropped.

    A ``.csv`` or ``.tsv`` file is read as ``review`` output: a header with a ``string``
    column, whose cells are the terms (other columns ignored; the apostrophe that keeps a
    spreadsheet from reading ``@name`` as a formula is dropped); a ``.jsonl`` file too, one
    object a line with a ``string`` key. Any other file is plain text, one term per line;
    blank lines and ``#`` comment lines are skipped, and an entry with an unknown context
    (``Hope | nme``: see :func:`~mmbdeid.text.terms.parse_entry`) raises ``InputError``. Each may be gzip-compressed.  Terms are
    whitespace-normalised (``normalize_term``); empty cells are skipped; spellings that
    differ in case are all kept (a case-sensitive matcher needs each).  An unreadable,
    missing or non-UTF-8 file, or a CSV without a ``string`` column, raises
    ``InputError`` naming the file (and line).
    """
    fmt = extension_format(path)
    kind = split_format(fmt)[0] if fmt else None
    if kind == PARQUET:
        raise InputError("a term list is text, or a review list as CSV, TSV or JSON Lines; "
                         "not Parquet", path)
    lines = list(numbered_lines(path))
    if kind in ("csv", "tsv"):
        terms = _csv_terms(path, lines, "\t" if kind == "tsv" else ",")
    elif kind == "jsonl":
        terms = _jsonl_terms(path, lines)
    else:
        terms = (_checked(path, number, line) for number, line in lines
                 if line.strip() and not line.lstrip().startswith("#"))
    unique: Dict[str, None] = {}   # a dict keeps first-seen order
    for term in terms:
        term = normalize_term(term)
        if term:
            unique.setdefault(term)
    return list(unique)


def _checked(path: str, number: int, line: str) -> str:
    """``line``, an entry whose context (``Hope | name``) is a known one."""
    try:
        parse_entry(line)
    except ValueError as error:
        raise InputError(str(error), path, number) from None
    return line


def _jsonl_terms(path: str, lines: Sequence[Tuple[int, str]]) -> Iterator[str]:
    for number, line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise InputError("invalid JSON: %s" % error, path, number) from None
        if not isinstance(row, dict) or not isinstance(row.get(CSV_TERM_COLUMN), str):
            raise InputError("no %r string (expected the output of 'mmbdeid review')"
                             % CSV_TERM_COLUMN, path, number)
        yield row[CSV_TERM_COLUMN]


def _csv_terms(path: str, lines: Sequence[Tuple[int, str]], delimiter: str) -> Iterator[str]:
    reader = csv.reader((line for _, line in lines), delimiter=delimiter, strict=True)
    column: Optional[int] = None
    header_line = 0
    while True:
        start = reader.line_num + 1          # physical line the next record starts on
        try:
            row = next(reader)
        except StopIteration:
            return                            # an empty file is an empty list
        except csv.Error as error:
            raise InputError("malformed CSV: %s" % error, path, start) from None
        if not row:
            continue                          # blank line
        if column is None:
            header = [cell.strip() for cell in row]
            if CSV_TERM_COLUMN not in header:
                raise InputError("the header has no %r column (expected the output of "
                                 "'mmbdeid review')" % CSV_TERM_COLUMN, path, start)
            column, header_line = header.index(CSV_TERM_COLUMN), start
            continue
        if column >= len(row):
            raise InputError("row has %d fields, no %r (column %d of the header on line %d)"
                             % (len(row), CSV_TERM_COLUMN, column + 1, header_line),
                             path, start)
        yield from_spreadsheet_text(row[column])
