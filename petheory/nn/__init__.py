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
    Tasks: running_sum, gu2025_task1, gu2025_task2, parity, copy, reverse, addition, passkey, mqar
    (retrieval: :mod:`petheory.nn.retrieval`; context extension of a trained RoPE model:
    :mod:`petheory.nn.context_extension`).
Training (:mod:`petheory.nn.config`, :mod:`petheory.nn.train`, :mod:`petheory.nn.presets`)
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

import importlib
import sys
import types

#: public name -> the module of petheory.nn that defines it. The package loads lazily (PEP 562): importing
#: ``petheory.nn`` or a torch-free module of it (:mod:`petheory.nn.provenance`, the record readers
#: :mod:`petheory.nn.chen2025_runs` and :mod:`petheory.nn.retrieval_runs`) does not import torch, so the claim
#: catalogue and the figures read training records without it; a name below imports its module on first use.
_EXPORTS = {
    "ModelConfig": "models", "Transformer": "models", "build_model": "models",
    "PEConfig": "position", "parse_pe": "position", "pe_names": "position",
    "SIZES": "presets", "preset": "presets",
    "TaskConfig": "tasks", "TaskData": "tasks",
    "TrainConfig": "config",
    "evaluate": "train", "head_ablation": "train", "load_model": "train", "resolve_device": "train", "train": "train",
    "train_ensemble": "ensemble",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"petheory.nn.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'petheory.nn' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """``petheory.nn.train`` is the function :func:`petheory.nn.train.train`, as the eager package had it, although
    importing the submodule of the same name sets the package's attribute to the module (the import system's
    ``setattr(parent, child, module)``, which this setter ignores; the module stays ``sys.modules['petheory.nn.train']``
    and ``from petheory.nn.train import ...`` reads it there)."""

    @property
    def train(self):
        return importlib.import_module("petheory.nn.train").train

    @train.setter
    def train(self, value):
        pass


sys.modules[__name__].__class__ = _Package