"""A stand-in model for chain tests: it tags the tokens it is told to, so a test checks what
the chain's other steps do with them, whatever a trained model would say."""
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.kinds import DEFAULT_KINDS
from mmbdeid.output.operators import PlaceholderOperator
from mmbdeid.text.document import Document


class WordTagger:
    """P(NAME) per token (as read: a placeholder as its stand-in): ``tagged[token]`` for a
    dict, 0.9 for a token of a set; 0.0 for the others."""
    threshold = 0.05
    has_second_stage = False

    def __init__(self, tagged=()):
        self.tagged = tagged if isinstance(tagged, dict) else dict.fromkeys(tagged, 0.9)

    def featurizer(self, stats):
        return self

    def document_items(self, document):
        return document.tokens

    def name_marginals(self, items):
        return [(self.tagged.get(token, 0.0), 0.0) for token in items]


def scrub(text, tagged=(), threshold=None, steps=None, kinds=DEFAULT_KINDS):
    """``text`` through the standard chain (of ``steps``; None: all; finding ``kinds``) with
    the stand-in model, in placeholder mode."""
    analyzer = Analyzer.build(WordTagger(tagged), threshold=threshold, steps=steps,
                              kinds=kinds)
    record, _ = PlaceholderOperator().rewrite(
        {"text": text}, analyzer.analyze(Document.from_text(text)))
    return record["text"]
