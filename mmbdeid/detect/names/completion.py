"""Name completion: the rest of a name goes with the part the chain removed.

At a recall-first threshold the model often removes one part of a name and leaves the
rest: ``[NAME] T. Oyelaran`` in a signature block, ``[NAME] de la Fuente``. This
:class:`~mmbdeid.detect.base.Completer` step reads the NAME spans found so far and the
board's usernames found in the text (the seeds: ``Maren`` of the member ``maren.o``) and,
walking along the tokens of the seed's line, adds the tokens that complete each name:

* a capitalised word before or after it that is no frequent English word (Zipf below
  ``WORD_ZIPF``; a first name or one of the ``SURNAME_RANK`` commonest census surnames may
  be more frequent, up to ``CENSUS_NAME_ZIPF``: ``Hall``, ``Glenn``, not ``Will``,
  ``Hope``, ``Ok``) and no medical word, drug name, title, kinship word, greeting or
  closing word (``Oyelaran``, ``Arafat``; not ``Constellation``, ``Ouch``);
* middle initials, with or without their full stop, before another word of the name
  (``Maren T. Oyelaran``, ``Howard K. Pemberton``), and initials before the name (``R.E.
  Glenn``, ``A. Noel Kramer``; not ``I``, nor a letter after a word that makes it a grade or
  a vitamin: ``Plan B.``, ``vitamin D.``);
* name particles before a word of the name (``de la Fuente``, ``van der Meulen``,
  ``al-Sadr``; ``lexicons/name_particles.txt``); before the seed, a particle in lower case
  only after a name word or when it is Arabic (``bin Laden``: ``the van Houten ...`` is a van);
* a generational suffix after a name of two words or more, after an optional comma
  (``Pemberton Jr.``, ``Arthur III``; ``lexicons/name_suffixes.txt``);
* the other part of a hyphenated name (``Adeyemi-Larsson``; one word of the name), and a
  word with an apostrophe (``O'Leary``, ``d'Amato``);
* surname first at the start of a line (a mail header, a list): the word before ``,
  Maren`` and the first name after ``Oyelaran,`` (``Oyelaran, Maren``);
* a name word joined to the name by ``and`` or ``&`` (``Rumsfeld, Wolfowitz and Feith``,
  ``Oyelaran & Tillotson``): people named together, as they are in lists and signatures;
* a mail address after the name, Lotus Notes style: ``@`` and the domain in capitals of
  ``Maren Oyelaran@ACME`` (an identifier like an e-mail address, removed whole);
* in capitals: a seed in capitals takes its neighbours in capitals that are first names
  or commoner surnames, and a first name in capitals any name word in capitals after it
  (``MAREN OYELARAN``; not ``HOLIDAY ROOOAAAD``), but no medical or common abbreviation
  (``TSH``, ``FYI``).

What stays: the title (``Dr. [NAME]``) and a rank or office (``Queen``, ``President``:
``OFFICES``), the full stop after a name and all other punctuation (spans are one per
token but ``@ACME``; an initial's dot joins the mention on output, see
:func:`~mmbdeid.spans.adjacent`). Nothing crosses a line break or a sentence end: the only
full stop crossed is an initial's (``Rita. Tomm`` is two mentions). A name has at most
``MAX_WORDS`` words, and two words that make a place or an organisation together (``San
Francisco``, ``Burger King``) are not completed into one name.

The chain's KEEP steps keep what they keep from this step too (``Barrett`` of ``Rosalind,
Barrett's esophagus``). Each added span has its seed's score and label and the source
``completion``: at any threshold it is removed exactly when its seed is (evaluation reads
the chain with a span on every token).
"""
from bisect import bisect_left
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ...lexicon.names import HYPHENS
from ...spans import COMPLETION, USERNAME, Span
from ...text.document import Document
from ..base import Completer, Detector, without_kept
from ..crf import EVERY_TOKEN
from ..words import SENTENCE_ENDS
from .name_words import KNOWN, Caps, NameWords, name_words

MAX_WORDS = 4
# Particles written in lower case before a name even where nothing precedes them.
ARABIC_PARTICLES = frozenset({"al", "bin", "ibn", "bint", "abu", "el"})
MAX_PARTICLES = 3
# Words joining two people named together (``Wolfowitz and Feith``).
COORDINATORS = frozenset({"and", "&"})
# Words before a letter that make it a grade or a plan, not an initial: ``got a B.``
GRADE_DETERMINERS = frozenset({"a", "an", "the", "my", "your", "his", "her", "our", "their", "its",
                         "this", "that", "no", "any", "some", "each", "every"})


class _Walk:
    """The tokens of one document as the walk sees them."""

    def __init__(self, document: Document, words: NameWords):
        self.tokens = document.tokens
        self.offsets = document.offsets
        self.lines = document.paragraph_ids
        self.patterns = document.pattern_labels
        self.words = words
        self.size = len(self.tokens)

    def usable(self, k: int, line: int) -> bool:
        return 0 <= k < self.size and self.lines[k] == line and not self.patterns[k]

    def touching(self, k: int) -> bool:
        """Whether token ``k`` ends where token ``k + 1`` starts."""
        return self.offsets[k][1] == self.offsets[k + 1][0]

    def word(self, k: int, line: int, caps: Caps) -> bool:
        return self.usable(k, line) and self.words.is_word(
            self.tokens[k], caps, self.opens_sentence(k, line))

    def opens_sentence(self, k: int, line: int) -> bool:
        """Whether token ``k`` starts its line (after punctuation only) or follows a
        sentence end."""
        return k > 0 and self.tokens[k - 1] in SENTENCE_ENDS or self.line_start(k, line)

    def initial(self, k: int, line: int) -> bool:
        return self.usable(k, line) and self.words.is_initial(self.tokens[k])

    def dot_after(self, k: int, line: int) -> bool:
        return (self.usable(k + 1, line) and self.tokens[k + 1] == "."
                and self.touching(k))

    def abbreviation(self, initials: List[int]) -> bool:
        """Whether the letters at ``initials`` (in either order) spell a common
        abbreviation (``P.S.``, ``P.M.``) rather than someone's initials."""
        if len(initials) < 2:
            return False
        letters = "".join(self.tokens[k] for k in sorted(initials)).lower()
        return letters in self.words.abbreviations

    def hyphen_part(self, k: int, step: int, line: int) -> Optional[int]:
        """The index of the part across a hyphen from token ``k`` (``step`` 1: after it,
        -1: before it), when the three tokens touch: ``Adeyemi-Larsson``."""
        hyphen, part = k + step, k + 2 * step
        if not (self.usable(hyphen, line) and self.usable(part, line)
                and self.tokens[hyphen] in HYPHENS):
            return None
        if not (self.touching(min(k, hyphen)) and self.touching(min(hyphen, part))):
            return None
        return part

    # -- rightwards -------------------------------------------------------------------

    def right(self, last: int, line: int, caps: Caps, count: int) -> List[int]:
        """The tokens after ``last`` that complete the name; ``count``: its words so far."""
        added: List[int] = []
        k = last + 1
        while count < MAX_WORDS + 1:
            part = self.hyphen_part(k - 1, 1, line)
            if part is not None and (self.word(part, line, caps)
                                     or self.words.is_particle(self.tokens[k - 1])
                                     and self.tokens[part][:1].isupper()):
                added.append(part)
                k = part + 1
                continue
            if count >= MAX_WORDS:
                break
            # initials, each with or without a full stop: T. / R.E. (not P.S.)
            j, initials = k, []
            while self.initial(j, line):
                initials.append(j)
                j += 2 if self.dot_after(j, line) else 1
            if self.abbreviation(initials):
                break
            # particles: de la / van der / al
            particles = []
            while len(particles) < MAX_PARTICLES and self.usable(j, line) and \
                    self.words.is_particle(self.tokens[j]):
                particles.append(j)
                j += 1
            if self.word(j, line, caps) and not self.words.one_place(self.tokens[k - 1],
                                                                self.tokens[j]):
                added.extend(initials + particles + [j])
                count += 1
                k = j + 1
                continue
            if particles and self.hyphen_part(particles[-1], 1, line) == j + 1 \
                    and self.usable(j + 1, line) and self.tokens[j + 1][:1].isupper() \
                    and self.words.is_word(self.tokens[j + 1], caps):
                added.extend(initials + particles + [j + 1])                 # al-Sadr
                count += 1
                k = j + 2
                continue
            break
        if count >= 2:
            added.extend(self.suffix_after(k, line))
        return added + self.notes_domain(k, line)

    def coordinated(self, first: int, last: int, line: int, caps: Caps) -> List[int]:
        """A name word joined to the name by ``and`` or ``&``, on either side (``Rumsfeld,
        Wolfowitz and Feith``): people named together, one of them found."""
        found = []
        if self.usable(first - 1, line) and self.tokens[first - 1].lower() in COORDINATORS \
                and self.word(first - 2, line, caps):
            found.append(first - 2)
        if self.usable(last + 1, line) and self.tokens[last + 1].lower() in COORDINATORS \
                and self.word(last + 2, line, caps):
            found.append(last + 2)
        return found

    def notes_domain(self, k: int, line: int) -> List[int]:
        """``@`` and the domain in capitals of a mail address written after a name, Lotus
        Notes style (``Robert Bryngelson@AZURIX``): it is the person's address, like an
        e-mail address removed whole."""
        if (self.usable(k, line) and self.tokens[k] == "@" and self.usable(k + 1, line)
                and self.touching(k - 1) and self.touching(k)
                and self.tokens[k + 1].isalpha() and self.tokens[k + 1].isupper()
                and len(self.tokens[k + 1]) > 1):
            return [k, k + 1]
        return []

    def suffix_after(self, k: int, line: int) -> List[int]:
        """A suffix at ``k``, or after a comma there: ``Pemberton Jr.``, ``Pemberton, Jr.``"""
        if self.usable(k, line) and self.tokens[k] == ",":
            k += 1
        return [k] if self.usable(k, line) and self.words.is_suffix(self.tokens[k]) else []

    # -- leftwards --------------------------------------------------------------------

    def left(self, first: int, line: int, caps: Caps, count: int) -> List[int]:
        """The tokens before ``first`` that complete the name."""
        added: List[int] = []
        k = first - 1
        while True:
            part = self.hyphen_part(k + 1, -1, line)
            if part is not None and (self.word(part, line, caps)
                                     or self.words.is_particle(self.tokens[part])):
                added.append(part)
                k = part - 1
                continue
            if count >= MAX_WORDS:
                break
            if self.word(k, line, caps) and not self.words.one_place(self.tokens[k],
                                                                self.tokens[k + 1]):
                added.append(k)
                count += 1
                k -= 1
                continue
            particles = self.particles_before(k, line, caps)
            if particles:
                added.extend(particles)
                k = particles[-1] - 1
                continue
            initials = self.initials_before(k, line, caps)
            if not initials:
                break
            added.extend(initials)              # Kevin A. Boone: on to the first name
            k = initials[-1] - 1
            if self.usable(k, line) and self.tokens[k] == ".":
                break
        return added

    def particles_before(self, k: int, line: int, caps: Caps) -> List[int]:
        """Particles ending at ``k`` that belong to the name after them: capitalised ones
        (``Van Houten``), Arabic ones (``bin Laden``), or any after a name word, which
        the walk then takes (``Pieter van Houten``)."""
        found: List[int] = []
        j = k
        while len(found) < MAX_PARTICLES and self.usable(j, line) and \
                self.words.is_particle(self.tokens[j]):
            found.append(j)
            j -= 1
        if not found:
            return []
        earliest = self.tokens[found[-1]]
        if self.word(j, line, caps) or earliest[:1].isupper() \
                or earliest.lower() in ARABIC_PARTICLES:
            return found
        return []

    def initials_before(self, k: int, line: int, caps: Caps) -> List[int]:
        """Initials ending at ``k`` (``R.E.`` of ``R.E. Glenn``): not ``I``, not ``A``
        without its full stop, not a common abbreviation (``P.S.``, ``U.S.``), and not
        after a determiner, a medical word or a capitalised word that is no name (``an
        A.``, ``vitamin D.``, ``Plan B.``)."""
        found: List[int] = []
        j = k
        while True:
            dotted = self.usable(j, line) and self.tokens[j] == "." and j > 0 \
                and self.touching(j - 1)
            letter = j - 1 if dotted else j
            if not self.initial(letter, line) or self.tokens[letter] == "I" or (
                    not dotted and (self.tokens[letter] == "A" or found)):
                break                   # one bare letter at most: not S E X Y
            found.append(letter)
            j = letter - 1
        if self.abbreviation(found):
            return []
        if not found or not self.usable(j, line):
            return found
        before = self.tokens[j]
        lower = before.lower()
        if lower in GRADE_DETERMINERS or lower in self.words.medical:
            return []
        if before[:1].isupper() and before.isalpha() and not self.words.is_word(before, caps):
            return []
        return found

    # -- surname first ----------------------------------------------------------------

    def line_start(self, k: int, line: int) -> bool:
        """Whether only punctuation precedes token ``k`` on its line (``"McGilloway``)."""
        j = k - 1
        while self.usable(j, line) and not any(c.isalnum() for c in self.tokens[j]):
            j -= 1
        return j < 0 or self.lines[j] != line

    def ends_header(self, k: int, line: int) -> bool:
        """Whether no word follows token ``k`` on its line before a punctuation mark, a
        number or an address (``"McGilloway, Vangie" <vangie@...>``)."""
        after = k + 1
        if after >= self.size or self.lines[after] != line:
            return True
        return self.patterns[after] is not None or not self.tokens[after].isalpha()

    def surname_first(self, first: int, last: int, line: int, caps: Caps) -> List[int]:
        """``Oyelaran, Maren`` at the start of a line: the surname before a seed that is a
        first name (or that ends the header), or the first name (or the word that ends the
        header: ``Okafor, Chidinma``) after a seed that is the surname."""
        before = first - 2
        if (first == last and self.usable(first - 1, line) and self.tokens[first - 1] == ","
                and self.word(before, line, caps) and self.line_start(before, line)
                and (self.words.is_first_name(self.tokens[first])
                     or self.ends_header(first, line))):
            return [before]
        after = last + 2
        if (first == last and self.line_start(first, line) and self.usable(last + 1, line)
                and self.tokens[last + 1] == "," and self.word(after, line, caps)
                and (self.words.is_first_name(self.tokens[after])
                     or self.ends_header(after, line))):
            return [after]
        return []


class NameCompletion(Completer):
    """A NAME span, scored as its seed, on each token that completes a name found so far
    (see the module)."""

    source = COMPLETION

    def __init__(self, keep_steps: Sequence[Detector] = (), threshold: float = EVERY_TOKEN):
        """``keep_steps``: the chain's KEEP steps (``registry.keep_steps``), which keep
        what they keep from this step too. ``threshold``: the model's; a token a span
        scores above it is removed already and keeps its own span (its probability and
        source in the spans file). Below it, and with a span on every token
        (``EVERY_TOKEN``: evaluation), a seed scored higher than the token gives it its
        score."""
        self.words = name_words()
        self.keep_steps = list(keep_steps)
        self.threshold = threshold

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        # a board member's username written as their name (``Maren T. Oyelaran`` by
        # maren.o) seeds too; the model's USER tags are no names to complete
        seeds = [s for s in spans if s.label == "NAME" or s.source == USERNAME]
        if not seeds:
            return []
        walk = _Walk(document, self.words)
        # the best score a span of one token gives it, by the token's start
        score_at: Dict[int, float] = {}
        for span in spans:
            score_at[span.start] = max(score_at.get(span.start, 0.0), span.score)
        offsets = document.offsets
        best: Dict[int, Tuple[float, str]] = {}
        for seed in seeds:
            bounds = _token_bounds(document, seed)
            if bounds is None:
                continue
            for k in self._completing(walk, *bounds):
                own = score_at.get(offsets[k][0], 0.0)
                if (seed.score > max(own, best.get(k, (0.0,))[0])
                        and (self.threshold == EVERY_TOKEN or own <= self.threshold)):
                    best[k] = (seed.score, seed.label)
        spans = []
        for k, (score, label) in sorted(best.items()):
            start, end = document.offsets[k]
            if spans and document.tokens[k - 1] == "@" and spans[-1].end == start:
                start = spans.pop().start           # @ACME: one span, the address's
            spans.append(Span(label, start, end, score, COMPLETION))
        return without_kept(spans, document, self.keep_steps)

    @staticmethod
    def _completing(walk: _Walk, first: int, last: int) -> Set[int]:
        """The indices of the tokens that complete the name over tokens first..last."""
        tokens = walk.tokens
        line = walk.lines[first]
        # a seed of one letter (an initial, a letter of spaced-out text) completes nothing
        if walk.lines[last] != line or sum(c.isalpha() for t in tokens[first:last + 1]
                                           for c in t) < 2:
            return set()
        caps = all(len(t) > 1 and t.isupper() or not t.isalpha()
                   for t in tokens[first:last + 1]) and tokens[first].isalpha()
        # in capitals, a known first name takes any name word after it (MAREN OYELARAN);
        # otherwise only known names (shouting: HOLIDAY ROOOAAAD)
        right_caps = caps and (True if walk.words.is_first_name(tokens[last]) else KNOWN)
        caps = caps and KNOWN
        words = sum(1 for t in tokens[first:last + 1] if len(t) > 1 and t.isalpha()) or 1
        found = set(walk.surname_first(first, last, line, caps))
        if found:
            words += 1
        left = walk.left(first, line, caps, words)
        found.update(left)
        words += sum(1 for k in left if len(tokens[k]) > 1
                     and not walk.words.is_particle(tokens[k]))
        found.update(walk.right(last, line, right_caps, words))
        found.update(walk.coordinated(first, last, line, caps))
        return found


def _token_bounds(document: Document, span: Span) -> Optional[Tuple[int, int]]:
    """The first and last token of ``span``, when it starts and ends on token bounds."""
    offsets = document.offsets
    first = bisect_left(offsets, (span.start,))
    if first == len(offsets) or offsets[first][0] != span.start:
        return None
    last = first
    while offsets[last][1] < span.end and last + 1 < len(offsets):
        last += 1
    return (first, last) if offsets[last][1] == span.end else None
