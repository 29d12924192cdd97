"""``python -m tools.verify``: the verification sweep (:mod:`tools.verify.sweep`)."""

from .sweep import main

raise SystemExit(main())
