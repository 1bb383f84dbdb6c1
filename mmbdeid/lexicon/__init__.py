"""Word knowledge, below every pipeline stage: the shipped word lists loaded by name, their
fuzzy (edit-distance) index, what may be a person's name, username variants and which of them
are ordinary words."""
