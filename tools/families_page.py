"""Write or check docs/guide/families.md: the verification table, and every flagship case built by transformers.

    python tools/families_page.py            # print the page
    python tools/families_page.py --write    # rewrite docs/guide/families.md and README's model-type count
    python tools/families_page.py --check    # exit 1 when the committed page (or README's count) is stale

The page is :func:`petheory.models.families_page.verified_markdown` of the committed verification table
(petheory/data/verified_models.json, written by ``python tools/verify_models.py --write``) and of the flagship cases of
:mod:`petheory.models.families_page`, each built with transformers' own configuration class (the test extra:
``pip install -e '.[test]'``) and resolved with :func:`petheory.models.resolve_config`, the one resolver every
command uses.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guide" / "families.md"
README = ROOT / "README.md"
#: README's sentence with the count of verified model types.
COUNT = re.compile(r"across \d+ model types of transformers [\d.]+")


def build(mt: str, kw: dict):
    """transformers' configuration class of ``mt`` with ``kw``, and its ``config.json`` as a dict (``to_dict()``
    through JSON, as a file on disk holds it)."""
    from transformers import AutoConfig

    config = AutoConfig.for_model(mt, **kw)
    return config, json.loads(json.dumps(config.to_dict()))


def page() -> str:
    from petheory.models.config import resolve_config  # the defining module: a test patches it there
    from petheory.models.families_page import CASES, OLDER, verified_markdown
    from petheory.models.verified import load

    resolved = [(name, mt, resolve_config(build(mt, kw)[1])) for name, mt, kw in CASES + OLDER]
    return verified_markdown(load(), resolved)


def readme() -> str:
    from petheory.models.verified import load, verified_types

    text = README.read_text(encoding="utf-8")
    return COUNT.sub(f"across {len(verified_types())} model types of transformers {load()['transformers']}", text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python tools/families_page.py", description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite docs/guide/families.md and README's count")
    g.add_argument("--check", action="store_true", help="exit 1 when the committed page differs from the generated one")
    args = p.parse_args(argv)
    text = page()
    if args.write:
        from petheory.io import atomic_write_text

        atomic_write_text(PAGE, text)
        atomic_write_text(README, readme())
        print(f"wrote {PAGE} and {README}'s count")
    elif args.check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is stale: run python tools/families_page.py --write")
            return 1
        if README.read_text(encoding="utf-8") != readme():
            print(f"{README}'s count of verified model types is stale: run python tools/families_page.py --write")
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
