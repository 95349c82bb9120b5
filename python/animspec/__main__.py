"""``python -m animspec``: the same as the ``animspec`` command."""

import sys

from .cli import main

sys.exit(main())
