"""Which usernames and name parts are ordinary words: the one policy shared by the
detection step that always removes the board's usernames (:mod:`mmbdeid.detect.names.usernames`)
and by the leak audit (:mod:`mmbdeid.audit`), so what the audit searches without regard to
case is exactly what that step removes. The measured trade-off behind the numbers is in
the audit's module documentation.
"""
import functools
from typing import Dict, Tuple

COMMON_ZIPF = 3.0      # lower-case form this frequent (log10 per billion words) = common
SHORT_COMMON = 5       # common variants shorter than this are not searched


@functools.lru_cache(maxsize=1)
def _lexicons() -> Tuple[Dict[str, float], frozenset, frozenset]:
    from .wordlists import load_wordlist, load_zipf
    # A given name is on both lists: the nickname file alone also holds "day", "one".
    given_names = load_wordlist("nicknames") & load_wordlist("first_names")
    return load_zipf(), load_wordlist("stop_words"), given_names


@functools.lru_cache(maxsize=1)
def _board_words() -> frozenset:
    from .wordlists import load_wordlist
    return load_wordlist("medical_words") | load_wordlist("drugs")


def is_common_word(term: str) -> bool:
    """Whether ``term``'s lower-case form is an ordinary word in English or on a health
    board (see module doc)."""
    zipf, _, _ = _lexicons()
    lower = term.lower()
    return zipf.get(lower, 0.0) >= COMMON_ZIPF or lower in _board_words()


def search_mode(term: str, kind: str) -> str:
    """``"any-case"``, ``"capitalised"`` or ``"unchecked"`` for a term of a kind."""
    _, stop_words, given_names = _lexicons()
    lower = term.lower()
    if kind == "variant" and lower in stop_words:
        return "unchecked"
    if not is_common_word(term):
        return "any-case"
    if kind == "variant" and len(lower) < SHORT_COMMON and lower not in given_names:
        return "unchecked"
    return "capitalised"


SHORT_TAIL = 3          # "jo" of wildflower_jo, "44" of ladybug_44: a tag, not a word


def distinctive_variant(variant: str, username: str) -> bool:
    """Whether a variant of a username is searched as that user whatever its case: it
    must be ``any-case`` (:func:`search_mode`), and a dictionary word (``hauler`` of
    LongHaulerLuis, ``bendy`` of bendybecca: the board's own words) only when it is the
    username's head, less a short tag (``wildflower`` of wildflower_jo, ``rosebud`` of
    rosebud58): a word that is only a piece of a username is not that user."""
    if search_mode(variant, "variant") != "any-case":
        return False
    from .wordlists import load_wordlist
    lower = variant.lower()
    if lower not in load_wordlist("common_words"):
        return True
    folded = username.lower()
    return folded.startswith(lower) and len(folded) - len(lower) <= SHORT_TAIL + 1
