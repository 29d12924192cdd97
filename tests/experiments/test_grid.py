"""Grid training (petheory.experiments.grid): many runs with different seeds *and* position mechanisms in
one program per step must give each run's own per-run record, resume after a kill, and hand any
member over to the per-run trainer."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
import torch

from petheory.experiments import papers
from petheory.nn import preset, train
from petheory.experiments import grid as G
from petheory.experiments.grid import shared_key, train_grid
from petheory.experiments.grid_measure import first_gradients
from petheory.experiments.mixed import MixedGroup
from petheory.nn.training import without_timing

U32 = 2.0**-24  # float32 unit roundoff


def _tol(cfg) -> float:
    """Relative agreement of a grid member with its per-run twin after ``cfg``'s steps.

    Batched matmuls (vmap) sum in another order than single ones, so each step's loss and update
    differ by float32 round-off, a few ulps of reductions over at most ~2^5 terms per output
    here; over a handful of steps with a small learning rate the trajectories stay within that
    per step, so the bound grows linearly with the number of optimiser steps.
    """
    from petheory.nn import tasks

    steps = -(-len(tasks.load(cfg.task).train) // cfg.batch_size) * cfg.epochs
    return 2**5 * U32 * steps


def _small_sum(pe, seed=0, **kw):
    cfg = preset("running_sum", "smoke", pe=pe, seed=seed, epochs=2, ablate=False, **kw)
    return dataclasses.replace(cfg, task=dataclasses.replace(cfg.task, params={**cfg.task.params, "n_train": 64}))


def _assert_same_run(got: dict, want: dict, rel: float) -> None:
    assert got["config_hash"] == want["config_hash"] and got["pe"] == want["pe"] and got["seed"] == want["seed"]
    assert set(got) == set(want)
    for a, b in zip(got["history"], want["history"], strict=True):
        assert a["train_loss"] == pytest.approx(b["train_loss"], rel=rel)
        assert a["lr"] == pytest.approx(b["lr"], rel=1e-12)
    for L, m in want["final"]["test"].items():
        for k, v in m.items():
            assert got["final"]["test"][L][k] == pytest.approx(v, rel=rel, abs=rel)


def test_table5_grid_of_every_pe_and_two_seeds_equals_the_per_run_loop():
    cfgs = [_small_sum(pe) for pe in papers.LI2025_PES] + [_small_sum("alibi", 1)]
    recs = train_grid(cfgs)
    for c, r in zip(cfgs, recs):
        _assert_same_run(r, train(c), _tol(c))
    assert recs[0]["timing"]["engine"] == "grid" and recs[0]["timing"]["members"] == len(cfgs)
    # the members really differ: distinct PEs give distinct extrapolation errors
    far = max(recs[0]["final"]["test"], key=int)
    assert len({round(r["final"]["test"][far]["mse"], 9) for r in recs}) == len(recs)


def test_gu2025_grid_with_learned_biases_trainable_tables_and_mla_equals_the_per_run_loop():
    cfgs = [preset("gu2025_task1", "smoke", pe=pe, epochs=1) for pe in papers.GU2025_PES.values()]
    recs = train_grid(cfgs)
    for c, r in zip(cfgs, recs):
        want = train(c)
        _assert_same_run(r, want, _tol(c))
        for a, b in zip(r["ablation"]["heads"], want["ablation"]["heads"], strict=True):  # ablation per member
            assert (a["layer"], a["head"]) == (b["layer"], b["head"])
            assert a["value"] == pytest.approx(b["value"], abs=_tol(c) + 1.0 / 400)  # one sample of 400 may flip


def _gu_mix(seeds=(0,), **kw):
    """gu2025 Task 1 (smoke) for every PE family of the paper and Fig. 5's partial RoPE, one epoch."""
    pes = [*papers.GU2025_PES.values(), "rope", "rope:heads=1", "rope:heads=2"]
    return [preset("gu2025_task1", "smoke", pe=pe, seed=s, epochs=1, **kw) for pe in pes for s in seeds]


def _groups(cfgs, mixed=True):
    g = G.Grid(cfgs, [c.hash() for c in cfgs], [None] * len(cfgs), torch.device("cpu"), False, mixed)
    return g.groups


def test_every_gu2025_family_but_mla_is_one_mixed_program():
    cfgs = _gu_mix(seeds=(0, 1))
    groups = _groups(cfgs)
    mixed = [g for g in groups if isinstance(g, MixedGroup)]
    assert len(mixed) == 1 and mixed[0].S == len(cfgs) - 2  # MLA (2 seeds) keeps its own vmap group
    assert {str(cfgs[k].model.pe) for g in groups if not isinstance(g, MixedGroup) for k in g.members} == {"mla"}
    # the rotation mask is the member tensor of partial RoPE: all heads, the first k, none
    rot, H = mixed[0].rot[:, 0, :, 0, 0], mixed[0].H
    for i, k in enumerate(mixed[0].members):
        pe = str(cfgs[k].model.pe)
        want = H if pe in ("rope", "rope+sinusoidal") else int(pe.split("=")[1]) if pe.startswith("rope:heads") else 0
        assert rot[i].tolist() == [h < want for h in range(H)], pe
    assert len(_groups(cfgs, mixed=False)) == len(cfgs) // 2  # the old grouping: one group per model config


def test_mixed_grid_with_gradient_clipping_equals_the_per_run_loop():
    cfgs = _gu_mix(grad_clip=0.05)  # small enough that every member's step is clipped
    recs = train_grid(cfgs)
    for c, r in zip(cfgs, recs):
        want = train(c)
        _assert_same_run(r, want, _tol(c))
        for a, b in zip(r["ablation"]["heads"], want["ablation"]["heads"], strict=True):
            assert a["value"] == pytest.approx(b["value"], abs=_tol(c) + 1.0 / 400)  # one sample of 400 may flip


def test_mixed_first_gradients_equal_the_per_config_groups():
    # each member computes attention with its own model's formula (SDPA; explicit softmax for a learned bias on
    # the CPU), so only the batching's summation order differs
    cfgs = _gu_mix()
    got, want = first_gradients(cfgs), first_gradients(cfgs, mixed=False)
    for c, a, b in zip(cfgs, got, want):
        assert set(a["grads"]) == set(b["grads"]), c.model.pe
        assert a["loss"] == pytest.approx(b["loss"], rel=2**5 * U32)
        num = sum(float(((a["grads"][n] - g) ** 2).sum()) for n, g in b["grads"].items())
        den = sum(float((g ** 2).sum()) for g in b["grads"].values())
        # a weight's gradient is a sum over the batch's B*T tokens: float32 round-off n*u with n = B*T
        # (measured: <= 5e-7; explicit softmax instead of SDPA would differ by 1.4e-4 on the sinusoidal member)
        n = c.batch_size * 24
        assert (num / den) ** 0.5 <= n * U32, c.model.pe


def test_a_planted_rotation_mask_error_is_caught(monkeypatch):
    # the comparison can fail: rotating every head of every member (NoPE included) changes the records
    cfgs = [preset("gu2025_task1", "smoke", pe=pe, epochs=1, ablate=False) for pe in ("nope", "rope:heads=1")]
    real = MixedGroup.__init__

    def planted(self, *a, **kw):
        real(self, *a, **kw)
        self.rot, self.rot_all, self.n_rot = torch.ones_like(self.rot), True, self.S

    monkeypatch.setattr(MixedGroup, "__init__", planted)
    recs = train_grid(cfgs)
    for c, r in zip(cfgs, recs):
        want = train(c)
        assert r["history"][0]["train_loss"] != pytest.approx(want["history"][0]["train_loss"], rel=_tol(c))


def test_a_killed_mixed_grid_resumes_and_hands_a_member_to_the_per_run_trainer(tmp_path):
    cfgs = [preset("gu2025_task1", "smoke", pe=pe, epochs=2, ablate=False)
            for pe in ("rope+sinusoidal", "relative", "random:trainable=true", "alibi:slopes=gu2025")]
    full = train_grid(cfgs, [tmp_path / "full" / str(i) for i in range(len(cfgs))])
    dirs = [tmp_path / "cut" / str(i) for i in range(len(cfgs))]

    class Kill(Exception):
        pass

    def kill(ev):
        if ev["epoch"] == 1:
            raise Kill

    with pytest.raises(Kill):
        train_grid(cfgs, dirs, checkpoint_seconds=0.0, progress=kill)
    shutil.copytree(dirs[2], tmp_path / "alone")
    resumed = train_grid(cfgs, dirs)
    for a, b in zip(resumed, full):
        assert without_timing(a) == without_timing(b)
    alone = train(cfgs[2], tmp_path / "alone")  # the trainable table's member resumes alone from the grid's checkpoint
    assert [h["epoch"] for h in alone["history"]] == [1, 2]
    _assert_same_run(alone, train(cfgs[2]), _tol(cfgs[2]))


def test_lm_grid_equals_the_per_run_loop_without_trimming_padding():
    cfgs = [preset("parity", "smoke", pe=pe, epochs=2, ablate=False) for pe in ("nope", "rope", "alibi")]
    for c, r in zip(cfgs, train_grid(cfgs)):
        _assert_same_run(r, train(c), _tol(c))


def test_a_killed_grid_resumes_to_the_same_records(tmp_path):
    cfgs = [dataclasses.replace(_small_sum(pe), epochs=3) for pe in ("alibi", "learned:n_max=50,beyond=clamp")]
    full = train_grid(cfgs, [tmp_path / "full" / str(i) for i in range(2)])
    dirs = [tmp_path / "cut" / str(i) for i in range(2)]

    class Kill(Exception):
        pass

    def kill(ev):
        if ev["epoch"] == 2:
            raise Kill

    with pytest.raises(Kill):
        train_grid(cfgs, dirs, checkpoint_seconds=0.0, progress=kill)
    assert all((d / "checkpoint.pt").is_file() and not (d / "record.json").exists() for d in dirs)
    resumed = train_grid(cfgs, dirs)
    for a, b in zip(resumed, full):
        assert without_timing(a) == without_timing(b)
    assert train_grid(cfgs, dirs)[0] == resumed[0]  # finished: read back, not retrained


def test_a_grid_members_checkpoint_resumes_alone_in_the_per_run_trainer(tmp_path):
    cfgs = [dataclasses.replace(_small_sum(pe), epochs=3) for pe in ("rope", "wavelet")]

    class Kill(Exception):
        pass

    def kill(ev):
        if ev["epoch"] == 1:
            raise Kill

    dirs = [tmp_path / str(i) for i in range(2)]
    with pytest.raises(Kill):
        train_grid(cfgs, dirs, checkpoint_seconds=0.0, progress=kill)
    alone = train(cfgs[1], dirs[1])  # resumes from the grid's epoch-1 checkpoint
    assert [h["epoch"] for h in alone["history"]] == [1, 2, 3]
    _assert_same_run(alone, train(cfgs[1]), _tol(cfgs[1]))


def test_grid_refuses_runs_that_cannot_share_a_step():
    a = _small_sum("alibi")
    with pytest.raises(ValueError, match="share task, schedule"):
        train_grid([a, dataclasses.replace(a, lr=0.5)])
    with pytest.raises(ValueError, match="same config twice"):
        train_grid([a, a])
    with pytest.raises(ValueError, match="CUDA graphs need a CUDA device"):
        train_grid([a], graphs=True)
    with pytest.raises(ValueError, match="one out_dir per config"):
        train_grid([a], [])
    assert shared_key(a) == shared_key(_small_sum("rope", 3)) != shared_key(dataclasses.replace(a, epochs=3))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (run on the device machine)")
def test_cuda_graph_step_equals_the_eager_step_on_the_gpu():
    cfgs = [dataclasses.replace(_small_sum(pe, s), device="cuda", amp=False)
            for pe in ("alibi", "rope", "learned:n_max=50,beyond=clamp", "sinusoidal") for s in (0, 1)]
    graphed = train_grid(cfgs, graphs=True)
    eager = train_grid(cfgs, graphs=False)
    for g, e in zip(graphed, eager):
        assert g["timing"]["cuda_graphs"] and not e["timing"]["cuda_graphs"]
        # same kernels, same order: only the captured AdamW's float32 bias correction differs
        _assert_same_run(g, e, _tol(cfgs[0]))
