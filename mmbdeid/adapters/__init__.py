"""Adapters that plug mmbdeid into other toolkits (optional extras).

* :mod:`mmbdeid.adapters.presidio`: a Presidio ``EntityRecognizer``
  (``pip install "mmbdeid[presidio]"``);
* :mod:`mmbdeid.adapters.spacy_component`: a spaCy pipeline component, factory ``"mmbdeid"``
  (``pip install "mmbdeid[spacy]"``).

Nothing is imported here, so ``import mmbdeid`` never needs the extras.
"""
