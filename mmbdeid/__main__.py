"""``python -m mmbdeid``: the same as the ``mmbdeid`` command."""
import sys

from .cli import main

sys.exit(main())
