"""What the analysis commands write on the fixtures, kept as golden files so a refactor can show it changed nothing.

Each case is one ``petheory`` command line (``report``, ``spectrum``, ``stress``, ``bounds``, ``compare``) on a
model config of ``tests/data/hf_configs`` or a registered PE, run in-process through the CLI's own entry point
(:func:`petheory.cli.main`) three times: ``--json -`` (the record), the terminal text (a pipe: plain), and
``--markdown -`` where the command has it. What is kept (:func:`normalise`): the JSON with every ``seconds`` field
removed (wall clock), the text with every "N s" / "| seconds |" cell replaced by ``<s>``, temp folders by ``<tmp>``.

The golden files were first written from main at 43e7423 (before issue 45's typed records) and rewritten once, when
issue 41 added the report's theory-range line and the cases began to run from the clone's root (relative config
paths: a compare table's width no longer depends on where the clone lives), by::

    python tools/golden_records.py --write            # every case (about 2-3 minutes on 2 loaded cores)

and ``tests/analyses/test_records_golden.py`` compares the output of today's code with them (a sample by default,
every case with ``-m slow``). ``python tools/golden_records.py --check`` compares every case from the shell, and with
``--figures`` every committed figure record too (tests/analyses/test_golden_everywhere.py runs that on other
processors' kernels and at other loads).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
CONFIGS = ROOT / "tests" / "data" / "hf_configs"
#: Configs are named relative to the clone and the cases run from its root: a compare table's column is as wide as
#: the longest source, so an absolute path would make the text depend on where the clone lives.
REL = CONFIGS.relative_to(ROOT)

#: Model configs: every fixture (the report at an explicit N keeps the cost down; one case keeps the default N).
MODELS = sorted(p.stem for p in CONFIGS.glob("*.json"))
#: Registered encodings the single-PE commands take (one of each mechanism, a scaled rotary, a table-free bias).
SPECS = ("alibi:slope=0.5", "sinusoidal", "rope", "rope_yarn:scale=4", "t5", "kerple_log")


def cases() -> dict[str, list[str]]:
    """Case name -> argv (without the output flag). Cheap settings: few null draws, N of a few thousand."""
    out: dict[str, list[str]] = {}
    for m in MODELS:
        cfg = str(REL / f"{m}.json")
        out[f"report__{m}"] = ["report", "--pe", cfg, "--length", "8192", "--multiples", "1,2", "--null-draws", "3"]
        out[f"spectrum__{m}"] = ["spectrum", "--pe", cfg, "--length", "512", "--method", "exact"]
        out[f"stress__{m}"] = ["stress", "--pe", cfg, "--null-draws", "4"]
        out[f"bounds__{m}"] = ["bounds", "--pe", cfg, "--lengths", "100,20000"]
        out[f"compare__{m}"] = ["compare", "--pe", cfg, "--length", "128", "--lengths", "64,4096", "--null-draws", "3",
                                "--records", "<tmp>"]
    out["report__default_length__mistral_7b"] = ["report", "--pe", str(REL / "mistral_7b.json"), "--multiples", "1",
                                                 "--null-draws", "0"]
    out["report__two_models"] = ["report", "--pe", str(REL / "bloom_560m.json"), "--pe", "rope_llama3:scale=8",
                                 "--length", "4096", "--multiples", "1", "--null-draws", "2"]
    for s in SPECS:
        key = s.replace(":", "_").replace("=", "")
        out[f"spectrum__{key}"] = ["spectrum", "--pe", s, "--length", "256", "-d", "16"]
        out[f"stress__{key}"] = ["stress", "--pe", s, "--null-draws", "4", "-d", "16"]
        out[f"report__{key}"] = ["report", "--pe", s, "--length", "2048", "--context", "512", "-d", "32",
                                 "--multiples", "1,4", "--null-draws", "3"]
    out["spectrum__kernel_gaussian"] = ["spectrum", "--kernel", "gaussian", "--length", "300"]
    out["spectrum__coeffs"] = ["spectrum", "--coeffs", "1,0.5,0.25", "--length", "64", "--method", "slq"]
    out["spectrum__hermitian_part"] = ["spectrum", "--coeffs", "2,1j,0.5", "--row", "2,0.5,0", "--hermitian-part"]
    out["bounds__every_pe"] = ["bounds", "--lengths", "200,5000", "--context", "100"]
    out["bounds__alibi_eq9"] = ["bounds", "--pe", "alibi:slope=0.25", "--lengths", "300", "--context", "100",
                                "--distance", "250"]
    out["compare__every_pe"] = ["compare", "--length", "64", "--lengths", "64,512", "--null-draws", "3",
                                "--records", "<tmp>"]
    out["compare__rotary_pair"] = ["compare", "--pe", "rope", "--pe", "rope_yarn:scale=4", "--length", "96", "-d", "32",
                                   "--lengths", "64,2048", "--context", "32", "--null-draws", "3", "--records", "<tmp>"]
    return out


#: The cases the default test run compares (every command and renderer, a few seconds in all); the rest run with
#: ``-m slow`` (a model report scans Men's bases at its extended context: seconds each).
SAMPLE = ("report__bloom_560m", "report__t5_base", "report__rope", "report__rope_yarn_scale4", "spectrum__sinusoidal",
          "spectrum__hermitian_part", "spectrum__t5_base", "stress__deepseek_v3", "stress__sinusoidal",
          "bounds__qwen2_5_7b_yarn", "bounds__alibi_eq9", "compare__mistral_7b", "compare__rotary_pair")

_SECONDS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)? s\b")


def _drop_seconds(x):
    if isinstance(x, dict):
        return {k: _drop_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [_drop_seconds(v) for v in x]
    return x


def normalise_text(text: str, tmp: str) -> str:
    """Wall clock and temp folders out of a command's text: ``1.23 s`` -> ``<s>``, a spectra table's seconds cell too."""
    text = text.replace(tmp, "<tmp>")
    text = _SECONDS.sub("<s>", text)
    # report --markdown: the last cell of the spectra table's rows ("| 2L = 16,384 | ... | 0.012 |")
    return re.sub(r"^(\| \d+L = .*\| )[\d.]+ \|$", r"\1<s> |", text, flags=re.M)


def _run(argv: list[str]) -> tuple[int, str, str]:
    from petheory.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def run_case(argv: list[str]) -> dict:
    """``{"argv", "json", "text", "markdown"}`` of one case, normalised (:func:`normalise_text`); a refused case is
    ``{"argv", "rc", "stderr"}`` (a refusal is output too)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(ROOT):
        argv = [tmp if a == "<tmp>" else a for a in argv] + ["--quiet"]
        doc = {"argv": [a.replace(tmp, "<tmp>") for a in argv]}
        rc, out, err = _run(argv + ["--json", "-"])
        if rc != 0:
            doc.update(rc=rc, stderr=normalise_text(err, tmp))
        else:
            doc["json"] = _drop_seconds(json.loads(out.replace(tmp, "<tmp>")))
            rc, out, err = _run(argv)
            if rc != 0:
                raise RuntimeError(f"petheory {' '.join(argv)} exited {rc} (but not with --json -): {err.strip()}")
            doc["text"] = normalise_text(out, tmp)
            if argv[0] in ("report", "compare"):
                rc, out, err = _run(argv + ["--markdown", "-"])
                doc["markdown"] = normalise_text(out, tmp)
    return json.loads(json.dumps(doc).replace(str(ROOT) + "/", ""))  # paths relative to the clone


def path(name: str) -> Path:
    return GOLDEN / f"{name}.json.gz"


def read(name: str) -> dict:
    with gzip.open(path(name), "rt", encoding="utf-8") as f:
        return json.load(f)


def write(name: str, doc: dict) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    data = json.dumps(doc, indent=1).encode()  # key order kept: it is part of the JSON
    with open(path(name), "wb") as f:  # mtime 0: the same record gives the same bytes
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(data)


def differences(want, got) -> list[str]:
    """Where a command's output ``got`` differs from its golden ``want``: :func:`petheory.rounding.record_differences`,
    the one rule for committed numbers (each float at its own stated error, an error bound by its bound, the text's
    numbers where they print a float that moved within its error)."""
    from petheory.rounding import record_differences

    return record_differences(want, got)


FIGURES = ROOT / "figures"


def figure_names() -> list[str]:
    """Every registered figure: each has its record committed as ``figures/NAME.json``."""
    from petheory import plots

    return sorted(plots.registry())


def figure_record(name: str, workdir: Path) -> dict:
    """The record ``petheory figures --only NAME`` saves today (quick preset, seed 0), as JSON reads it back; a figure
    that draws an experiment's record (``needs``) is recomputed from the record its committed JSON keeps (put where
    the experiment writes it, under ``workdir``: training is the experiment's, tested on its own)."""
    import os

    from petheory import plots, records
    from petheory.io import atomic_write_json, json_text

    fig = plots.registry()[name]
    before = os.environ.get("PETHEORY_RUNS")
    os.environ["PETHEORY_RUNS"] = str(workdir / "runs")
    try:
        if fig.needs:
            committed = json.loads((FIGURES / f"{name}.json").read_text(encoding="utf-8"))
            atomic_write_json(records.bounds_record_path(fig.needs, "quick", 0), committed["experiment"])
        if fig.data is not None:  # the command saves draw(data(...)): its record, without drawing it
            return json.loads(json_text(fig.data("quick", 0)))
        return json.loads(fig.fn(workdir / "command", preset="quick", seed=0)[1].read_text(encoding="utf-8"))
    finally:
        if before is None:
            os.environ.pop("PETHEORY_RUNS", None)
        else:
            os.environ["PETHEORY_RUNS"] = before


def machine() -> dict:
    """What this process computes with: numpy's SIMD extensions in use (its dispatch targets found, after
    ``NPY_DISABLE_CPU_FEATURES``), OpenBLAS's kernel family and pool (``OPENBLAS_CORETYPE``, ``OPENBLAS_NUM_THREADS``)
    and the threads petheory picks for the load now."""
    import threadpoolctl
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    from petheory._threads import pick_threads

    blas = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
    return {"simd": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)],
            "blas": [i.get("architecture") for i in blas], "blas_threads": [i.get("num_threads") for i in blas],
            "threads": pick_threads()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="(re)write the golden files from this checkout's code")
    ap.add_argument("--check", action="store_true", help="compare this checkout's output with the golden files")
    ap.add_argument("--only", action="append", help="case names (default: every case)")
    ap.add_argument("--figures", action="store_true",
                    help="also compare every committed figure record (figures/*.json) with what its figure computes "
                         "today (they are written by `petheory figures --update-committed`, not here)")
    a = ap.parse_args(argv)
    if a.write and a.figures:
        ap.error("--figures only checks: committed figures are written by `petheory figures --update-committed`")
    todo = cases()
    names = a.only or list(todo)
    unknown = sorted(set(names) - set(todo))
    if unknown:
        ap.error(f"no such case: {', '.join(unknown)} (the cases are the golden files' names)")
    if not a.write:
        print(f"machine: {json.dumps(machine())}", flush=True)
    bad = 0
    for name in names:
        doc = run_case(todo[name])
        if a.write:
            write(name, doc)
            print(f"wrote {path(name).relative_to(ROOT)}")
        elif not path(name).exists():
            bad += 1
            print(f"{name}: no golden file (write it with --write --only {name})")
        else:
            diff = differences(read(name), doc)
            bad += bool(diff)
            print(f"{name}: " + ("same" if not diff else f"{len(diff)} differences\n  " + "\n  ".join(diff[:5])),
                  flush=True)
    if a.figures:
        with tempfile.TemporaryDirectory() as tmp:
            for name in figure_names():
                committed = json.loads((FIGURES / f"{name}.json").read_text(encoding="utf-8"))
                diff = differences(committed, figure_record(name, Path(tmp) / name))
                bad += bool(diff)
                print(f"figures/{name}.json: " + ("same" if not diff else f"{len(diff)} differences\n  "
                                                 + "\n  ".join(diff[:5])), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
