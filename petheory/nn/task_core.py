r"""The task registry without torch: token ids, :class:`TaskConfig`, :class:`Split`, and :data:`TASKS` with the
lookups that validate a task's parameters (:func:`resolve_params`).

:mod:`petheory.nn.tasks` registers the papers' tasks here and :mod:`petheory.nn.retrieval` the retrieval tasks;
both import this module, so neither imports the other's registry through a cycle, and reading a task's defaults
(presets, records, the claim catalogue) needs no torch. The task descriptions are in :mod:`petheory.nn.tasks`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from petheory.errors import ValidationError

if TYPE_CHECKING:
    import torch

PAD, BOS, SEP, EOS, PLUS, SYM = 0, 1, 2, 3, 4, 5


@dataclass
class TaskConfig:
    """A task by name, its data seed, and parameter overrides (see the module docstring).

    Attributes
    ----------
    name : str
        The task's registered name.
    seed : int
        Seed of the task's data.
    params : dict
        Overrides of the task's parameters.
    """

    name: str = "running_sum"
    seed: int = 0
    params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Split:
    """One split: inputs ``x`` (N, T) tokens or (N, T, F) floats, targets ``y`` (N, T) or (N,),
    and for LM tasks a loss ``mask`` (N, T) that is 1 on answer tokens.

    Attributes
    ----------
    x : torch.Tensor
        Inputs: (N, T) tokens or (N, T, F) floats.
    y : torch.Tensor
        Targets: (N, T) or (N,).
    mask : torch.Tensor or None
        LM tasks: (N, T), 1 on the answer tokens the loss counts.
    """

    x: torch.Tensor
    y: torch.Tensor
    mask: torch.Tensor | None = None

    def __len__(self) -> int:
        return self.x.shape[0]

    def batch(self, idx) -> "Split":
        return Split(self.x[idx], self.y[idx], None if self.mask is None else self.mask[idx])


#: name -> (generator, default params), filled by :mod:`petheory.nn.tasks` and :mod:`petheory.nn.retrieval`.
TASKS: dict = {}


def choice(name, value, choices):
    """Refuse ``value`` unless it is one of ``choices`` (``name`` says which setting).

    Parameters
    ----------
    name : str
        The setting.
    value : object
        Its value.
    choices : collection
        What it may be.

    Raises
    ------
    petheory.errors.ValidationError
        ``value`` is not one of them.

    Examples
    --------
    >>> choice("dist", "uniform", ("uniform", "normal"))
    >>> choice("dist", "cauchy", ("uniform", "normal"))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: dist must be one of 'uniform', 'normal'; got 'cauchy'
    """
    if value not in choices:
        raise ValidationError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")


def available() -> list[str]:
    """The registered tasks' names, sorted.

    Returns
    -------
    list of str
        The names.

    Examples
    --------
    >>> import petheory.nn.tasks  # registers the tasks
    >>> {"running_sum", "parity", "passkey"} <= set(available())
    True
    """
    return sorted(TASKS)


def describe(name: str) -> dict:
    """Default parameters of task ``name``.

    Parameters
    ----------
    name : str
        A registered task.

    Returns
    -------
    dict
        Parameter -> default.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown task.

    Examples
    --------
    >>> import petheory.nn.tasks  # registers the tasks
    >>> describe("running_sum")["train_len"]
    50
    """
    choice("task", name, available())
    return dict(TASKS[name][1])


def resolve_params(name: str, params: dict | None = None) -> dict:
    """Defaults of ``name`` updated with ``params``, checked.

    Parameters
    ----------
    name : str
        A registered task.
    params : dict, optional
        Overrides.

    Returns
    -------
    dict
        The parameters.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown key (with "did you mean"), or a size out of range.

    Examples
    --------
    >>> import petheory.nn.tasks  # registers the tasks
    >>> resolve_params("running_sum", {"n_train": 8})["n_train"]
    8
    >>> resolve_params("running_sum", {"n_trian": 8})
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: task 'running_sum' has no parameter n_trian (did you mean n_train?); ...
    """
    defaults = describe(name)
    params = dict(params or {})
    bad = sorted(set(params) - set(defaults))
    if bad:
        import difflib

        close = [m for b in bad for m in difflib.get_close_matches(b, list(defaults), n=1)]
        raise ValidationError(f"task {name!r} has no parameter {', '.join(bad)}"
                              + (f" (did you mean {', '.join(close)}?)" if close else "")
                              + f"; it takes {', '.join(sorted(defaults))}")
    p = {**defaults, **params}
    if "test_lens" in p:
        p["test_lens"] = tuple(int(L) for L in p["test_lens"])
        if not p["test_lens"] or min(p["test_lens"]) < 1:
            raise ValidationError(f"test_lens must be positive lengths, got {p['test_lens']}")
    for k in ("n_train", "n_test", "n_samples", "train_len", "min_len", "max_len", "vocab_size", "max_between",
              "max_side", "cut", "length", "max_count", "n_triggers", "alphabet", "key_len", "filler", "n_pairs",
              "n_keys", "n_values"):
        if k in p and (not isinstance(p[k], (int, np.integer)) or isinstance(p[k], bool) or p[k] < 1):
            raise ValidationError(f"task parameter {k} must be a positive integer, got {p[k]!r}")
    if "test_fraction" in p and not 0.0 < p["test_fraction"] < 1.0:
        raise ValidationError(f"test_fraction must be in (0, 1), got {p['test_fraction']}")
    if name in ("gu2025_task1", "gu2025_task2") and p["vocab_size"] - 1 < max(p.get("max_between", 0), p.get("n_triggers", 0) + 1):
        raise ValidationError(f"vocab_size={p['vocab_size']} is too small for the segments/triggers requested")
    return p
