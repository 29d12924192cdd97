r"""Seed ensembles: S runs that differ only in seed, trained at once.

``train_ensemble(config, seeds, out_dirs=None) -> [record]`` gives, member by member, the
records of ``train(replace(config, seed=s), out_dir)``: same initialisation, same batch order,
same AdamW and schedule, but one ``vmap``-ed forward/backward per step (and on CUDA one graph
replay) instead of a Python loop over seeds. It is :func:`petheory.experiments.grid.train_grid` with one
model config; see that module for the numerics, checkpoints and records.
"""

from __future__ import annotations

import dataclasses

from petheory.experiments.grid import train_grid
from petheory.nn.config import TrainConfig
from petheory.errors import ValidationError


def train_ensemble(config: TrainConfig | dict, seeds, out_dirs=None, *, progress=None, graphs="auto") -> list[dict]:
    """Train one model per seed at once; returns their records in ``seeds`` order.

    Parameters
    ----------
    config : TrainConfig or dict
        The run's config (its seed is replaced by each of ``seeds``).
    seeds : iterable of int
        Distinct seeds.
    out_dirs : list of paths, optional
        One directory per seed (or None). Runs already finished there are read back.
    progress : callable, optional
        As :func:`~petheory.experiments.grid.train_grid`.
    graphs : 'auto', True or False, optional
        CUDA graph capture.

    Returns
    -------
    list of dict
        The records.

    Raises
    ------
    petheory.errors.ValidationError
        Seeds that are empty or not distinct, or one out_dir per seed missing.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> [r["seed"] for r in train_ensemble(configs[0], [0, 1])]
    [0, 1]
    """
    config = (config if isinstance(config, TrainConfig) else TrainConfig.from_dict(config)).validate()
    seeds = [int(s) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValidationError(f"seeds must be a non-empty list of distinct integers, got {seeds}")
    if out_dirs is not None and len(list(out_dirs)) != len(seeds):
        raise ValidationError(f"need one out_dir per seed: {len(seeds)} seeds, {len(list(out_dirs))} dirs")
    cfgs = [dataclasses.replace(config, seed=s) for s in seeds]
    return train_grid(cfgs, out_dirs, progress=progress, graphs=graphs, checkpoint_seconds=0.0)
