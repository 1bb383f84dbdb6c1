"""The keep filters (stage ``filter``): what is not a person's name, kept whatever the model
says (drugs, medical terms, places, organisations, titles' words, the placeholders of an
earlier scrub, ...). Each module is one KEEP step of :mod:`mmbdeid.detect.registry`."""
