r"""Small Transformers with a pluggable position mechanism, the papers' tasks, and training (torch).

Public API (stable; other modules and the bounds/plots code build on it):

Models (:mod:`petheory.nn.transformer`, :mod:`petheory.nn.position`)
    ``ModelConfig`` (dataclass), ``build_model(cfg) -> Transformer``; ``Transformer.forward``,
    ``.attention_probs(x) -> [(B, H, T, T)] per layer``, ``.ablated({(layer, head), ...})``
    (context manager). ``parse_pe(spec) -> PESpec`` (canonical), ``pe_names()``: every registry
    encoding plus ``'mla'``; spec syntax ``name[:k=v,...][+absolute]`` (``'rope+sinusoidal'``,
    ``'alibi:slopes=gu2025'``, ``'rope:heads=4'``).
Tasks (:mod:`petheory.nn.tasks`)
    ``TaskConfig(name, seed, params)``, ``load(cfg) -> TaskData`` (``.train``, ``.test[length]``
    splits of tensors), ``available()``, ``describe(name)`` (default parameters).
    Tasks: running_sum, gu2025_task1, gu2025_task2, parity, copy, reverse, addition, passkey, mqar
    (retrieval: :mod:`petheory.nn.retrieval`).
Training (:mod:`~petheory.nn.config`, :mod:`~petheory.nn.training`, :mod:`~petheory.nn.evaluation`, :mod:`~petheory.nn.ablation`, :mod:`~petheory.nn.presets`)
    ``TrainConfig`` (dataclass; ``.as_dict()``, ``.from_dict()``, ``.hash()``),
    ``preset(task, 'smoke'|'small'|'paper', pe=, seed=, device=, **overrides) -> TrainConfig``,
    ``train(cfg, out_dir=None) -> record`` (dict; checkpoints + resume when ``out_dir`` is
    given), ``evaluate(model, split, kind)``, ``head_ablation(model, split, kind)``,
    ``load_model(out_dir) -> (model, cfg)``, ``resolve_device(name)``.

Many runs at once (grids, seed ensembles, sweeps), the paper experiments and context extension are
:mod:`petheory.experiments`, which builds on this package (never the other way round).

Records are plain JSON-able dicts; the layout is in :mod:`petheory.nn.training`.
"""

import importlib

#: public name -> the module of petheory.nn that defines it. The package loads lazily (PEP 562): importing
#: ``petheory.nn`` or a torch-free module of it (:mod:`petheory.nn.provenance`, :mod:`petheory.nn.task_core`) does
#: not import torch, so the claim catalogue and the figures read training records without it. A name below is
#: looked up in its module on each access (``sys.modules`` keeps the module once imported); nothing is bound in
#: this namespace, so a submodule and a public name never compete for one attribute (the loop is
#: :mod:`petheory.nn.training`, its function :func:`~petheory.nn.training.train`).
_EXPORTS = {
    "ModelConfig": "transformer", "Transformer": "transformer", "build_model": "transformer",
    "model_spec": "position", "parse_pe": "position", "pe_names": "position",
    "SIZES": "presets", "preset": "presets",
    "TaskConfig": "tasks", "TaskData": "tasks",
    "TrainConfig": "config",
    "evaluate": "evaluation", "head_ablation": "ablation",
    "load_model": "training", "resolve_device": "training", "train": "training",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"petheory.nn.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'petheory.nn' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
