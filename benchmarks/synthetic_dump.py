#!/usr/bin/env python3
"""Synthetic health message-board dump for benchmarking ``mmbdeid scrub``.

    python benchmarks/synthetic_dump.py 100000 -o dump.jsonl [--seed 0] [--boards B] [--authors A]
        [--distinct-authors]

Writes JSON Lines posts ``{"id", "board", "thread", "author", "parent", "time", "text"}``
shaped like a real health board (the text is random word salad, only its *shape* is
realistic, which is what matters for throughput):

* 6 boards (or ``--boards B``: ``board0001``.., the busy first); threads of 1-30 posts
  (mean about 8); replies point at an earlier post of the thread;
* about N/15 authors (or ``--authors A``) drawn with Zipf weights (a few very active, many
  one-off posters),
  with username-like names (``kaygirl``, ``hippie96321``, ``Mary_J``, ``tiger``);
* post length about 100 whitespace tokens on average with a long tail (lognormal plus
  short "thanks" replies, clipped to 5..600 tokens), paragraphs separated by blank lines;
* greetings (``Hi Kay,``) and sign-offs (``Hugs,\\nBarb``) with first names from the
  package word lists, mentions of other thread authors (``@kaygirl``, ``kaygirl said``),
  family members (``my husband Bob``), occasional e-mails, URLs and phone numbers
  (example.com, 555 numbers);
* body text drawn from the package's common English words weighted by their Zipf
  frequency, mixed with medical words and drug names.

Deterministic for a given seed. Posts are written as they are generated (one thread in
memory at a time), so a million posts need only the author table in memory.
"""
import argparse
import bisect
import itertools
import json
import random
import sys
from datetime import datetime, timedelta

BOARDS = ("breastcancer", "diabetes", "depression", "chronicpain", "heartdisease", "thyroid")
BOARD_WEIGHTS = (30, 22, 18, 14, 10, 6)

GREETINGS = ("Hi {}", "Hi {},", "Hello {},", "Hey {}!", "Dear {},", "{},", "Hi there {},",
             "Morning {}!")
GENERIC_GREETINGS = ("Hi all,", "Hello everyone,", "Hi ladies,", "Hey guys,", "Hi,")
SIGNOFFS = ("Hugs,\n{}", "Take care,\n{}", "{}", "Love,\n{}", "Prayers,\n{}", "-{}",
            "Hang in there!\n{}", "xoxo {}", "Best,\n{}")
RELATIVES = ("husband", "wife", "daughter", "son", "mom", "dad", "sister", "brother",
             "friend", "neighbor", "doctor", "onc", "nurse", "grandson", "aunt")
USER_SUFFIXES = ("girl", "mom", "gal", "guy", "lady", "55", "1", "22", "_rn", "x", "_nc",
                 "mama", "76")
NAME_LIKE_WORDS = ("tiger", "hippie", "sunshine", "butterfly", "hope", "faith", "rose",
                   "survivor", "warrior", "angel", "grace", "daisy", "willow", "maple",
                   "phoenix", "kitty", "dragon", "pinky", "bluejay", "raven")
SHORT_REPLIES = ("Thanks so much {}, that helps!", "Thank you {}, I will ask.",
                 "Same here {}, thanks for posting.", "Big hugs to you {}.",
                 "Praying for you {}, keep us posted.", "Bump, anyone else have ideas?",
                 "Great news {}!! So happy for you.", "Me too {}. Hang in there.")
PUNCT = (".", ".", ".", ".", "?", "!", "...", ",")


class _Sampler:
    """Weighted sampling by bisecting cumulative weights (fast for large lists)."""

    def __init__(self, items, weights):
        self.items = list(items)
        self.cum = list(itertools.accumulate(weights))
        self.total = self.cum[-1]

    def one(self, rng):
        return self.items[bisect.bisect_right(self.cum, rng.random() * self.total)]

    def many(self, rng, k):
        return rng.choices(self.items, cum_weights=self.cum, k=k)


def _vocabularies():
    from mmbdeid.lexicon.wordlists import load_first_name_shares, load_wordlist, load_zipf

    zipf = load_zipf()
    common = [w for w in sorted(load_wordlist("common_words")) if w in zipf and w.isalpha()]
    common_s = _Sampler(common, [10 ** zipf[w] for w in common])
    # Medical words and drugs: the everyday ones (known to wordfreq) much more often than the
    # obscure ones, as on a real board.
    medical = sorted(w for w in load_wordlist("medical_words") if len(w) > 2)
    medical_s = _Sampler(medical, [10 ** zipf.get(w, 0.5) for w in medical])
    drugs = sorted(w for w in load_wordlist("drugs") if len(w) > 3)
    drugs_s = _Sampler(drugs, [10 ** zipf.get(w, 1.0) for w in drugs])
    shares = load_first_name_shares()
    first = sorted(w for w in load_wordlist("first_names") if w.isalpha() and len(w) > 2)
    first_s = _Sampler(first, [shares.get(w, 0.0) + 0.0005 for w in first])
    return common_s, medical_s, drugs_s, first_s, [w for w in common if 4 <= len(w) <= 8]


def _username(rng, first_name, plain_words):
    style = rng.random()
    if style < 0.30:
        return first_name + rng.choice(USER_SUFFIXES)                      # kaygirl
    if style < 0.50:
        return rng.choice(NAME_LIKE_WORDS) + str(rng.randint(1, 99999))
    if style < 0.65:
        return first_name.capitalize() + "_" + rng.choice("ABCDEFGHJKLMNPRSTW")   # Mary_J
    if style < 0.80:
        return rng.choice(plain_words)                                      # tiger
    if style < 0.90:
        return rng.choice(plain_words) + rng.choice(plain_words).capitalize() + \
            (str(rng.randint(0, 99)) if rng.random() < 0.5 else "")
    return first_name + str(rng.randint(1940, 2005))


class _Author:
    __slots__ = ("name", "first")

    def __init__(self, name, first):
        self.name = name
        self.first = first


def _authors(rng, n_authors, first_s, plain_words):
    seen, authors = set(), []
    while len(authors) < n_authors:
        first = first_s.one(rng)
        name = _username(rng, first, plain_words)
        if name.lower() in seen:
            continue
        seen.add(name.lower())
        authors.append(_Author(name, first.capitalize()))
    return authors


def _post_length(rng):
    """Whitespace tokens of the body: mostly lognormal (median ~75), some one-liners."""
    if rng.random() < 0.08:
        return rng.randint(5, 15)
    return max(5, min(600, int(rng.lognormvariate(4.33, 0.8))))


def _sentence_words(rng, n, vocab, mentionables, relatives_names):
    common_s, medical_s, drugs_s, first_s = vocab
    words = common_s.many(rng, n)
    for i in range(n):
        r = rng.random()
        if r < 0.07:
            words[i] = medical_s.one(rng)
        elif r < 0.09:
            words[i] = drugs_s.one(rng)
        elif r < 0.095:
            words[i] = str(rng.randint(1, 500)) + rng.choice(("mg", "", " mg", "x", "%"))
    if n >= 6:
        r = rng.random()
        at = rng.randrange(1, n - 2)
        if r < 0.03 and mentionables:
            who = rng.choice(mentionables)
            words[at:at + 2] = rng.choice((["@" + who.name], [who.name, "said"],
                                           ["like", who.first], [who.first + "'s", "advice"]))
        elif r < 0.07:
            words[at:at + 3] = ["my", rng.choice(RELATIVES), relatives_names(rng)]
        elif r < 0.0715:
            words[at:at + 3] = ["email", "me", "%s%d@example.com" % (
                first_s.one(rng), rng.randint(1, 99))]
        elif r < 0.073:
            words[at:at + 2] = ["see", rng.choice(("http://www.example.com/forum/",
                                                   "www.example.com/", "https://example.com/p/"))
                                + str(rng.randint(100, 99999))]
        elif r < 0.0738:
            words[at:at + 2] = ["call", rng.choice(("(312) 555-01%02d", "555-01%02d",
                                                    "617.555.01%02d", "+1 212 555 01%02d"))
                                % rng.randint(0, 99)]
    words[0] = words[0][:1].upper() + words[0][1:]
    return words


def _post_text(rng, n_tokens, vocab, me, parent_author, thread_authors):
    first_s = vocab[3]
    relative_name = lambda r: first_s.one(r).capitalize()  # noqa: E731
    others = [a for a in thread_authors if a is not me]
    parts = []
    if n_tokens <= 15 and parent_author is not None and rng.random() < 0.5:
        return rng.choice(SHORT_REPLIES).format(
            rng.choice((parent_author.first, parent_author.name)))
    if rng.random() < 0.45:
        if parent_author is not None and rng.random() < 0.75:
            who = rng.choice((parent_author.first, parent_author.first, parent_author.name,
                              parent_author.first.lower()))
            parts.append(rng.choice(GREETINGS).format(who))
        else:
            parts.append(rng.choice(GENERIC_GREETINGS))
    # Body: sentences of 4-22 words grouped into paragraphs of 1-5 sentences.
    paragraphs, paragraph, left = [], [], n_tokens
    target_sentences = rng.randint(1, 5)
    while left > 0:
        n = min(left, rng.randint(4, 22))
        words = _sentence_words(rng, n, vocab, others, relative_name)
        left -= n
        paragraph.append(" ".join(words) + rng.choice(PUNCT))
        if len(paragraph) >= target_sentences:
            paragraphs.append(" ".join(paragraph))
            paragraph, target_sentences = [], rng.randint(1, 5)
    if paragraph:
        paragraphs.append(" ".join(paragraph))
    parts.extend(paragraphs)
    if rng.random() < 0.4:
        parts.append(rng.choice(SIGNOFFS).format(
            rng.choice((me.first, me.first, me.first[0], me.name))))
    separator = "\n\n" if rng.random() < 0.8 else "\n"
    return separator.join(parts)


def _boards(n_boards):
    """The boards and their weights: the six health boards, or ``n_boards`` numbered ones
    weighted 1/sqrt(rank) (a few busy boards, a long tail of quiet ones: a forum crawl)."""
    if n_boards is None:
        return BOARDS, BOARD_WEIGHTS
    return (["board%04d" % k for k in range(1, n_boards + 1)],
            [1.0 / k ** 0.5 for k in range(1, n_boards + 1)])


def generate(n_posts, path, seed=0, boards=None, authors=None, distinct_authors=False):
    """Write ``n_posts`` synthetic posts as JSON Lines to ``path``; returns ``n_posts``.
    ``boards``, ``authors``: how many (default: the six health boards, ``n_posts // 15``
    authors). ``distinct_authors``: every post by a new author (``n_posts`` authors, each
    writing one post: the worst case for linking, a person per post)."""
    rng = random.Random(seed)
    common_s, medical_s, drugs_s, first_s, plain_words = _vocabularies()
    vocab = (common_s, medical_s, drugs_s, first_s)
    if distinct_authors:
        authors = n_posts
    n_authors = max(1, n_posts // 15) if authors is None else authors
    authors = _authors(rng, n_authors, first_s, plain_words)
    next_author = iter(authors).__next__ if distinct_authors else None
    # Zipf-Mandelbrot weights 1 / (rank + 4) ** 1.2 over the authors: a few very active
    # posters (the top one writes ~3% of the posts), a long tail of one-off posters.
    author_s = _Sampler(authors, [1.0 / (rank + 4) ** 1.2 for rank in range(1, n_authors + 1)])
    board_s = _Sampler(*_boards(boards))
    clock = datetime(2009, 1, 1)
    written, thread_no = 0, 0
    with open(path, "w", encoding="utf-8") as out:
        while written < n_posts:
            thread_no += 1
            board = board_s.one(rng)
            thread = "%s-t%07d" % (board, thread_no)
            size = min(n_posts - written, 1 + min(29, int(rng.expovariate(1 / 7.6))))
            clock += timedelta(seconds=rng.randint(60, 7200))
            when = clock
            posts, thread_authors = [], []
            for k in range(size):
                author = next_author() if next_author else author_s.one(rng)
                if author not in thread_authors:
                    thread_authors.append(author)
                parent = None
                if posts:
                    parent = posts[0] if rng.random() < 0.6 else rng.choice(posts)
                text = _post_text(rng, _post_length(rng), vocab, author,
                                  parent[1] if parent else None, thread_authors)
                post_id = "%s-%02d" % (thread, k + 1)
                when += timedelta(seconds=rng.randint(30, 86400))
                out.write(json.dumps({
                    "id": post_id, "board": board, "thread": thread, "author": author.name,
                    "parent": parent[0] if parent else None,
                    "time": when.strftime("%Y-%m-%dT%H:%M:%S"), "text": text,
                }, ensure_ascii=False) + "\n")
                posts.append((post_id, author))
            written += size
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("posts", type=int, metavar="N", help="number of posts")
    parser.add_argument("-o", "--output", required=True, help="output JSONL file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", type=int, metavar="B",
                        help="numbered boards, the first the busiest (default: six health boards)")
    parser.add_argument("--authors", type=int, metavar="A", help="default: N/15")
    parser.add_argument("--distinct-authors", action="store_true",
                        help="every post by a new author (N authors, one post each)")
    args = parser.parse_args(argv)
    if args.distinct_authors and args.authors is not None:
        parser.error("--distinct-authors and --authors exclude each other")
    if args.posts < 1:
        parser.error("N must be positive")
    for name in ("boards", "authors"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error("--%s must be positive" % name)
    generate(args.posts, args.output, seed=args.seed, boards=args.boards, authors=args.authors,
             distinct_authors=args.distinct_authors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
