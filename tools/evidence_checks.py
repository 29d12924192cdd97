"""The outcomes of plan's checks on the evidence table's rows, committed beside the table.

    python tools/evidence_checks.py            # print each evaluable row's outcome and the pre-registered tests
    python tools/evidence_checks.py --write    # write petheory/data/extension_checks.json
    python tools/evidence_checks.py --check    # exit 1 when the committed file is stale

``plan`` quotes each check's measured accuracy from that file (evaluating every row takes about 2 s, more than
``plan`` may spend); the claims in proofs_check/claims/extension_evidence.py recompute the outcomes themselves.
"""

from __future__ import annotations

import argparse
import json
import sys

from petheory.analyses.plan import analyse
from petheory.evidence import predictors as P
from petheory.io import atomic_write_json

GENERATED_BY = "python tools/evidence_checks.py --write"


def document() -> dict:
    return {"what": "plan's checks (men, liu, phase) on the evidence table's evaluable rows (True: passes)",
            "generated_by": GENERATED_BY, "rows": P.outcomes(analyse)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    doc = document()
    if args.write:
        atomic_write_json(P.OUTCOMES, doc)
        print(f"wrote {P.OUTCOMES} ({len(doc['rows'])} rows)")
        return 0
    if args.check:
        old = json.loads(P.OUTCOMES.read_text(encoding="utf-8"))
        if old != json.loads(json.dumps(doc)):
            print(f"{P.OUTCOMES} is stale: run {GENERATED_BY}", file=sys.stderr)
            return 1
        return 0
    for r in doc["rows"]:
        print(r["id"], r["regime"], "meets" if r["met"] else "below", *(f"{c}={'ok' if r[c] else 'FAIL'}" for c in P.CHECKS))
    for t in P.tests(doc["rows"]).values():
        print(t.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
