"""The configuration of one training run: :class:`TrainConfig` (a plain dataclass, nanoGPT style).

Its own module so that :mod:`petheory.nn.presets` (which builds configs) and
:mod:`petheory.nn.training` (which runs them and names the preset in each record) both import it
without importing each other.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import asdict, dataclass, field

from petheory.errors import ValidationError
from petheory.nn import tasks as _tasks
from petheory.nn.transformer import ModelConfig


@dataclass
class TrainConfig:
    """Everything that defines a run. ``model`` fields left at 0/None are filled from the task
    (vocabulary, outputs, head, lengths, causality).

    Attributes
    ----------
    task : TaskConfig
        The task, its data seed and parameters.
    model : ModelConfig
        The model's shape (fields left at 0/None are filled from the task).
    epochs : int
        Passes over the training split.
    batch_size : int
        Training batch size.
    lr : float
        Peak learning rate of AdamW.
    betas : (float, float)
        AdamW's betas.
    weight_decay : float
        AdamW's weight decay.
    warmup : float
        Linear warm-up, as a fraction of all steps.
    schedule : str
        ``'cosine'`` (decay to 0 after the warm-up) or ``'constant'``.
    grad_clip : float or None
        Gradient-norm clipping (None: none).
    seed : int
        Seed of the initialisation and of the batch order.
    device : str
        ``'cpu'``, ``'cuda'``, ...
    amp : bool
        bf16 autocast of the forward pass on CUDA.
    eval_batch_size : int
        Batch size of evaluation.
    ablate : bool
        Whether to run the head ablation after training.
    ablation_split : str
        ``'test'`` or ``'train+test'``: where the ablation is measured.
    """

    task: _tasks.TaskConfig = field(default_factory=_tasks.TaskConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    epochs: int = 10
    batch_size: int = 64
    lr: float = 1e-3
    betas: tuple = (0.9, 0.999)
    weight_decay: float = 0.0
    warmup: float = 0.06
    schedule: str = "cosine"
    grad_clip: float | None = None
    seed: int = 0
    device: str = "cpu"
    amp: bool = True
    eval_batch_size: int = 256
    ablate: bool = True
    ablation_split: str = "test"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["model"] = self.model.as_dict()
        d["betas"] = list(self.betas)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "TrainConfig":
        d = copy.deepcopy(dict(d))
        unknown = sorted(set(d) - {f for f in cls.__dataclass_fields__})
        if unknown:
            raise ValidationError(f"unknown TrainConfig field(s): {', '.join(unknown)}")
        task, model = d.pop("task", {}), d.pop("model", {})
        task = task if isinstance(task, _tasks.TaskConfig) else _tasks.TaskConfig(**task)
        model = model if isinstance(model, ModelConfig) else ModelConfig(**model)
        if "betas" in d:
            d["betas"] = tuple(d["betas"])
        return cls(task=task, model=model, **d)

    def hash(self) -> str:
        """Stable hash of the config (the identity of a run in sweeps and checkpoints)."""
        blob = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def validate(self) -> "TrainConfig":
        for k in ("epochs", "batch_size", "eval_batch_size"):
            if not isinstance(getattr(self, k), int) or getattr(self, k) < 1:
                raise ValidationError(f"{k} must be a positive integer, got {getattr(self, k)!r}")
        if not (isinstance(self.lr, (int, float)) and self.lr > 0):
            raise ValidationError(f"lr must be > 0, got {self.lr!r}")
        if not 0.0 <= self.warmup < 1.0:
            raise ValidationError(f"warmup is a fraction of all steps in [0, 1), got {self.warmup}")
        if self.schedule not in ("cosine", "constant"):
            raise ValidationError(f"schedule must be 'cosine' or 'constant', got {self.schedule!r}")
        if self.ablation_split not in ("test", "train+test"):
            raise ValidationError(f"ablation_split must be 'test' or 'train+test', got {self.ablation_split!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValidationError(f"seed must be a non-negative integer, got {self.seed!r}")
        _tasks.resolve_params(self.task.name, self.task.params)
        return self
