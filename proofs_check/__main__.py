"""``python -m proofs_check [args]`` is ``petheory check [args]``."""

import sys

from petheory.cli import main

if __name__ == "__main__":
    sys.exit(main(["check", *sys.argv[1:]]))
