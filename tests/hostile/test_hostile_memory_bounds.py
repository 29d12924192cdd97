"""Work proportional to what positions need: a GGUF vocabulary is skipped by its declared sizes, not materialised;
counts that size an allocation or a loop (``block_count``, ``--base-grid``, ``--positions``) are estimated or bounded
before anything is allocated; the peak under ``--max-memory`` is measured (tracemalloc in process, the peak
resident size of a subprocess)."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from gguf_util import llama_gguf
from hostile_util import files_under, refused

pytest.importorskip("gguf")
needs_proc = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="peak memory read from /proc (Linux)")

MiB = 1 << 20


def _peak_rss_mib(argv: list[str]) -> tuple[int, str, float]:
    """(exit code, stderr, peak resident MiB) of ``petheory ARGV`` in a fresh interpreter: its own VmHWM (getrusage's
    ru_maxrss would carry the forking pytest's peak across exec)."""
    code = ("import re, sys\nfrom petheory.cli import main\nrc = main(sys.argv[1:])\n"
            "print(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1), file=sys.stderr)\n"
            "sys.exit(rc)")
    p = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300)
    *lines, peak = p.stderr.strip().splitlines()
    return p.returncode, "\n".join(lines), int(peak) / 1024  # KiB


def test_a_vocabulary_is_skipped_by_its_declared_sizes_not_materialised(tmp_path):
    from petheory.loaders.gguf_header import read_gguf_header

    f = llama_gguf(tmp_path / "v.gguf", vocab=1 << 20)
    tracemalloc.start()
    h = read_gguf_header(f)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert h.metadata["tokenizer.ggml.tokens"] == ("array", 1 << 20)
    # gguf.GGUFReader kept ~10 numpy views per element (1.7 GiB RSS); the walk keeps the header's 6 values
    assert peak < 1 * MiB, peak


@needs_proc
def test_a_vocabulary_stays_under_max_memory_in_a_whole_command(tmp_path):
    f = llama_gguf(tmp_path / "v.gguf", vocab=1 << 20)
    rc, err, peak = _peak_rss_mib(["rotate", "--max-memory", "300M", "--pe", f"gguf:{f}", "--out", str(tmp_path / "o")])
    assert rc == 0, err
    assert peak < 300, peak  # the interpreter, numpy and petheory themselves take about 70 MiB of it


def test_a_block_count_past_llama_cpps_is_refused_before_layers_are_built(capsys, tmp_path):
    f = llama_gguf(tmp_path / "b.gguf", blocks=1 << 27)
    refused(capsys, "rotate", "--pe", f"gguf:{f}", "--out", tmp_path / "o", match=("block_count = 134217728", "<= 512"))
    assert files_under(tmp_path / "o") == []


def test_the_men_base_grid_is_estimated_before_it_is_allocated(capsys, tmp_path):
    refused(capsys, "plan", "--max-memory", "150M", "--pe", "rope", "--length", "8192", "--base-grid", "40000000",
            "--json", tmp_path / "p.json", match=("Men's base grid", "--max-memory limit of 150 MiB", "base_grid"))
    assert files_under(tmp_path) == []


def test_the_men_base_grid_peak_is_what_the_estimate_says():
    """The estimate's 24 bytes a base cover the measured peak of building the grid and the caller's copy."""
    import numpy as np

    from petheory.bounds import men_base as mb

    per_decade = 20_000
    tracemalloc.start()
    g = np.concatenate([[1e4], mb.men_grid(1e4, 1e12, per_decade=per_decade)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    n = int(np.ceil(np.log10(1e12 / 2.0) * per_decade)) + 1  # the whole scan grid on [2, 1e12]
    assert g.size > 0 and peak <= mb.GRID_BYTES_PER_BASE * n, (peak, n)


@needs_proc
def test_the_men_base_grid_peak_stays_under_max_memory():
    rc, err, peak = _peak_rss_mib(["plan", "--max-memory", "150M", "--pe", "rope", "--length", "8192",
                                   "--base-grid", "40000000", "--json", "-"])
    assert rc == 2 and err.startswith("petheory: error:") and len(err.splitlines()) == 1, err
    assert peak < 150, peak


@pytest.mark.parametrize("positions,match", [
    ("0:65536,0:65536", "at most 65536 positions in all"),
    ("0:100000000000000000000000000000", "at most 65536 positions in all"),  # the grammar's count, before expanding
    ("99999999999999999999", "error: --positions must be <= 2^53 (exact in float64), got 99999999999999999999"),
])
def test_position_lists_are_counted_before_they_are_expanded(capsys, tmp_path, positions, match):
    refused(capsys, "rotate", "--pe", "rope", "--positions", positions, "--out", tmp_path / "o", match=match)
    assert files_under(tmp_path / "o") == []
