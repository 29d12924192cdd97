r"""The papers' tasks as seeded generators with documented distributions.

``load(TaskConfig(name, seed, params)) -> TaskData``: a fixed training split and one test
split per evaluation length, as tensors. Same name, seed and params, same tensors. Every
parameter below is a field of ``params`` (defaults in :data:`petheory.nn.task_core.TASKS`, listed by
``describe(name)``).

``running_sum`` (li2025 §7, Table 5; **reconstruction**: the paper gives no distribution)
    Regression. ``x_t ~ U(-1, 1)`` (``dist='uniform'``) or ``N(0, 1)`` (``'normal'``), i.i.d.,
    shape (T, 1); target ``y_t = S_t / c_t`` with ``S_t = x_0 + ... + x_t`` and
    ``target_scale``: ``'sqrt_t'`` (:math:`c_t = \sqrt{t+1}`: every position has the variance of one
    input, so MSE is comparable across lengths; default), ``'mean'`` (:math:`c_t = t+1`),
    ``'sqrt_train'`` (:math:`c_t = \sqrt{\mathrm{train\_len}}`) or ``'none'``. Train length ``train_len`` (50),
    test lengths ``test_lens`` (50, 100, 200); ``n_train`` samples (the ``m`` of the
    generalisation bounds), ``n_test`` per test length.
``gu2025_task1`` (trigger distance; gu2025 §4.1 as the authors' code does it, CLAIMS.md)
    Classification. Token ids ``1..vocab_size-1`` are words (pad = 0; 574 tokens). A trigger
    pair ``(w1, w2)`` is drawn once. Per sample ``between ~ U{1..max_between}`` (70),
    ``left, right ~ U{1..max_side}`` (25), each segment drawn *without* replacement from all
    words (triggers included, as in the code); sentence ``left + [w1] + middle + [w2] + right``
    cut at ``cut`` (120) words, right-padded with 0 to ``max_len`` (128); label
    ``between + 1`` (classes 2..max_between+1). ``n_samples`` (100,000) drawn, duplicate
    sentences removed, then a ``test_fraction`` (0.3) split. One word = one token here (the
    authors' Unigram tokenizer and word list are not public).
``gu2025_task2`` (trigger counting)
    Classification. ``n_triggers`` (30) trigger words drawn once; per sample
    ``n ~ U{0..max_count}`` (100) triggers drawn with replacement among them and
    ``length - n`` (120) fillers drawn with replacement from the other words, shuffled; label
    ``n``. ``drop_zero`` removes count-0 samples (the six-PE runs of the code). ``n_samples``
    (50,000), ``test_fraction`` 0.3, no de-duplication.
``passkey``, ``mqar`` (long-context retrieval; :mod:`petheory.nn.retrieval`)
    Causal LM: a passkey hidden at a depth of a filler haystack, and multi-query associative
    recall; lengths are context lengths (tokens before the query). Evaluation by length and
    depth: :func:`petheory.nn.retrieval.passkey_grid`.
``parity``, ``copy``, ``reverse``, ``addition`` (chen2025's length-generalisation tasks)
    Causal LM on ``BOS input SEP answer EOS``; the loss and the metrics cover the answer and
    EOS only. Problem size ``n`` (bits / symbols / digits) is ``U{min_len..train_len}`` in
    training; each ``test_lens`` entry is a test split of size exactly ``n``, beyond the
    training sizes to measure length generalisation. ``parity``: bits ``b_1..b_n``, answer
    the chain of thought ``p_i = b_1 xor ... xor b_i`` (the last one is the parity).
    ``copy`` / ``reverse``: ``n`` symbols from an ``alphabet`` (10), answer the same / reversed.
    ``addition``: two ``n``-digit numbers (leading zeros allowed), answer the ``n+1``-digit sum;
    digits least-significant first when ``reverse_digits`` (default), as is usual for length
    generalisation. Token ids: PAD 0, BOS 1, SEP 2, EOS 3, PLUS 4, symbols/digits from 5.
    Shorter training sequences are right-padded; under a causal mask padding after a sequence
    cannot change its outputs.

Metrics (``petheory.nn.training`` computes them): regression ``mse``; classification ``acc``
and ``loss``; LM ``token_acc`` (answer tokens right under teacher forcing), ``seq_acc``
(every answer token right; equal to greedy decoding's exact match, since a greedy decode
with a right prefix at every step *is* the teacher-forced one) and ``loss``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from petheory.errors import ValidationError
from petheory.nn.task_core import (  # noqa: F401  (re-exported: the registry and its types)
    BOS, EOS, PAD, PLUS, SEP, SYM, TASKS, Split, TaskConfig, available, choice, describe, resolve_params)
from petheory.nn import retrieval as _retrieval  # noqa: F401,E402  (registers passkey and mqar in TASKS)


@dataclass
class TaskData:
    """What :func:`load` returns. ``test[length]`` is a split per evaluation length;
    ``train_len`` is the in-distribution key (a sequence length, or an LM task's problem size);
    ``train_seq_len`` the longest training sequence in tokens; ``chance`` the score of a trivial
    predictor.

    Attributes
    ----------
    name : str
        The task.
    kind : str
        ``'regression'``, ``'classification'`` or ``'lm'``.
    train : Split
        The training split.
    test : dict
        Evaluation length -> Split.
    train_len : int
        The in-distribution key of ``test``.
    vocab_size, input_dim, n_outputs : int
        What the model's input and output layers need.
    max_len : int
        Longest sequence of any split.
    chance : dict
        Metric -> the score of a trivial predictor.
    params : dict
        The task's parameters, defaults filled.
    train_seq_len : int
        Longest training sequence in tokens (length-normalised PEs map onto it).
    """

    name: str
    kind: str  # 'regression' | 'classification' | 'lm'
    train: Split
    test: dict
    train_len: int
    vocab_size: int
    input_dim: int
    n_outputs: int
    max_len: int
    chance: dict
    params: dict
    train_seq_len: int = 0  # longest training sequence (tokens); length-normalised PEs map onto it


def _running_sum(p, seed):
    def make(n, T, rng):
        x = rng.uniform(-1.0, 1.0, (n, T, 1)) if p["dist"] == "uniform" else rng.standard_normal((n, T, 1))
        s = np.cumsum(x[..., 0], axis=1)  # (n, T)
        t = np.arange(1, T + 1, dtype=np.float64)
        c = {"sqrt_t": np.sqrt(t), "mean": t, "sqrt_train": np.full(T, math.sqrt(p["train_len"])), "none": np.ones(T)}[p["target_scale"]]
        return Split(torch.tensor(x, dtype=torch.float32), torch.tensor(s / c, dtype=torch.float32))

    choice("dist", p["dist"], ("uniform", "normal"))
    choice("target_scale", p["target_scale"], ("sqrt_t", "mean", "sqrt_train", "none"))
    train = make(p["n_train"], p["train_len"], np.random.default_rng([seed, 0]))
    test = {L: make(p["n_test"], L, np.random.default_rng([seed, 1, L])) for L in p["test_lens"]}
    var = 1.0 / 3.0 if p["dist"] == "uniform" else 1.0
    chance = {"mse_at_train_len": var if p["target_scale"] == "sqrt_t" else None}
    return "regression", train, test, p["train_len"], 0, 1, 1, max(p["test_lens"] + (p["train_len"],)), chance


def _choose_without_replacement(rng, n_rows, k, pool):
    """(n_rows, k) draws, each row k distinct entries of ``pool`` (chunked argsort of uniforms)."""
    out = np.empty((n_rows, k), dtype=np.int64)
    for a in range(0, n_rows, 4096):
        b = min(a + 4096, n_rows)
        out[a:b] = pool[np.argsort(rng.random((b - a, len(pool))), axis=1)[:, :k]]
    return out


def _split(rng, seqs, labels, test_fraction):
    perm = rng.permutation(len(seqs))
    n_test = int(round(test_fraction * len(seqs)))
    te, tr = perm[:n_test], perm[n_test:]
    mk = lambda i: Split(torch.tensor(seqs[i]), torch.tensor(labels[i]))  # noqa: E731
    return mk(tr), mk(te)


def _gu2025_task1(p, seed):
    rng = np.random.default_rng(seed)
    V, N = p["vocab_size"], p["n_samples"]
    words = np.arange(1, V)
    w1, w2 = rng.choice(words, 2, replace=False)
    between = rng.integers(1, p["max_between"] + 1, N)
    left = rng.integers(1, p["max_side"] + 1, N)
    right = rng.integers(1, p["max_side"] + 1, N)
    Lw = _choose_without_replacement(rng, N, p["max_side"], words)
    Mw = _choose_without_replacement(rng, N, p["max_between"], words)
    Rw = _choose_without_replacement(rng, N, p["max_side"], words)
    # Position arithmetic instead of a Python loop: column j of the sentence is in the left
    # segment, is w1, in the middle, is w2, or in the right segment.
    j = np.arange(p["max_side"] * 2 + p["max_between"] + 2)[None, :]
    l, b, r = left[:, None], between[:, None], right[:, None]
    take = lambda a, i: np.take_along_axis(a, np.clip(i, 0, a.shape[1] - 1), axis=1)  # noqa: E731
    s = np.where(j < l, take(Lw, j), 0)
    s = np.where(j == l, w1, s)
    s = np.where((j > l) & (j <= l + b), take(Mw, j - l - 1), s)
    s = np.where(j == l + b + 1, w2, s)
    s = np.where((j > l + b + 1) & (j < l + b + 2 + r), take(Rw, j - l - b - 2), s)
    s = s[:, : p["cut"]]
    seqs = np.zeros((N, p["max_len"]), dtype=np.int64)
    seqs[:, : s.shape[1]] = s
    labels = between + 1
    _, first = np.unique(np.concatenate([seqs, labels[:, None]], 1), axis=0, return_index=True)
    keep = np.sort(first)  # duplicates removed, original order kept
    train, test = _split(rng, seqs[keep], labels[keep], p["test_fraction"])
    chance = {"acc": 1.0 / p["max_between"]}
    return "classification", train, {p["max_len"]: test}, p["max_len"], V, 1, p["max_between"] + 2, p["max_len"], chance


def _gu2025_task2(p, seed):
    rng = np.random.default_rng(seed)
    V, N, L = p["vocab_size"], p["n_samples"], p["length"]
    if L > p["max_len"] or p["max_count"] > L:
        raise ValidationError(f"gu2025_task2 needs max_count <= length <= max_len, got {p['max_count']}, {L}, {p['max_len']}")
    words = np.arange(1, V)
    triggers = rng.choice(words, p["n_triggers"], replace=False)
    fillers = np.setdiff1d(words, triggers)
    n = rng.integers(0, p["max_count"] + 1, N)
    t = rng.choice(triggers, (N, L))
    f = rng.choice(fillers, (N, L))
    s = rng.permuted(np.where(np.arange(L)[None, :] < n[:, None], t, f), axis=1)
    seqs = np.zeros((N, p["max_len"]), dtype=np.int64)
    seqs[:, :L] = s
    if p["drop_zero"]:
        seqs, n = seqs[n > 0], n[n > 0]
    train, test = _split(rng, seqs, n, p["test_fraction"])
    chance = {"acc": 1.0 / (p["max_count"] + (0 if p["drop_zero"] else 1))}
    return "classification", train, {p["max_len"]: test}, p["max_len"], V, 1, p["max_count"] + 1, p["max_len"], chance


def _lm_problem(task, n_size, count, rng, p):
    """(count, ...) input and answer token arrays for problem size n_size."""
    if task == "parity":
        bits = rng.integers(0, 2, (count, n_size))
        return bits + SYM, np.cumsum(bits, axis=1) % 2 + SYM
    if task in ("copy", "reverse"):
        sym = rng.integers(0, p["alphabet"], (count, n_size)) + SYM
        return sym, (sym if task == "copy" else sym[:, ::-1])
    a = rng.integers(0, 10, (count, n_size))  # digits, least significant first
    b = rng.integers(0, 10, (count, n_size))
    carry, out = np.zeros(count, dtype=np.int64), np.zeros((count, n_size + 1), dtype=np.int64)
    for i in range(n_size):
        s = a[:, i] + b[:, i] + carry
        out[:, i], carry = s % 10, s // 10
    out[:, n_size] = carry
    if not p["reverse_digits"]:
        a, b, out = a[:, ::-1], b[:, ::-1], out[:, ::-1]
    return np.concatenate([a + SYM, np.full((count, 1), PLUS), b + SYM], 1), out + SYM


def _lm_split(task, sizes, rng, p):
    """Right-padded (x, y, mask) for one problem per entry of ``sizes``."""
    seqs, starts = [None] * len(sizes), [0] * len(sizes)
    for n_size in np.unique(sizes):
        where = np.flatnonzero(sizes == n_size)
        inp, ans = _lm_problem(task, int(n_size), len(where), rng, p)
        c = len(where)
        full = np.concatenate([np.full((c, 1), BOS), inp, np.full((c, 1), SEP), ans, np.full((c, 1), EOS)], 1)
        for k, i in enumerate(where):
            seqs[i], starts[i] = full[k], 1 + inp.shape[1] + 1
    T = max(len(s) for s in seqs)
    arr = np.full((len(seqs), T), PAD, dtype=np.int64)
    mask = np.zeros((len(seqs), T - 1), dtype=np.float32)
    for i, s in enumerate(seqs):
        arr[i, : len(s)] = s
        mask[i, starts[i] - 1 : len(s) - 1] = 1.0  # targets y[t] = seq[t+1] that lie in the answer or EOS
    return Split(torch.tensor(arr[:, :-1]), torch.tensor(arr[:, 1:]), torch.tensor(mask))


def _lm_task(task):
    def make(p, seed):
        if p["min_len"] > p["train_len"]:
            raise ValidationError(f"min_len={p['min_len']} must be <= train_len={p['train_len']}")
        rng = np.random.default_rng([seed, 0])
        train = _lm_split(task, rng.integers(p["min_len"], p["train_len"] + 1, p["n_train"]), rng, p)
        test = {L: _lm_split(task, np.full(p["n_test"], L), np.random.default_rng([seed, 1, L]), p) for L in p["test_lens"]}
        vocab = SYM + (2 if task == "parity" else p["alphabet"] if task != "addition" else 10)
        T = max(s.x.shape[1] for s in [train, *test.values()])
        return "lm", train, test, p["train_len"], vocab, 1, vocab, T, {}

    return make


_LM_DEFAULTS = {"n_train": 2000, "n_test": 200, "min_len": 1, "train_len": 8, "test_lens": (8, 12, 16), "alphabet": 10}

#: name -> (generator, default params). Presets override sizes; see the module docstring.
TASKS.update({
    "running_sum": (_running_sum, {"n_train": 1000, "n_test": 256, "train_len": 50, "test_lens": (50, 100, 200),
                                   "dist": "uniform", "target_scale": "sqrt_t"}),
    "gu2025_task1": (_gu2025_task1, {"n_samples": 100_000, "test_fraction": 0.3, "vocab_size": 574, "max_between": 70,
                                     "max_side": 25, "cut": 120, "max_len": 128}),
    "gu2025_task2": (_gu2025_task2, {"n_samples": 50_000, "test_fraction": 0.3, "vocab_size": 574, "n_triggers": 30,
                                     "max_count": 100, "length": 120, "max_len": 128, "drop_zero": False}),
    "parity": (_lm_task("parity"), dict(_LM_DEFAULTS)),
    "copy": (_lm_task("copy"), dict(_LM_DEFAULTS)),
    "reverse": (_lm_task("reverse"), dict(_LM_DEFAULTS)),
    "addition": (_lm_task("addition"), {**_LM_DEFAULTS, "reverse_digits": True}),
})


def load(cfg: TaskConfig | dict) -> TaskData:
    """Generate the splits of a task (deterministic in ``cfg.seed`` and ``cfg.params``).

    The last few tasks generated are kept (a grid or a benchmark loads the same task once per run; gu2025's paper data
    take seconds to draw); every call returns its own copy of the tensors, so a caller that modifies them cannot change
    what the next caller gets.

    Parameters
    ----------
    cfg : TaskConfig or dict
        The task, its data seed and parameters.

    Returns
    -------
    TaskData
        The splits and what a model needs to know of them.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown task or parameter, or data larger than the memory available.

    Examples
    --------
    >>> d = load({"name": "running_sum", "seed": 0, "params": {"n_train": 8, "n_test": 4}})
    >>> d.kind, tuple(d.train.x.shape), sorted(d.test)
    ('regression', (8, 50, 1), [50, 100, 200])
    """
    if isinstance(cfg, dict):
        cfg = TaskConfig(**cfg)
    p = resolve_params(cfg.name, cfg.params)
    key = (cfg.name, int(cfg.seed), repr(sorted(p.items())))
    if key not in _LOADED:
        _require_memory(cfg.name, p)
        kind, train, test, train_len, vocab, input_dim, n_out, max_len, chance = TASKS[cfg.name][0](p, int(cfg.seed))
        if len(_LOADED) >= 4:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = TaskData(cfg.name, kind, train, test, train_len, vocab, input_dim, n_out, max_len, chance, p,
                                train.x.shape[1])
    return _copy(_LOADED[key])


def _copy(d: TaskData) -> TaskData:
    import copy

    def split(s: Split) -> Split:
        return Split(s.x.clone(), s.y.clone(), None if s.mask is None else s.mask.clone())

    return TaskData(d.name, d.kind, split(d.train), {L: split(s) for L, s in d.test.items()}, d.train_len, d.vocab_size,
                    d.input_dim, d.n_outputs, d.max_len, copy.deepcopy(d.chance), copy.deepcopy(d.params), d.train_seq_len)


_LOADED: dict = {}


def _require_memory(name: str, p: dict) -> None:
    """Refuse task sizes whose tensors cannot fit, before generating them (see petheory._memory)."""
    from petheory import _memory

    tests = tuple(p.get("test_lens", ()))
    n_seq = int(p.get("n_samples", 0)) + int(p.get("n_train", 0)) + int(p.get("n_test", 0)) * len(tests)
    longest = max([int(p.get(k, 0)) for k in ("train_len", "max_len", "length", "cut")] + [int(L) for L in tests])
    if name in ("parity", "copy", "reverse", "addition"):
        longest = 3 * longest + 4  # question, separator and answer tokens
    elif name in ("passkey", "mqar"):
        longest += 2 + 2 * int(p.get("n_pairs", 0)) + int(p.get("key_len", 0))  # SEP and the answer
    # int64 inputs and targets, a float mask and generation temporaries: about 6 words per token
    _memory.require(_memory.array_bytes(n_seq, longest, itemsize=6 * 8),
                    f"task {name} data ({n_seq} sequences of up to {longest} tokens)",
                    alternative="lower n_train/n_test/n_samples or the lengths (preset override task.KEY=VALUE)")

