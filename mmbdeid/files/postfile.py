"""A posts file as the command line names it: its path, its format and the names of its id
and text fields (``--id-field``, ``--text-field``).

Inside mmbdeid a post's id and text are always the fields ``id`` and ``text``: readers
rename the dump's own fields to these on the way in and writers rename them back on the
way out, so a dump whose text is in ``body`` comes out with its text in ``body``. The
renaming is a permutation of field names: a dump with both ``body`` (the text, by
``--text-field body``) and a field called ``text`` keeps both, swapped inside and swapped
back on output.
"""
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, Optional, Tuple, Union

from ..errors import MmbdeidValueError

DEFAULT_ID, DEFAULT_TEXT = "id", "text"


@dataclass(frozen=True)
class FieldNames:
    """The dump's names of the fields read as a post's ``id`` and ``text``."""
    id: str = DEFAULT_ID
    text: str = DEFAULT_TEXT

    def __post_init__(self):
        if not self.id or not self.text:
            raise MmbdeidValueError("a field name may not be empty")
        if self.id == self.text:
            raise MmbdeidValueError("the id and the text field are both %r" % self.id)

    @property
    def is_default(self) -> bool:
        return (self.id, self.text) == (DEFAULT_ID, DEFAULT_TEXT)

    def external(self, internal: str) -> str:
        """The dump's name of a field named ``internal`` inside mmbdeid (for messages)."""
        return _renaming(self.id, self.text)[1].get(internal, internal)

    def to_internal(self, fields: Dict[str, Any]) -> Dict[str, Any]:
        """``fields`` as read, renamed for mmbdeid; order kept."""
        if self.is_default:
            return fields
        inward = _renaming(self.id, self.text)[0]
        return {inward.get(name, name): value for name, value in fields.items()}

    def to_external(self, fields: Dict[str, Any]) -> Dict[str, Any]:
        """``fields`` renamed back to the dump's names; order kept."""
        if self.is_default:
            return fields
        outward = _renaming(self.id, self.text)[1]
        return {outward.get(name, name): value for name, value in fields.items()}


@lru_cache(maxsize=None)
def _renaming(id_field: str, text_field: str) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(dump name -> mmbdeid name, mmbdeid name -> dump name): ``id_field`` -> ``id``,
    ``text_field`` -> ``text``, and the dump's own ``id``/``text`` fields, if any, to the
    names left free, so that no field is lost."""
    inward = {id_field: DEFAULT_ID, text_field: DEFAULT_TEXT}
    freed = [name for name in (DEFAULT_ID, DEFAULT_TEXT) if name not in inward]
    taken = [name for name in (id_field, text_field) if name not in (DEFAULT_ID, DEFAULT_TEXT)]
    inward.update(zip(freed, taken))
    return inward, {inside: outside for outside, inside in inward.items()}


@dataclass(frozen=True)
class PostFile:
    """A posts file and how to read it. ``format`` None: from the extension, else sniffed.
    ``name`` is what messages call it (``<stdin>`` for a spooled standard input);
    ``origin``, the :class:`~mmbdeid.files.stdio.Origin` a spooled copy was read from
    (no output may go there).

    It is path-like (``os.fspath`` gives ``path``) and prints as ``name``, so it can be
    handed to code that expects a path and errors still name the file the user gave."""
    path: str
    format: Optional[str] = None
    fields: FieldNames = field(default_factory=FieldNames)
    name: Optional[str] = None
    origin: Optional[Any] = None

    def __fspath__(self) -> str:
        return self.path

    def __str__(self) -> str:
        return self.name or self.path


Source = Union[str, "os.PathLike[str]", PostFile]


def field_names_of(source: Source) -> FieldNames:
    """The field names of ``source``: a ``PostFile``'s, else the defaults."""
    return source.fields if isinstance(source, PostFile) else FieldNames()


def format_of(source: Source) -> Optional[str]:
    """The format a ``PostFile`` was given, else None."""
    return source.format if isinstance(source, PostFile) else None
