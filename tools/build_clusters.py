"""Build ``lexicons/twitter_clusters.txt.gz`` from the Twitter Brown cluster file.

Input: ``word<TAB>bitstring`` per line (``../shared/data/clusters/twitter_brown_clusters.tsv``,
see ``lexicons/README.md`` for its source and licence). Output: gzip, UTF-8, ``#`` header
lines, then one line per cluster, ``bitstring<TAB>word word ...`` (words sorted; no word
holds a space, a TAB or a newline): the 1,000 paths are written once each, not once per
word, and a loader shares one string per path. Written with mtime 0, so the same input
gives the same bytes.

Usage: python tools/build_clusters.py [INPUT.tsv] [OUTPUT.txt.gz]
"""
import collections
import gzip
import sys
from pathlib import Path

HEADER = """\
# Twitter Brown word clusters: one line per cluster, bitstring<TAB>its words (space-separated)
# 216,852 lower-cased words, 1,000 clusters (paths of 4 to 16 bits)
# source: NLP4J lexicon en-brown-clusters-twit-lowercase.xz (Emory University, Apache-2.0),
#   very probably a conversion of CMU ARK TweetNLP's 50mpaths2 (Owoputi et al. 2013)
# licence: Apache-2.0; see lexicons/README.md
# rebuild: python tools/build_clusters.py ../shared/data/clusters/twitter_brown_clusters.tsv
"""


def build(source: Path, target: Path) -> int:
    words_of = collections.defaultdict(list)
    with source.open(encoding="utf-8", newline="\n") as lines:
        for line in lines:
            word, path = line.rstrip("\n").split("\t")
            if not word or any(ch in word for ch in " \t\n") or set(path) - {"0", "1"}:
                raise ValueError("unexpected entry %r" % line)
            words_of[path].append(word)
    body = "".join("%s\t%s\n" % (path, " ".join(sorted(words)))
                   for path, words in sorted(words_of.items()))
    target.write_bytes(gzip.compress((HEADER + body).encode("utf-8"), 9, mtime=0))
    return sum(len(words) for words in words_of.values())


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        root.parent / "shared/data/clusters/twitter_brown_clusters.tsv"
    target = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "lexicons/twitter_clusters.txt.gz"
    print("%d words -> %s" % (build(source, target), target))
