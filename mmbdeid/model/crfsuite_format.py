"""crfsuite's model format: the one reader of crfsuite model bytes, checked before use.

crfsuite trusts its model file: it reads every offset and count in it without a bounds
check, so corrupted bytes (a bad offset in the header, a truncated file, a flipped byte in a
string table or a feature reference) make it read or write outside the buffer: a
segmentation fault when the model is opened, when its labels are listed, or when a post is
tagged, or an endless loop or a huge allocation (a label count of 2**31). This module reads
the same structures the way crfsuite 0.12 (as bundled in python-crfsuite: ``crf1d_model.c``,
``cqdb.c``, ``crf1d_tag.c``) reads them and checks that everything crfsuite will follow lies
inside the buffer and is consistent, so that crfsuite's reads and writes stay inside its
buffers and its loops end (:func:`check_model_bytes`); the model's weights are read from
the checked tables (:func:`read_weights`, for the marginals of :mod:`mmbdeid.crf`). Checked:

* the file header: magic ``lCRF``, type ``FOMC``, version 100, the stored size equal to the
  length (``num_features`` is left 0 by crfsuite's writer and never read);
* the feature chunk ``FEAT``: its size is its header plus 20 bytes a feature, inside the
  file; each feature is a state (0) or transition (1) feature whose source and destination
  are a known attribute or label, with a finite weight (one NaN weight makes marginals NaN,
  never above a threshold: nothing would be removed);
* the label and attribute string tables (CQDB chunks): inside the file, the byte-order mark,
  as many strings as the header says, every hash table inside the chunk with an empty
  bucket (a lookup of an unknown string ends only at one), every bucket and backward link
  pointing at a record inside the chunk whose id is its index and whose string ends with
  its NUL inside the chunk (and no NUL before it), not empty, UTF-8, without a line
  break or a final carriage return (python-crfsuite decodes and parses them);
* the label and attribute feature references (``LFRF``, ``AFRF``): one per label or
  attribute, inside their chunk, each referring to existing features of the right kind and
  source, every feature referred to once.

It is cheap: numpy over the arrays, a few milliseconds for the 1 MB default model.
"""
import struct
from typing import Dict, FrozenSet, List, NamedTuple, Optional

import numpy as np

from ..errors import MmbdeidValueError

MAGIC = b"lCRF"
MODEL_TYPE = b"FOMC"
VERSION = 100
HEADER = struct.Struct("<4sI4s9I")            # magic, size, type, version, 8 counts/offsets
CHUNK = struct.Struct("<4sII")                # chunk id, size, number of items
FEATURE = np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("weight", "<f8")])
STATE, TRANSITION = 0, 1
CQDB_HEADER = struct.Struct("<4sIIIII")       # id, size, flag, byte order, bwd size, bwd offset
CQDB_BYTEORDER = 0x62445371
CQDB_TABLES = 256
CQDB_DATA = CQDB_HEADER.size + 8 * CQDB_TABLES   # where the records start
# crfsuite allocates label x label and token x label tables: a label count of 2**31 would be
# an out-of-memory kill; a name tagger has three.
MAX_LABELS = 256


class CrfsuiteFormatError(MmbdeidValueError):
    """The bytes are not a crfsuite CRF1d model that crfsuite can read safely."""


class References(NamedTuple):
    """The features of each label (transitions) or attribute (state features)."""
    ids: np.ndarray          # feature ids, source after source, each in file order
    counts: np.ndarray       # how many features each source has, by source id


class CheckedModel(NamedTuple):
    """The tables of crfsuite model bytes that passed :func:`check_model_bytes`."""
    labels: List[str]        # by label id
    attributes: str          # every attribute, each followed by a NUL, by attribute id
    features: np.ndarray     # FEATURE records by feature id
    transitions: References  # by source label
    states: References       # by source attribute


class ModelWeights(NamedTuple):
    """A linear-chain CRF's weights as its marginals use them."""
    labels: List[str]                   # by label id
    transitions: List[List[float]]      # [from label][to label]
    attribute_index: Dict[str, int]     # attribute -> its row of ``state_weights``
    state_weights: np.ndarray           # (rows x labels); row 0 is zeros (padding)


def check_model_bytes(data: bytes) -> CheckedModel:
    """Check crfsuite model bytes (see the module docstring); raise CrfsuiteFormatError
    with what is wrong, else return their tables."""
    size = len(data)
    if size <= HEADER.size:
        raise CrfsuiteFormatError("%d bytes: shorter than a crfsuite model header" % size)
    (magic, stored_size, model_type, version, _, n_labels, n_attrs, off_features, off_labels,
     off_attrs, off_labelrefs, off_attrrefs) = HEADER.unpack_from(data, 0)
    if magic != MAGIC or model_type != MODEL_TYPE:
        raise CrfsuiteFormatError("not a crfsuite CRF1d model (magic %r, type %r)"
                                  % (magic, model_type))
    if version != VERSION:
        raise CrfsuiteFormatError("crfsuite model version %d, expected %d" % (version, VERSION))
    if stored_size != size:
        raise CrfsuiteFormatError("truncated or padded: the header says %d bytes, there are %d"
                                  % (stored_size, size))
    if not 1 <= n_labels <= MAX_LABELS:
        raise CrfsuiteFormatError("%d labels" % n_labels)
    buffer = np.frombuffer(data, dtype=np.uint8)
    features = _features(data, off_features)
    labels = _strings(buffer, data, off_labels, n_labels, "label")
    attributes = _strings(buffer, data, off_attrs, n_attrs, "attribute")
    bad = (features["dst"] >= n_labels) | np.where(features["type"] == STATE,
                                                   features["src"] >= n_attrs,
                                                   features["src"] >= n_labels)
    bad |= (features["type"] != STATE) & (features["type"] != TRANSITION)
    bad |= ~np.isfinite(features["weight"])
    if bad.any():
        fid = int(np.argmax(bad))
        raise CrfsuiteFormatError("feature %d is not a valid state or transition feature" % fid)
    # crfsuite's writer keeps two spare (zero) label references beyond the labels
    transitions = _references(buffer, data, off_labelrefs, b"LFRF", n_labels, n_labels + 2,
                              features, TRANSITION, "label")
    states = _references(buffer, data, off_attrrefs, b"AFRF", n_attrs, n_attrs,
                         features, STATE, "attribute")
    counts = np.bincount(np.concatenate([transitions.ids, states.ids]), minlength=len(features))
    if len(counts) != len(features) or (counts != 1).any():
        raise CrfsuiteFormatError("feature references do not refer to each feature once")
    return CheckedModel(labels.split("\0")[:-1], attributes, features, transitions, states)


def read_weights(data: bytes, known: Optional[FrozenSet[str]] = None) -> ModelWeights:
    """The weights of crfsuite model bytes, checked first (CrfsuiteFormatError). Only
    attributes with a state feature get a row, and given ``known``, only those in it."""
    model = check_model_bytes(data)
    size = len(model.labels)
    features = model.features
    # crf1dt_transition_score: trans[i][dst] = weight, in reference order
    transitions = [[0.0] * size for _ in range(size)]
    ids, counts = model.transitions
    sources = np.repeat(np.arange(size), counts).tolist()
    for source, dst, weight in zip(sources, features["dst"][ids].tolist(),
                                   features["weight"][ids].tolist()):
        transitions[source][dst] = weight
    names = model.attributes.split("\0")[:-1]
    ids, counts = model.states
    kept = [aid for aid, (name, count) in enumerate(zip(names, counts.tolist()))
            if count and (known is None or name in known)]
    row_of = np.zeros(len(names), dtype=np.intp)
    row_of[np.array(kept, dtype=np.intp)] = np.arange(1, len(kept) + 1)
    rows = row_of[np.repeat(np.arange(len(names)), counts)]
    chosen = rows > 0
    rows, ids = rows[chosen], ids[chosen]
    destinations = features["dst"][ids].astype(np.intp)
    if len(np.unique(rows * size + destinations)) != len(rows):
        # one sum per label per attribute is what the weight table can hold
        raise CrfsuiteFormatError("an attribute has two state features for one label")
    weights = np.zeros((len(kept) + 1, size), dtype=np.float64)
    weights[rows, destinations] = features["weight"][ids]
    index = {names[aid]: row for row, aid in enumerate(kept, 1)}
    return ModelWeights(model.labels, transitions, index, weights)


def _chunk(data: bytes, offset: int, chunk_id: bytes, what: str):
    """The (size, count) of the chunk at ``offset``, checked to lie inside the data."""
    if offset + CHUNK.size > len(data):
        raise CrfsuiteFormatError("the %s chunk offset %d is outside the model" % (what, offset))
    found, size, count = CHUNK.unpack_from(data, offset)
    if found != chunk_id:
        raise CrfsuiteFormatError("no %s chunk at offset %d" % (what, offset))
    if size < CHUNK.size or offset + size > len(data):
        raise CrfsuiteFormatError("the %s chunk (%d bytes at %d) is outside the model"
                                  % (what, size, offset))
    return size, count


def _features(data: bytes, offset: int) -> np.ndarray:
    size, count = _chunk(data, offset, b"FEAT", "feature")
    if size != CHUNK.size + FEATURE.itemsize * count:
        raise CrfsuiteFormatError("the feature chunk size %d does not fit %d features"
                                  % (size, count))
    return np.frombuffer(data, dtype=FEATURE, count=count, offset=offset + CHUNK.size)


def _u32(buffer: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Little-endian uint32 values at byte positions (checked by the caller), as int64."""
    positions = positions.astype(np.int64)
    if not len(positions):
        return positions
    residue = int(positions[0]) & 3
    if ((positions & 3) == residue).all():      # all equally aligned: one gather
        words = buffer[residue:residue + (len(buffer) - residue) // 4 * 4].view("<u4")
        return words[(positions - residue) >> 2].astype(np.int64)
    b = [buffer[positions + k].astype(np.int64) for k in range(4)]
    return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)


def _strided(starts: np.ndarray, lengths: np.ndarray, stride: int) -> np.ndarray:
    """The positions start, start+stride, ..., start+(length-1)*stride of every range, in
    order (the caller bounds the total by the size of the data)."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.cumsum(lengths) - lengths          # where each range starts in the result
    return np.repeat(starts - stride * first, lengths) \
        + stride * np.arange(total, dtype=np.int64)


def _strings(buffer: np.ndarray, data: bytes, offset: int, expected: int, what: str) -> str:
    """Check the CQDB chunk at ``offset`` (id <-> string, ``expected`` strings) the way
    ``cqdb_reader``, ``cqdb_to_id`` and ``cqdb_to_string`` read it; return its strings,
    each followed by a NUL, by id."""
    where = "the %s table" % what
    available = len(data) - offset
    if offset >= len(data) or available < CQDB_DATA:
        raise CrfsuiteFormatError("%s offset %d is outside the model" % (where, offset))
    chunk_id, size, _, byteorder, bwd_size, bwd_offset = CQDB_HEADER.unpack_from(data, offset)
    if chunk_id != b"CQDB" or byteorder != CQDB_BYTEORDER:
        raise CrfsuiteFormatError("no %s table at offset %d" % (what, offset))
    if not CQDB_DATA <= size <= available:
        raise CrfsuiteFormatError("%s (%d bytes at %d) is outside the model"
                                  % (where, size, offset))
    refs = np.frombuffer(data, dtype="<u4", count=2 * CQDB_TABLES,
                         offset=offset + CQDB_HEADER.size).astype(np.int64)
    table_offsets, table_sizes = refs[0::2], refs[1::2]
    used = table_sizes > 0
    if (used != (table_offsets > 0)).any() or (table_sizes % 2).any() \
            or (table_offsets[used] < CQDB_DATA).any() \
            or (table_offsets + 8 * table_sizes > size).any():
        raise CrfsuiteFormatError("%s has a hash table outside it" % where)
    count = int((table_sizes // 2).sum())
    if count != expected or bwd_size != count:
        raise CrfsuiteFormatError("%s has %d strings (%d backward links); the header says %d"
                                  % (where, count, bwd_size, expected))
    if count == 0:
        return ""
    if int(table_sizes.sum()) * 8 > size - CQDB_DATA:
        raise CrfsuiteFormatError("%s has hash tables larger than it" % where)
    if not bwd_offset or bwd_offset < CQDB_DATA or bwd_offset + 4 * count > size:
        raise CrfsuiteFormatError("%s has its backward links outside it" % where)
    # hash buckets: (hash, record offset) pairs
    bucket_positions = _strided(table_offsets[used] + offset, table_sizes[used], 8)
    bucket_records = _u32(buffer, bucket_positions + 4)
    empty = bucket_records == 0
    table_starts = np.cumsum(table_sizes[used]) - table_sizes[used]
    if len(table_starts) and \
            (np.add.reduceat(empty.astype(np.int64), table_starts) == 0).any():
        raise CrfsuiteFormatError("%s has a full hash table" % where)
    records = np.frombuffer(data, dtype="<u4", count=count,
                            offset=offset + bwd_offset).astype(np.int64)
    if not np.array_equal(np.sort(records), np.sort(bucket_records[~empty])):
        raise CrfsuiteFormatError("%s has hash buckets and backward links that disagree" % where)
    if (records < CQDB_DATA).any() or (records + 8 > size).any():
        raise CrfsuiteFormatError("%s has a record outside it" % where)
    ids = _u32(buffer, records + offset)
    lengths = _u32(buffer, records + offset + 4)
    if (ids != np.arange(count)).any():
        raise CrfsuiteFormatError("%s has records out of order" % where)
    if (lengths < 1).any() or (records + 8 + lengths > size).any() \
            or int((lengths + 8).sum()) > size - CQDB_DATA:
        raise CrfsuiteFormatError("%s has a string outside it" % where)
    ends = records + offset + 8 + lengths - 1          # where each string's NUL must be
    if (buffer[ends] != 0).any():
        raise CrfsuiteFormatError("%s has a string without its end" % where)
    # python-crfsuite's Tagger.info() parses crfsuite's text dump of the model line by
    # line: an empty string, a line break or a final carriage return breaks it
    if (lengths < 2).any() or (buffer[ends - 1] == ord("\r")).any():
        raise CrfsuiteFormatError("%s has an empty string or one ending in a carriage "
                                  "return" % where)
    text = buffer[_strided(records + offset + 8, lengths, 1)]
    if np.count_nonzero(text == 0) != count:
        raise CrfsuiteFormatError("%s has a string with a NUL inside" % where)
    if np.count_nonzero(text == ord("\n")):
        raise CrfsuiteFormatError("%s has a string with a line break" % where)
    text = text.tobytes()
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        raise CrfsuiteFormatError("%s has a string that is not UTF-8" % where) from None


def _references(buffer: np.ndarray, data: bytes, offset: int, chunk_id: bytes, expected: int,
                most: int, features: np.ndarray, kind: int, what: str) -> References:
    """Check the feature references of each of ``expected`` labels or attributes (as
    ``crf1dm_get_labelref``/``crf1dm_get_attrref`` read them); return them."""
    size, count = _chunk(data, offset, chunk_id, what + " reference")
    where = "the %s references" % what
    if not expected <= count <= most or CHUNK.size + 4 * count > size:
        raise CrfsuiteFormatError("%s are %d for %d %ss" % (where, count, expected, what))
    starts = np.frombuffer(data, dtype="<u4", count=expected,
                           offset=offset + CHUNK.size).astype(np.int64)
    first, end = offset + CHUNK.size + 4 * count, offset + size
    if (starts < first).any() or (starts + 4 > end).any():
        raise CrfsuiteFormatError("%s point outside their chunk" % where)
    lengths = _u32(buffer, starts)
    if (starts + 4 + 4 * lengths > end).any() or int((4 + 4 * lengths).sum()) > end - first:
        raise CrfsuiteFormatError("%s point outside their chunk" % where)
    ids = _u32(buffer, _strided(starts + 4, lengths, 4))
    if len(ids) and int(ids.max()) >= len(features):
        raise CrfsuiteFormatError("%s refer to a feature that does not exist" % where)
    source = np.repeat(np.arange(expected, dtype=np.int64), lengths)
    if (features["type"][ids] != kind).any() or (features["src"][ids] != source).any():
        raise CrfsuiteFormatError("%s refer to features of another %s" % (where, what))
    return References(ids, lengths)
