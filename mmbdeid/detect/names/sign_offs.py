"""Sign-offs: ``MK``, ``- D``, ``dp``, ``J.S.``, ``Regards, Debra`` where a post is signed.

The model reads one to three letters as an ordinary token, yet at the end of a post they
are the writer's initials and identify them as well as the name would; and a first name
after ``Best regards,`` in a mail signature is left where the model is unsure. A rule step
(REMOVE, score 1.0): a NAME span on

* **initials**: one to three letters (``MK``, ``D``, ``dp``, ``Sue``; a single letter in
  capitals), or two or
  three initials with full stops (``J.S.``, ``K.T``: one span from the first letter to the
  last, the last full stop left), that are no word of ``lexicons/not_initials.txt``
  (``OK``, ``PS``, ``FYI``, ``LOL``, ``TIA``, ``HTH``, ``xoxo``, ``Hmm``), no medical
  abbreviation (``CT``, ``GT``), no stop word (``me``, ``us``; a single ``d`` or ``m`` is a
  letter here, ``I`` never), no greeting, closing word or title (``thx``, ``Dr``; a kinship
  abbreviation may be initials there: ``dp``), and no frequent English word (Zipf
  ``WORD_ZIPF`` or more: ``Oh``, ``Bye``, ``God``) unless a first name less frequent than
  ``NAME_ZIPF`` (``Sue``; not ``Man``);
* **a first name**, capitalised, that is no frequent English word (Zipf below
  ``NAME_ZIPF``: ``Debra``, ``Kay``; not ``Will``, ``Hope``), nor a stop word, greeting,
  closing word, title or drug name; the completion step after this one takes the surname;

at a sign-off position: the last word of its line, or followed there by a signature (a
first name after initials, ``Thx dp Debra``; a name word after a first name, ``Debra
Perlingiere``), and after a closing word (``Thx dp``, ``Love, D``, ``Best regards, Debra``;
``lexicons/closings.txt`` and ``greetings.txt``) or after a dash (``- D``, ``~MK``; not
``Pac- Man``, ``:D``, nor a word cut short: ``G…``) or a sentence end (``... anything
else. dp``), or at the start of a line after another (a post of one line signs nothing),
on the last line of the post,
before a line that starts with a first name (a signature block), or after a line that holds
only a closing or initials (``Love,`` / ``MK``, ``Dp`` / ``Debra``).

**Where a message closes** (issue 31): on the last line of the post or of a quoted block
(the next line unquoted, ``-----Original Message-----``, ``From:`` or ``... wrote:``), a word
alone on its line or after a closing word is initials even if it is a medical abbreviation
or a word less frequent than ``CLOSING_ZIPF`` (``Thanks all.`` / ``GT``, ``Cheers`` /
``Mo``, ``xx Sky``; a medical abbreviation alone after a question answers it: ``What did
the scan show?`` / ``MRI``), and so are dotted initials in capitals that spell a word (``T.O.``;
not ``U.S.``, ``P.M.``: ``DOTTED_WORDS``), a lower-case letter after a dash (``-- e``) and a
rare handle after a closing word (``kisses leli``); a rule of dashes or slashes may frame
them (``----cgy``, ``/ D /``). A first name and a name word followed only by short lines
without a sentence end (``Renata Wollaston`` / ``Clinic Coordinator``) is a signature.

The step comes after the chain's KEEP steps and overrides them there: at a sign-off, ``dp``
is someone's initials, not the kinship word (dear partner) the medical-term filter keeps.
A sign-off the model removes already keeps the model's span (probability and source).
"""
import functools
import re
from bisect import bisect_right
from typing import FrozenSet, List, Optional

from ...lexicon.names import first_names, title_words
from ...lexicon.wordlists import load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ..base import indices_in, lowered_tokens
from ..crf import EVERY_TOKEN
from ..words import WORD_CHARACTER
from .gap_filler import GapFiller
from .name_words import name_words

SIGN_OFF = "signoff"
MAX_LETTERS = 3
# A word at least this frequent (Zipf) is a word, not initials, unless a first name:
# ``Oh`` (5.2), ``Bye`` (4.4), ``God`` (5.5); ``dp`` (3.5), ``MK`` (3.6) are initials.
WORD_ZIPF = 4.0
# A first name at least this frequent as a word is left to the model: ``Will``, ``Hope``.
NAME_ZIPF = 5.0
DASHES = frozenset({"-", "--", "~", "\u2013", "\u2014"})
# Abbreviations written with full stops in capitals that are no one's initials.
DOTTED_WORDS = frozenset({"am", "pm", "us", "uk", "eu", "un", "eg", "ie", "ps", "nb", "dc",
                          "bc", "ad", "usa", "rip", "asap", "md", "do", "rn", "np", "pa"})
# A rule of dashes before a sign-off (``----cgy``, ``~~~ MK``).
DASH_RULE = re.compile(r"[-~\u2013\u2014_=]{2,}$")
# A word on the sign-off line that closes a message, where a medical abbreviation or a more
# frequent word is initials (``GT``, ``Mo``, ``xx Sky``): below this Zipf.
CLOSING_ZIPF = NAME_ZIPF
# A short handle after a closing word there (``kisses leli``): no word of this Zipf or more.
HANDLE_ZIPF = 3.0
MAX_HANDLE = 8
# A word cut short (a truncated tweet: ``G…``) is no sign-off.
TRUNCATIONS = frozenset({"\u2026", "...", ".."})
# What ends a sentence before a sign-off: ``..`` too (boards write it for a full stop),
# where ``words.SENTENCE_ENDS`` has the ellipsis character.
SIGN_OFF_SENTENCE_ENDS = frozenset({".", "!", "?", "...", ".."})
# What may stand between a closing word and the sign-off: ``Thanks, MK``, ``Love!! - D``.
AFTER_CLOSING = frozenset({",", "!", ".", "!!", "..."}) | DASHES
# What may open a line before a sign-off besides a dash: quoting marks.
QUOTES = frozenset({'"', "'", "(", ">", "/"})
# A line that opens a quoted message: the message before it ends there.
REPLY_HEADER = re.compile(r"^\s*(?:-{2,}\s*(?:Original|Forwarded) Message|From:|.*\bwrote:\s*$)",
                          re.IGNORECASE)


@functools.lru_cache(maxsize=2)
def _never_signed(closing: bool = False) -> FrozenSet[str]:
    """Words that are neither initials nor a signed name; with ``closing``, where a message
    closes, medical abbreviations may be initials (``GT`` alone under an e-mail)."""
    medical = frozenset() if closing else load_wordlist("medical_abbreviations")
    return (load_wordlist("not_initials") | medical
            | load_wordlist("greetings") | load_wordlist("closings") | title_words()
            | {w for w in load_wordlist("stop_words") if len(w) > 1} | {"i"})


class SignOffDetector(GapFiller):
    """A NAME span on initials or a first name at a sign-off position (see the module)."""

    source = SIGN_OFF

    def __init__(self, threshold: float = EVERY_TOKEN):
        super().__init__(threshold)
        self.never = _never_signed()
        self.never_closing = _never_signed(closing=True)
        self.medical = load_wordlist("medical_abbreviations")
        self.drugs = load_wordlist("drugs")
        self.closings = load_wordlist("closings") | load_wordlist("greetings")
        self.first = first_names()
        self.zipf = load_zipf()
        self.name_words = name_words()

    def initials_at(self, document: Document, k: int, closing: bool = False) -> Optional[int]:
        """The last token of the initials starting at ``k`` (``S`` of ``J.S.``), or None.
        ``closing``: ``k`` closes a message (:meth:`closes_message`), where a medical
        abbreviation, a word less frequent than ``CLOSING_ZIPF`` and, after a dash, a
        lower-case letter are initials too (``GT``, ``Mo``, ``-- d``)."""
        tokens, offsets = document.tokens, document.offsets
        token = tokens[k]
        if not token.isalpha() or len(token) > MAX_LETTERS:
            return None
        last, letters = k, [token]
        while (len(token) == 1 and last + 2 < len(tokens) and tokens[last + 1] == "."
               and len(tokens[last + 2]) == 1 and tokens[last + 2].isalpha()
               and offsets[last][1] == offsets[last + 1][0]
               and offsets[last + 1][1] == offsets[last + 2][0]):
            last += 2
            letters.append(tokens[last])
        word = "".join(letters).lower()
        never = self.never_closing if closing else self.never
        dotted = closing and len(letters) > 1 and "".join(letters).isupper()
        if len(letters) > MAX_LETTERS or word in (DOTTED_WORDS if dotted else never):
            return None                          # T.O. is no word, U.S. no initials
        if len(word) == 1 and not token.isupper() and not (
                closing and k > 0 and _is_dash(tokens[k - 1])
                and document.paragraph_ids[k - 1] == document.paragraph_ids[k]):
            return None                          # a lone lower-case letter: s, d
        zipf = self.zipf.get(word, 0.0)
        if dotted or closing and zipf < CLOSING_ZIPF:
            return last
        if len(word) > 1 and zipf >= WORD_ZIPF and not (word in self.first
                                                        and zipf < NAME_ZIPF):
            return None
        return last

    def is_first_name(self, token: str) -> bool:
        """A capitalised first name that is no frequent word, stop word or closing."""
        word = token.lower()
        return (token[:1].isupper() and token.isalpha() and word in self.first
                and word not in self.never and word not in self.drugs
                and self.zipf.get(word, 0.0) < NAME_ZIPF)

    def candidates(self, document: Document) -> List[int]:
        """Where a sign-off may start: the last word of each line (the first letter of
        ``J.S.``), the first word of each line, and the word after each closing word
        (``Thx dp Debra``)."""
        tokens, lines = document.tokens, document.paragraph_ids
        found = set()
        for line in range(lines[-1] + 1):
            end = bisect_right(lines, line)
            k = end - 1
            while k >= 0 and lines[k] == line and not _has_word(tokens[k]):
                k -= 1
            if k < 0 or lines[k] != line:
                continue
            while k >= 2 and tokens[k - 1] == "." and len(tokens[k - 2]) == 1 \
                    and len(tokens[k]) == 1 and lines[k - 2] == line:
                k -= 2                                  # back to the J of J.S.
            found.add(k)
            start = bisect_right(lines, line - 1)
            while start < end and not _has_word(tokens[start]):
                start += 1
            found.add(start)
        for k in indices_in(self.closings, lowered_tokens(tokens)):
            after = k + 1
            while after < len(tokens) and tokens[after] in (",", "!", "."):
                after += 1
            if after < len(tokens):
                found.add(after)
        return sorted(found)

    def find(self, document: Document) -> List[Span]:
        """The spans of the sign-offs in ``document``."""
        if not document.tokens:
            return []
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        spans: List[Span] = []
        end = -1
        for k in self.candidates(document):
            if k <= end or patterns[k]:
                continue
            last = self.initials_at(document, k)
            name = last is None and self.is_first_name(tokens[k])
            if name:
                last = k
            elif last is None and self.closes_message(document, k) and not (
                    tokens[k].lower() in self.medical and _after_question(document, k)):
                last = self.initials_at(document, k, closing=True)
                if last is None and self.is_handle(document, k):
                    last = k
            if last is not None and self.at_sign_off(document, k, last, name):
                end = last
                spans.append(Span("NAME", offsets[k][0], offsets[last][1], 1.0, SIGN_OFF))
        return spans

    def is_handle(self, document: Document, k: int) -> bool:
        """A short rare word in lower case after a closing word on its line (``kisses
        leli``; not a word drawn out, ``love ittttt``)."""
        token, word = document.tokens[k], document.tokens[k].lower()
        before = _word_before(document, k)
        return (token.isalpha() and token.islower() and len(token) <= MAX_HANDLE
                and not _DRAWN_OUT.search(token) and word not in self.never
                and word not in self.drugs and self.zipf.get(word, 0.0) < HANDLE_ZIPF
                and before is not None and document.tokens[before].lower() in self.closings)

    def closes_message(self, document: Document, k: int) -> bool:
        """Whether ``k`` is the one word of its line (dotted initials and marks aside) or
        follows a closing word there, on the last line of the post or of a quoted block."""
        tokens, lines = document.tokens, document.paragraph_ids
        line = lines[k]
        end = bisect_right(lines, line)
        words = [j for j in range(bisect_right(lines, line - 1), end) if _has_word(tokens[j])]
        if k not in words:
            return False
        rest = words[words.index(k):]
        if len(rest) > 1 and not all(len(tokens[j]) == 1 for j in rest):
            return False                            # more than one word, or no J.S.
        alone = words[0] == k
        before = _word_before(document, k)
        closed = before is not None and tokens[before].lower() in self.closings
        return (alone or closed) and self._last_line(document, end)

    def at_sign_off(self, document: Document, first: int, last: int, name: bool) -> bool:
        tokens, lines = document.tokens, document.paragraph_ids
        size, line = len(tokens), lines[first]
        # after: nothing but punctuation to the end of the line, or a signature (a first
        # name after initials, name words after a first name)
        after = last + 1
        if after < size and tokens[after] in TRUNCATIONS and self._touching(document, last):
            return False
        while after < size and lines[after] == line and not _has_word(tokens[after]):
            after += 1
        signature = []
        while after < size and lines[after] == line and len(signature) < 3 and (
                self.is_first_name(tokens[after]) or name and self.name_words.is_word(
                    tokens[after], tokens[after].isupper())):
            signature.append(after)
            after += 1
        line_ends = not any(_has_word(t) for t in tokens[after:bisect_right(lines, line)])
        if not (signature or line_ends):
            return False
        # before: a closing word, or the start of the line after a dash or a sentence end
        before = first - 1
        marks = set()
        while before >= 0 and lines[before] == line and not _has_word(tokens[before]):
            marks.add(tokens[before])
            before -= 1
        if before >= 0 and lines[before] == line:
            if tokens[before].lower() in self.closings:
                return marks <= AFTER_CLOSING            # not "THANKS!: D", a smile
            # right after a dash or a sentence end: not the smile of ``:D``; a sentence end
            # and a space: not the extension of ``API.pdf``; a dash apart from the word
            # before it: not the suffix of ``Bradbury- ish``
            mark = tokens[first - 1]
            if not (mark in SIGN_OFF_SENTENCE_ENDS and not self._touching(document, first - 1)
                    or _is_dash(mark) and not self._touching(document, before)):
                return False
        elif not all(_is_dash(m) or m in QUOTES for m in marks) or not any(map(_has_word, tokens[:before + 1])):
            return False                        # a post of one line signs nothing: Bom Dia
        # there, the signature must end the line, and the line end the post or come
        # before or after a signature or closing line
        return line_ends and (self._last_line(document, after)
                              or self._signature_line(document, after)
                              or self._after_closing_line(document, first)
                              or name and bool(signature)
                              and self._role_lines_follow(document, after))

    @staticmethod
    def _touching(document: Document, k: int) -> bool:
        """Whether token ``k`` ends where the next one starts."""
        return document.offsets[k][1] == document.offsets[k + 1][0]

    @staticmethod
    def _last_line(document: Document, after: int) -> bool:
        """Whether no word follows the sign-off (``after``: the token after it) in the
        post, but the rest of its own line; or its line ends a quoted block (``> MK``
        before an unquoted line) or comes before a quoted message's header (``-----Original
        Message-----``, ``From:``, ``... wrote:``)."""
        tokens, lines = document.tokens, document.paragraph_ids
        if after < len(tokens) and lines[after] == lines[after - 1]:
            after = bisect_right(lines, lines[after])
        following = next((j for j in range(after, len(tokens)) if _has_word(tokens[j])), None)
        if following is None:
            return True
        text, offsets = document.text, document.offsets
        this_line = _line_at(text, offsets[after - 1][0])
        next_line = _line_at(text, offsets[following][0])
        return (_quoted(this_line) != _quoted(next_line)
                or REPLY_HEADER.match(next_line) is not None)

    def _role_lines_follow(self, document: Document, after: int) -> bool:
        """Whether only short lines without a sentence end (a role, a team: ``Clinic
        Coordinator``) follow the signature line to the end of the post."""
        tokens, lines = document.tokens, document.paragraph_ids
        if after < len(tokens) and lines[after] == lines[after - 1]:
            after = bisect_right(lines, lines[after])
        if after >= len(tokens):
            return False
        for line in range(lines[after], lines[-1] + 1):
            start, end = bisect_right(lines, line - 1), bisect_right(lines, line)
            line_tokens = tokens[start:end]
            words = [t for t in line_tokens if _has_word(t)]
            if len(words) > MAX_ROLE_WORDS or any(t in SIGN_OFF_SENTENCE_ENDS for t in line_tokens):
                return False
        return lines[-1] - lines[after] < MAX_ROLE_LINES

    def _signature_line(self, document: Document, after: int) -> bool:
        """Whether the next line starts with a capitalised first name."""
        tokens, lines = document.tokens, document.paragraph_ids
        if after < len(tokens) and lines[after] == lines[after - 1]:
            after = bisect_right(lines, lines[after])
        while after < len(tokens) and not _has_word(tokens[after]):
            after += 1
        return after < len(tokens) and self.is_first_name(tokens[after])

    def _after_closing_line(self, document: Document, first: int) -> bool:
        """Whether the line before holds only a closing (``Love,``, ``Best regards,``) or
        initials (``Dp`` / ``Maren Oyelaran``)."""
        tokens, lines = document.tokens, document.paragraph_ids
        line = lines[first]
        start = bisect_right(lines, line - 2)
        if start >= first or lines[start] != line - 1:
            return False
        words = [k for k in range(start, first) if _has_word(tokens[k])]
        if len(words) == 1 and self.initials_at(document, words[0]) is not None:
            return True
        return bool(words) and all(tokens[k].lower() in self.closings for k in words)


_DRAWN_OUT = re.compile(r"(.)\1\1")
# At most this many lines of this many words each (a role, a team, a phone line) after a
# signature at the end of a post: ``Renata Wollaston`` / ``Clinic Coordinator``.
MAX_ROLE_LINES, MAX_ROLE_WORDS = 3, 5


def _is_dash(token: str) -> bool:
    return token in DASHES or DASH_RULE.match(token) is not None


def _word_before(document: Document, k: int) -> Optional[int]:
    """The last word token before ``k`` on its line, or None."""
    lines = document.paragraph_ids
    j = k - 1
    while j >= 0 and lines[j] == lines[k] and not _has_word(document.tokens[j]):
        j -= 1
    return j if j >= 0 and lines[j] == lines[k] else None


def _after_question(document: Document, k: int) -> bool:
    """Whether the last mark before ``k``'s line is a question mark: a word alone after a
    question answers it (``What did the scan show?`` / ``MRI``)."""
    lines = document.paragraph_ids
    j = k - 1
    while j >= 0 and lines[j] == lines[k]:
        j -= 1
    return j >= 0 and document.tokens[j] == "?"


def _line_at(text: str, position: int) -> str:
    """The line of ``text`` holding ``position``."""
    start = max(text.rfind("\n", 0, position), text.rfind("\r", 0, position)) + 1
    end = len(text)
    for mark in "\r\n":
        found = text.find(mark, position)
        if found != -1:
            end = min(end, found)
    return text[start:end]


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _has_word(token: str) -> bool:
    """Whether ``token`` holds a letter or digit (is no punctuation mark)."""
    return WORD_CHARACTER.search(token) is not None
