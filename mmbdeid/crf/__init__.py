"""CRF inference: a trained model's weights read once, state scores per token, and
forward-backward marginals (exact per post, or batched over many posts), behind the one
interface the CRF detector picks a backend by (``backends``).

``TAGGERS``: how a model's probabilities can be computed, ``compiled`` (:mod:`.batched`, the
default) or ``crfsuite`` (crfsuite's own arithmetic). Here, where nothing is imported, so
the command line offers them without loading numpy."""
TAGGERS = ("compiled", "crfsuite")
