"""Measure the libraries we could use against the code we use now (issue 11, item 6).

    python3 -m pip install nltk pyspellchecker      # not runtime dependencies any more
    python3 tools/measure_dependencies.py [WNUT_DIR] [BTC_DIR]

1. Tokenizers with character offsets on the WNUT17 and BTC dev sets, scored as typed text
   (``files.corpora.detokenize``): our ``span_tokenize`` against NLTK's
   ``TreebankWordTokenizer.span_tokenize``, ``WordPunctTokenizer.span_tokenize`` and
   ``TweetTokenizer`` aligned back to offsets (``nltk.tokenize.util.align_tokens``).
   Score: exact token-span F1 against the gold tokens, the share of gold person tokens that
   come out as exactly one token (what the features see; with the ``@`` before a handle
   allowed, since BTC splits ``@handle`` and a typed handle is one token), and tokens per
   second.
2. Common-word lists: ours (wordfreq's top words that pyspellchecker's dictionary knows)
   against pyspellchecker's English dictionary alone, both cut to 50,000 words: the share
   of gold person tokens and of other alphabetic tokens they contain (a common word is
   evidence against a name: the first should be low, the second high).
3. The precision-recall sweep: ours (``evaluation.metrics.sweep``) against scikit-learn's
   ``precision_recall_curve`` on the same scores: the same counts, and the time taken.
4. Thread-grouped folds: ours before issue 11 (threads round-robin by first appearance)
   against scikit-learn's ``GroupKFold`` (largest threads first, into the lightest fold):
   the spread of held-out tokens and names per fold on the fictional sample.
"""
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mmbdeid.files.corpora import detokenize, load_labelled, read_conll  # noqa: E402
from mmbdeid.lexicon.wordlists import load_wordlist  # noqa: E402
from mmbdeid.text.tokenize import span_tokenize  # noqa: E402

ALPHA = re.compile(r"^[A-Za-z][A-Za-z'\-]*$")


def conll_texts(path):
    for document in read_conll(path):
        text, offsets = detokenize(document.tokens)
        yield text, offsets, document.labels


def nltk_tokenizers():
    from nltk.tokenize import TreebankWordTokenizer, TweetTokenizer, WordPunctTokenizer
    from nltk.tokenize.util import align_tokens
    treebank, wordpunct, tweet = TreebankWordTokenizer(), WordPunctTokenizer(), TweetTokenizer()

    def tweet_spans(text):
        try:
            return align_tokens(tweet.tokenize(text), text)
        except ValueError:        # TweetTokenizer rewrites some characters: no alignment
            return None
    return {"nltk Treebank": lambda t: list(treebank.span_tokenize(t)),
            "nltk WordPunct": lambda t: list(wordpunct.span_tokenize(t)),
            "nltk Tweet + align_tokens": tweet_spans}


def compare_tokenizers(paths):
    tokenizers = {"mmbdeid span_tokenize": span_tokenize}
    tokenizers.update(nltk_tokenizers())
    documents = [d for path in paths for d in conll_texts(path)]
    print("1. Tokenizers on %s (%d documents), typed text" % (
        " + ".join(Path(p).name for p in paths), len(documents)))
    print("   %-26s %8s %8s %8s %12s %10s %8s" % (
        "tokenizer", "P", "R", "F1", "names whole", "tokens/s", "failed"))
    for name, tokenize in tokenizers.items():
        matched = predicted = gold_count = names = names_whole = failed = tokens = 0
        started = time.perf_counter()
        for text, offsets, labels in documents:
            spans = tokenize(text)
            if spans is None:
                failed += 1
                spans = []
            spans = set(map(tuple, spans))
            tokens += len(spans)
            predicted += len(spans)
            gold_count += len(offsets)
            matched += len(spans & set(offsets))
            for offset, label in zip(offsets, labels):
                if label != "O":
                    names += 1
                    names_whole += _whole(offset, spans, text)
        seconds = time.perf_counter() - started
        p, r = matched / predicted, matched / gold_count
        print("   %-26s %8.2f %8.2f %8.2f %11.1f%% %10.0f %8d" % (
            name, 100 * p, 100 * r, 200 * p * r / (p + r), 100 * names_whole / names,
            tokens / seconds, failed))


def _whole(gold, spans, text):
    """Whether a gold person token comes out as one token, alone or with the ``@``/``#``
    before it (BTC splits ``@handle`` into ``@`` + ``handle``; a typed handle is one)."""
    start, end = gold
    covering = [(a, b) for a, b in spans if a < end and start < b]
    if len(covering) != 1 or covering[0][0] > start or covering[0][1] < end:
        return False
    a, b = covering[0]
    return text[a:start] in ("", "@", "#") and b == end


def compare_common_words(paths):
    from spellchecker import SpellChecker
    frequencies = SpellChecker(language="en").word_frequency.dictionary
    spell_top = {w for w, _ in sorted(frequencies.items(), key=lambda kv: -kv[1])[:50000]}
    ours = set(load_wordlist("common_words"))
    names, others = [], []
    for path in paths:
        for document in read_conll(path):
            for token, label in zip(document.tokens, document.labels):
                if ALPHA.match(token):
                    (names if label != "O" else others).append(token.lower())
    print("\n2. Common-word lists (50,000 words) on %s: %d person tokens, %d other words"
          % (" + ".join(Path(p).name for p in paths), len(names), len(others)))
    print("   %-40s %14s %14s" % ("list", "names in it", "others in it"))
    for name, words in (("ours: wordfreq top words known to pyspellchecker", ours),
                        ("pyspellchecker dictionary, top 50,000", spell_top)):
        print("   %-40s %13.1f%% %13.1f%%" % (
            name[:40], 100 * np.mean([w in words for w in names]),
            100 * np.mean([w in words for w in others])))


def compare_sweeps():
    from sklearn.metrics import precision_recall_curve
    from mmbdeid.evaluation.metrics import DEFAULT_SWEEP, sweep
    rng = np.random.default_rng(0)
    gold = rng.random(2_000_000) < 0.03
    scores = np.clip(rng.normal(np.where(gold, 0.6, 0.1), 0.25), 0, 1)
    started = time.perf_counter()
    rows = sweep(gold, scores)
    ours = time.perf_counter() - started
    started = time.perf_counter()
    precision, recall, cut = precision_recall_curve(gold, scores)
    theirs = time.perf_counter() - started
    # sklearn tags score >= cut; ours tags score > t: compare at t = the next lower score.
    distinct = np.unique(scores)
    worst = 0.0
    for row in rows:
        above = distinct[distinct > row.threshold]
        if not above.size:
            continue
        k = np.searchsorted(cut, above[0])
        worst = max(worst, abs(recall[k] - row.recall), abs(precision[k] - row.precision))
    print("\n3. Precision-recall on 2,000,000 synthetic scores: ours (%d thresholds) %.2f s, "
          "scikit-learn precision_recall_curve (every distinct score) %.2f s; largest "
          "difference at our thresholds: %.2g" % (len(DEFAULT_SWEEP), ours, theirs, worst))


def compare_folds(path, folds=5):
    from sklearn.model_selection import GroupKFold
    labelled = load_labelled(path)
    groups = ["%s\x00%s" % (d.document.board, d.document.thread) if d.document.thread
              else "#%d" % i for i, d in enumerate(labelled)]
    sizes = np.array([len(d.labels) for d in labelled])
    names = np.array([sum(label != "O" for label in d.labels) for d in labelled])

    def round_robin():
        first = {}
        for i, key in enumerate(groups):
            first.setdefault(key, len(first))
        return [[i for i, key in enumerate(groups) if first[key] % folds == k]
                for k in range(folds)]

    gkf = [list(test) for _, test in GroupKFold(folds).split(sizes, groups=groups)]
    print("\n4. Folds on %s (%d posts, %d threads), tokens and names held out per fold"
          % (Path(path).name, len(labelled), len(set(groups))))
    for name, split in (("round-robin by first appearance", round_robin()),
                        ("scikit-learn GroupKFold", gkf)):
        tok = [int(sizes[f].sum()) for f in split]
        nam = [int(names[f].sum()) for f in split]
        print("   %-32s tokens %s (max/min %.2f)  names %s (max/min %.2f)" % (
            name, tok, max(tok) / min(tok), nam, max(nam) / max(min(nam), 1)))


def main(argv):
    wnut = Path(argv[1] if len(argv) > 1 else "../shared/data/wnut17")
    btc = Path(argv[2] if len(argv) > 2 else "../shared/data/btc")
    dev = [str(wnut / "emerging.dev.conll"), str(btc / "btc.dev.conll")]
    compare_tokenizers(dev)
    compare_common_words(dev)
    compare_sweeps()
    sample = Path(__file__).resolve().parent.parent / "corpora_samples"
    compare_folds(str(sample / "health_boards.annotated.jsonl"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
