"""Package data: the bundled default model and the reference corpus statistics."""
