"""An annotated posts file split into a training and a development file, whole threads on
either side (:func:`~.crossval.train_dev_split`). Every record is written as it was read,
all its fields kept; both files are private (they hold names)."""
from typing import NamedTuple, Sequence

from ..errors import InputError
from ..files.corpora import LabelledDocument, read_annotated
from ..files.formats import PARQUET
from ..files.parquet import ColumnKinds
from ..files.post_writer import post_output
from ..text.document import Document
from .crossval import train_dev_split


class SplitSizes(NamedTuple):
    """The posts and threads written to each side."""
    train_posts: int
    train_threads: int
    dev_posts: int
    dev_threads: int


def split_annotated_file(corpus: str, train_path: str, dev_path: str, formats: Sequence[str],
                         dev_share: float, seed: int = 0) -> SplitSizes:
    """Split the annotated posts of ``corpus`` into ``train_path`` and ``dev_path``,
    written in ``formats`` (one per path), about ``dev_share`` of the threads in dev;
    ``seed`` makes the split repeatable."""
    posts = list(read_annotated(corpus))
    # thread keys only: the split needs no tokens or labels
    keyed = [LabelledDocument(Document.from_post(dict(p.record.fields, text="")), [])
             for p in posts]
    try:
        train, dev = train_dev_split(keyed, dev_share, seed)
    except ValueError as error:
        raise InputError(str(error), corpus) from None
    field_names = list(dict.fromkeys(name for p in posts for name in p.record.fields))
    kinds = ColumnKinds(corpus)      # Parquet columns from JSON Lines or CSV
    if PARQUET in formats:
        for post in posts:
            kinds.observe(post.record.fields, post.record.line)
    with post_output(train_path, formats[0], field_names, like=corpus,
                     column_kinds=kinds.kinds, private=True) as train_writer, \
            post_output(dev_path, formats[1], field_names, like=corpus,
                        column_kinds=kinds.kinds, private=True) as dev_writer:
        for writer, indices in ((train_writer, train), (dev_writer, dev)):
            for index in indices:
                writer.write(posts[index].record)

    def threads(indices) -> int:
        return len({keyed[i].document.thread or "#%d" % i for i in indices})
    return SplitSizes(len(train), threads(train), len(dev), threads(dev))
