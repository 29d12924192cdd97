r"""Small Transformers with a pluggable position mechanism, the papers' tasks, and training (torch).

Public API (stable; other modules and the bounds/plots code build on it):

Models (:mod:`petheory.nn.models`, :mod:`petheory.nn.position`)
    ``ModelConfig`` (dataclass), ``build_model(cfg) -> Transformer``; ``Transformer.forward``,
    ``.attention_probs(x) -> [(B, H, T, T)] per layer``, ``.ablated({(layer, head), ...})``
    (context manager). ``parse_pe(spec) -> PEConfig``, ``pe_names()``: every registry
    encoding plus ``'mla'``; spec syntax ``name[:k=v,...][+absolute]`` (``'rope+sinusoidal'``,
    ``'alibi:slopes=gu2025'``, ``'rope:heads=4'``).
Tasks (:mod:`petheory.nn.tasks`)
    ``TaskConfig(name, seed, params)``, ``load(cfg) -> TaskData`` (``.train``, ``.test[length]``
    splits of tensors), ``available()``, ``describe(name)`` (default parameters).
    Tasks: running_sum, gu2025_task1, gu2025_task2, parity, copy, reverse, addition.
Training (:mod:`petheory.nn.train`, :mod:`petheory.nn.presets`)
    ``TrainConfig`` (dataclass; ``.as_dict()``, ``.from_dict()``, ``.hash()``),
    ``preset(task, 'smoke'|'small'|'paper', pe=, seed=, device=, **overrides) -> TrainConfig``,
    ``train(cfg, out_dir=None) -> record`` (dict; checkpoints + resume when ``out_dir`` is
    given), ``evaluate(model, split, kind)``, ``head_ablation(model, split, kind)``,
    ``load_model(out_dir) -> (model, cfg)``, ``resolve_device(name)``.
Seed ensembles (:mod:`petheory.nn.ensemble`)
    ``train_ensemble(cfg, seeds) -> [record]``: same-shaped models trained at once with
    ``torch.func`` (``vmap`` over stacked parameters); numerically the per-seed runs.

Records are plain JSON-able dicts; the layout is in :mod:`petheory.nn.train`.
"""

from petheory.nn.models import ModelConfig, Transformer, build_model
from petheory.nn.position import PEConfig, parse_pe, pe_names
from petheory.nn.presets import SIZES, preset
from petheory.nn.tasks import TaskConfig, TaskData
from petheory.nn.config import TrainConfig
from petheory.nn.train import evaluate, head_ablation, load_model, resolve_device, train

__all__ = [
    "ModelConfig", "Transformer", "build_model", "PEConfig", "parse_pe", "pe_names", "SIZES", "preset",
    "TaskConfig", "TaskData", "TrainConfig", "evaluate", "head_ablation", "load_model", "resolve_device", "train",
    "train_ensemble",
]


def train_ensemble(*args, **kwargs):
    """See :func:`petheory.nn.ensemble.train_ensemble`."""
    from petheory.nn.ensemble import train_ensemble as _te

    return _te(*args, **kwargs)
