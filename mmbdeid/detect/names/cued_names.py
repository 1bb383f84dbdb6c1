"""Names that are words, decided by their context: ``my sister Hope``, ``Will said``.

A first name that is also an English word (``Hope``, ``Will``, ``Grace``, ``Art``: the
hand-made ``lexicons/word_names.txt``) is left
by the model where nothing says it is a person, and denying the word would take every
``I hope so``. This step (REMOVE, score 1.0) takes a capitalised first name where a cue
beside it says a person (:func:`cued_names`):

* a kinship or role word before it (``my sister Hope``, ``her husband, Will``, ``our
  facilitator Art``, ``a girl named Joy``);
* a verb of people right after it (``Hope said``, ``Will texted``, ``Art called``), or a
  form of *be* and such a verb (``Hope is flying in``); or an auxiliary before it and a
  lower-case word after (``does Hope come``, ``did Rose sit``), where it cannot open the
  sentence;
* an address: after a greeting or thanks and before punctuation or the line's end
  (``Thanks, Will!``, ``Hi Mark!``), or opening the post before a comma (``Hope,``).

Sentence-initial common use has none of these (``Will you come?``, ``Hope this helps``,
``Art therapy``). In lower case only a kinship word after a possessive (``my husband
will``) is a cue, and only with a word after it that a modal or a verb never takes: a
finite verb of people (``my husband will said``), ``'s`` or ``who``; for the other word-names
also a comma, ``and`` or the sentence's end (``my daughter hope, who``). ``my husband will
be there`` and ``if my husband will.`` stay. Titles are the titled-names step's
(``Dr. Hope``). The names found here are evidence for the consistency step like the model's
sure ones: ``Hope`` is removed elsewhere in the thread, but not where it opens a sentence
in common use (:func:`common_use`: ``Hope this helps``, ``Art therapy``).
"""
import functools
from typing import FrozenSet, List, Sequence, Set

from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import Detector, indices_in, lowered_tokens
from ..words import opens_sentence

CUED = "cued-names"
POSSESSIVE_DETERMINERS = frozenset({"my", "his", "her", "our", "their", "your", "mine", "whose"})
# Roles a board names people by, besides the kinship list (lexicons/kinship.txt).
ROLES = frozenset({"friend", "sponsor", "counselor", "counsellor", "therapist", "facilitator",
                   "neighbor", "neighbour", "coworker", "co-worker", "colleague", "boss",
                   "roommate", "partner", "fiance", "fiancé", "fiancee", "fiancée", "ex",
                   "girlfriend", "boyfriend", "buddy", "caregiver", "carer", "aide",
                   "named", "called"})
# Verbs a person does, in the forms that follow a subject (``Hope said``); none a word-name
# takes as a noun at a sentence start (``Hope helped`` could be the feeling: left out).
PERSON_VERBS = frozenset({
    "said", "says", "told", "tells", "texted", "texts", "called", "calls", "asked", "asks",
    "wrote", "writes", "replied", "replies", "answered", "emailed", "messaged", "mentioned",
    "explained", "suggested", "insisted", "agreed", "promised", "offered", "cried", "laughed",
    "smiled", "hugged", "drove", "drives", "flew", "visited", "visits", "thinks", "thought",
    "knows", "knew", "wants", "wanted", "took", "picked", "sat", "phoned", "rang", "signed",
    "went", "goes", "came", "comes", "sounds", "looks", "feels", "lives", "lived", "works",
    "worked", "refuses", "refused", "loves", "loved", "hates", "misses", "missed", "died",
    "passed", "turned", "got", "gets", "has", "had", "did", "does", "will", "would", "can",
    "could", "should", "might", "must", "is", "was", "'s"})
# The forms above that a common noun at a sentence start takes as well (``Hope is ...``,
# ``Faith has ...``, ``Hope came back``): a cue only before another verb of people or a
# verb in -ing (``Hope is flying in``, ``Will has called``).
WEAK_VERBS = frozenset({"has", "had", "did", "does", "will", "would", "can", "could",
                        "should", "might", "must", "is", "was", "'s", "went", "goes",
                        "came", "comes", "sounds", "looks", "feels", "turned", "got", "gets",
                        "passed", "works", "worked", "lives", "lived"})
# After a word-name opening a sentence, the forms that keep it a name may be (``Summer is
# ten``, ``Mark and I``); any other stop word makes it common use (``Hope this helps``,
# ``Will you``, ``Mark the date``, ``Faith in the process``).
NAME_MAY_FOLLOW = frozenset({"is", "was", "has", "had", "and", "'s", "did", "does", "can",
                             "could", "would", "should", "will", "just", "also", "too"})
AUXILIARIES = frozenset({"does", "did", "do", "has", "had", "is", "was", "can", "could",
                         "will", "would", "should", "may", "might"})
ADDRESS_ENDS = frozenset({",", ".", "!", "?", ":", ";", ")", "and", "xx", "x", "<3"})
# After a lower-case word-name that is a modal (``will``, ``may``), only what no modal takes.
MODALS = frozenset({"will", "may", "can", "might", "must", "shall"})
LOWER_CASE_ENDS = frozenset({",", ".", "!", "?", ";", "and"})


@functools.lru_cache(maxsize=1)
def _lists():
    kin = load_wordlist("kinship") | ROLES
    address = (load_wordlist("greetings") - {"morning", "evening", "welcome", "regards"}) | {
        "thanks", "thank", "bless"}
    return kin, address, load_wordlist("word_names")


def _strong_after(lowered: Sequence[str], k: int) -> bool:
    """Whether the words from ``k`` are a verb of people (``said``), or a weak one and then
    a strong one or a verb in -ing (``is flying``, ``has called``)."""
    if k >= len(lowered) or lowered[k] not in PERSON_VERBS:
        return False
    if lowered[k] not in WEAK_VERBS:
        return True
    nxt = lowered[k + 1] if k + 1 < len(lowered) else ""
    return (nxt in PERSON_VERBS and nxt not in WEAK_VERBS) or (
        len(nxt) > 4 and nxt.endswith("ing") and lowered[k] in ("is", "was", "'s"))


def common_use(document: Document, i: int) -> bool:
    """Whether what follows token ``i`` (a word-name opening its sentence) is what follows
    the word in common use: a stop word (``Hope this helps``, ``Will you``, ``Mark the
    date``) but a verb or ``and`` (``Summer is ten``), or a noun (a lower-case word, no verb
    of people nor a form in -s, -ed or -ly: ``Art therapy``, ``Summer camp``; ``Bill finally
    came`` is a name)."""
    lowered = lowered_tokens(document.tokens)
    k = i + 1
    if k >= len(lowered) or document.paragraph_ids[k] != document.paragraph_ids[i]:
        return False
    word = lowered[k]
    if word in _stop_words():
        return word not in NAME_MAY_FOLLOW
    return (word.isalpha() and document.tokens[k].islower() and word not in PERSON_VERBS
            and not word.endswith(("s", "ed", "ly")))


@functools.lru_cache(maxsize=1)
def _stop_words() -> FrozenSet[str]:
    return load_wordlist("stop_words")


def cued_names(document: Document, also: FrozenSet[str] = frozenset()) -> Set[int]:
    """The indices of the tokens that a cue beside them makes a person's first name (see
    the module): the word-names, and the words of ``also`` (lower case: a user's list)."""
    tokens = document.tokens
    kin, address, names = _lists()
    names = names | also if also else names
    stop_words = _stop_words()
    lowered = lowered_tokens(tokens)
    paragraphs, patterns, scrubbed = (document.paragraph_ids, document.pattern_labels,
                                      document.scrubbed)
    found: Set[int] = set()
    for i in indices_in(names, lowered):          # at C speed: most posts have none
        word = lowered[i]
        if patterns[i] or i in scrubbed:
            continue
        token = tokens[i]
        line = paragraphs[i]

        def at(k: int) -> str:
            return lowered[k] if 0 <= k < len(lowered) and paragraphs[k] == line else ""

        before = i - 1 if at(i - 1) != "," else i - 2      # ``my husband, Will``
        after = at(i + 1)
        if token.islower():
            if at(before) in kin and at(before - 1) in POSSESSIVE_DETERMINERS and (
                    (after in PERSON_VERBS and after not in WEAK_VERBS)
                    or after in ("'s", "who", "is", "was", "has")
                    or (word not in MODALS and (after in LOWER_CASE_ENDS or not after))):
                found.add(i)
            continue
        if not (token[:1].isupper() and token[1:].islower()):
            continue
        starts = opens_sentence(document, i)
        addressed = at(before) in address or at(before) == "you" and at(before - 1) == "thank"
        if (at(before) in kin
                or after and _strong_after(lowered, i + 1)
                or not starts and at(i - 1) in AUXILIARIES and after.isalpha()
                and tokens[i + 1].islower() and after not in PERSON_VERBS
                and after not in stop_words
                or addressed and (after in ADDRESS_ENDS or not after)
                or i == 0 and after == ","):
            found.add(i)
    return found


class CuedNameDetector(Detector):
    """A NAME span, score 1.0, on each first name a cue beside it makes a person's."""

    source = CUED

    def detect(self, document: Document) -> List[Span]:
        return [Span("NAME", *document.offsets[i], 1.0, self.source)
                for i in sorted(cued_names(document))]


def word_names() -> FrozenSet[str]:
    """The first names that are words, which the cues apply to (``lexicons/word_names.txt``)."""
    return _lists()[2]
