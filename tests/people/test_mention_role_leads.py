"""A mention's role is read from the line's last words only (``mentions._last_words``)
and the title before it without a pattern search (issue 22): on any text, the same role
as matching the lead patterns on the whole line before the name, as before."""
import random
import re

import pytest

from mmbdeid.people import mentions
from mmbdeid.people.mentions import after_title, mention_role

# Words and gaps that make the patterns match, nearly match or run long; underscores and
# letters of other scripts are word characters too.
WORDS = ["thank", "you", "thanks", "so", "much", "again", "good", "luck", "hi", "hey",
         "dear", "morning", "hugs", "to", "I'm", "i", "am", "my", "name", "is", "it's",
         "this", "take", "care", "love", "xoxo", "Dr", "dr", "Nurse", "Mrs", "Prof",
         "doc", "Linda", "Arthur", "Jo", "D", "a", "pain", "flare", "was", "bad", "x_y",
         "_", "__", "Łukasz", "ünd", "42", "a1", "Mary", "here", "glad", "sorry", "welcome"]
GAPS = [" ", " ", " ", "  ", "\t", ", ", ". ", "! ", "? ", " - ", " ~ ", ")", " :) ", "_",
        "", "\n", "...", " @", "@"]


LEADS = ["thank you so much, ", "Thank  you very much ", "thanks again ", "good luck ",
         "good\tmorning, ", "hugs to ", "my name is ", "i am ", "I'm ", "this is ",
         "take care ", "xoxo ", "love, ", "Dr. ", "nurse ", "- ", "! ~ ", "_ ", "hey_ ",
         "so much ", "you so much "]
ENDINGS = ["", ".", "!", " here.", " and more", "\n", ". Then", "?\n\nx"]


def random_text(rng):
    """Words and gaps, then often a lead phrase right before the name ``Zed``."""
    parts = []
    for _ in range(rng.randint(0, 40)):
        parts.append(rng.choice(WORDS))
        parts.append(rng.choice(GAPS))
    if rng.random() < 0.7:
        parts.append(rng.choice(LEADS))
    parts.append("Zed")
    parts.append(rng.choice(ENDINGS))
    return "".join(parts)


def role_on_whole_line(text, start, end):
    """mention_role as it was: every pattern searched on the whole line before the name."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if title_on_whole_line(before):
        return "titled"
    if "@" in text[max(start - 1, 0):start + 1]:
        return "addressee"
    greeting = mentions._GREETING.match(before) if not text[:line_start].strip() else None
    if greeting and (greeting.group("word") or mentions._SET_APART.match(text, end)):
        return "addressee"
    if (mentions._SELF_LEAD.search(before)
            or re.match(r"^\s+here\b", text[end:], re.IGNORECASE)):
        return "author"
    ends_post = not mentions._WORD.search(text, end)
    if mentions._CLOSING_LEAD.search(before):
        return "closing" if ends_post else "addressee"
    if mentions._GREETING_LEAD.search(before):
        return "addressee"
    if ends_post and (len(mentions._WORD.findall(before)) <= mentions.SIGNOFF_MAX_WORDS
                      or mentions._SIGNOFF_LEAD.search(before)):
        return "author"
    if mentions._ADDRESS_LEAD.search(before):
        return "addressee"
    previous_words = mentions._WORD.findall(before)
    if (previous_words and previous_words[-1].lower() not in mentions._NOT_VOCATIVE_BEFORE
            and mentions._SENTENCE_END_AFTER.match(text, end)
            and not mentions._is_initial(text[start:end].split()[-1])):
        return "addressee"
    return ""


def title_on_whole_line(before):
    match = re.search(r"(\w+)(\.?)[ \t]+$", before)
    if match is None:
        return False
    return after_title(match.group(1) + match.group(2) + " ")


@pytest.mark.parametrize("seed", range(40))
def test_role_is_as_on_the_whole_line(seed):
    rng = random.Random(seed)
    for _ in range(50):
        text = random_text(rng)
        names = [m.span() for m in re.finditer(r"[A-Z]\w*", text)]
        start, end = names[-1] if rng.random() < 0.7 else rng.choice(names)
        assert mention_role(text, start, end) == role_on_whole_line(text, start, end), \
            (text, start, end)


@pytest.mark.parametrize("before, titled", [
    ("Dr. ", True), ("Dr ", True), ("saw Dr.  ", True), ("Nurse\t", True),
    ("nurse ", True), ("Dr.", False), ("Dr.. ", False), ("x_Dr. ", False), ("", False),
    ("Drs. ", False), ("Mrs. ", True), ("my mrs ", True), (" ", False), ("Dr.\t ", True),
])
def test_after_title(before, titled):
    assert after_title(before) is titled


@pytest.mark.parametrize("before, last_words", [
    ("thanks so much ", "thanks so much "),            # short: the whole line
    ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen x, ",
     "eleven twelve thirteen fourteen x, "),
    # a word joined by underscores is one word: not cut inside it
    ("one two three four five six seven eight nine ten eleven twelve a_b_c_d_e_f_g_h ",
     "a_b_c_d_e_f_g_h "),
])
def test_last_words(before, last_words):
    assert mentions._last_words(before) == last_words
