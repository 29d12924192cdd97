"""The verification sweep's records (:mod:`tools.verify.sweep`) -> petheory/data/verified_models.json and
docs/guide/families.md.

A model type's status is its default case's outcome, unless a case of it ended ``misread`` or ``crash`` (then that);
``ok`` types are the ones the resolver reads (:mod:`petheory.models.verified`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE_KEYS = ("model_type", "case", "outcome", "detail", "text_type", "layers")


def type_status(rec: dict) -> tuple[str, str]:
    cases = rec["cases"]
    for bad in ("crash", "misread"):
        hit = [c for c in cases if c["outcome"] == bad]
        if hit:
            return bad, f"{hit[0]['case']}: {hit[0]['detail']}"
    first = cases[0]
    pub = [c for c in cases if c["case"].startswith(("published:", "hub:"))]
    if first["outcome"] in ("refused", "transformers") and pub and all(c["outcome"] in ("ok", "skipped") for c in pub) \
            and any(c["outcome"] == "ok" for c in pub):
        return "ok", ""  # the class's own defaults are malformed (GLM-4.5: 96 heads do not divide 4096; Hunyuan: no
        # rope_theta), or refused; the published files are read as transformers runs them
    if first["outcome"] == "no-positions" and any(c["outcome"] == "ok" for c in cases):
        return "ok", ""  # a hybrid whose default config has no attention layer (Granite 4.0-H): its variants have
    return first["outcome"], first.get("detail", "")


def table(recs: dict) -> dict:
    """The committed document: the transformers version, each type's status and reason, every case, the counts."""
    import transformers

    types, cases = {}, []
    for mt in sorted(recs):
        status, why = type_status(recs[mt])
        entry = {"status": status}
        if why:
            entry["why"] = why
        if recs[mt].get("aliases"):
            entry["aliases"] = recs[mt]["aliases"]
        if recs[mt].get("fields") is not None:
            entry["fields"] = recs[mt]["fields"]  # the positional fields its configuration class has
        if recs[mt]["cases"][0].get("model_class"):
            entry["class"] = recs[mt]["cases"][0]["model_class"]
        text = recs[mt]["cases"][0].get("text_type")
        if text and text != mt:
            entry["text"] = text
        types[mt] = entry
        cases += [{k: c[k] for k in CASE_KEYS if k in c} for c in recs[mt]["cases"] if c["outcome"] != "skipped"]
    counts = {"model_types": len(types), "by_status": dict(sorted(Counter(t["status"] for t in types.values()).items())),
              "cases": len(cases), "cases_by_outcome": dict(sorted(Counter(c["outcome"] for c in cases).items()))}
    return {"transformers": transformers.__version__, "generated_by": "python -m tools.verify --write",
            "counts": counts, "types": types, "cases": cases}


def committed_records(doc: dict) -> dict:
    """The sweep's records as the committed table ``doc`` holds them (its cases without the skipped ones, which the
    table leaves out and no status depends on alone): what ``--only ... --write`` keeps for the types it does not
    recompute."""
    recs = {mt: {"cases": [], "aliases": e.get("aliases"), "fields": e.get("fields")} for mt, e in doc["types"].items()}
    for c in doc["cases"]:
        recs[c["model_type"]]["cases"].append(dict(c))
    for mt, rec in recs.items():
        if not rec["cases"]:
            raise LookupError(f"the committed table has no case of {mt}: rerun the whole sweep")
        rec["cases"][0]["model_class"] = doc["types"][mt].get("class")
    return recs


def write(doc: dict) -> None:
    """Write the table, then the page and README's count from it (:mod:`tools.verify.page`)."""
    from petheory.io import atomic_write_text
    from petheory.models.verified import TABLE, load

    atomic_write_text(TABLE, json.dumps(doc, indent=0, sort_keys=False) + "\n")
    load.cache_clear()
    print(f"wrote {TABLE}")
    from . import page

    page.main(["--write"])
    from benchmarks.harness import write_section

    write_section("verify_models", results_section(doc))
    print("wrote the verify_models section of benchmarks/RESULTS.md")


def results_section(doc: dict) -> str:
    """The RESULTS.md section: the counts of the sweep (a correctness sweep, not a timing)."""
    c = doc["counts"]
    types = " | ".join(f"{v} {k}" for k, v in c["by_status"].items())
    return "\n".join([
        f"## verify_models: every model type of transformers {doc['transformers']} read by petheory, compared with "
        "its own modules",
        "",
        "`python -m tools.verify --write` (a correctness sweep, not timed; cached per model type under "
        "results/verify_models/, `--fresh` to recompute). Each case is a config saved by transformers and read back "
        "through petheory's loader, compared layer by layer with the modules transformers builds from it "
        "(docs/guide/families.md lists each model type and why the others are refused).",
        "",
        f"{c['model_types']} model types, {c['cases']} cases: " + ", ".join(f"{v} {k}" for k, v in
                                                                          c["cases_by_outcome"].items()),
        "",
        f"model types by status: {types}. `ok`: read as transformers runs them (the resolver reads exactly these); "
        "`refused`: a mechanism petheory does not read, named; `no-positions`, `not-text`, `no-model`: no positions "
        "in a config (learned tables, non-language models, sub-configurations); `transformers`: transformers' own "
        "config or modules fail to build here (not a petheory outcome).",
    ])


def check(recs: dict) -> int:
    """0 when the committed table holds exactly these records for these model types, else 1 (what differs printed)."""
    from petheory.models.verified import TABLE

    committed = json.loads(TABLE.read_text(encoding="utf-8"))
    fresh = table(recs)
    bad = 0
    for mt in recs:
        old = committed["types"].get(mt)
        if old != fresh["types"][mt]:
            print(f"{mt}: committed {old}, now {fresh['types'][mt]}")
            bad = 1
        old_cases = [c for c in committed["cases"] if c["model_type"] == mt]
        new_cases = [c for c in fresh["cases"] if c["model_type"] == mt]
        if json.loads(json.dumps(old_cases)) != json.loads(json.dumps(new_cases)):
            print(f"{mt}: cases differ: committed {old_cases}, now {new_cases}")
            bad = 1
    return bad
