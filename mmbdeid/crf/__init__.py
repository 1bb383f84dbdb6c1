"""CRF inference: a trained model's weights read once, state scores per token, and
forward-backward marginals (exact per post, or batched over many posts), behind the one
interface the CRF detector picks a backend by (``backends``)."""
