"""Writing records: JSON Lines, CSV, TSV (each optionally gzipped) and Parquet, in the
dump's own field names and order (:class:`RecordWriter`, :func:`post_output`)."""
import contextlib
import csv
import json
import math
from typing import IO, Any, Iterator, List, Optional, Sequence

from ..errors import MmbdeidValueError
from .atomic import atomic_binary_output, atomic_output
from .formats import PARQUET, TEXT_KINDS, post_format, split_format
from .postfile import FieldNames, field_names_of, format_of
from . import parquet

DELIMITERS = {"csv": ",", "tsv": "\t"}

class RecordWriter:
    """Writes records as JSON Lines, CSV or TSV to an open text handle.

    JSONL keeps each record's field order and non-ASCII text as is.  CSV's header is
    ``fieldnames`` or else the first record's fields; later records may lack a field
    (written empty) but may not add one.  Non-string CSV values are written as JSON
    (``spans`` lists come out as the JSON string column ``read_annotated`` expects).
    TSV is CSV with tabs: a value holding a tab, a line break or a double quote is quoted.
    Fields are written under the dump's own names (``names``); values JSON cannot hold
    as they are (dates, NaN from a Parquet dump) are written as text and null.
    """

    def __init__(self, handle: IO[str], fmt: str, fieldnames: Optional[Sequence[str]] = None,
                 names: FieldNames = FieldNames()):
        fmt = split_format(fmt)[0]       # compression is the handle's business
        if fmt not in TEXT_KINDS:
            raise MmbdeidValueError("unknown output format %r (expected %s)"
                                    % (fmt, ", ".join(TEXT_KINDS)))
        self.handle = handle
        self.format = fmt
        self.names = names
        self.fieldnames = list(fieldnames) if fieldnames is not None else None
        self._csv = None
        if fmt in DELIMITERS:
            self._csv = csv.writer(handle, delimiter=DELIMITERS[fmt],
                                   lineterminator="\r\n" if fmt == "csv" else "\n")
        if self._csv is not None and self.fieldnames is not None:
            self._write_header()

    def _write_header(self) -> None:
        self._csv.writerow([self.names.external(name) for name in self.fieldnames])

    def write(self, record) -> None:
        """Write a ``Record`` (or a plain field dict), fields named as inside mmbdeid."""
        fields = getattr(record, "fields", record)     # a Record, or a field dict
        if self.format == "jsonl":
            line = json_line(self.names.to_external(fields))
            # U+2028/9 are legal in JSON but split lines for str.splitlines-based readers.
            line = line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
            self.handle.write(line + "\n")
            return
        if self.fieldnames is None:
            self.fieldnames = list(fields)
            self._write_header()
        unknown = [name for name in fields if name not in self.fieldnames]
        if unknown:
            raise MmbdeidValueError("field %r is not in the CSV header %r"
                                    % (unknown[0], self.fieldnames))
        self._csv.writerow([_csv_cell(fields.get(name)) for name in self.fieldnames])


def json_line(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_json_default)
    except ValueError:                   # NaN or infinity, possible in a Parquet dump
        return json.dumps(_finite(value), ensure_ascii=False, allow_nan=False,
                          default=_json_default)


def _json_default(value: Any) -> Any:
    """What JSON cannot hold as it is (a Parquet dump's dates, decimals, bytes) as text."""
    if isinstance(value, (bytes, bytearray)):
        return value.decode("utf-8", "backslashreplace")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinite floats as None (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json_line(value)


@contextlib.contextmanager
def post_output(path: str, fmt: str, field_names: Optional[Sequence[str]] = None,
                like=None, column_kinds: Optional[dict] = None,
                private: bool = False, text_fields: Sequence[str] = ()) -> Iterator[Any]:
    """A writer of posts (``.write(record)``) to ``path`` in format ``fmt``, all or
    nothing (``-``: standard output, not atomic).

    ``field_names``: every field of the dump, named as inside mmbdeid, in order (a
    CSV/TSV header, Parquet columns). ``like``: the dump (a path or a ``PostFile``):
    records are written under its field names, and a Parquet output from a Parquet dump
    copies its schema. ``column_kinds``: the Python types seen in each field
    (:class:`~mmbdeid.files.parquet.ColumnKinds`), for the column types of a Parquet
    output from another format. ``text_fields``: fields written as text whatever the
    dump held (the author a mode rewrites): string columns in Parquet.
    """
    names = field_names_of(like) if like is not None else FieldNames()
    kind, compressed = split_format(fmt)
    if kind != PARQUET:
        with atomic_output(path, private, compressed=compressed) as handle:
            yield RecordWriter(handle, kind, field_names if kind in DELIMITERS else None,
                               names)
        return
    columns = [names.external(name) for name in (field_names or [])]
    kinds = {names.external(name): types for name, types in (column_kinds or {}).items()}
    schema, json_columns = parquet.output_schema(
        columns, path, _parquet_schema(like), kinds, _text_columns(names, text_fields))
    with atomic_binary_output(path, private) as handle:
        writer = _ParquetRecords(parquet.ParquetPostWriter(handle, path, schema,
                                                           json_columns), names)
        try:
            yield writer
            writer.parquet.close()
        except BaseException:
            writer.parquet.abandon()
            raise


def check_post_output(path: str, fmt: str, like, text_fields: Sequence[str] = ()) -> None:
    """Before any work, what a Parquet output's schema can be known from: a Parquet
    dump's columns, with ``text_fields`` as string columns, must make a Parquet file
    (an ``InputError`` naming ``path`` if not). From another format the columns are
    typed by what pass 1 sees, each to hold all its values (see :mod:`.parquet`)."""
    schema = _parquet_schema(like) if split_format(fmt)[0] == PARQUET else None
    if schema is not None:
        schema, _ = parquet.output_schema([], path, schema, None,
                                          _text_columns(field_names_of(like), text_fields))
        parquet.check_writable(schema, path)


def _parquet_schema(like):
    """The Arrow schema of the dump ``like`` if it is Parquet, else None."""
    if like is not None and (format_of(like) or post_format(like)) == PARQUET:
        return parquet.arrow_schema(like)
    return None


def _text_columns(names: FieldNames, text_fields: Sequence[str]) -> List[str]:
    """The dump's names of the columns written as text: the post's text always."""
    return [names.external(name) for name in ("text", *text_fields)]


class _ParquetRecords:
    """``RecordWriter``'s ``write`` for Parquet: fields renamed to the dump's names."""

    def __init__(self, writer: "parquet.ParquetPostWriter", names: FieldNames):
        self.parquet = writer
        self.names = names

    def write(self, record) -> None:
        fields = getattr(record, "fields", record)     # a Record, or a field dict
        self.parquet.write(self.names.to_external(fields))
