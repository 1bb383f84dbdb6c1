"""Posts in Parquet, through pyarrow: an optional dependency (``pip install 'mmbdeid[parquet]'``).

Rows are read in batches (``ParquetFile.iter_batches``), so a big file is never loaded
whole. A row's number (1-based) is its "line" in error messages and reject files.

An output keeps the input's columns and types when the input is Parquet too (the text
column gets the scrubbed text). From another format, each column's type comes from the
values pass 1 saw (:class:`ColumnKinds`): strings, integers, floats, booleans; a column
mixing kinds, holding lists or objects or an integer beyond 64 bits is JSON text, as in a
CSV output. Either way a column the run writes text into whatever it held (the author,
rewritten by most modes: ``text_columns``) is a string column, so the output's schema is
known before any work (:func:`output_schema`) and every value written fits it.
"""
import json
import os
from typing import IO, Any, Collection, Dict, Iterator, List, Optional, Set, Tuple

from ..errors import InputError
from .lines import LONE_SURROGATE, first_bytes
from .postfile import field_names_of

INSTALL_HINT = "reading or writing Parquet needs pyarrow: pip install 'mmbdeid[parquet]'"
BATCH_ROWS = 4096                  # rows per read batch
FLUSH_ROWS = 10_000                # rows per written row group, at most
FLUSH_CHARS = 64 * 1024 * 1024     # ... or this much text, whichever comes first
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


def pyarrow_modules(where=None):
    """``(pyarrow, pyarrow.parquet)``, or an ``InputError`` saying how to install them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise InputError(INSTALL_HINT, None if where is None else str(where)) from None
    return pyarrow, pyarrow.parquet


def _open(source):
    pa, pq = pyarrow_modules(source)
    first_bytes(source)     # a missing or unreadable file is said so, as of every input
    try:
        return pq.ParquetFile(os.fspath(source))
    except (OSError, pa.ArrowException) as error:
        raise InputError("not a readable Parquet file: %s" % error, str(source)) from None


def arrow_schema(source):
    """The Arrow schema of a Parquet file (what an output copies)."""
    return _open(source).schema_arrow


def column_names(source) -> List[str]:
    """The columns of a Parquet file, in order."""
    return list(_open(source).schema_arrow.names)


def read_rows(source) -> Iterator[Tuple[int, Dict[str, Any]]]:
    """``(row_number, fields)`` for every row, 1-based, fields in column order, read batch
    by batch. A damaged file is an ``InputError`` at the first row not read."""
    pa, _ = pyarrow_modules(source)
    batches = _open(source).iter_batches(batch_size=BATCH_ROWS)
    row = 0
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (OSError, pa.ArrowException) as error:
            raise InputError("cannot read Parquet data: %s" % error, str(source),
                             row + 1) from None
        for fields in batch.to_pylist():
            row += 1
            yield row, fields


# --- writing ----------------------------------------------------------------------------

class _WideInt(int):
    """The kind of an integer beyond 64 bits: no Parquet integer column holds it."""


class ColumnKinds:
    """The Python types seen in each field of the records (pass 1), for the column types
    of a Parquet output written from JSON Lines or CSV. ``source``: the dump, for errors.

    A string holding a lone surrogate (JSON's ``"\\ud800"``) cannot be written as Parquet
    text, which is UTF-8: :meth:`observe` refuses it at once, naming the field and line,
    rather than the output failing after all the work."""

    def __init__(self, source=None):
        self.kinds: Dict[str, Set[type]] = {}
        self.source = source

    def observe(self, fields: Dict[str, Any], line: Optional[int] = None) -> None:
        kinds = self.kinds
        for name, value in fields.items():
            kind = type(value)
            if kind is int and not INT64_MIN <= value <= INT64_MAX:
                kind = _WideInt
            elif kind is str and LONE_SURROGATE.search(value):
                self._refuse_surrogate(name, line)
            seen = kinds.get(name)
            if seen is None:
                if LONE_SURROGATE.search(name):         # a column's name is text too
                    self._refuse_surrogate(name, line, "the name of field")
                kinds[name] = {kind}
            else:
                seen.add(kind)

    def _refuse_surrogate(self, name: str, line: Optional[int], what: str = "field") -> None:
        where = None if self.source is None else str(self.source)
        raise InputError("%s %r is not valid Unicode (a lone surrogate such as \\ud800), "
                         "which Parquet text cannot hold: write JSON Lines or CSV instead"
                         % (what, field_names_of(self.source).external(name)), where, line)


def output_schema(columns: List[str], where: str, schema=None,
                  kinds: Optional[Dict[str, Set[type]]] = None,
                  text_columns: Collection[str] = ()) -> Tuple[Any, List[str]]:
    """(the Arrow schema of a Parquet output, the columns written as JSON text).

    ``schema``: an input Parquet file's, copied; else one column per name of ``columns``,
    typed by the ``kinds`` of its values. A column of ``text_columns`` (the dump's names)
    gets text whatever it held (an integer author, rewritten by the mode): it is a string
    column, unless the input's is one already."""
    pa, _ = pyarrow_modules(where)
    if schema is not None:
        for name in text_columns:
            index = schema.get_field_index(name)
            if index >= 0 and not _holds_text(pa, schema.field(index).type):
                # (a pandas index in the schema's metadata still reads: the column types
                # pandas noted there are not used to read it)
                schema = schema.set(index, schema.field(index).with_type(pa.string()))
        return schema, []
    fields, json_columns = [], []
    for name in columns:
        seen = {str} if name in text_columns else (kinds or {}).get(name, {str})
        arrow_type, as_json = _column_type(pa, seen)
        fields.append(pa.field(name, arrow_type))
        if as_json:
            json_columns.append(name)
    return pa.schema(fields), json_columns


def check_writable(schema, where: str) -> None:
    """An ``InputError`` now, before any work, if no Parquet file can have ``schema``."""
    pa, pq = pyarrow_modules(where)
    try:
        pq.ParquetWriter(pa.BufferOutputStream(), schema).close()
    except (pa.ArrowException, ValueError, TypeError) as error:
        raise InputError("cannot be written as Parquet with the columns %s (%s): write "
                         "JSON Lines instead" % (_describe(schema), error), where) from None


def _holds_text(pa, arrow_type) -> bool:
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return (pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)
            or getattr(pa.types, "is_string_view", lambda _: False)(arrow_type))


def _column_type(pa, kinds: Set[type]):
    """(Arrow type, whether values are written as JSON text)."""
    kinds = kinds - {type(None)}
    if kinds <= {str}:
        return pa.string(), False
    if kinds == {bool}:
        return pa.bool_(), False
    if kinds == {int}:
        return pa.int64(), False
    if kinds <= {int, float}:
        return pa.float64(), False
    return pa.string(), True


def _json_text(value: Any) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class ParquetPostWriter:
    """Writes records (field dicts, the dump's own field names) to a binary handle as
    Parquet, in row groups of at most ``FLUSH_ROWS`` rows, with the ``schema`` and
    ``json_columns`` of :func:`output_schema`. Call ``close`` to write the footer."""

    def __init__(self, handle: IO[bytes], where: str, schema,
                 json_columns: Collection[str] = ()):
        self._pa, pq = pyarrow_modules(where)
        self._where = where
        self._json_columns = list(json_columns)
        self._schema = schema
        self._writer = pq.ParquetWriter(handle, schema)
        self._rows: List[Dict[str, Any]] = []
        self._chars = 0
        self._first_row = 1

    def write(self, fields: Dict[str, Any]) -> None:
        if self._json_columns:
            fields = dict(fields)
            for name in self._json_columns:
                if name in fields:
                    fields[name] = _json_text(fields[name])
        self._rows.append(fields)
        self._chars += sum(len(value) for value in fields.values() if isinstance(value, str))
        if len(self._rows) >= FLUSH_ROWS or self._chars >= FLUSH_CHARS:
            self._flush()

    def _flush(self) -> None:
        if not self._rows:
            return
        try:
            table = self._pa.Table.from_pylist(self._rows, schema=self._schema)
        except (self._pa.ArrowException, OverflowError, TypeError, ValueError) as error:
            # (not expected: output_schema fits every value read. pyarrow's message may
            # quote a value, and stderr holds no post text: its kind only)
            raise InputError("cannot write rows %d-%d as Parquet: %s (%s): write JSON "
                             "Lines instead"
                             % (self._first_row, self._first_row + len(self._rows) - 1,
                                self._misfit(), type(error).__name__),
                             self._where) from None
        self._writer.write_table(table)
        self._first_row += len(self._rows)
        self._rows, self._chars = [], 0

    def _misfit(self) -> str:
        """Which column the buffered values do not fit, for the message."""
        pa = self._pa
        for field in self._schema:
            try:
                pa.array([row.get(field.name) for row in self._rows], type=field.type)
            except Exception:   # noqa: BLE001 - any failure names the column
                return "a value of column %r does not fit its type %s" % (field.name,
                                                                          field.type)
        return "the columns %s" % _describe(self._schema)

    def close(self) -> None:
        """Write what is buffered and the footer."""
        self._flush()
        self._writer.close()

    def abandon(self) -> None:
        """Stop without writing the rest (the output is being thrown away)."""
        self._rows = []
        try:
            self._writer.close()
        except Exception:     # noqa: BLE001 - the output is discarded anyway
            pass


def _describe(schema) -> str:
    return ", ".join("%s: %s" % (f.name, f.type) for f in schema)

