"""``python -m petheory`` is the ``petheory`` command."""

import sys

from petheory.cli import main

sys.exit(main())
