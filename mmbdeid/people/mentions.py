"""Name mentions in a post: adjacent name spans grouped into one mention when they look like
one name, and each mention's role from the words around it (addressed, signing the post,
introducing its author, after a title).
"""
from __future__ import annotations

import functools
import itertools
import re
from typing import Iterable, List, NamedTuple, Optional, Tuple

from ..kinds import PERSON_LABELS
from ..lexicon.names import first_names
from ..lexicon.wordlists import load_last_name_ranks, load_wordlist, load_zipf
from ..spans import JOINER_GAP, Span, join, mention_groups

COMMON_SURNAME_RANK = 5000
VERY_COMMON_ZIPF = 5.0      # "love", "will", "may": too common to join a name

_WORD = re.compile(r"\w+")

# Roles. A name addressed is someone the post speaks to (Farrow et al.: most often the author
# of the post it replies to): "Hi Arhtur", "Jess, welcome", "Thank you Jo.",
# "Good luck Monique!", "Good idea Hank.", "@Linda", "hugs to Linda".
_GREETING = re.compile(          # matched from the line's start to the name
    r"\W*(?P<word>(?:hi|hello|hey|heya|hiya|dear|morning|evening|good\s+(?:morning|evening|"
    r"afternoon)|welcome|thanks|thank\s+you|thx|ty|congrats|hugs|aww+|oh)\b)?[\W_]*$",
    re.IGNORECASE)
# what follows a bare name opening a post that speaks to them: a mark setting it apart
# ("Jess, welcome", "Jess!") or a word of talk to someone ("helen you've been through")
_SET_APART = re.compile(
    r"[ \t]*(?:[,!?:;\-\u2013\u2014]|$|(?:you|your|u|ur|ya|i|i'm|im|we|so|sorry|thanks|"
    r"thank|welcome|glad|congrats|hugs|good|great|hope|how|what|did|do|have|are|please|"
    r"yes|no|that|this|lol|omg|wow|aww+)\b)", re.MULTILINE | re.IGNORECASE)
_ADDRESS_LEAD = re.compile(
    r"\b(?:thank\s+you|thanks|thx|ty|good\s+luck|congrats|congratulations|welcome|hugs|"
    r"hi|hello|hey|dear|sorry|glad)[\s,]+$", re.IGNORECASE)
# Thanks (or a wish) right before a name that ends the post: "Thanks Linda", "Thank you so
# much, Jo.", "Good luck Monique!" either thanks someone or signs the post ("Can you
# explain? Thanks Mary Jane"). The role "closing" leaves that to the names (Linker).
_CLOSING_LEAD = re.compile(
    r"\b(?:thank\s+you|thanks|thx|ty|good\s+luck)(?:\s+(?:so|very)\s+much|\s+again)?"
    r"[\s,]+$", re.IGNORECASE)
# A greeting right before a name is addressing even when the name ends the post
# ("I asked Ron.\nHi Jess", "Congrats Linda", "big hugs to Linda").
_GREETING_LEAD = re.compile(
    r"\b(?:hi|hello|hey|heya|hiya|dear|good\s+(?:morning|evening|afternoon)|welcome|"
    r"congrats|congratulations|hugs\s+(?:to|for))[\s,]+$", re.IGNORECASE)
# A name closing a sentence after another word is most often someone spoken to ("good
# idea Hank.", "glad he stepped up Sue."), unless that word makes it the object of a
# preposition or a relation ("to Helen.", "my sister Colleen.").
_NOT_VOCATIVE_BEFORE = frozenset(
    "to with from for by and or of at about like than as in on into onto my your his her "
    "our their the a an dr mr mrs ms miss named called friend sister brother husband wife "
    "son daughter mom mum dad mother father doctor doc nurse aunt uncle cousin niece nephew "
    "grandma grandpa gran boyfriend girlfriend partner boss neighbor neighbour told tell "
    "ask asked saw see met meet call called".split())
# A relative, a carer or someone known named after a possessive ("my sister Summer", "her
# husband Will", "my OT, also Priya") is a third party: never the post's own author
# (issue 30), even when the author shares the name.
_KIN_LEAD = re.compile(
    r"\b(?:my|our|his|her|their|your)\s+(?:(?:older|younger|little|big|late|ex)[\s-]+)?"
    r"(?:sister|brother|husband|wife|son|daughter|mom|mum|dad|mother|father|aunt|uncle|"
    r"cousin|niece|nephew|grandma|grandpa|granddaughter|grandson|gran|boyfriend|girlfriend|"
    r"partner|fianc[eé]e?|neighbou?r|boss|sil|bil|mil|fil|dh|dw|ds|dd|"
    # people who care for the author ("my OT Priya", "our nurse, also Priya")
    r"ot|pt|physio|nurse|doctor|doc|gp|therapist|counsell?or|surgeon|carer|caregiver|"
    r"aide|sponsor|coach|social\s+worker|case\s+manager)"
    r"(?:[\s,]+(?:also|too|called|named))?[\s,]+$", re.IGNORECASE)
_SENTENCE_END_AFTER = re.compile(r"[ \t]*[.!?]+(?:\s|$)")
# The author of a post: its sign-off ("Thanks Mary Jane" ending the post, "Hope that
# helps! R o b e r t", "...\nRon"), or a self-introduction ("I'm Kristen", "Dawn here").
SIGNOFF_MAX_WORDS = 3         # "Thanks so much Mary Jane", "Hugs and love, Jess"
_SIGNOFF_LEAD = re.compile(
    r"(?:[.!?)\-~]|\b(?:thanks|thx|cheers|love|hugs|regards|best|xo+|xx+|take\s+care|"
    r"later|bye))[\W_]*$", re.IGNORECASE)
_SELF_LEAD = re.compile(r"\b(?:i'?m|i\s+am|my\s+name\s+is|name'?s|it'?s|this\s+is)\s+$",
                        re.IGNORECASE)
_SELF_AFTER = re.compile(r"\s+here\b", re.IGNORECASE)     # matched where the name ends


class Mention(NamedTuple):
    start: int
    end: int
    text: str       # as read: its visible text (``Li\u200bnda`` is ``Linda``)
    label: str      # NAME or USER
    role: str       # "addressee", "author", "closing" (either: see mention_role) or ""
    parts: Tuple[Span, ...] = ()    # the detected spans it joins, in text order


def name_groups(text: str, spans: Iterable[Span]) -> List[Tuple[Span, ...]]:
    """The spans grouped into the mentions of people: the gaps allowed between the parts
    of one mention are those of every output (:func:`mmbdeid.spans.adjacent`), and the
    parts must also look like one name (:func:`keep_apart`), since the name is what links
    the mention to a person. A mention does not end with punctuation tagged on its own
    (``Linda`` ``.`` ending a sentence): that stays a span of its own."""
    groups: List[Tuple[Span, ...]] = []
    last_word = _LastWord(text)

    def apart(text: str, previous: Span, span: Span) -> bool:
        return _keep_apart(text, previous, span, last_word)
    for group in mention_groups(text, spans, apart):
        end = len(group)
        while end > 1 and not _WORD.search(text, group[end - 1].start, group[end - 1].end):
            end -= 1
        groups.append(group[:end])
        groups.extend((part,) for part in group[end:])
    return groups


def keep_apart(text: str, previous: Span, span: Span) -> bool:
    """Whether two adjacent person spans are still two names: the case differs (``Kristen
    btw``), one is an ordinary word the model tagged for its position (``Ouch Hank``;
    not next to an initial: ``David A. Foti``) or a word that is never a name (``Dr``,
    ``Thanks``, ``I``). The dot of ``C.`` tagged on its own joins."""
    return _keep_apart(text, previous, span, _LastWord(text))


def _keep_apart(text: str, previous: Span, span: Span, last_word: "_LastWord") -> bool:
    """:func:`keep_apart`, finding the last word of ``previous`` with ``last_word``."""
    word = text[span.start:span.end]
    if not _WORD.search(word) or JOINER_GAP.fullmatch(text[previous.end:span.start]):
        return False                    # "C." tagged in pieces, "Ostrowski-Vale"
    start, end = last_word(previous.start, previous.end)
    core_end = end
    while core_end > start and text[core_end - 1] == ".":
        core_end -= 1
    # a longer word (names run together by zero-width spaces) is in no list and no
    # initial: only its first letter is read, not the word copied at each name
    last = text[start:end] if core_end - start <= LONG_WORD else None
    if _never_a_name(word) or (last is not None and _never_a_name(last)):
        return True
    if text[start:start + 1].isupper() != word[:1].isupper():
        return True
    if _is_initial(word) or (last is not None and _is_initial(last)):
        return False                    # "David A. Foti": an initial makes it a name
    if (last is not None and last[:1].isupper() and last.lower() in first_names()
            and not ordinary_word(word)):
        return False                    # "Rose Delacroix-Mbeki": a first name, a surname
    return ordinary_word(word) or (last is not None and ordinary_word(last))


LONG_WORD = 64          # longer than any word of the lists keep_apart looks words up in
_NOT_SPACE = re.compile(r"\S+")     # what str.split() keeps: \s is its whitespace


class _LastWord:
    """Where the last word (``str.split()``'s) of ``text[start:end]`` starts and ends,
    asked for a mention as it grows part by part: only the text added since the last
    question is read, so a mention of n parts costs its length, not n times it (a post of
    100,000 adjacent names took over 500 s)."""

    def __init__(self, text: str):
        self.text = text
        self.start = self.end = self.word_start = self.word_end = -1

    def __call__(self, start: int, end: int) -> Tuple[int, int]:
        if start != self.start or end < self.end:       # another mention: read it anew
            self.start = self.end = self.word_start = self.word_end = start
        for run in _NOT_SPACE.finditer(self.text, self.end, end):
            if run.start() != self.word_end:             # not the last word going on
                self.word_start = run.start()
            self.word_end = run.end()
        self.end = end
        return self.word_start, self.word_end


def _is_initial(word: str) -> bool:
    return len(word.rstrip(".")) == 1 and word[:1].isalpha()


def ordinary_word(word: str) -> bool:
    """A common word that is not also a name (``ouch``, ``also``; not ``grace``), or a
    very common one even if it is (``love``, ``will``)."""
    key = word.lower()
    return len(key) > 1 and key in _common_words() and (
        key not in _names() or load_zipf().get(key, 0.0) >= VERY_COMMON_ZIPF)


@functools.lru_cache(maxsize=1)
def _common_words() -> frozenset:
    return load_wordlist("common_words") | load_wordlist("stop_words")


@functools.lru_cache(maxsize=1)
def _names() -> frozenset:
    """First names and the commoner surnames (the census list's tail holds words like
    ``ouch``)."""
    surnames = {name for name, rank in load_last_name_ranks().items()
                if rank <= COMMON_SURNAME_RANK}
    return first_names() | surnames


def known_name(key: str) -> bool:
    """Whether a lower-case word is a first name or one of the commoner surnames."""
    return key in _names()


def mention_role(text: str, start: int, end: int, line_start: Optional[int] = None) -> str:
    """Who a mention most likely is, from the words around it: ``addressee`` (someone the
    post speaks to, never its author), ``author`` (the post's own author: a sign-off or
    self-introduction), ``closing`` (thanks right before a name ending the post: a
    sign-off or someone thanked, which the names decide), ``titled`` (a name after a
    title, ``Dr. Osei``, or a relation, ``my sister Summer``: never the post's author) or
    ``""`` (decided by name alone). ``line_start``: where the mention's line starts, if
    known (:func:`mentions_of`)."""
    if line_start is None:
        line_start = text.rfind("\n", 0, start) + 1
    # The line before the name is read in place, only as far as each question needs:
    # copied (and stripped) for each name, a line of many names took quadratic time.
    if (_after_title(text, line_start, start)
            or _KIN_LEAD.search(_last_words(text, line_start, start))):
        return "titled"
    if "@" in text[max(start - 1, 0):start + 1]:          # "@Linda": a handle addressed
        return "addressee"
    first_line = _NOT_SPACE.search(text, 0, line_start) is None     # nothing above it
    greeting = _GREETING.match(text, line_start, start) if first_line else None
    # a bare name opening a post is addressed when set apart or talked to ("Jess, welcome",
    # "helen you've"), not when it starts a sentence about them ("Teddy had a bad night")
    if greeting and (greeting.group("word") or _SET_APART.match(text, end)):
        return "addressee"
    # the lead patterns end at the name: they are matched on the line's last words only
    lead = _last_words(text, line_start, start)
    if _SELF_LEAD.search(lead) or _SELF_AFTER.match(text, end):
        return "author"
    ends_post = not _WORD.search(text, end)
    if _CLOSING_LEAD.search(lead):
        return "closing" if ends_post else "addressee"
    if _GREETING_LEAD.search(lead):
        return "addressee"
    if ends_post and (_at_most_words(text, SIGNOFF_MAX_WORDS, line_start, start)
                      or _SIGNOFF_LEAD.search(lead)):
        return "author"
    if _ADDRESS_LEAD.search(lead):
        return "addressee"
    previous_words = _WORD.findall(lead)
    if (previous_words and previous_words[-1].lower() not in _NOT_VOCATIVE_BEFORE
            and _SENTENCE_END_AFTER.match(text, end)
            and not _is_initial(text[start:end].split()[-1])):   # "David A. Foti"
        return "addressee"
    return ""


# No lead pattern's match holds more than four runs of letters and digits ("thank you so
# much"); one ends where the text before the name ends, so it lies in the text from the
# fifth-last such run (where a word starts) on.
LEAD_RUNS = 5
LEAD_WINDOW = 64        # characters looked at for those runs first
_ALPHANUMERIC_RUN = re.compile(r"[^\W_]+")


def _last_words(text: str, line_start: int = 0, end: Optional[int] = None) -> str:
    """The end of ``before`` (``text[line_start:end]``) from a word's start with
    ``LEAD_RUNS`` runs of letters and digits or more after it (``before`` itself if it has
    fewer): a pattern ending at ``$`` and holding fewer runs matches it where it matches
    ``before``."""
    end = len(text) if end is None else end
    if end - line_start <= LEAD_WINDOW:
        return text[line_start:end]
    starts = [m.start() for m in _ALPHANUMERIC_RUN.finditer(text, end - LEAD_WINDOW, end)]
    for start in reversed(starts[:max(len(starts) - LEAD_RUNS + 1, 0)]):
        if not _is_word_character(text[start - 1]):
            return text[start:end]
    return text[line_start:end]


def _is_word_character(character: str) -> bool:
    """Whether ``character`` is one ``\\w`` matches (a letter, digit or underscore)."""
    return character.isalnum() or character == "_"


def _at_most_words(text: str, most: int, start: int, end: int) -> bool:
    words = _WORD.finditer(text, start, end)
    return sum(1 for _ in itertools.islice(words, most + 1)) <= most


def after_title(before: str) -> bool:
    """Whether the text ``before`` a name ends with a title (``Dr. ``, ``Nurse ``)."""
    return _after_title(before, 0, len(before))


def _after_title(text: str, line_start: int, end: int) -> bool:
    """:func:`after_title` of ``text[line_start:end]``, read in place from its end."""
    # as the pattern (\w+)(\.?)[ \t]+$ would find it, without trying every position
    stripped = end
    while stripped > line_start and text[stripped - 1] in " \t":
        stripped -= 1
    if stripped == end:
        return False
    dot = stripped > line_start and text[stripped - 1] == "."
    word_end = stripped - dot
    word_start = word_end
    while word_start > line_start and _is_word_character(text[word_start - 1]):
        word_start -= 1
    if word_start == word_end:
        return False
    word = text[word_start:word_end]
    key = word.lower()
    # (imported here: the detectors' modules load the tokenizer's tables, which the
    # command line does not need to start)
    from ..lexicon.names import title_words
    from ..detect.names.titles import ABBREVIATED_TITLES, LOWER_CASE_TITLES
    return (key in title_words() and (word[:1].isupper() or key in LOWER_CASE_TITLES)
            and (not dot or key in ABBREVIATED_TITLES))


def mentions_of(text: str, spans: Iterable[Span]) -> List[Mention]:
    """The person mentions of a post's spans: NAME/USER spans, adjacent names merged;
    greeting words, honorifics (``Dr``), ``I``, lower-case stop words and bare punctuation
    are not mentions (a capitalised ``Will`` may be a person)."""
    from ..text.normalize import visible_text      # (see after_title)
    from .full_names import whole_full_names
    person_spans = whole_full_names(text, [s for s in spans if s.label in PERSON_LABELS
                                           and not _never_a_name(text[s.start:s.end])])
    mentions = []
    line_start = read_to = 0          # each mention's line start, found reading on
    for parts in name_groups(text, person_spans):
        s = join(parts)
        if _WORD.search(text, s.start, s.end):
            line_start = text.rfind("\n", read_to, s.start) + 1 or line_start
            read_to = s.start
            mentions.append(Mention(s.start, s.end, visible_text(text[s.start:s.end]), s.label,
                                    mention_role(text, s.start, s.end, line_start), parts))
    return _unrole_lists(text, _join_surname_first(text, mentions))


_SURNAME_COMMA = re.compile(r",[ \t]*")


def _join_surname_first(text: str, mentions: List[Mention]) -> List[Mention]:
    """``Kowalski, Stanislaw J.``, ``KOWALSKI, STAN``: a surname, a comma and the given
    names are one mention (a letter heading, a wristband, a list of residents), so that the
    form links as ``Stan Kowalski`` does (:func:`~mmbdeid.people.personmap.name_key`):
    both in capitals, or given names ending with an initial, or a known surname that is no
    first name before a first name, neither addressed nor in a list going on (``Thank you
    Dez, Mari and Sue`` stays three people)."""
    joined: List[Mention] = []
    for mention in mentions:
        previous = joined[-1] if joined else None
        if (previous is not None and previous.label == mention.label == "NAME"
                and _SURNAME_COMMA.fullmatch(text, previous.end, mention.start)
                and _surname_then_given(text, previous, mention)):
            parts = previous.parts + mention.parts
            joined[-1] = Mention(previous.start, mention.end,
                                 previous.text + text[previous.end:mention.start]
                                 + mention.text, "NAME",
                                 mention_role(text, previous.start, mention.end), parts)
        else:
            joined.append(mention)
    return joined


_LIST_GOES_ON = re.compile(r"[ \t]*(?:,|&|and\b)", re.IGNORECASE)


def _surname_then_given(text: str, surname: Mention, given: Mention) -> bool:
    words = given.text.split()
    if " " in surname.text or not words:
        return False
    if surname.text.isupper() and given.text.isupper() and words[0].lower() in first_names():
        return True
    if not surname.text[:1].isupper() or surname.text.lower() in first_names():
        return False
    if len(words) > 1 and _is_initial(words[-1]):
        return True
    return (words[0].lower() in first_names()
            and surname.text.lower() in load_last_name_ranks()
            and not surname.role and not _LIST_GOES_ON.match(text, given.end))


def _never_a_name(word: str) -> bool:
    key = word.lower().rstrip(".")
    # a greeting that is also a first name is one only in lower case (``ty`` thank you,
    # ``Thanks Ty!``), as detect/not_names keeps it: the person modes must not leave a
    # name the placeholder mode removes
    greeting = key in load_wordlist("greetings") and (word.islower() or key not in first_names())
    return (greeting or key in load_wordlist("honorifics") or word == "I"
            or (word.islower() and key in load_wordlist("stop_words")))


# The last line of a post holding one capitalised word, alone or after a closing word or a
# dash (``Aggie``, ``xx Pen``, ``~Rose``): the author's sign-off, read also where the model
# missed the name, since what a member signs is evidence of who they are (issue 30).
_SIGNOFF_LINE = re.compile(r"[ \t]*(?:(?P<lead>[^\W\d_]+)[ \t,]+|[-~\u2013\u2014]{1,2}[ \t]*)?"
                           r"(?P<name>[A-Z][a-z]+)[ \t]*[.!]*[ \t]*")


class SignedLine(NamedTuple):
    start: int
    end: int
    after_closing: bool     # after a closing word or a dash: a name even if a word (Pen)


def signoff_line(text: str) -> Optional[SignedLine]:
    """Where the post's last line signs it with one capitalised word (see
    ``_SIGNOFF_LINE``), if it does; a post of one line signs nothing, and a greeting,
    closing, title or stop word is no name."""
    found = last_line_match(_SIGNOFF_LINE, text)
    if found is None:
        return None
    lead, word = found.group("lead"), found.group("name")
    if (lead and lead.lower() not in load_wordlist("closings")) or _never_a_name(word) \
            or word.lower() in _closings():       # (not "Thanks Linda": thanks, or signed)
        return None
    return SignedLine(found.start("name"), found.end("name"),
                      bool(text[found.start():found.start("name")].strip()))


def last_line_match(pattern: "re.Pattern", text: str) -> Optional["re.Match"]:
    """``pattern`` matching the whole last line of a post (less trailing space), if it
    does; never in a post of one line (it signs nothing)."""
    body = text.rstrip()
    cut = body.rfind("\n")
    if cut < 0 or not body[:cut].strip():
        return None
    return pattern.fullmatch(body, cut + 1)


@functools.lru_cache(maxsize=1)
def _closings() -> frozenset:
    return load_wordlist("closings") | load_wordlist("greetings")


_LIST_GAP = re.compile(r"^\s*(?:,|&|and|,\s*and)\s*$", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


def _unrole_lists(text: str, mentions: List[Mention]) -> List[Mention]:
    """"Thanks Cindy, Maggie, Kay", "thanks gardengal, and thanks Roxy": several names
    addressed in one sentence say nothing about which is the parent post's author (nor a
    list which one signed), so none of them gets a role."""
    in_list = set()
    for i, (first, second) in enumerate(zip(mentions, mentions[1:])):
        gap = text[first.end:second.start]
        if _LIST_GAP.match(gap) or (first.role and second.role
                                    and not _SENTENCE_BREAK.search(gap)):
            in_list.update((i, i + 1))
    return [m._replace(role="") if i in in_list else m for i, m in enumerate(mentions)]
