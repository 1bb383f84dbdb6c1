"""Annotation tools' files: Label Studio's JSON export and doccano's JSON Lines, read as
and written from posts with spans (:class:`Tagged`).

Label Studio's export is a JSON array of tasks: ``data`` holds the post's fields (its
``text``), ``annotations[].result[]`` (or, with no annotation, ``predictions[]``) the
spans, as ``{"value": {"start", "end", "text", "labels": [...]}, "from_name", "to_name",
"type": "labels"}``. Its offsets are JavaScript string indices, UTF-16 code units: an
emoji outside the Basic Multilingual Plane counts 2. doccano's export has one post a
line with ``text`` and ``label: [[start, end, "LABEL"], ...]`` (sequence labelling), or
newer doccano's ``entities: [{"start_offset", "end_offset", "label"}]``, beside any other
keys; its offsets are code points (Python's), as mmbdeid's. Offsets are converted to code
points on the way in and back on the way out, so they are exact on astral characters.
"""
import json
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

from ..errors import InputError
from ..kinds import LABELS
from .jsondepth import TooDeep, check_depth
from .lines import first_meaningful_line, numbered_lines
from .posts import _DECODER, json_type

LABELSTUDIO, DOCCANO = "labelstudio", "doccano"
UTF16, CODEPOINTS = "utf16", "codepoints"
DEFAULT_OFFSETS = {LABELSTUDIO: UTF16, DOCCANO: CODEPOINTS}
# Other tools' names of our labels (compared in upper case); ours map to themselves.
_KNOWN_LABELS = {"PERSON": "NAME", "PER": "NAME", "USERNAME": "USER"}
_SPAN_KEYS = ("start", "end", "label")


class Tagged(NamedTuple):
    """A post read from any annotated format: its line (or the line its task starts
    on), its fields without the spans, and its spans as dicts (``start``, ``end`` in code
    points, ``label``, and any other key a span carries, such as ``person``)."""
    line: int
    fields: Dict[str, Any]
    spans: List[Dict[str, Any]]
    spans_at: Optional[int] = None      # the spans' place among the fields (None: last)


def default_label(label: str) -> str:
    """PERSON, PER, person → NAME; USERNAME → USER; our own labels as they are."""
    upper = str(label).upper()
    if upper in LABELS:
        return upper
    return _KNOWN_LABELS.get(upper, label)


# --- offsets ----------------------------------------------------------------------------

def utf16_positions(text: str) -> List[int]:
    """The UTF-16 offset of each code-point offset of ``text`` (``len(text) + 1`` items)."""
    positions, unit = [0], 0
    for character in text:
        unit += 2 if ord(character) > 0xFFFF else 1
        positions.append(unit)
    return positions


def to_code_points(text: str, start: int, end: int, units: str) -> Optional[tuple]:
    """``(start, end)`` in code points from offsets in ``units``; None when an offset is
    outside the text or splits a surrogate pair."""
    if units == CODEPOINTS:
        return (start, end) if 0 <= start < end <= len(text) else None
    index = {unit: point for point, unit in enumerate(utf16_positions(text))}
    if start not in index or end not in index or index[start] >= index[end]:
        return None
    return index[start], index[end]


def from_code_points(text: str, start: int, end: int, units: str) -> tuple:
    if units == CODEPOINTS:
        return start, end
    positions = utf16_positions(text)
    return positions[start], positions[end]


def _offsets(text: str, start: Any, end: Any, units: str, where: str, path: str,
             line: int) -> tuple:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        raise InputError("%s: start and end must be integers" % where, path, line)
    points = to_code_points(text, start, end, units)
    if points is None:
        raise InputError("%s: offsets %d-%d (%s) outside the text (%d code points), "
                         "empty or inside a character" % (where, start, end, units,
                                                          len(text)), path, line)
    return points


# --- reading ----------------------------------------------------------------------------

def sniff_tool(source) -> Optional[str]:
    """``labelstudio`` (a JSON array, or tasks with ``data``), ``doccano`` (``text``
    with a ``label`` or ``entities`` list and no ``spans``) or None, from the first
    line."""
    line = first_meaningful_line(source).strip()
    if line.startswith("["):
        return LABELSTUDIO
    if not line.startswith("{"):
        return None
    try:
        first = json.loads(line)
    except ValueError:
        return None
    if not isinstance(first, dict):
        return None
    if isinstance(first.get("data"), dict) and ("annotations" in first
                                                or "predictions" in first):
        return LABELSTUDIO
    if "text" in first and "spans" not in first and (isinstance(first.get("label"), list)
                                                     or isinstance(first.get("entities"),
                                                                   list)):
        return DOCCANO
    return None


def _decode(text: str, path: str, line: int) -> Any:
    try:
        check_depth(text)
        return _DECODER.decode(text)
    except TooDeep as error:
        raise InputError(str(error), path, line) from None
    except ValueError as error:
        raise InputError("malformed JSON: %s" % getattr(error, "msg", error),
                         path, line) from None


def _json_items(source) -> Iterator[tuple]:
    """``(line, value)`` of each item of a JSON array file, or of each line of a JSON
    Lines file."""
    path = str(source)
    lines = list(numbered_lines(source))
    whole = "".join(line for _, line in lines)
    if not whole.lstrip().startswith("["):
        for number, line in lines:
            if line.strip():
                yield number, _decode(line, path, number)
        return
    value = _decode(whole, path, 1)       # a whole export: checked, then walked for lines
    if not isinstance(value, list):
        raise InputError("expected a JSON array of tasks", path, 1)
    decoder, position = json.JSONDecoder(), whole.index("[") + 1
    for _ in value:
        while whole[position] in " \t\r\n,":
            position += 1
        item, end = decoder.raw_decode(whole, position)
        yield whole.count("\n", 0, position) + 1, item
        position = end


def read_labelstudio(source, units: str = UTF16) -> Iterator[Tagged]:
    """The tasks of a Label Studio JSON export: ``data`` as the fields (the task's ``id``
    first when ``data`` has none), spans from the first annotation not cancelled, else
    from the first prediction; only ``labels`` results with offsets are spans."""
    path = str(source)
    count = 0
    for line, task in _json_items(source):
        count += 1
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            raise InputError("a Label Studio task must be an object with a 'data' object, "
                             "not %s" % json_type(task), path, line)
        fields = dict(task["data"])
        text = fields.get("text")
        if not isinstance(text, str):
            raise InputError("task has no string 'data.text'", path, line)
        if "id" not in fields and "id" in task:
            fields = dict([("id", task["id"])] + list(fields.items()))
        results = _chosen_results(task, path, line)
        spans = []
        for index, result in enumerate(results):
            value = result.get("value") if isinstance(result, dict) else None
            if not isinstance(value, dict) or "start" not in value or "labels" not in value:
                continue                    # a choice, a relation, a text area: not a span
            where = "result[%d]" % index
            labels = value["labels"]
            if not isinstance(labels, list) or len(labels) != 1:
                raise InputError("%s: 'labels' must hold one label" % where, path, line)
            start, end = _offsets(text, value["start"], value.get("end"), units, where,
                                  path, line)
            shown = value.get("text")
            if isinstance(shown, str) and shown != text[start:end]:
                # the text itself is not echoed: it may be a name
                raise InputError("%s: value.text is not the text at %d-%d (offsets read "
                                 "as %s: see --offsets)" % (
                                     where, value["start"], value["end"], units),
                                 path, line)
            extra = result.get("meta") if isinstance(result.get("meta"), dict) else {}
            spans.append(dict(start=start, end=end, label=labels[0],
                              **{k: v for k, v in extra.items() if k not in _SPAN_KEYS}))
        yield Tagged(line, fields, spans)
    if count == 0:
        raise InputError("empty file: no tasks", path)


def _chosen_results(task: dict, path: str, line: int) -> list:
    for key in ("annotations", "predictions"):
        entries = task.get(key) or []
        if not isinstance(entries, list):
            raise InputError("'%s' must be a list" % key, path, line)
        for entry in entries:
            if isinstance(entry, dict) and not entry.get("was_cancelled"):
                results = entry.get("result") or []
                if not isinstance(results, list):
                    raise InputError("'%s[].result' must be a list" % key, path, line)
                return results
    return []


def read_doccano(source, units: str = CODEPOINTS) -> Iterator[Tagged]:
    """The posts of a doccano JSON Lines export; ``label`` (or ``entities``) becomes the
    spans, in its place among the fields; every other key is kept."""
    path = str(source)
    count = 0
    for line, value in _json_items(source):
        count += 1
        if not isinstance(value, dict) or not isinstance(value.get("text"), str):
            raise InputError("a doccano line must be an object with a string 'text'",
                             path, line)
        if "spans" in value:
            raise InputError("a doccano line has a 'spans' field: it is annotated JSONL "
                             "(--from jsonl)", path, line)
        key = "entities" if "entities" in value and "label" not in value else "label"
        items = value.get(key, [])
        if not isinstance(items, list):
            raise InputError("'%s' must be a list, not %s" % (key, json_type(items)),
                             path, line)
        spans = [_doccano_span(item, value["text"], units, "%s[%d]" % (key, index),
                               path, line) for index, item in enumerate(items)]
        fields = {name: field for name, field in value.items() if name != key}
        yield Tagged(line, fields, spans, list(value).index(key) if key in value else None)
    if count == 0:
        raise InputError("empty file: no documents", path)


def read_tool(source, tool: str, units: Optional[str] = None) -> Iterator[Tagged]:
    """The posts of a ``labelstudio`` or ``doccano`` file, offsets read in ``units``
    (default: the tool's own)."""
    reader = read_labelstudio if tool == LABELSTUDIO else read_doccano
    return reader(source, units or DEFAULT_OFFSETS[tool])


def _doccano_span(item: Any, text: str, units: str, where: str, path: str,
                  line: int) -> dict:
    if isinstance(item, list) and len(item) == 3:
        start, end = _offsets(text, item[0], item[1], units, where, path, line)
        return {"start": start, "end": end, "label": item[2]}
    if isinstance(item, dict) and {"start_offset", "end_offset", "label"} <= set(item):
        start, end = _offsets(text, item["start_offset"], item["end_offset"], units,
                              where, path, line)
        extra = {k: v for k, v in item.items()
                 if k not in ("id", "start_offset", "end_offset", "label") + _SPAN_KEYS}
        return dict(start=start, end=end, label=item["label"], **extra)
    raise InputError("%s must be [start, end, label] or an object with start_offset, "
                     "end_offset and label" % where, path, line)


# --- writing ----------------------------------------------------------------------------

def labelstudio_task(number: int, post: Tagged, units: str = UTF16) -> dict:
    """One Label Studio task (id ``number``): the post's fields in ``data``, its spans as
    one annotation's results; a span's other keys (``person``) in the result's ``meta``."""
    text = post.fields["text"]
    results = []
    for index, span in enumerate(post.spans):
        start, end = from_code_points(text, span["start"], span["end"], units)
        result = {"id": "s%d" % index, "from_name": "label", "to_name": "text",
                  "type": "labels",
                  "value": {"start": start, "end": end,
                            "text": text[span["start"]:span["end"]],
                            "labels": [span["label"]]}}
        extra = {k: v for k, v in span.items() if k not in _SPAN_KEYS}
        if extra:
            result["meta"] = extra
        results.append(result)
    return {"id": number, "data": post.fields, "annotations": [{"result": results}]}


def doccano_line(post: Tagged, units: str = CODEPOINTS) -> dict:
    """One doccano record: the post's fields with ``label`` triples in the spans' place
    (else last), or ``entities`` when a span carries other keys."""
    text = post.fields["text"]
    if "label" in post.fields or "entities" in post.fields:
        raise InputError("the post has a field 'label' or 'entities', which doccano "
                         "uses for its spans")
    extra = any(set(span) - set(_SPAN_KEYS) for span in post.spans)
    spans = []
    for span in post.spans:
        start, end = from_code_points(text, span["start"], span["end"], units)
        if extra:
            spans.append(dict({"start_offset": start, "end_offset": end,
                               "label": span["label"]},
                              **{k: v for k, v in span.items() if k not in _SPAN_KEYS}))
        else:
            spans.append([start, end, span["label"]])
    items = list(post.fields.items())
    at = len(items) if post.spans_at is None else min(post.spans_at, len(items))
    items.insert(at, ("entities" if extra else "label", spans))
    return dict(items)
