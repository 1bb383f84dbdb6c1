"""Names that the shape of a line gives away: mail headers, lists of people, signatures.

E-mails and list posts carry names in lines whose shape says what they are, where the
model, reading a word at a time, is unsure (a name in lower case, a surname no list knows,
a name repeated so often that it looks like a board word). A rule step (REMOVE, score 1.0)
puts a NAME span on the name (the words from the first to the last, titles before it and
everything after it left) in:

* **a header field**: ``From:``, ``To:``, ``Cc:``, ``Bcc:``, ``Reply-To:``, ``Sent by:``,
  each name of the field (split at ``;`` and ``,``; an address, ``[mailto:…]`` or a Notes
  domain ``/Clinic@ClinicMail`` after it cut off): ``To: Tobias Marr; Ines Carvalho-Boyd``;
* **a display name** before an address in angle brackets, quoted or not:
  ``"halvard j. penrose" <h.penrose@example.net>``, ``Marit Jovanovic <mj@example.org>``
  (quoted, before anything in angle brackets: an address a dump has masked, ``<…>``);
* **a Notes header**: a name at the start of a line (a Notes domain after it) before a
  date and a time, ``Sheila Tweed 03/26/2001 08:58 PM``, ``Sheila Tweed@ECT 03/26/2001
  08:58 PM``;
* **a list of people**: a name at the start of a line before an age and a comma,
  ``Waheed Zaman, 22, London E17``;
* **a repeated name line**: a line of two or three capitalised words repeated in the post
  (a signature pasted under each reply: ``Debra Perlingiere``).

Each name must read as one: one to four words (initials with or without their full stop),
none a stop word, greeting or closing, at least one a census name or a word rarer than
``RARE_ZIPF`` that is no medical word (``To: All Staff``, ``Radiology Scheduling`` stay), and in a list, a Notes
header or a repeated line every word capitalised. The chain's KEEP steps keep what they
keep from this step too (a drug, a place written out: ``San Diego, 24, ...``).
"""
import functools
import re
from collections import Counter
from typing import FrozenSet, Iterator, List, Sequence, Tuple

from ...lexicon.names import census_names, title_words
from ...lexicon.wordlists import load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ..base import Detector, without_kept
from ..crf import EVERY_TOKEN
from .gap_filler import GapFiller

MESSAGE_LINES = "message-lines"
MAX_WORDS = 4
# A word rarer than this (Zipf) may be a surname no list holds (``Perlingiere``).
RARE_ZIPF = 3.3
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\u2019-](?=[^\W\d_]))*\.?")
_NAME = r"(?:[^\W\d_][\w'\u2019.-]*[ \t]+){0,3}[^\W\d_][\w'\u2019.-]*"
_LINE = re.compile(r"[^\r\n]+")
_QUOTE_MARKS = r"[ \t]*(?:>[ \t]*)*"
HEADER_FIELD = re.compile(r"^" + _QUOTE_MARKS + r"(?:from|to|cc|bcc|reply-to|sent by)[ \t]*:"
                          r"[ \t]*(.+)$", re.IGNORECASE)
# Where a header field's name ends: an address, a Notes domain, a bracket.
_AFTER_NAME = re.compile(r"[<\[(/@\"]")
DISPLAY_NAME = re.compile(r"\"[ \t]*(" + _NAME + r")[ \t]*\"[ \t]*<[^<>\r\n]{1,80}>"
                          r"|(?:^|[:;,][ \t]*)(" + _NAME + r")[ \t]*<[^<>\s]+@[^<>\s]+>")
NOTES_HEADER = re.compile(r"^" + _QUOTE_MARKS + r"(" + _NAME + r")(?:@\S+)?[ \t]+"
                          r"\d{1,2}/\d{1,2}/\d{2,4}"
                          r"[ \t]+\d{1,2}:\d\d")
PERSON_LINE = re.compile(r"^" + _QUOTE_MARKS + r"(?:[-*\u2022][ \t]*)?(" + _NAME
                         + r"),[ \t]*\d{1,3},[ \t]*\S")
NAME_LINE = re.compile(r"^[ \t]*(" + _NAME + r")[ \t]*$")


@functools.lru_cache(maxsize=1)
def _never_named() -> FrozenSet[str]:
    """Words that are no part of a name in these lines."""
    return (load_wordlist("stop_words") | load_wordlist("greetings")
            | load_wordlist("closings") | load_wordlist("not_initials")) - {"i"}


class MessageLineDetector(GapFiller):
    """A NAME span on each name in a header, list or repeated name line (see the module)."""

    source = MESSAGE_LINES

    def __init__(self, kept: Sequence[Detector] = (), threshold: float = EVERY_TOKEN):
        super().__init__(threshold)
        self.kept = list(kept)
        self.never = _never_named()
        self.titles = title_words()
        self.census = census_names()
        self.zipf = load_zipf()
        self.medical = load_wordlist("medical_words") | load_wordlist("drugs")

    def find(self, document: Document) -> List[Span]:
        text = document.text
        if not document.tokens or ("\n" not in text and "<" not in text and ":" not in text):
            return []
        spans = [Span("NAME", start, end, 1.0, MESSAGE_LINES)
                 for start, end in sorted(set(self.names(text)))]
        return without_kept(spans, document, self.kept) if spans else spans

    def names(self, text: str) -> Iterator[Tuple[int, int]]:
        """(start, end) of each name the lines of ``text`` hold."""
        lines = [(m.start(), m.group()) for m in _LINE.finditer(text)]
        repeated = Counter(line.strip() for _, line in lines)
        for start, line in lines:
            field = HEADER_FIELD.match(line)
            if field:
                for piece in re.finditer(r"[^;,]+", field.group(1)):
                    cut = _AFTER_NAME.search(piece.group())
                    name = piece.group()[:cut.start() if cut else None]
                    yield from self._name(start + field.start(1) + piece.start(), name, False)
            for match in DISPLAY_NAME.finditer(line):
                group = 1 if match.group(1) is not None else 2
                yield from self._name(start + match.start(group), match.group(group), False)
            for pattern in (NOTES_HEADER, PERSON_LINE):
                match = pattern.match(line)
                if match:
                    yield from self._name(start + match.start(1), match.group(1), True)
            if repeated[line.strip()] > 1 and NAME_LINE.match(line) and len(line.split()) > 1:
                match = NAME_LINE.match(line)
                yield from self._name(start + match.start(1), match.group(1), True)

    def _name(self, start: int, candidate: str, capitalised: bool) -> Iterator[Tuple[int, int]]:
        """The (start, end) of ``candidate`` (at ``start`` in the text) if it reads as a
        name, less the titles before it and an initial's last full stop."""
        if not all(_WORD.fullmatch(piece) for piece in candidate.split()):
            return                                  # a digit, a mark: no name
        words = list(_WORD.finditer(candidate))
        while words and words[0].group().rstrip(".").lower() in self.titles:
            words.pop(0)
        if not 0 < len(words) <= MAX_WORDS:
            return
        plain = [w.group().rstrip(".") for w in words]
        if any(p.lower() in self.never and len(p) > 1 for p in plain):
            return
        if capitalised and not all(p[:1].isupper() for p in plain):
            return
        if not any(len(p) > 1 and (p.lower() in self.census or self.zipf.get(
                p.lower(), 0.0) < RARE_ZIPF and p.lower() not in self.medical) for p in plain):
            return
        if any(not w.group().endswith(".") and len(w.group()) > 1 and "." in w.group()
               for w in words):
            return                                  # a dotted word: a domain, a file
        last = words[-1]
        end = last.end() - (1 if last.group().endswith(".") else 0)
        yield start + words[0].start(), start + end
