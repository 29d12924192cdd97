"""Issue 44's preparation on a CPU: tools/gpu/gpu_efficiency.py's record (resumable, idempotent) and
tools/gpu/gpu_records.py --status (stages done, GPU-minutes left, scaled by a measured speed-up)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "gpu"))
E = importlib.import_module("gpu_efficiency")
G = importlib.import_module("gpu_records")


def lines(capsys) -> list[dict]:
    return [json.loads(ln) for ln in capsys.readouterr().out.splitlines() if ln.startswith("{")]


def test_dry_run_writes_each_variant_once_and_a_rerun_measures_nothing(tmp_path, capsys):
    pytest.importorskip("torch")
    assert E.main(["--device", "cpu", "--dry", "--variants", "fp32_eager,current", "--out", str(tmp_path)]) == 0
    first = lines(capsys)
    (path,) = tmp_path.glob("*.json")
    rec = json.loads(path.read_text())
    assert rec["preset"] == "smoke" and set(rec["variants"]) == {"fp32_eager", "current"}
    for v in rec["variants"].values():
        assert v["step_ms"] > 0 and v["flops_per_step"] > 0 and v["mfu"] is None  # no peak for a CPU
    assert rec["fastest"] in rec["variants"] and first[-1]["record"] == str(path)
    table = E.render(rec)
    assert "| fp32_eager | 1 |" in table and "| current | 1 |" in table and "| mixed8 |" in table  # not measured: a row
    assert E.main(["--device", "cpu", "--dry", "--variants", "fp32_eager,current", "--out", str(tmp_path)]) == 0
    again = lines(capsys)
    assert [ln.get("skipped") for ln in again[:2]] == ["in the record already"] * 2
    assert json.loads(path.read_text()) == rec


def test_without_dry_cuda_only_variants_are_skipped_on_a_cpu_and_the_budget_is_kept(tmp_path, capsys):
    pytest.importorskip("torch")
    assert E.main(["--device", "cpu", "--variants", "current,bf16_compile", "--budget", "60", "--out", str(tmp_path)]) == 0
    out = lines(capsys)
    assert "CUDA only" in out[0]["skipped"]
    assert out[1]["skipped"].startswith("estimate 90 s > ")  # compile does not fit in 60 s
    assert not json.loads(next(tmp_path.glob("*.json")).read_text())["variants"]


def test_status_counts_the_plan_and_divides_by_a_measured_speedup(tmp_path, capsys):
    st = G.status(tmp_path, G.ISSUE44_PLAN, tmp_path / "gpu_efficiency")
    assert [r["stage"] for r in st["stages"]] == G.ISSUE44_PLAN and all(r["done"] == 0 for r in st["stages"])
    assert st["minutes_left"] == pytest.approx(G.plan_seconds(G.ISSUE44_PLAN) / 60)
    assert st["efficiency"] is None and st["projected_minutes_left"] == st["minutes_left"]
    (tmp_path / "gpu_efficiency").mkdir()
    (tmp_path / "gpu_efficiency" / "nvidia_h100.json").write_text(json.dumps({
        "device": "NVIDIA H100 80GB HBM3", "preset": "paper", "fastest": "mixed8",
        "variants": {"current": {"step_ms_per_member": 40.0}, "mixed8": {"step_ms_per_member": 10.0}}}))
    st = G.status(tmp_path, G.ISSUE44_PLAN, tmp_path / "gpu_efficiency")
    assert st["efficiency"]["speedup"] == pytest.approx(4.0)
    assert st["projected_minutes_left"] == pytest.approx(st["minutes_left"] / 4)
    G.print_status(tmp_path, G.ISSUE44_PLAN, tmp_path / "gpu_efficiency")
    out = capsys.readouterr().out
    assert "gu2025_task1_figs" in out and "x4.00 over today's step" in out and "in the fastest form measured (mixed8)" in out
