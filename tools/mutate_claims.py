#!/usr/bin/env python
"""Claim-level mutation pass: for every claim (and reading) whose quick verdict is ``holds``, plant a violation
through what its registered checker reads, rerun the claim from the registry, and report whether the plant flips it.

    python tools/mutate_claims.py              # every plant (a few minutes on 2 cores)
    python tools/mutate_claims.py --list       # the plants, one line each
    python tools/mutate_claims.py -k li2025    # only plants whose claim id contains 'li2025'
    python tools/mutate_claims.py --json out.json

Sibling of ``tools/mutate.py`` (which mutates the library's source and runs its tests). The plants are each
claim's own (``claim(..., plants=...)`` and a reading's ``Reading(..., plants=...)``; :class:`proofs_check.plants.Plant`),
read from the registry, as the catalogue's tests read them. A plant is a
function ``plant(mp)`` that monkeypatches (``pytest.MonkeyPatch``) the library function, the encoding registry
entry or the claim module's helper that the registered checker calls at run time; the claim is then checked with
``runner.check_claim(engine.get(id))``, the path ``petheory check`` takes, so a plant on something the registered
checker does not read (a module attribute it captured earlier) survives. Outcomes:

* ``killed``: the verdict is no longer ``holds`` (refuted, inconclusive, depends, ...), or the runner refused a
  symbolic proof that the planted numeric search contradicts (no verdict at all); any other crash under a plant
  is an ``error`` (the plant broke the checker instead of the statement);
* ``survived``: still ``holds`` with the plant in place;
* ``equivalent``: a plant listed with the argument why no observable change is possible;
* ``error``: the claim does not hold before planting (the list is stale), or the plant itself failed.

A claim that holds on the quick profile with no plant listed here is reported as ``missing``, and so is every library
function such a claim reads (traced: the petheory functions its checker calls directly, ``module:qualname``) that no
plant listed here targets (:meth:`Plant.targets`, derived from the path of ``attr`` / ``scaled`` plants) and flips: the
line ``missing    module:qualname (read by ...)``. Not counted: :data:`NOT_PLANTED` (the tolerance model and the
registry's dispatch, with the reason). Exit code 0 when every plant is killed (or equivalent) and nothing is missing,
1 otherwise. Not part of CI; deterministic (seed 0).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from proofs_check.plants import Plant, Undo  # noqa: E402  (after the path set-up)

#: Library functions a holds claim may read without a plant of their own, and why.
NOT_PLANTED = {
    "petheory.rounding": "the tolerance model (gamma, unit_roundoff, tolerance): a planted tolerance moves the margin "
    "every check allows for rounding, not the statement; tests/theory pins it",
    "petheory.encodings._registry:get": "the registry's dispatch: a plant through it is a plant of the entry it returns "
    "(the registry plants)",
    "petheory.nn:__getattr__": "the package's lazy re-export (petheory.nn.train is petheory.nn.training.train): a plant "
    "through it is a plant of the function it returns",
}


def all_plants() -> list[tuple[str, Plant]]:
    """Every plant the registry holds, with the claim or reading (``'<id>#<reading>'``) that declares it."""
    from proofs_check import engine

    out = []
    for c in engine.all_claims():
        out += [(c.id, p) for p in c.plants]
        out += [(f"{c.id}#{r.name}", p) for r in c.readings for p in (r.plants or ())]
    return out




def _verdict_of(cid: str) -> tuple[str, str]:
    from proofs_check import engine, runner

    try:
        rec = runner.check_claim(engine.get(cid), profile="quick", seed=0)
    except runner.CheckerCrash as crash:
        return "crash", str(crash)
    return rec["verdict"], rec["summary"][:160]


def _traced_check(c) -> tuple[dict, set]:
    """The quick record of claim ``c`` and the petheory functions its checker (code in proofs_check.claims) called
    directly, as 'module:qualname'."""
    from proofs_check import runner

    from petheory._validate import validate_params

    root = str(ROOT / "petheory") + "/"
    seen: set = set()
    # a declared function is called through validate_params' wrapper (one code object for all of them): the function
    # a checker reads is the one the wrapper calls, not the wrapper
    wrapper = validate_params({})(lambda: None).__code__

    def profile(frame, event, arg):
        if event != "call" or frame.f_code is wrapper or not frame.f_code.co_filename.startswith(root):
            return
        back = frame.f_back
        if back is not None and back.f_code is wrapper:
            if frame.f_globals.get("__name__") == "petheory._validate":
                return  # the wrapper's own checks: not what the checker reads
            back = back.f_back
        if back is not None and back.f_globals.get("__name__", "").startswith("proofs_check.claims"):
            seen.add(f"{frame.f_globals.get('__name__')}:{frame.f_code.co_qualname}")

    sys.setprofile(profile)
    try:
        rec = runner.check_claim(c, profile="quick", seed=0)
    finally:
        sys.setprofile(None)
    return rec, seen


def _planted_elsewhere(read: str) -> bool:
    return any(read == k or read.startswith(k + ":") or read.startswith(k + ".") for k in NOT_PLANTED)


def survey() -> dict[str, set]:
    """Claims and readings that hold on the quick profile (seed 0), each with the library functions it reads: what
    needs a plant. A reading is credited with what its claim's checkers read together."""
    from proofs_check import engine, runner

    out = {}
    for c in engine.all_claims():
        try:
            rec, reads = _traced_check(c)
        except runner.CheckerCrash:
            continue
        reads = {r for r in reads if not _planted_elsewhere(r)}
        if rec["verdict"] == "holds":
            out[c.id] = reads
        for r in rec["readings"]:
            if r["verdict"] == "holds" and rec["verdict"] != "holds":
                out[f"{c.id}#{r['name']}"] = reads
    return out


def holding_ids() -> list[str]:
    """Claims and readings that hold on the quick profile (seed 0): what needs a plant."""
    return list(survey())


def _clear_caches() -> None:
    """Empty the claim modules' result caches (functools.lru_cache), so a verdict is computed with the plant in place
    and no planted result outlives its plant."""
    import functools
    import sys as _sys

    for name, mod in list(_sys.modules.items()):
        if name.startswith("proofs_check.claims") and mod is not None:
            for obj in vars(mod).values():
                if isinstance(obj, functools._lru_cache_wrapper):
                    obj.cache_clear()


def run_plant(cid: str, p: Plant) -> dict:
    """Plant ``p`` of claim (or reading) ``cid`` and check the claim from the registry: the outcome (module docstring)."""
    import pytest

    t0 = time.perf_counter()
    if p.equivalent:
        return {"claim": cid, "what": p.what, "outcome": "equivalent", "why": p.equivalent, "seconds": 0.0}
    before, _ = _verdict_of(cid)
    if before != "holds":
        return {"claim": cid, "what": p.what, "outcome": "error", "why": f"does not hold unplanted ({before})",
                "seconds": round(time.perf_counter() - t0, 2)}
    with pytest.MonkeyPatch.context() as mp:
        _clear_caches()
        try:
            p.plant(mp)
        except Exception as exc:  # the plant itself is broken: say so, never count it
            return {"claim": cid, "what": p.what, "outcome": "error", "why": f"plant failed: {exc!r}",
                    "seconds": round(time.perf_counter() - t0, 2)}
        after, summary = _verdict_of(cid)
        for undo in Undo.actions:
            undo()
    _clear_caches()
    if after == "crash" and "sympy proved the identity" not in summary:
        # a checker that raises under the plant is the plant's failure, not a detection; only the runner's refusal of
        # a symbolic proof contradicted by the planted numeric search counts as killing it
        outcome = "error"
    else:
        outcome = "survived" if after == "holds" else "killed"
    return {"claim": cid, "what": p.what, "outcome": outcome, "planted_verdict": after, "summary": summary,
            "seconds": round(time.perf_counter() - t0, 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="pattern", default="", help="only plants whose claim id contains this")
    ap.add_argument("--list", action="store_true", help="list the plants and exit")
    ap.add_argument("--no-missing", action="store_true", help="skip the quick run that finds holds claims without a plant")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = ap.parse_args(argv)
    registered = all_plants()
    plants = [(cid, p) for cid, p in registered if args.pattern in cid]
    if args.list:
        for cid, p in plants:
            print(f"{cid:60s} {p.what}" + (f"  [equivalent: {p.equivalent}]" if p.equivalent else ""))
        return 0
    results = []
    for cid, p in plants:
        r = run_plant(cid, p)
        results.append(r)
        print(f"{r['outcome']:10s} {cid:60s} {p.what}" + (f"  -> {r.get('planted_verdict')}" if "planted_verdict" in r
                                                               else f"  ({r.get('why', '')})"), flush=True)
    missing = []
    if not args.no_missing and not args.pattern:
        held = survey()
        planted = {cid for cid, _ in registered}
        missing = [cid for cid in held if cid not in planted]
        killing = {(r["claim"], t) for r, (_, p) in zip(results, plants) if r["outcome"] in ("killed", "equivalent")
                   for t in p.targets()}
        readers: dict = {}
        for cid, reads in held.items():
            for f in reads:
                readers.setdefault(f, []).append(cid)
        for f, cids in sorted(readers.items()):
            if not any((cid, f) in killing for cid in cids):
                missing.append(f)
                print(f"{'missing':10s} {f} (read by {', '.join(sorted(cids)[:3])}{', ...' if len(cids) > 3 else ''})")
        for cid in missing:
            if cid in held:
                print(f"{'missing':10s} {cid}")
    counts = {k: sum(r["outcome"] == k for r in results) for k in ("killed", "survived", "equivalent", "error")}
    print(f"\n{counts['killed']} killed, {counts['survived']} survived, {counts['equivalent']} equivalent, "
          f"{counts['error']} error, {sum(m in held for m in missing) if missing else 0} holds claims without a plant, "
          f"{sum(m not in held for m in missing) if missing else 0} library functions they read without a plant that "
          f"flips one of them")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "missing": missing, "counts": counts}, indent=1))
    return 0 if counts["survived"] == counts["error"] == 0 and not missing else 1


if __name__ == "__main__":
    sys.exit(main())
