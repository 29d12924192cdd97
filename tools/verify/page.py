"""Write or check the families page (docs/guide/families.md): the verification table, and what flagship configs
resolve to.

    python -m tools.verify.page            # print the page
    python -m tools.verify.page --write    # rewrite docs/guide/families.md and README's model-type count
    python -m tools.verify.page --check    # exit 1 when the committed page (or README's count) is stale

:func:`verified_markdown` renders the verification table (:mod:`petheory.models.verified`, written by
``python -m tools.verify --write``): its counts, the model types read, the refused ones grouped by the mechanism
they lack (:func:`refusal_group`), the others; :func:`markdown_kinds` writes one row per flagship case
(:mod:`tools.verify.flagships`, built with transformers' own configuration classes and resolved with
:func:`petheory.models.resolve_config`, the one resolver every command uses) and distinct layer kind. Numbers are
rounded to 6 significant digits (stable across machines).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "families.md"
README = ROOT / "README.md"
#: README's sentence with the count of verified model types.
COUNT = re.compile(r"across \d+ model types of transformers [\d.]+")

HEADS = ("case", "model_type", "layer type", "layers", "mechanism", "base", "rotary dims / d", "scaling", "span",
         "temperature", "sinks", "M-RoPE sections", "L / max")


def _g(x) -> str:
    return "-" if x is None else f"{float(x):.6g}"


def kind_rows(scheme) -> list[list[str]]:
    """One row per distinct layer kind of ``scheme`` (cells after the case and model_type)."""
    from petheory.scheme import layer_ranges

    rows = []
    for layer, idx in scheme.kinds():
        p = layer.positions
        rotary = p.kind == "rotary"
        sp = p.params.get("scaling_params") or {}
        base = p.params.get("base", sp.get("base")) if rotary else None
        rd = p.params.get("rotary_dim", p.params.get("rope_dim", p.d)) if rotary else None
        scale = p.params.get("scale", sp.get("scale"))
        scaling = "-"
        if rotary:
            name = p.params.get("scaling", p.encoding) if p.encoding == "mla_rope" else p.encoding
            scaling = name + (f" x{_g(scale)}" if scale not in (None, 1, 1.0) else "")
        mech = p.kind if p.encoding is None else f"{p.kind} ({p.encoding})"
        if p.kind == "bias" and p.encoding == "t5":
            mech += " buckets " + ("bidirectional" if p.params.get("bidirectional") else "causal")
        temp = "-" if layer.temperature is None else layer.temperature.kind
        mrope = "-" if p.mrope is None else f"{list(p.mrope.sections)} {p.mrope.layout}"
        rows.append([layer.type or "-", f"{len(idx)}: {layer_ranges(idx)}", mech, _g(base),
                     "-" if rd is None else f"{rd}/{p.d}", scaling, str(layer.span), temp,
                     "learned" if layer.sinks else "-", mrope])
    return rows


def refusal_group(detail: str) -> str:
    """The missing mechanism a refusal names, as a short label shared by the model types it refuses.

    >>> refusal_group("config field rope_wavelet may change positions or the logit scale and petheory does not ...")
    'field `rope_wavelet` not read'
    >>> refusal_group("config field use_bidirectional_attention is set on gemma3_text, whose sliding layers then take "
    ...               "a bidirectional window petheory has not verified for it: refused rather than read")
    'use_bidirectional_attention on sliding layers (a bidirectional window not verified for the family)'
    """
    m = re.search(r"applies (\S+) under `([^`]*)`", detail)
    if m:
        return f"RoPE applied only under `{m.group(2)}` (a rule of the family's code, not in the table)"
    for pat, label in ((r"dynamic mask attention", "dynamic mask attention (keep_window_size): keys chosen by a learned, "
                                                   "content-dependent bias, not by position"),
                       (r"has no context length", "no context length (its class has no max_position_embeddings; it "
                                                  "runs at any length)"),
                       (r"encoder-decoder RoPE", "an encoder-decoder with RoPE in both stacks (petheory reads a rotary "
                                                 "config as one stack)"),
                       (r"take a bidirectional window", "use_bidirectional_attention on sliding layers (a "
                                                        "bidirectional window not verified for the family)"),
                       (r"mrope_section = .* must be 3 band counts", "M-RoPE sections that do not cover the rotary "
                                                                    "bands as petheory reads them"),
                       (r"default mrope_section .* \(not in the file\) .* transformers' rotary module fails",
                        "M-RoPE default sections that do not split the head's rotary bands (the class's default sizes: "
                        "transformers cannot run them either)"),
                       (r"odd rotary dimension .* transformers cannot run", "an odd rotary dimension wider than the "
                                                                            "head (the class's default sizes: "
                                                                            "transformers cannot run them either)"),
                       (r"odd rotary dimension", "an odd rotary dimension whose rotated coordinates are not read"),
                       (r"has no rotary embedding, ALiBi", "no rotary embedding, ALiBi, T5 buckets or table in its code "
                                                          "(positions of another kind)"),
                       (r"sin/cos table of its own", "RoPE from a sin/cos table of its own (no RotaryEmbedding module)"),
                       (r"the tool could not read", "modules the verification tool cannot read (no decoder layer "
                                                    "list it recognises)"),
                       (r"without kv_lora_rank", "decoupled RoPE (qk_rope_head_dim) without multi-head latent "
                                                 "attention"),
                       (r"DeepSeek-V4's compressed attention", "attention over compressed KV blocks (DeepSeek-V4's "
                                                               "sliding window plus block-compressed entries)"),
                       (r"BLT's byte patches", "byte patches (BLT: a local byte encoder and decoder around a global "
                                               "transformer over patches the content chooses)"),
                       (r"Perceiver's latent attention", "latent attention (Perceiver: learned latents without "
                                                         "positions; the inputs' positions come from a preprocessor)"),
                       (r"vision-language-action model", "a vision-language-action model (pi0: a VLM and an action "
                                                         "expert joined by a block mask)"),
                       (r"learned positions \(LeRoPE\)", "learned positions (LeRoPE: frequencies and a query "
                                                          "temperature that are checkpoint weights, not config fields)")):
        if re.search(pat, detail):
            return label
    m = re.match(r"model_type '\w+': (.*)", detail)
    if m:
        return m.group(1)[:120]
    for pat, label in ((r"config field (\S+?)(?:\[\d+\])? = '([^']+)' is not a layer type", "layer type `{1}`"),
                       (r"unknown rope_type '([^']+)'", "rope_type `{0}`"),
                       (r"config field ([\w.]+) (?:may change|changes) positions", "field `{0}` not read"),
                       (r"config field ([\w.]+) is not understood", "field `{0}` not read"),
                       (r"config field ([\w.]+) = .* disagrees with what transformers' \S+ code runs",
                        "field `{0}`, which transformers' code never reads, disagrees with what it runs (the file says "
                        "two things)"),
                       (r"config field ([\w.]+) is missing", "field `{0}` missing (the family names it otherwise)"),
                       (r"(\d+) rotary modules", "several rotary modules (which layer uses which is not read)"),
                       (r"keeps no softmax scale", "no softmax scale attribute to check"),
                       (r"reads self\.(\w+)", "a factor `{0}` in the attention's forward")):
        m = re.search(pat, detail)
        if m:
            return label.format(*m.groups())
    return detail[:100]


def verified_markdown(doc: dict, resolved=()) -> str:
    """The families page: the verification table's counts, the model types read (one row each), the refused ones
    grouped by the mechanism they lack, the others; then ``resolved``'s per-layer-kind table (:func:`markdown_kinds`)."""
    counts, types = doc["counts"], doc["types"]
    by = counts["by_status"]
    cases = counts["cases_by_outcome"]
    ok = sorted(t for t, r in types.items() if r["status"] == "ok")
    lines = ["# Model families: what petheory reads, verified against transformers", "",
             "<!-- generated: python -m tools.verify --write (python -m tools.verify.page --write redraws it "
             "from petheory/data/verified_models.json); do not edit by hand -->", "",
             f"Every model type of transformers {doc['transformers']} ({counts['model_types']} in `CONFIG_MAPPING`) was "
             "swept by `python -m tools.verify`: its default config, and for the ones read, their rope-scaling "
             "variants (linear, dynamic, YaRN, Llama 3, LongRoPE) and layer-layout variants (sliding window, NoPE "
             "schedule, chunks, ALiBi, hybrid layouts, and one with every layer kind the family has at once), each saved with "
             "`save_pretrained`; the default again as a transformers 4 file on the hub writes it (`rope_theta` and "
             "`rope_scaling` at the top level, no derivable `layer_types`: case `hub-layout`); and the published "
             "config.json files of tests/data/hf_configs, written as is (cases `hub:`; `hub:NAME-text`: a published "
             "text_config under another wrapper whose text model is the same class); each read back through "
             "petheory's "
             "loader and compared layer by layer (layer kinds, head size, softmax scale, window, NoPE-ness, "
             "temperature, sinks, rotated dimensions, frequencies, cos/sin factor, M-RoPE sections, ALiBi slopes, T5 "
             "buckets) with the modules transformers builds from the same file. `resolve_config` reads exactly the "
             "model types found `ok` here; every other one is refused with the reason below (an unknown one with "
             "the nearest verified family, which `--as-family` asserts).", "",
             "| model types | " + " | ".join(by) + " |", "|---|" + "---|" * len(by),
             f"| {counts['model_types']} | " + " | ".join(str(v) for v in by.values()) + " |", "",
             "| cases | " + " | ".join(cases) + " |", "|---|" + "---|" * len(cases),
             f"| {counts['cases']} | " + " | ".join(str(v) for v in cases.values()) + " |", "",
             f"## Read as transformers runs them ({len(ok)} model types)", "",
             "`layer kinds exercised`: every (layer type, mechanism: rotary, nope, bias or none; its span when not "
             "full) that some case compared with transformers' modules and found equal (a case counts only for the "
             "layer kinds it contains, each compared).", "",
             "| model_type | text model | layer kinds (default config) | layer kinds exercised | cases ok |",
             "|---|---|---|---|---|"]
    per = {}
    for c in doc["cases"]:
        per.setdefault(c["model_type"], []).append(c)
    for mt in ok:
        cs = per.get(mt, [])
        kinds = "; ".join(f"{k[2]} x {k[0] or '-'} ({k[1]}{', ' + k[3] if k[3] else ''}{', ' + k[4] if k[4] != 'full' else ''})"
                          for k in (cs[0].get("layers") or [])) if cs else ""
        good = [c["case"] for c in cs if c["outcome"] == "ok"]
        seen = sorted({f"{k[0] or '-'} {k[1].split()[0]}" + (" sliding" if k[4].startswith("sliding") else " chunked"
                                                            if k[4].startswith("chunked") else "")
                       for c in cs if c["outcome"] == "ok" for k in c.get("layers") or []})
        lines.append(f"| `{mt}` | {types[mt].get('text', '-')} | {kinds} | {'; '.join(seen)} | "
                     f"{len(good)}/{len(cs)}: {', '.join(good)} |")
    groups: dict = {}
    for mt, r in types.items():
        if r["status"] == "refused":
            groups.setdefault(refusal_group(r.get("why", "")), []).append(mt)
    lines += ["", f"## Refused, by the mechanism petheory does not read ({sum(map(len, groups.values()))} model types)",
              "", "A refusal is one line that names what is missing; nothing is dropped in silence.", ""]
    for label, mts in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- {label} ({len(mts)}): " + ", ".join(f"`{m}`" for m in sorted(mts)))
    for status, title, say in (
            ("misread", "Misread", "what differs from transformers"),
            ("crash", "Crashed", "petheory raised an error that is not a refusal (a bug)"),
            ("no-positions", "No positions in a config",
             "learned absolute positions are weights: `petheory spectrum/stress --pe hf:DIR` reads the table"),
            ("not-text", "Not text models", "vision or audio encoders and other non-language models: positions over "
                                            "patches or frames are not read"),
            ("transformers", "transformers' own failures", "its config class or modules fail to build here (a missing "
                                                           "package, a validation error of its own): not a petheory "
                                                           "outcome")):
        mts = sorted(t for t, r in types.items() if r["status"] == status)
        lines += ["", f"## {title} ({len(mts)})", "", say + ".", ""]
        if status in ("misread", "crash", "transformers"):
            lines += [f"- `{m}`: {types[m].get('why', '')[:200]}" for m in mts]
        else:
            lines.append(", ".join(f"`{m}`" for m in mts) or "none")
    if resolved:
        lines += ["", markdown_kinds(resolved)]
    return "\n".join(lines) + "\n"


def markdown_kinds(resolved) -> str:
    """Per layer kind, the flagship configs of :mod:`tools.verify.flagships` as resolved: ``resolved`` is a list of
    (case id, model_type, Scheme).

    >>> from petheory.models.config import read_config
    >>> cfg = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
    ...        "max_position_embeddings": 2048}
    >>> [row for row in markdown_kinds([("tiny", "llama", read_config(cfg))]).splitlines() if row.startswith("| tiny")]
    ['| tiny | llama | full_attention | 2: 0-1 | rotary (rope) | 10000 | 64/64 | rope | full | - | - | - | 2,048 / 2,048 |']
    """
    lines = ["## Flagship configs, layer kind by layer kind", "",
             "The configs of `tools/verify/flagships.py` (built by transformers' configuration classes, "
             "overridden where a published config differs), resolved. `base`: the rotary frequency base; `rotary dims "
             "/ d`: rotated dimensions of the head size d (partial rotary); `scaling`: the registry entry of the "
             "frequencies and its factor; `span`: full, sliding window W or chunks of C; `L / max`: the original "
             "context and `max_position_embeddings`. Multimodal RoPE (M-RoPE) is analysed for text-only positions, "
             "where every axis carries the same index and the sections rotate as plain RoPE.", "",
             "| " + " | ".join(HEADS) + " |", "|" + "|".join("---" for _ in HEADS) + "|"]
    for name, mt, scheme in resolved:
        types = mt if scheme.source == mt else f"{mt} ({scheme.source})"
        for k, row in enumerate(kind_rows(scheme)):
            first = [name, types] if k == 0 else ["", ""]
            last = [f"{scheme.context:,} / {scheme.max_context:,}" if k == 0 else ""]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in first + row + last) + " |")
    return "\n".join(lines)


def page() -> str:
    """The page as the committed table and today's resolver give it."""
    from petheory.models.config import resolve_config  # the defining module: a test patches it there
    from petheory.models.verified import load

    from .flagships import CASES, OLDER, build

    resolved = [(name, mt, resolve_config(build(mt, kw)[1])) for name, mt, kw in CASES + OLDER]
    return verified_markdown(load(), resolved)


def readme() -> str:
    """README.md with its count of verified model types brought up to date."""
    from petheory.models.verified import load, verified_types

    text = README.read_text(encoding="utf-8")
    return COUNT.sub(f"across {len(verified_types())} model types of transformers {load()['transformers']}", text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.verify.page", description=__doc__.splitlines()[0])
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
            print(f"{PAGE} is stale: run python -m tools.verify.page --write")
            return 1
        if README.read_text(encoding="utf-8") != readme():
            print(f"{README}'s count of verified model types is stale: run python -m tools.verify.page --write")
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
