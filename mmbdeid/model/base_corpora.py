"""The corpora a model can be trained on together with a user's own posts (``train --base``):
``default`` is what the bundled default model was trained on (the fictional sample, WNUT17
train and dev, BTC train and dev: CC-BY 4.0, see ``bundled/base_corpora/README.md``),
shipped gzip'd inside the package so training needs no network and no other checkout.

A user's sample of 200 posts is a few thousand tokens against the base's 200,000, so it
would barely move the weights; crfsuite has no instance weights, so the user's documents are
repeated (:func:`repeat_count`) until they are about a third of the training tokens.
"""
from importlib import resources
from typing import Dict, List, Sequence, Tuple

from ..errors import MmbdeidValueError

# The base's files, in training order (tools/build_default_model.sh trains on the same).
BASES: Dict[str, Tuple[str, ...]] = {
    "default": ("health_boards.annotated.jsonl.gz", "wnut17train.conll.gz",
                "emerging.dev.conll.gz", "btc.train.conll.gz", "btc.dev.conll.gz"),
}
# The user's share of the training tokens the default repeat count aims at.
USER_TOKEN_SHARE = 1 / 3
MAX_REPEATS = 50        # a 20-post sample is not worth 50 copies of anything more


def base_paths(name: str) -> List[str]:
    """The paths of the base corpus ``name``'s files inside the installed package."""
    if name not in BASES:
        raise MmbdeidValueError("unknown base %r (known: %s)" % (name, ", ".join(sorted(BASES))))
    folder = resources.files("mmbdeid.bundled").joinpath("base_corpora")
    return [str(folder.joinpath(file)) for file in BASES[name]]


def load_base(name: str) -> List[Tuple[str, list]]:
    """``(file name, labelled documents)`` of each file of the base ``name``."""
    from ..files.corpora import load_labelled
    return [(path.replace("\\", "/").rsplit("/", 1)[-1], load_labelled(path))
            for path in base_paths(name)]


def repeat_count(user_tokens: int, base_tokens: int, share: float = USER_TOKEN_SHARE) -> int:
    """How many times the user's documents go into training so that they are about
    ``share`` of the training tokens (at least 1, at most ``MAX_REPEATS``)."""
    if user_tokens <= 0:
        return 1
    wanted = share / (1 - share) * base_tokens / user_tokens
    return max(1, min(MAX_REPEATS, int(round(wanted))))


def repeated(items: Sequence, times: int) -> list:
    """``items`` ``times`` over, each copy in order (crfsuite's stand-in for a weight)."""
    return [item for _ in range(times) for item in items]
