"""One name, one decision per thread (label consistency, after Krishnan & Manning 2006).

A word the chain removed as a name with high probability (a CRF span scoring at least
``level``, after the keep steps) is removed wherever else it stands in the same thread and
in the same author's posts on the board: a surname found with confidence in a signature is
found again in the next message, where the context says less. The evidence is gathered in
a first round over the corpus or dump (:class:`NameEvidence`), and a second round adds the
other occurrences to the spans the whole chain found
(:meth:`ThreadNames.extend`; the chain's :class:`ConsistencyDetector` marks the place
from where its keep steps apply). An occurrence counts where its form can
be a name: capitalised (``Maren``, ``MAREN``) or written exactly as the form seen; a common
word written in lower case (``faith``, ``will``) stays. The keep steps after this one in
the chain (drug names, medical terms, eponyms before a head noun, titles, the user's allow
list, placeholders of an earlier scrub) drop what they hold, as for the model's own spans.

Scopes: a post's thread (``board``, ``thread``), or the post alone when it has no thread
(a tweet, a CoNLL document: no evidence crosses documents there), and its author on its
board when the post has an author. Each added span scores the highest probability the word
had in the post's scopes, with ``source`` :data:`~mmbdeid.spans.CONSISTENCY`.
"""
import functools
import re
from collections import Counter, defaultdict
from typing import Dict, Hashable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..kinds import PERSON_LABELS
from ..lexicon.wordlists import load_wordlist
from ..spans import (CONSISTENCY, CONSISTENCY_LEVEL as DEFAULT_LEVEL, CRF, Span, drop_inside,
                     raise_spans)
from ..text.document import Document, post_field
from .base import KEEP, RAISE, Detector
from .names.cued_names import CUED, common_use, word_names
from .options import ChainOptions
from .words import opens_sentence

# The spans that are evidence: the model's sure ones, and the names a context cue found.
EVIDENCE = frozenset({CRF, CUED})


class Seen(NamedTuple):
    """A word removed with high probability in a scope: its best probability, that
    span's label, and the forms it was written in."""
    prob: float
    label: str
    forms: Tuple[str, ...]


Types = Dict[str, Seen]          # by the word in lower case
_WORD_RUN = re.compile(r"\w+")


@functools.lru_cache(maxsize=1)
def _common_words():
    return load_wordlist("common_words") | load_wordlist("stop_words")


def removed_types(text: str, spans: Iterable[Span], level: float) -> Types:
    """The words of ``text`` (a post's own text) that ``spans`` (the chain's spans of it)
    remove as a name or username by the model with probability ``level`` or more, or by a
    context cue (``my sister Hope``: :mod:`mmbdeid.detect.names.cued_names`). A single
    letter (an initial) is no evidence: it would take every ``J`` of the thread; nor is a
    stop word (``The``, ``And`` at a sentence start the model mistook once): it would take
    every sentence start."""
    found: Types = {}
    stop_words = load_wordlist("stop_words")
    for span in spans:
        if (span.source not in EVIDENCE or span.score < level
                or span.label not in PERSON_LABELS):
            continue
        word = text[span.start:span.end]
        if (len(word) < 2 or not any(c.isalpha() for c in word)
                or word.lower() in stop_words):
            continue
        merge_type(found, word.lower(), Seen(span.score, span.label, (word,)))
    return found


def merge_type(types: Types, key: str, seen: Seen) -> None:
    """``types[key]`` with ``seen`` added: the higher probability (and its label), every
    form."""
    old = types.get(key)
    if old is None:
        types[key] = seen
        return
    best = seen if seen.prob > old.prob else old
    forms = old.forms + tuple(f for f in seen.forms if f not in old.forms)
    types[key] = Seen(best.prob, best.label, forms)


def scope_keys(board: str, thread: str, author: str, post: Hashable,
               authors: bool = True) -> List[tuple]:
    """The scopes a post belongs to: its thread (or itself, without one) and, with
    ``authors``, its author on its board."""
    keys = [("thread", board, thread) if thread else ("post", post)]
    if authors and author:
        keys.append(("author", board, author))
    return keys


class NameEvidence:
    """The words removed with high probability, per scope (small: a few words a thread,
    but an author's grow with the dump: hundreds for one who posts thousands of times)."""

    def __init__(self, authors: bool = True):
        self.authors = authors
        self.scopes: Dict[tuple, Types] = {}
        # per scope, its words that are not one run of word characters (o'leary)
        self.unusual: Dict[tuple, Dict[str, None]] = {}

    def keys(self, board: str, thread: str, author: str, post: Hashable) -> List[tuple]:
        return scope_keys(board, thread, author, post, self.authors)

    def add(self, keys: Sequence[tuple], types: Types) -> None:
        if not types:
            return
        for key in keys:
            scope = self.scopes.setdefault(key, {})
            for word, seen in types.items():
                merge_type(scope, word, seen)
                if not _WORD_RUN.fullmatch(word):
                    self.unusual.setdefault(key, {})[word] = None

    def types(self, keys: Sequence[tuple]) -> Types:
        """The words of all ``keys``' scopes."""
        merged: Types = {}
        for key in keys:
            for word, seen in self.scopes.get(key, {}).items():
                merge_type(merged, word, seen)
        return merged

    def types_of(self, keys: Sequence[tuple], words: Iterable[str]) -> Types:
        """:meth:`types` of ``words`` only: the work grows with them, not with the
        scopes."""
        merged: Types = {}
        scopes = [self.scopes[key] for key in keys if key in self.scopes]
        for word in words:
            for scope in scopes:
                seen = scope.get(word)
                if seen is not None:
                    merge_type(merged, word, seen)
        return merged

    def unusual_words(self, keys: Sequence[tuple]) -> List[str]:
        """The words of ``keys``' scopes that are not one run of word characters."""
        return [word for key in keys for word in self.unusual.get(key, ())]


def can_be_the_name(token: str, seen: Seen) -> bool:
    """Whether ``token`` (a word of ``seen``'s type) is written as a name may be: the exact
    form seen, or capitalised; never a common word in lower case."""
    if token.islower() and token.lower() in _common_words():
        return False
    return token in seen.forms or token[:1].isupper()


def matching_spans(document: Document, types: Types) -> List[Span]:
    """A span on each token of ``document`` (visible text) that is one of ``types`` written
    as a name may be; pattern tokens and placeholders of an earlier scrub excepted, and a
    name that is a word opening a sentence in common use (``Hope this helps``, ``Art
    therapy``, ``Will you``; ``Hope said``, ``Summer is ten`` go)."""
    if not types:
        return []
    spans = []
    scrubbed = document.scrubbed
    words = word_names()
    for i, (token, pattern) in enumerate(zip(document.tokens, document.pattern_labels)):
        word = token.lower()
        seen = types.get(word)
        if seen is None or pattern or i in scrubbed or not can_be_the_name(token, seen):
            continue
        if word in words and opens_sentence(document, i) and common_use(document, i):
            continue
        start, end = document.offsets[i]
        spans.append(Span(seen.label, start, end, seen.prob, CONSISTENCY))
    return spans


class ConsistencyDetector(Detector):
    """The other occurrences of the words its thread and author removed with high
    probability (see the module). It knows the words of a document once
    :meth:`know` was told them (the second round); otherwise it finds nothing."""

    source = CONSISTENCY
    effect = RAISE

    def __init__(self, level: float = DEFAULT_LEVEL, authors: bool = True):
        self.level = level
        self.authors = authors
        self._known: Dict[int, Tuple[Document, Types]] = {}

    def know(self, document: Document, types: Types) -> None:
        self._known[id(document)] = (document, types)

    def forget(self) -> None:
        self._known = {}

    def types_of(self, document: Document) -> Optional[Types]:
        known = self._known.get(id(document))
        return known[1] if known is not None and known[0] is document else None

    def detect(self, document: Document) -> List[Span]:
        # Its spans join after the whole chain (Analyzer.extend), in every use alike: a
        # dump's pass 3 cannot run the chain's later steps again over them.
        return []


class DumpEvidence:
    """The evidence of a dump's posts, read from their fields (a dump's main process
    never tokenises): each post's words and spans taken in, in input order
    (:meth:`observe`), then each post's words again (:meth:`words_for`), for a chain of
    ``level`` (the chain's consistency level) with ``authors`` as scopes or not. Used alike by
    ``scrub``'s pass, the API and :meth:`ThreadNames.completed`."""

    def __init__(self, level: float = DEFAULT_LEVEL, authors: bool = True):
        self.level = level
        self.names = NameEvidence(authors)
        self.posts = 0

    @classmethod
    def of(cls, chain: ChainOptions) -> Optional["DumpEvidence"]:
        """The evidence of a run of ``chain`` (None: the chain has no consistency step)."""
        return cls(chain.consistency, chain.authors) if chain.runs("consistency") else None

    def keys(self, fields: dict, index: int) -> List[tuple]:
        return self.names.keys(post_field(fields, "board"), post_field(fields, "thread"),
                               post_field(fields, "author"), index)

    def observe(self, fields: dict, spans: Sequence[Span]) -> None:
        self.names.add(self.keys(fields, self.posts),
                       removed_types(fields["text"], spans, self.level))
        self.posts += 1

    def words_for(self, fields: dict, index: int, spans: Sequence[Span] = ()
                  ) -> Optional[Types]:
        """The words of the post's scopes that its text may hold where ``spans`` (its
        spans so far) do not already remove them as surely (None: none)."""
        keys = self.keys(fields, index)
        text = fields["text"]
        if not (text.isascii() and "<" not in text and "&" not in text):
            return self.names.types(keys) or None
        # What the detector reads is this very text (no markup, references or invisible
        # characters to take out): a word not in it is not there, and one each of whose
        # occurrences written as a name may be (counted as runs of word characters, or as
        # a substring: at least as many as there are) a span as sure already covers adds
        # nothing. So only the text's own runs (and a run less the n of a split n't) and
        # the scopes' few words of other characters are looked up: an author's words
        # grow with the dump, a post's do not.
        lowered = text.lower()
        candidates = dict.fromkeys(_WORD_RUN.findall(lowered))
        candidates.update(dict.fromkeys([low[:-1] for low in candidates if low[-1:] == "n"]))
        candidates.update(dict.fromkeys(word for word in self.names.unusual_words(keys)
                                        if word in lowered))
        types = self.names.types_of(keys, candidates)
        if not types:
            return None
        runs: Dict[str, Counter] = defaultdict(Counter)
        for run in _WORD_RUN.findall(text):
            low = run.lower()       # only the runs _occurrences reads are counted
            if low in types or (low[-1:] == "n" and low[:-1] in types):
                runs[low][run] += 1
        covered: Dict[str, int] = {}
        for span in spans:
            word = lowered[span.start:span.end]
            seen = types.get(word)
            if seen is not None and span.score >= seen.prob:
                covered[word] = covered.get(word, 0) + 1
        types = {word: seen for word, seen in types.items()
                 if _occurrences(word, seen, lowered, runs) > covered.get(word, 0)}
        return types or None




def _occurrences(word: str, seen: Seen, lowered: str, runs: Dict[str, Counter]) -> int:
    """At least as many as the tokens ``word`` is in the text (ASCII; ``lowered``: in lower
    case, ``runs``: its runs of word characters by their lower case) where it is written
    as a name may be (:func:`~mmbdeid.detect.thread_names.can_be_the_name`): the runs equal
    to it (the tokenizer splits at least there) or to it plus the ``n`` of a split ``n't``
    (``do`` of ``don't``), or, for a word with other characters (``o'leary``), its
    occurrences as a substring."""
    if not _WORD_RUN.fullmatch(word):
        return lowered.count(word)
    return (sum(count for run, count in runs.get(word, {}).items()
                if can_be_the_name(run, seen))
            + sum(count for run, count in runs.get(word + "n", {}).items()
                  if can_be_the_name(run[:-1], seen)))


class ThreadNames:
    """A chain's thread-name decision, the one interface the analyzer, the API and a
    dump's passes use: the chain's consistency ``step`` and the ``keepers`` (KEEP steps)
    after it, which drop what they hold from the occurrences found."""

    def __init__(self, step: ConsistencyDetector, keepers: Sequence[Detector]):
        self.step = step
        self.keepers = list(keepers)

    @classmethod
    def of(cls, detectors: Sequence[Detector]) -> Optional["ThreadNames"]:
        """The decision of the chain of ``detectors`` (None: it has no consistency step)."""
        for index, detector in enumerate(detectors):
            if isinstance(detector, ConsistencyDetector):
                return cls(detector, [later for later in detectors[index + 1:]
                                      if later.effect == KEEP])
        return None

    def evidence(self) -> NameEvidence:
        return NameEvidence(self.step.authors)

    def thread_types(self, documents: Sequence[Document], texts: Sequence[str],
                     spans: Sequence[List[Span]]) -> List[Types]:
        """Per document, the words its thread and author removed with high probability,
        given every document's ``spans`` (the first round's) in its ``texts``."""
        evidence = self.evidence()
        keys = [evidence.keys(d.board, d.thread, d.author, index)
                for index, d in enumerate(documents)]
        for its_keys, text, found in zip(keys, texts, spans):
            evidence.add(its_keys, removed_types(text, found, self.step.level))
        return [evidence.types(its_keys) for its_keys in keys]

    def completed(self, posts: Sequence[dict], documents: Sequence[Document],
                  spans: Sequence[List[Span]]) -> List[List[Span]]:
        """The second round over posts taken as one dump: ``spans`` (the first round's of
        each of ``posts``, read as ``documents``; offsets into the post's own text)
        completed as ``scrub``'s pass completes them, by the same :class:`DumpEvidence`
        taking in every post in order."""
        evidence = DumpEvidence(self.step.level, self.step.authors)
        for fields, found in zip(posts, spans):
            evidence.observe(fields, found)
        return [self.extend(document, found, evidence.words_for(fields, index, found))
                for index, (fields, document, found) in enumerate(zip(posts, documents, spans))]

    def know(self, documents: Sequence[Document], first: Sequence[List[Span]]) -> None:
        """The step told, for each of ``documents`` taken as one corpus (evaluation), the
        words its thread and author removed, given ``first`` (their visible spans of the
        first round)."""
        self.step.forget()
        for document, types in zip(documents, self.thread_types(
                documents, [d.text for d in documents], first)):
            self.step.know(document, types)

    def extend(self, document: Document, spans: List[Span], types: Types) -> List[Span]:
        """``spans`` (offsets into the post's own text, found without the words of
        ``types``) with the second round: the occurrences of those words, less what the
        keep steps hold, where they raise a lower model score."""
        if not types:
            return spans
        found = self.occurrences(document, spans, types, document.to_original)
        return raise_spans(spans, document.to_original(found)) if found else spans

    def known_extended(self, document: Document, spans: List[Span]) -> List[Span]:
        """``spans`` (visible text) with the second round of the words the step was told
        for ``document`` (:meth:`know`), as a dump's pass 3 adds it."""
        types = self.step.types_of(document)
        found = self.occurrences(document, spans, types, lambda found: found) if types else []
        return raise_spans(spans, found) if found else spans

    def occurrences(self, document: Document, spans: List[Span], types: Types,
                    in_offsets_of_spans) -> List[Span]:
        """The spans (visible text) of ``types``'s words that change ``spans`` (whose
        offsets ``in_offsets_of_spans`` converts to), less what the keepers hold."""
        found = matching_spans(document, types)
        if found and spans:         # those a span as sure already covers change nothing
            converted = in_offsets_of_spans(found)
            raised = set(raise_spans(spans, converted))
            found = [span for span, same in zip(found, converted) if same in raised]
        for keeper in self.keepers:
            if not found:
                break
            found = drop_inside(found, [(s.start, s.end) for s in keeper.detect(document)])
        return found
