"""File-name extensions are kept (KEEP): the ``doc`` of ``resume.doc``, the ``pdf`` of
``scan_2019.pdf``.

The tokenizer splits ``resume.doc`` at its full stop, and the model, seeing a short
unknown word after a sentence end, may take ``doc`` for a name. An extension of
``EXTENSIONS`` written right after a full stop that itself touches a word (no space on
either side) is part of a file name, never a person's.
"""
from typing import List

from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens

FILE_NAME = "file_name"
EXTENSIONS = frozenset({
    "doc", "docx", "dot", "pdf", "rtf", "txt", "odt", "xls", "xlsx", "csv", "ppt", "pptx",
    "pps", "jpg", "jpeg", "png", "gif", "bmp", "tif", "tiff", "heic", "svg", "mp3", "mp4",
    "m4a", "wav", "avi", "mov", "wmv", "mpg", "mpeg", "zip", "rar", "gz", "exe", "htm",
    "html", "xml", "json", "msg", "eml", "pst", "vcf", "ics", "wpd"})


class FileExtensionKeeper(Detector):
    """A KEEP span on each file-name extension (see the module)."""

    source = FILE_NAME
    effect = KEEP

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets = document.tokens, document.offsets
        spans = []
        for i in indices_in(EXTENSIONS, lowered_tokens(tokens)):
            if (i > 1 and tokens[i - 1] == "." and offsets[i - 1][1] == offsets[i][0]
                    and offsets[i - 2][1] == offsets[i - 1][0] and tokens[i - 2][-1:].isalnum()
                    and not document.pattern_labels[i]):
                spans.append(Span("KEEP", *offsets[i], 1.0, self.source))
        return spans
