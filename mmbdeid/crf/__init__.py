"""CRF inference without crfsuite in the loop: a trained model's weights read once, state scores
per token, and forward-backward marginals (exact per post, or batched over many posts)."""
