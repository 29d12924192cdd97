r"""Long-context retrieval tasks: passkey retrieval and multi-query associative recall (MQAR).

Both are causal-LM tasks in the layout of :mod:`petheory.nn.tasks` (``x = seq[:-1]``,
``y = seq[1:]``, a loss ``mask`` that is 1 on the answer tokens only), registered there under
``passkey`` and ``mqar``, so ``petheory train``, the presets and :func:`petheory.nn.training.train`
take them like any other task. Token ids: PAD 0, BOS 1, SEP 2, MARK 4 (the passkey's marker),
symbols from 5 in disjoint ranges (key digits / keys, values, filler). No EOS target: the metrics
cover the retrieved tokens alone (``token_acc``: fraction of answer tokens right under teacher
forcing; ``seq_acc``: the whole answer right, equal to greedy decoding's exact match).

The *context length* ``N`` of a sequence is the number of tokens before the query: BOS and the
``N - 1`` haystack tokens; SEP and an answer of ``m`` tokens follow (``N + 1 + m`` tokens, of
which the model reads the first ``N + m``). Training lengths are ``U{min_len..train_len}`` (default 16..32),
so the model has seen every position below ``train_len + 1 + m``; each ``test_lens`` entry is a
test split at exactly that context length.

``passkey`` (the needle in a haystack; mohtashami2023 "Landmark attention" §4.2 as a token task)
    A key of ``key_len`` digits (alphabet ``alphabet``, i.i.d. uniform) is written after MARK at
    a chosen *depth* of the haystack; every other haystack token is filler, i.i.d. uniform over
    ``filler`` symbols disjoint from the digits. The key block ``MARK k_1..k_m`` starts at
    haystack offset ``round(depth * (N - 1 - (m + 1)))`` (depth 0: right after BOS; 1: right
    before SEP). Training and test splits draw the depth ``U[0, 1]``; :func:`passkey_grid`
    builds the length x depth splits of the needle-in-a-haystack heatmap. Sequence:
    ``BOS haystack SEP k_1 .. k_m``.
``mqar`` (multi-query associative recall; arora2023 "Zoology" §3 with filler between the pairs)
    ``n_pairs`` key-value pairs (keys distinct, drawn from ``n_keys`` symbols; values i.i.d. from
    ``n_values``) at uniformly random non-overlapping places of the haystack (each pair two
    adjacent tokens ``k v``; the gaps a uniform composition of the filler count), filler
    elsewhere; after SEP every key is queried once in random order, each followed by its value:
    ``BOS haystack SEP q_1 v(q_1) .. q_P v(q_P)``. The answer tokens are the ``v(q_j)``.
"""

from __future__ import annotations

import numpy as np
import torch
from petheory.errors import ValidationError
from petheory.nn.task_core import PAD, SYM, TASKS, Split, resolve_params

MARK = 4  # = tasks.PLUS: the passkey tasks have no '+'
PASSKEY_DEPTHS = (0.0, 0.25, 0.5, 0.75, 1.0)

_COMMON = {"n_train": 20000, "n_test": 256, "min_len": 16, "train_len": 32, "test_lens": (32, 64, 128, 256, 512)}
#: default parameters of the two tasks (``petheory.nn.tasks.describe('passkey')`` lists them)
DEFAULTS = {
    "passkey": {**_COMMON, "key_len": 3, "alphabet": 10, "filler": 16},
    "mqar": {**_COMMON, "n_pairs": 3, "n_keys": 16, "n_values": 16, "filler": 16},
}


def vocab_size(name: str, p: dict) -> int:
    """Tokens of task ``name`` with parameters ``p``: the specials, then the symbol ranges.

    Parameters
    ----------
    name : {'passkey', 'mqar'}
        The task.
    p : dict
        Its parameters (:func:`petheory.nn.tasks.resolve_params`).

    Returns
    -------
    int
        The vocabulary size.

    Examples
    --------
    >>> from petheory.nn.tasks import resolve_params
    >>> vocab_size("passkey", resolve_params("passkey")) == SYM + 10 + 16
    True
    """
    if name == "passkey":
        return SYM + p["alphabet"] + p["filler"]
    return SYM + p["n_keys"] + p["n_values"] + p["filler"]


def check(name: str, p: dict) -> None:
    """Refuse sizes the construction cannot honour (checked before generating).

    Parameters
    ----------
    name : {'passkey', 'mqar'}
        The task.
    p : dict
        Its parameters.

    Raises
    ------
    petheory.errors.ValidationError
        A training length below ``min_len``, or contexts too short for the key (passkey) or the pairs (mqar).

    Examples
    --------
    >>> from petheory.nn.tasks import resolve_params
    >>> check("mqar", resolve_params("mqar", {"n_pairs": 8, "test_lens": (12,)}))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: mqar context lengths must be >= 2 * n_pairs + 1 = 17, ...
    """
    L0 = min([p["train_len"], *p["test_lens"]])
    if p["min_len"] > p["train_len"]:
        raise ValidationError(f"min_len={p['min_len']} must be <= train_len={p['train_len']} (training context lengths are "
                         "U{min_len..train_len}; set task.min_len too)")
    if name == "passkey":
        need = p["key_len"] + 2  # BOS + MARK + the key
        if min(L0, p["min_len"]) < need:
            raise ValidationError(f"passkey context lengths must be >= key_len + 2 = {need} (BOS, MARK and the key), "
                             f"got train/test/min lengths {p['train_len']}, {p['test_lens']}, {p['min_len']}")
    else:
        if p["n_pairs"] > p["n_keys"]:
            raise ValidationError(f"mqar needs n_pairs <= n_keys (keys are distinct), got {p['n_pairs']} > {p['n_keys']}")
        need = 2 * p["n_pairs"] + 1
        if min(L0, p["min_len"]) < need:
            raise ValidationError(f"mqar context lengths must be >= 2 * n_pairs + 1 = {need}, got train/test/min lengths "
                             f"{p['train_len']}, {p['test_lens']}, {p['min_len']}")


def _passkey_rows(N: int, depth: np.ndarray, rng, p) -> tuple[np.ndarray, int]:
    """(count, N + m + 1) sequences of context length N, the key block at each row's depth."""
    m, S = p["key_len"], SYM
    count = depth.shape[0]
    digits = rng.integers(0, p["alphabet"], (count, m)) + S
    hay = rng.integers(0, p["filler"], (count, N - 1)) + S + p["alphabet"]
    off = np.rint(depth * (N - 1 - (m + 1))).astype(np.int64)  # key block start in the haystack
    rows = np.arange(count)[:, None]
    hay[rows, off[:, None]] = MARK
    hay[rows, off[:, None] + 1 + np.arange(m)[None, :]] = digits
    seq = np.concatenate([np.full((count, 1), 1), hay, np.full((count, 1), 2), digits], 1)
    return seq, m


def _mqar_rows(N: int, rng, p) -> tuple[np.ndarray, np.ndarray]:
    """(count, N + 2P + 1) sequences and the answer columns (positions of the queried values)."""
    P, S = p["n_pairs"], SYM
    count = p["_count"]
    F = N - 1 - 2 * P  # filler tokens in the haystack
    keys = np.argsort(rng.random((count, p["n_keys"])), axis=1)[:, :P] + S  # distinct keys per row
    vals = rng.integers(0, p["n_values"], (count, P)) + S + p["n_keys"]
    hay = rng.integers(0, p["filler"], (count, N - 1)) + S + p["n_keys"] + p["n_values"]
    # P distinct sorted draws from 0..F+P-1: pair i starts at s_i + i (stars and bars: uniform gaps)
    s = np.sort(np.argsort(rng.random((count, F + P)), axis=1)[:, :P], axis=1)
    start = s + np.arange(P)[None, :]
    rows = np.arange(count)[:, None]
    hay[rows, start] = keys
    hay[rows, start + 1] = vals
    order = np.argsort(rng.random((count, P)), axis=1)  # query order
    q, a = np.take_along_axis(keys, order, 1), np.take_along_axis(vals, order, 1)
    query = np.stack([q, a], -1).reshape(count, 2 * P)
    seq = np.concatenate([np.full((count, 1), 1), hay, np.full((count, 1), 2), query], 1)
    return seq, N + 2 + 2 * np.arange(P)  # value v(q_j) sits at column N + 2 + 2j


def _to_split(seqs: list[np.ndarray], answer_cols: list[np.ndarray]):
    """Right-padded (x, y, mask): mask[i, t] = 1 where y[i, t] = seq[i, t+1] is an answer token."""

    T = max(s.shape[0] for s in seqs)
    arr = np.full((len(seqs), T), PAD, dtype=np.int64)
    mask = np.zeros((len(seqs), T - 1), dtype=np.float32)
    for i, (s, cols) in enumerate(zip(seqs, answer_cols)):
        arr[i, : s.shape[0]] = s
        mask[i, cols - 1] = 1.0
    return Split(torch.tensor(arr[:, :-1]), torch.tensor(arr[:, 1:]), torch.tensor(mask))


def _rows(name: str, N: int, count: int, rng, p, depth=None):
    """``count`` sequences of context length ``N`` as lists (sequence, answer columns)."""
    if name == "passkey":
        depth = rng.random(count) if depth is None else np.full(count, float(depth))
        seq, m = _passkey_rows(N, depth, rng, p)
        cols = N + 1 + np.arange(m)  # the digits after SEP
        return list(seq), [cols] * count
    seq, cols = _mqar_rows(N, rng, {**p, "_count": count})
    return list(seq), [cols] * count


def _split(name: str, lengths: np.ndarray, rng, p, depth=None):
    seqs, cols = [None] * len(lengths), [None] * len(lengths)
    for N in np.unique(lengths):
        where = np.flatnonzero(lengths == N)
        s, c = _rows(name, int(N), len(where), rng, p, depth)
        for k, i in enumerate(where):
            seqs[i], cols[i] = s[k], c[k]
    return _to_split(seqs, cols)


def make(name: str):
    """The generator :data:`petheory.nn.task_core.TASKS` holds for ``name`` (``'passkey'`` or ``'mqar'``).

    Parameters
    ----------
    name : {'passkey', 'mqar'}
        The task.

    Returns
    -------
    callable
        ``gen(params, seed)`` -> (kind, train, test, train length, vocabulary, input dim, outputs, max length, chance).

    Examples
    --------
    >>> from petheory.nn.tasks import resolve_params
    >>> kind, train, test, *_ = make("passkey")(resolve_params("passkey", {"n_train": 4, "n_test": 2}), 0)
    >>> kind, len(train)
    ('lm', 4)
    """

    def gen(p, seed):
        check(name, p)
        rng = np.random.default_rng([seed, 0])
        train = _split(name, rng.integers(p["min_len"], p["train_len"] + 1, p["n_train"]), rng, p)
        test = {L: _split(name, np.full(p["n_test"], L), np.random.default_rng([seed, 1, L]), p) for L in p["test_lens"]}
        V = vocab_size(name, p)
        T = max(s.x.shape[1] for s in [train, *test.values()])
        per = p["alphabet"] if name == "passkey" else p["n_values"]
        chance = {"token_acc": 1.0 / per}
        return "lm", train, test, p["train_len"], V, 1, V, T, chance

    return gen


def passkey_grid(params: dict, seed: int, lengths, depths=PASSKEY_DEPTHS, n: int = 64) -> dict:
    """Passkey test splits at every (context length, depth): ``{(N, depth): Split}``.

    Each cell has ``n`` sequences from its own stream ``default_rng([seed, 2, N, round(1000 * depth)])``,
    so a cell does not change when others are added.

    Parameters
    ----------
    params : dict
        Passkey parameters (the task's, others ignored).
    seed : int
        Data seed.
    lengths : iterable of int
        Context lengths.
    depths : iterable of float, optional
        Where the key sits, in [0, 1] (0: right after BOS, 1: right before the query).
    n : int, optional
        Sequences per cell.

    Returns
    -------
    dict
        ``(N, depth)`` -> Split.

    Examples
    --------
    >>> from petheory.nn.tasks import resolve_params
    >>> g = passkey_grid(resolve_params("passkey", {"key_len": 2}), 0, [16], [0.0, 1.0], n=4)
    >>> sorted(g), tuple(g[(16, 0.0)].x.shape)
    ([(16, 0.0), (16, 1.0)], (4, 18))
    """

    p = resolve_params("passkey", {k: v for k, v in params.items() if k in DEFAULTS["passkey"]})
    out = {}
    for N in lengths:
        for d in depths:
            d = float(d)
            if not 0.0 <= d <= 1.0:
                raise ValidationError(f"depth must be in [0, 1] (0: key right after BOS, 1: right before the query), got {d}")
            check("passkey", {**p, "test_lens": (int(N),)})
            rng = np.random.default_rng([seed, 2, int(N), int(round(1000 * d))])
            out[(int(N), d)] = _split("passkey", np.full(int(n), int(N)), rng, p, depth=d)
    return out


@torch.no_grad()
def query_accuracy(model, split, *, batch_size: int = 256) -> list[float]:
    """Accuracy of each answer token by its place in the answer, teacher-forced: ``[acc_1, .., acc_m]``.

    For ``mqar`` entry ``j`` is the accuracy on the value of the ``j``-th query. The first query is
    the one that measures key matching: every later value can be narrowed down by elimination (with
    two pairs, once ``v(q_1)`` is known the other stored value answers ``q_2`` whenever the values
    differ), so a model that only learned "answer with a value from the context" scores about
    ``1/n_pairs`` on it, while ``token_acc`` averages it with the easier later queries. Every row
    must hold the same number ``m`` of answer tokens (true of passkey and mqar splits).

    Parameters
    ----------
    model : Transformer
        An LM.
    split : Split
        A passkey or mqar split.
    batch_size : int, optional
        Samples per forward pass.

    Returns
    -------
    list of float
        Accuracy of each answer token, by its place in the answer.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import build_model, ModelConfig, tasks
    >>> d = tasks.load(tasks.TaskConfig("mqar", 0, {"n_train": 4, "n_test": 8, "test_lens": (16,)}))
    >>> m = build_model(ModelConfig(head="lm", vocab_size=d.vocab_size, out_dim=d.vocab_size, d_model=8, n_head=1, d_ff=8,
    ...                             n_layer=1, causal=True))
    >>> len(query_accuracy(m, d.test[16]))
    3
    """
    if split.mask is None:
        raise ValidationError("query_accuracy needs an LM split with an answer mask (passkey, mqar)")
    per_row = split.mask.sum(1)
    m = int(per_row[0]) if len(split) else 0
    if len(split) == 0 or m == 0 or bool((per_row != m).any()):
        raise ValidationError(f"query_accuracy needs the same number (>= 1) of answer tokens in every row, got "
                              f"{sorted(set(per_row.long().tolist()))}")
    device = next(model.parameters()).device
    was = model.training
    model.eval()
    right = torch.zeros(m, dtype=torch.float64)
    for a in range(0, len(split), batch_size):
        b = split.batch(slice(a, a + batch_size))
        pred = model(b.x.to(device)).argmax(-1).cpu()  # (B, T)
        cols = torch.nonzero(b.mask > 0)[:, 1].view(len(b), m)  # (B, m) answer columns, in order
        right += (pred.gather(1, cols) == b.y.gather(1, cols)).double().sum(0)
    model.train(was)
    return (right / len(split)).tolist()


def key_offset(split, row: int) -> int:
    """Haystack offset of the MARK in ``split.x[row]`` (its position in the sequence minus 1 for BOS); tests use it.

    Parameters
    ----------
    split : Split
        A passkey split.
    row : int
        Which sequence.

    Returns
    -------
    int
        The offset.

    Raises
    ------
    petheory.errors.ValidationError
        The row does not hold exactly one MARK.

    Examples
    --------
    >>> from petheory.nn.tasks import resolve_params
    >>> g = passkey_grid(resolve_params("passkey", {"key_len": 2}), 0, [16], [0.0], n=2)
    >>> key_offset(g[(16, 0.0)], 0)
    0
    """
    pos = torch.nonzero(split.x[row] == MARK).flatten()
    if len(pos) != 1:
        raise ValidationError(f"row {row} holds {len(pos)} MARK tokens; a passkey row holds exactly one")
    return int(pos[0]) - 1


# The retrieval tasks join the task registry when this module is imported (petheory.nn.tasks imports it, so every
# use of the task registry through petheory.nn.tasks has them).
TASKS.update({name: (make(name), dict(params)) for name, params in DEFAULTS.items()})
