r"""The training loop: one run with checkpoints and resume, ending in its JSON record.

::

    from petheory.nn import preset, train
    cfg = preset("running_sum", "smoke", pe="alibi", seed=0)     # a TrainConfig
    rec = train(cfg, out_dir="runs/rs-alibi")                     # -> dict (also runs/rs-alibi/record.json)
    rec["final"]["test"]["200"]["mse"], rec["history"][-1]["train_loss"]

``train`` is deterministic in ``config`` on a given device: the task data come from
``config.task.seed``, the model initialisation, batch order and dropout from ``config.seed``.
Optimiser: AdamW, linear warm-up over ``warmup`` (a fraction of all steps) then cosine decay
to zero (``schedule='cosine'``). On CUDA the forward pass runs under bf16 autocast
(``amp=True``); weights and optimiser state stay float32.

Checkpoints: after every epoch ``out_dir/checkpoint.pt`` is replaced atomically (temp file +
``os.replace``) with the model, optimiser, scheduler, the torch RNG states (global, CUDA,
batch-order generator), the epoch and the history so far. A rerun with the same config and
``out_dir`` resumes from it, so a run killed at any moment loses at most the epoch in progress
and ends with the same records as an uninterrupted run (timings aside, which live under
``record["timing"]``). A finished run (``record.json`` with the same config hash) is returned
without training. Checkpoints load with ``torch.load(weights_only=True)``: no pickled code.

The record (a JSON object)::

    {"petheory", "config", "config_hash", "task", "pe", "seed", "kind", "n_params",
     "initial": {"train": metrics},                    # before the first step
     "history": [{"epoch", "train_loss", "lr", "test": metrics at train_len}, ...],
     "final": {"train": metrics, "test": {"<length>": metrics, ...}},
     "ablation": {"metric", "split", "baseline", "heads": [{"layer", "head", "value", "drop"}, ...]},
     "chance": {...}, "timing": {"seconds", "tokens", "tokens_per_s", "device"}}

Metrics per task kind: regression ``mse``; classification ``loss``, ``acc``; LM ``loss``,
``token_acc``, ``seq_acc`` (:mod:`petheory.nn.evaluation`); the ablation block is
:mod:`petheory.nn.ablation`'s.
"""

from __future__ import annotations

import json
import math
import time
import warnings
from dataclasses import replace
from pathlib import Path

import torch

from petheory.io import atomic_write, atomic_write_json, read_json
from petheory.nn import tasks as _tasks
from petheory.nn.ablation import ablate_heads, ablation_parts
from petheory.nn.config import TrainConfig
from petheory.nn.evaluation import evaluate, test_split, train_batch, train_step
from petheory.nn.transformer import ModelConfig, Transformer, build_model, model_parameters, require_eval_memory
from petheory.nn.presets import identify
from petheory.errors import ValidationError, ValidationTypeError

CHECKPOINT, RECORD, CONFIG = "checkpoint.pt", "record.json", "config.json"
_FORMAT = "petheory-checkpoint-1"


def resolve_device(name: str) -> torch.device:
    """A device name as torch's device, checked to exist on this machine.

    Parameters
    ----------
    name : str
        ``'cpu'``, ``'cuda'``, ``'cuda:N'``, ``'mps'`` or ``'auto'`` (CUDA when available, else the CPU).

    Returns
    -------
    torch.device
        The device.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown or absent device.
    petheory.errors.ValidationTypeError
        Not a string.

    Examples
    --------
    >>> resolve_device("cpu")
    device(type='cpu')
    """
    if not isinstance(name, str):
        raise ValidationTypeError(f"device must be a string such as 'cpu' or 'cuda', got {name!r}")
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(name)
    except RuntimeError:
        raise ValidationError(f"unknown device {name!r}; use cpu, cuda, cuda:N, mps or auto") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValidationError(f"device {name!r} requested but CUDA is not available on this machine (torch {torch.__version__})")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValidationError(f"device {name!r} requested but only {torch.cuda.device_count()} CUDA device(s) exist")
    elif dev.type == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise ValidationError(f"device {name!r} requested but MPS is not available on this machine")
    elif dev.type not in ("cpu", "cuda", "mps"):
        raise ValidationError(f"unsupported device {name!r}; use cpu, cuda, cuda:N, mps or auto")
    return dev


def complete_model_config(cfg: ModelConfig, data: _tasks.TaskData) -> ModelConfig:
    """The model config with the task's vocabulary, output size, head and lengths filled in.

    Parameters
    ----------
    cfg : ModelConfig
        The run's model config (fields left at 0/None are filled).
    data : TaskData
        The task's data.

    Returns
    -------
    ModelConfig
        The completed config (an LM task makes the model causal).

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 16, "task.n_test": 4, "ablate": False})
    >>> from petheory.nn import tasks
    >>> m = complete_model_config(config.model, tasks.load(config.task))
    >>> m.head, m.input_dim, m.max_len
    ('regression', 1, 200)
    """
    head = {"regression": "regression", "classification": "classifier", "lm": "lm"}[data.kind]
    return replace(cfg, head=head, vocab_size=data.vocab_size, input_dim=data.input_dim, out_dim=data.n_outputs,
                   max_len=max(cfg.max_len, data.max_len) if cfg.max_len else data.max_len,
                   train_len=cfg.train_len or data.train_seq_len, causal=True if data.kind == "lm" else cfg.causal)


def lr_lambda(step: int, total: int, warmup: float, schedule: str) -> float:
    """Multiplier of the base learning rate: linear warm-up, then cosine to 0 (or constant).

    Parameters
    ----------
    step : int
        The step (0-based).
    total : int
        Steps of the run.
    warmup : float
        Warm-up, as a fraction of ``total``.
    schedule : {'cosine', 'constant'}
        After the warm-up.

    Returns
    -------
    float
        The multiplier.

    Examples
    --------
    >>> [lr_lambda(s, 100, 0.1, "cosine") for s in (0, 10, 100)], lr_lambda(50, 100, 0.1, "constant")
    ([0.1, 1.0, 0.0], 1.0)
    """
    w = int(round(warmup * total))
    if step < w:
        return (step + 1) / w
    if schedule == "constant":
        return 1.0
    return 0.5 * (1.0 + math.cos(math.pi * min(1.0, (step - w) / max(1, total - w))))


class _Schedule:
    """Picklable-free LR multiplier (LambdaLR keeps only its state, not this object)."""

    def __init__(self, total, warmup, schedule):
        self.total, self.warmup, self.schedule = total, warmup, schedule

    def __call__(self, step):
        return lr_lambda(step, self.total, self.warmup, self.schedule)


def schedule(opt, total_steps: int, config: "TrainConfig"):
    """The run's learning-rate schedule on ``opt`` (LambdaLR over :func:`lr_lambda`).

    Parameters
    ----------
    opt : torch.optim.Optimizer
        The optimiser.
    total_steps : int
        Steps of the run.
    config : TrainConfig
        Its ``warmup`` and ``schedule``.

    Returns
    -------
    torch.optim.lr_scheduler.LambdaLR
        The scheduler.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 16, "task.n_test": 4, "ablate": False})
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> s = schedule(opt, 100, config)
    >>> round(opt.param_groups[0]["lr"], 6)  # warm-up: step 0 of 6
    0.166667
    """
    return torch.optim.lr_scheduler.LambdaLR(opt, _Schedule(total_steps, config.warmup, config.schedule))


def checkpoint_state(config_hash, epoch, model, mcfg, optimizer: dict, scheduler: dict, rng: dict, history, initial,
                     tokens, seconds) -> dict:
    """What ``checkpoint.pt`` holds after ``epoch`` epochs (one layout for every trainer).

    Parameters
    ----------
    config_hash : str
        The run's config hash.
    epoch : int
        Epochs done.
    model : Transformer
        The model (its state dict is stored).
    mcfg : ModelConfig
        Its completed config.
    optimizer, scheduler, rng : dict
        The optimiser's and scheduler's state dicts and the RNG states.
    history : list of dict
        Per-epoch metrics so far.
    initial : dict
        Metrics before training.
    tokens : int
        Tokens seen.
    seconds : float
        Training time so far.

    Returns
    -------
    dict
        The checkpoint.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 16, "task.n_test": 4, "ablate": False})
    >>> device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    >>> state = checkpoint_state("ab12", 1, model, mcfg, opt.state_dict(), sched.state_dict(), {}, [], {}, 0, 0.0)
    >>> state["epoch"], state["model_config"]["head"]
    (1, 'regression')
    """
    return {"format": _FORMAT, "config_hash": config_hash, "epoch": epoch, "model": model.state_dict(),
            "model_config": mcfg.as_dict(), "optimizer": optimizer, "scheduler": scheduler, "rng": rng,
            "history": history, "initial": initial, "tokens": tokens, "seconds": seconds}


def make_record(config: "TrainConfig", chash: str, data, mcfg, model, initial, history, final, ablation, timing: dict,
                device, probe=None) -> dict:
    """The JSON record of a finished run (see the module docstring); one builder for every trainer.

    Parameters
    ----------
    config : TrainConfig
        The run's config.
    chash : str
        Its hash.
    data : TaskData
        The task's data.
    mcfg : ModelConfig
        The completed model config.
    model : Transformer
        The trained model.
    initial : dict
        Metrics before training.
    history : list of dict
        Per-epoch metrics.
    final : dict
        Final metrics: ``train`` and ``test`` per length.
    ablation : dict or None
        The head ablation.
    timing : dict
        Wall-clock fields.
    device : torch.device
        Where it trained.
    probe : dict, optional
        The position probe.

    Returns
    -------
    dict
        The record, JSON-serialisable.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"task.n_train": 16, "task.n_test": 4})
    >>> device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    >>> rec = make_record(config, config.hash(), data, mcfg, model, {}, [], {"train": {}, "test": {}}, None, {}, device)
    >>> rec["task"], rec["kind"], rec["preset"]
    ('running_sum', 'regression', 'custom')
    """
    from petheory import __version__
    from petheory.records import source_hash

    return _jsonable({
        "petheory": __version__, "commit": _commit(), "source": source_hash(), "preset": identify(config), "config": config.as_dict(),
        "config_hash": chash, "task": config.task.name, "pe": str(config.model.pe), "seed": config.seed,
        "kind": data.kind, "model": mcfg.as_dict(), "n_params": model.n_params(), "train_len": data.train_len,
        "initial": initial, "history": history, "final": final, "ablation": ablation, "chance": data.chance,
        "probe": probe, "timing": {**timing, "device": _device_name(device), "threads": torch.get_num_threads()},
    })


def record_view(rec: dict) -> list:
    """A run's record (:func:`make_record`) as a terminal shows it: what was trained, its metrics at the start and the
    end of training and at each test length, the head ablation's largest drop, chance level.

    Parameters
    ----------
    rec : dict
        A training record.

    Returns
    -------
    list of petheory.texttable.Line and petheory.texttable.TextTable

    Examples
    --------
    >>> rec = {"task": "copy", "pe": "rope", "seed": 0, "n_params": 2736, "kind": "lm", "train_len": 8,
    ...        "timing": {"seconds": 2.5, "device": "cpu"}, "initial": {"train": {"token_acc": 0.1}},
    ...        "final": {"train": {"token_acc": 1.0}, "test": {"8": {"token_acc": 1.0}, "16": {"token_acc": 0.3}}}}
    >>> head, table = record_view(rec)
    >>> head.text
    'copy · pe=rope · seed 0 · 2736 params · 2.5s on cpu'
    >>> table.rows
    (('train (init)', '0.1'), ('train', '1'), ('test @ 8 (train len)', '1'), ('test @ 16', '0.3'))
    """
    from petheory.nn.ablation import PRIMARY
    from petheory.texttable import Line, TextTable

    first, last = rec["initial"]["train"], rec["final"]["train"]
    cols = list(last)
    rows = [("train (init)", *(f"{first[c]:.4g}" for c in cols)), ("train", *(f"{last[c]:.4g}" for c in cols))]
    rows += [(f"test @ {L}" + (" (train len)" if str(rec["train_len"]) == L else ""), *(f"{m[c]:.4g}" for c in cols))
             for L, m in rec["final"]["test"].items()]
    out = [Line(f"{rec['task']} · pe={rec['pe']} · seed {rec['seed']} · {rec['n_params']} params · "
                f"{rec['timing']['seconds']:.1f}s on {rec['timing']['device']}"),
           TextTable("", ("split", *cols), tuple(rows), right=frozenset(range(1, len(cols) + 1)), bold_first=False,
                     fold=False)]
    if rec.get("ablation"):
        ab = rec["ablation"]
        worst = max(ab["heads"], key=lambda h: h["drop"])
        out.append(Line(f"head ablation ({ab['split']}, {PRIMARY[rec['kind']]}): baseline {ab['baseline']:.4g}; largest "
                        f"drop {worst['drop']:.4g} at layer {worst['layer']} head {worst['head']}"))
    if rec.get("chance"):
        out.append(Line(f"chance: {json.dumps(rec['chance'])}"))
    return out


def probe(model, data) -> dict | None:
    """The record's position probe: :func:`petheory.nn.probes.position_probe` on the test split at the training length.

    Parameters
    ----------
    model : Transformer
        The trained model.
    data : TaskData
        The task's data.

    Returns
    -------
    dict or None
        The probe; None for LM tasks, whose sequences have no common length.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 16, "task.n_test": 4, "ablate": False})
    >>> device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    >>> probe(model, data)["positions"]
    50
    """
    if data.kind == "lm":
        return None
    from petheory.nn.probes import position_probe

    return position_probe(model, test_split(data))


def _commit() -> str | None:
    """``$PETHEORY_COMMIT`` when set (whoever copied the tree onto another machine names its commit: a GPU machine's
    copy can carry a stale .git, whose HEAD named the session's first commit on issue 44's first slices), else the
    git commit of the petheory source tree when it is a checkout, else None."""
    import subprocess

    from petheory.loaders.environment import env_commit

    root = Path(__file__).resolve().parents[2]
    named = env_commit()  # validated: a commit id, never raw text into a record
    if named or not (root / ".git").exists():
        return named
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


# --------------------------------------------------------------------------- checkpoints


def save_checkpoint(path, state: dict) -> Path:
    """``torch.save`` through :func:`petheory.io.atomic_write` (temp file beside ``path``, fsync, rename): never a
    half-written checkpoint.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    state : dict
        What to save (:func:`checkpoint_state`).

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = save_checkpoint(pathlib.Path(tmp) / "checkpoint.pt", {"format": "x"})
    ...     print(p.name, p.stat().st_size > 0)
    checkpoint.pt True
    """
    return atomic_write(path, lambda fh: torch.save(state, fh))


def load_checkpoint(path) -> dict:
    """Load a checkpoint safely (``weights_only=True``: nothing is unpickled but tensors and plain data).

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict
        The checkpoint.

    Raises
    ------
    FileNotFoundError
        No such file.
    petheory.errors.ValidationError
        Corrupt, or not a petheory checkpoint.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     load_checkpoint(save_checkpoint(pathlib.Path(tmp) / "c.pt", {"format": "x"}))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: checkpoint ...c.pt is not a petheory checkpoint (format ... expected)
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {path}")
    try:
        with warnings.catch_warnings():  # the refusal below is the one line; torch's own warnings are not shown
            warnings.simplefilter("ignore")
            state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # truncated zip, wrong magic, disallowed global, ...
        msg = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise ValidationError(f"checkpoint {path} is corrupt or not a petheory checkpoint ({msg})") from None
    if not isinstance(state, dict) or state.get("format") != _FORMAT:
        raise ValidationError(f"checkpoint {path} is not a petheory checkpoint (format {_FORMAT!r} expected)")
    return state


def load_model(out_dir, *, device: str = "cpu") -> tuple[Transformer, TrainConfig]:
    """The trained model of a run directory (its ``config.json`` and ``checkpoint.pt``), in eval mode.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The run directory.
    device : str, optional
        Where to put the model.

    Returns
    -------
    model : Transformer
        The model, in eval mode.
    config : TrainConfig
        The run's config.

    Raises
    ------
    FileNotFoundError
        No checkpoint.
    petheory.errors.ValidationError
        A config or checkpoint that is not a petheory run's, or a model too large for the memory available.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"task.n_train": 16, "task.n_test": 4})
    >>> device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    >>> with tempfile.TemporaryDirectory() as tmp:  # what train writes there, before its first epoch
    ...     _ = atomic_write_json(pathlib.Path(tmp) / CONFIG, {**config.as_dict(), "hash": config.hash()})
    ...     _ = save_checkpoint(pathlib.Path(tmp) / CHECKPOINT, checkpoint_state(
    ...         config.hash(), 0, model, mcfg, opt.state_dict(), sched.state_dict(), {}, [], {}, 0, 0.0))
    ...     loaded, cfg = load_model(tmp)
    >>> loaded.training, cfg.task.name, loaded.n_params() == model.n_params()
    (False, 'running_sum', True)
    """
    out_dir = Path(out_dir)
    saved = read_json(out_dir / CONFIG)
    if not isinstance(saved, dict):
        raise ValidationError(f"{out_dir / CONFIG} is not a petheory run config (a JSON object expected, got a JSON "
                              f"{type(saved).__name__})")
    saved.pop("hash", None)
    cfg = TrainConfig.from_dict(saved)
    state = load_checkpoint(out_dir / CHECKPOINT)
    missing = [k for k in ("model_config", "model") if not isinstance(state.get(k), dict)]
    if missing:
        raise ValidationError(f"checkpoint {out_dir / CHECKPOINT} has no {' or '.join(missing)}: not a complete petheory "
                              "checkpoint (retrain the run)")
    try:
        mcfg = ModelConfig(**state["model_config"])
        require_eval_memory(mcfg, f"the model checkpoint {out_dir / CHECKPOINT} describes")  # before building it
        model = build_model(mcfg)
        model.load_state_dict(state["model"])
    except (TypeError, KeyError, RuntimeError) as exc:
        raise ValidationError(f"checkpoint {out_dir / CHECKPOINT} does not match a petheory model "
                              f"({str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__})") from None
    return model.to(resolve_device(device)).eval(), cfg


# --------------------------------------------------------------------------- the loop


def _rng_state(gen: torch.Generator, device) -> dict:
    s = {"torch": torch.get_rng_state(), "shuffle": gen.get_state()}
    if device.type == "cuda":
        s["cuda"] = torch.cuda.get_rng_state(device)
    return s


def _set_rng_state(s: dict, gen: torch.Generator, device) -> None:
    torch.set_rng_state(s["torch"])
    gen.set_state(s["shuffle"])
    if device.type == "cuda" and "cuda" in s:
        torch.cuda.set_rng_state(s["cuda"], device)


def _jsonable(x):
    return json.loads(json.dumps(x))


def require_memory(m: ModelConfig, config: TrainConfig, device: torch.device, copies: int = 1) -> None:
    """Refuse a model whose weights, optimiser state and activations cannot fit on ``device``, before building it.

    Parameters
    ----------
    m : ModelConfig
        The completed model config.
    config : TrainConfig
        The run's config (its batch sizes).
    device : torch.device
        Where it will train, as :func:`resolve_device` gave it (a CUDA device: its free memory counts).
    copies : int, optional
        Models trained at once (a grid or seed ensemble).

    Raises
    ------
    petheory._memory.MemoryLimitError
        It does not fit; the message names the model and what to lower.
    petheory.errors.ValidationError
        A bad config.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> from dataclasses import replace
    >>> config = preset("running_sum", "smoke")
    >>> require_memory(replace(config.model, head="regression", max_len=64), config, resolve_device(config.device))
    """
    from petheory import _memory

    params = model_parameters(m)
    d, L, T, H = int(m.d_model), int(m.n_layer), int(m.max_len), int(m.n_head)
    # float32 weights, gradients and two AdamW moments; activations of one batch (about 12 d-vectors per token
    # and layer, plus the (heads, T, T) attention scores) for training and one of evaluation
    act = (int(config.batch_size) + int(config.eval_batch_size)) * T * L * (12 * d + 2 * H * T)
    gpu = None
    if device.type == "cuda":  # weights, state and activations live on the GPU: its free memory, not the host's
        free = torch.cuda.mem_get_info(device)[0]
        gpu = (int(free), f"free memory on {torch.cuda.get_device_name(device)} (torch.cuda.mem_get_info)")
    _memory.require(4 * (4 * params + act) * int(copies),
                    f"model d_model={d}, n_layer={L}, n_head={H}, max_len={T}, vocab_size={m.vocab_size} "
                    f"(about {params:.3g} parameters) with batch_size={config.batch_size}"
                    + (f", {copies} seeds at once" if copies > 1 else ""),
                    alternative="lower model.d_model/n_layer/d_ff, the lengths or batch_size (preset override KEY=VALUE)", memory=gpu)


def setup(config: TrainConfig):
    """Data, model, optimiser and scheduler of a run, exactly as :func:`train` builds them.

    Parameters
    ----------
    config : TrainConfig
        The run's config.

    Returns
    -------
    tuple
        ``(device, data, model config, model, optimiser, scheduler, batch-order generator, steps per epoch)``.

    Raises
    ------
    petheory.errors.ValidationError
        A bad config, an absent device, or a model that does not fit.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> config = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 16, "task.n_test": 4, "ablate": False})
    >>> device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    >>> device.type, mcfg.head, steps
    ('cpu', 'regression', 1)
    """
    device = resolve_device(config.device)
    data = _tasks.load(config.task)
    mcfg = complete_model_config(config.model, data)
    require_memory(mcfg, config, device)
    torch.manual_seed(config.seed)
    model = build_model(mcfg).to(device)
    # fused AdamW (one kernel over all parameters; CPU and CUDA in torch >= 2.4) where torch has it
    fused = device.type in ("cpu", "cuda") and all(p.dtype == torch.float32 for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, betas=tuple(config.betas), weight_decay=config.weight_decay,
                            **({"fused": True} if fused else {}))
    steps_per_epoch = math.ceil(len(data.train) / config.batch_size)
    sched = schedule(opt, steps_per_epoch * config.epochs, config)
    gen = torch.Generator().manual_seed(config.seed + 1)
    return device, data, mcfg, model, opt, sched, gen, steps_per_epoch


def train(config: TrainConfig | dict, out_dir=None, *, progress=None, on_epoch=None) -> dict:
    """Train one model and return its record (see the module docstring).

    Parameters
    ----------
    config : TrainConfig or dict
    out_dir : path, optional
        Where ``config.json``, ``checkpoint.pt`` (every epoch) and ``record.json`` go. With a
        checkpoint of the same config there, training resumes from it; with one of another
        config, ``ValueError``.
    progress : callable, optional
        Called with ``{"event": "step"|"epoch", "epoch", "step", "steps", "epochs", "loss"}``.
    on_epoch : callable, optional
        ``on_epoch(epoch, history_entry)`` after each epoch's checkpoint is written (tests use
        it to simulate a kill).

    Returns
    -------
    dict
        The run's record (``config``, ``history``, ``final`` metrics per test length, ``ablation``, ``probe``, ``timing``,
        ...); written to ``out_dir/record.json`` too.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> rec = train(preset("running_sum", "smoke", seed=1, **{"epochs": 1, "ablate": False, "task.n_train": 16,
    ...                                                         "task.n_test": 4, "task.test_lens": (50,)}))
    >>> rec["task"], rec["seed"], list(rec["final"]["test"])
    ('running_sum', 1, ['50'])
    """
    config = (config if isinstance(config, TrainConfig) else TrainConfig.from_dict(config)).validate()
    chash = config.hash()
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        if (out / RECORD).is_file():
            try:
                rec = read_json(out / RECORD)
            except (ValueError, UnicodeDecodeError) as exc:  # truncated or hand-edited: retrain, then overwrite it
                warnings.warn(f"skipping unreadable record {out / RECORD}: {str(exc).splitlines()[0]}", RuntimeWarning, stacklevel=2)
                rec = None
            if isinstance(rec, dict) and rec.get("config_hash") == chash:
                from petheory.io import record_problem

                problem = record_problem(rec)
                if problem is None:
                    return rec
                warnings.warn(f"skipping unusable record {out / RECORD}: {problem}", RuntimeWarning, stacklevel=2)
        if (out / CONFIG).is_file():
            saved = read_json(out / CONFIG)  # corrupt -> ValueError naming the file
            if not isinstance(saved, dict):
                raise ValidationError(f"{out / CONFIG} is not a petheory run config (a JSON object expected)")
            if saved.get("hash", chash) != chash:
                raise ValidationError(f"{out} holds a run of a different config; use another out_dir")
    t_start = time.perf_counter()
    device, data, mcfg, model, opt, sched, gen, steps = setup(config)
    amp = config.amp and device.type == "cuda"
    kind = data.kind
    history, start_epoch, tokens, t_prev = [], 0, 0, 0.0
    initial = None
    if out is not None:
        atomic_write_json(out / CONFIG, {**config.as_dict(), "hash": chash})
        if (out / CHECKPOINT).is_file():
            st = load_checkpoint(out / CHECKPOINT)
            if st["config_hash"] != chash:
                raise ValidationError(f"checkpoint {out / CHECKPOINT} was written by a different config ({st['config_hash']} != {chash})")
            model.load_state_dict(st["model"])
            opt.load_state_dict(st["optimizer"])
            sched.load_state_dict(st["scheduler"])
            _set_rng_state(st["rng"], gen, device)
            start_epoch, history, initial = st["epoch"], list(st["history"]), st["initial"]
            tokens, t_prev = st["tokens"], st["seconds"]
    if initial is None:  # evaluation draws no random numbers, so it cannot shift the RNG streams
        initial = {"train": evaluate(model, data.train, kind, batch_size=config.eval_batch_size, amp=amp)}
    test_id = test_split(data)
    model.train()
    for epoch in range(start_epoch, config.epochs):
        perm = torch.randperm(len(data.train), generator=gen)
        run_loss = 0.0
        for s in range(steps):
            b = train_batch(data.train, perm[s * config.batch_size:(s + 1) * config.batch_size], device)
            loss = train_step(model, opt, b, kind, device=device, amp=amp, grad_clip=config.grad_clip, sched=sched,
                              where=f"epoch {epoch + 1}, step {s + 1}")
            lv = float(loss.detach())
            run_loss += lv
            tokens += b.x.numel() if b.x.dim() == 2 else b.x.shape[0] * b.x.shape[1]
            if progress:
                progress({"event": "step", "epoch": epoch + 1, "epochs": config.epochs, "step": s + 1, "steps": steps, "loss": lv})
        entry = {"epoch": epoch + 1, "train_loss": run_loss / steps, "lr": sched.get_last_lr()[0],
                 "test": evaluate(model, test_id, kind, batch_size=config.eval_batch_size, amp=amp)}
        history.append(entry)
        if out is not None:
            save_checkpoint(out / CHECKPOINT, checkpoint_state(
                chash, epoch + 1, model, mcfg, opt.state_dict(), sched.state_dict(), _rng_state(gen, device), history,
                initial, tokens, t_prev + time.perf_counter() - t_start))
        if progress:
            progress({"event": "epoch", "epoch": epoch + 1, "epochs": config.epochs, "step": steps, "steps": steps, "loss": entry["train_loss"]})
        if on_epoch:
            on_epoch(epoch + 1, entry)
    ev = dict(batch_size=config.eval_batch_size, amp=amp)
    # Not evaluated again: the last epoch's test evaluation (the model has not changed since) and the
    # splits the ablation's baseline pass evaluates (the same batches and sums as evaluate).
    known = {id(test_id): history[-1]["test"]} if history else {}
    ablation = None
    if config.ablate:
        parts = [test_id] if config.ablation_split == "test" else ablation_parts(data.train, test_id)
        ablation, metrics = ablate_heads(model, parts, kind, **ev)
        ablation = {"split": config.ablation_split, **ablation}
        known.update({id(sp): m for sp, m in zip(parts, metrics)})
    final_of = lambda sp: known[id(sp)] if id(sp) in known else evaluate(model, sp, kind, **ev)  # noqa: E731
    final = {"train": final_of(data.train), "test": {str(L): final_of(sp) for L, sp in data.test.items()}}
    seconds = t_prev + time.perf_counter() - t_start
    timing = {"seconds": seconds, "tokens": tokens, "tokens_per_s": tokens / max(seconds, 1e-9), "engine": "loop"}
    record = make_record(config, chash, data, mcfg, model, initial, history, final, ablation, timing, device,
                         probe(model, data))
    if out is not None:
        atomic_write_json(out / RECORD, record)
    return record


def _device_name(device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return device.type


def without_timing(record: dict) -> dict:
    """A record minus its wall-clock fields: what an interrupted and resumed run must reproduce.

    Parameters
    ----------
    record : dict
        A training record.

    Returns
    -------
    dict
        The record without ``timing``.

    Examples
    --------
    >>> without_timing({"seed": 0, "timing": {"seconds": 1.5}})
    {'seed': 0}
    """
    return {k: v for k, v in record.items() if k != "timing"}
