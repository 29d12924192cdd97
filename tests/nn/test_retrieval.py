"""Retrieval tasks (passkey, MQAR), checked against their construction: the key is where the depth says, every
answer is the value stored under its key, and a query's accuracy is scored at its place."""

from __future__ import annotations

import pytest
import torch

from petheory.nn import tasks
from petheory.nn.retrieval import MARK, key_offset, passkey_grid


def _load(name, **params):
    return tasks.load(tasks.TaskConfig(name, 3, {"n_train": 64, "n_test": 32, **params}))


@pytest.mark.parametrize("depth", [0.0, 0.25, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("N", [8, 33, 128])
def test_passkey_key_sits_at_its_depth_and_is_the_answer(N, depth):
    p = tasks.resolve_params("passkey", {"key_len": 3, "min_len": 8, "train_len": 8})
    split = passkey_grid(p, 0, [N], [depth], n=16)[(N, depth)]
    m = p["key_len"]
    assert split.x.shape == (16, N + m)  # BOS + N-1 haystack + SEP + m digits, minus the last as input
    for i in range(16):
        off = key_offset(split, i)
        assert off == round(depth * (N - 1 - (m + 1)))
        row = split.x[i]
        digits = row[1 + off + 1: 1 + off + 1 + m]
        cols = torch.nonzero(split.mask[i]).flatten()
        assert len(cols) == m and torch.equal(split.y[i, cols], digits)  # targets: the digits, nothing else
        assert int(row[N]) == 2  # SEP closes the context of length N
        filler = torch.cat([row[1: 1 + off], row[1 + off + 1 + m: N]])
        assert bool((filler >= 5 + p["alphabet"]).all())  # filler never looks like a digit or the marker


def test_passkey_train_and_test_splits_have_one_marker_per_row_and_uniform_lengths():
    d = _load("passkey", train_len=32, min_len=16, test_lens=(32, 64))
    assert all(int((r == MARK).sum()) == 1 for r in d.train.x)
    for N, s in d.test.items():
        assert s.x.shape[1] == N + d.params["key_len"]
    ctx = (d.train.x != 0).sum(1) - d.params["key_len"] - 1  # non-pad inputs minus SEP and the digits but the last
    assert int(ctx.min()) >= 16 and int(ctx.max()) <= 32


def test_mqar_answers_are_the_values_stored_under_the_queried_keys():
    d = _load("mqar", n_pairs=4, n_keys=8, n_values=8, test_lens=(40,), train_len=32, min_len=16)
    s = d.test[40]
    N, P = 40, 4
    for i in range(len(s)):
        row = s.x[i].tolist() + [int(s.y[i, -1])]
        hay = row[1:N]
        keys = [t for t in hay if 5 <= t < 13]
        assert len(keys) == P and len(set(keys)) == P  # distinct keys
        store = {hay[j]: hay[j + 1] for j in range(len(hay) - 1) if 5 <= hay[j] < 13}
        cols = torch.nonzero(s.mask[i]).flatten().tolist()
        assert len(cols) == P
        for c in cols:
            q, answer = row[c], int(s.y[i, c])
            assert answer == store[q]  # the target after a query key is its stored value
        assert sorted(row[c] for c in cols) == sorted(keys)  # every key queried once


def test_tasks_are_deterministic_in_the_seed():
    a, b = _load("mqar"), _load("mqar")
    assert torch.equal(a.train.x, b.train.x) and torch.equal(a.test[64].y, b.test[64].y)
    c = tasks.load(tasks.TaskConfig("mqar", 4, {"n_train": 64, "n_test": 32}))
    assert not torch.equal(a.train.x, c.train.x)


@pytest.mark.parametrize("name, params, words", [
    ("passkey", {"key_len": 40}, "key_len + 2"),
    ("mqar", {"n_pairs": 9, "n_keys": 8}, "n_pairs <= n_keys"),
    ("mqar", {"n_pairs": 12, "n_keys": 16}, "2 * n_pairs + 1"),
    ("passkey", {"min_len": 40}, "min_len=40 must be <= train_len"),
    ("passkey", {"filler": 0}, "positive integer"),
])
def test_bad_retrieval_sizes_name_the_parameter(name, params, words):
    with pytest.raises(ValueError, match=words.replace("+", r"\+").replace("*", r"\*")):
        tasks.load(tasks.TaskConfig(name, 0, params))


def test_bad_depth_is_refused():
    with pytest.raises(ValueError, match="depth must be in"):
        passkey_grid(tasks.resolve_params("passkey"), 0, [32], [1.5])


class _Oracle(torch.nn.Module):
    """Logits that put all mass on the split's own targets, except on the answers listed in ``wrong`` (by place)."""

    def __init__(self, split, wrong=(), vocab=64):
        super().__init__()
        self.split, self.wrong, self.vocab = split, set(wrong), vocab
        self.w = torch.nn.Parameter(torch.zeros(1))

    def forward(self, x):
        rows = [int(torch.nonzero((self.split.x == r).all(1))[0]) for r in x]
        y, mask = self.split.y[rows], self.split.mask[rows]
        out = torch.nn.functional.one_hot(y, self.vocab).float()
        for i in range(len(rows)):
            cols = torch.nonzero(mask[i]).flatten()
            for j in self.wrong:
                out[i, cols[j]] = torch.roll(out[i, cols[j]], 1)  # the next token id instead of the target
        return out


def test_query_accuracy_scores_each_query_by_its_place():
    from petheory.nn.retrieval import query_accuracy

    s = _load("mqar", n_pairs=3, n_keys=8, n_values=8, test_lens=(24,), train_len=24, min_len=16).test[24]
    assert query_accuracy(_Oracle(s), s) == [1.0, 1.0, 1.0]
    assert query_accuracy(_Oracle(s, wrong=[0]), s, batch_size=5) == [0.0, 1.0, 1.0]  # batches do not change it
    assert query_accuracy(_Oracle(s, wrong=[1, 2]), s) == [1.0, 0.0, 0.0]


def test_query_accuracy_refuses_splits_without_a_fixed_answer_count():
    from petheory.errors import ValidationError
    from petheory.nn.retrieval import query_accuracy

    s = _load("mqar", n_pairs=2, test_lens=(16,), train_len=16, min_len=8).test[16]
    ragged = tasks.Split(s.x, s.y, s.mask.clone())
    ragged.mask[0, :] = 0
    with pytest.raises(ValidationError, match="same number"):
        query_accuracy(_Oracle(s), ragged)
    with pytest.raises(ValidationError, match="answer mask"):
        query_accuracy(_Oracle(s), tasks.Split(s.x, s.y, None))
