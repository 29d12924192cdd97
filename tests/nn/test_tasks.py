"""petheory.nn.tasks: seeded generators whose samples follow the documented distributions."""

import numpy as np
import pytest
import torch

from petheory.nn import tasks
from petheory.nn.tasks import BOS, EOS, PAD, PLUS, SEP, SYM, TaskConfig

torch.set_num_threads(1)

SMALL_T1 = {"n_samples": 600, "max_between": 10, "max_side": 5, "cut": 20, "max_len": 24}


@pytest.mark.parametrize("name", tasks.available())
def test_same_seed_same_data_other_seed_other_data(name):
    small = {"running_sum": {"n_train": 16, "n_test": 4}, "gu2025_task1": SMALL_T1,
             "gu2025_task2": {"n_samples": 50, "max_count": 8, "length": 12, "max_len": 16},
             "passkey": {"n_train": 16, "n_test": 4, "train_len": 8, "min_len": 6, "test_lens": (8, 12)},
             "mqar": {"n_train": 16, "n_test": 4, "train_len": 8, "min_len": 6, "test_lens": (8, 12), "n_pairs": 2}}.get(
        name, {"n_train": 16, "n_test": 4, "train_len": 5, "test_lens": (5, 7)})
    a, b = tasks.load(TaskConfig(name, 3, small)), tasks.load(TaskConfig(name, 3, small))
    c = tasks.load(TaskConfig(name, 4, small))
    assert torch.equal(a.train.x, b.train.x) and torch.equal(a.train.y, b.train.y)
    assert not torch.equal(a.train.x, c.train.x)


def test_running_sum_targets_are_scaled_prefix_sums():
    d = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 2}))
    x, y = d.train.x[..., 0].double(), d.train.y.double()
    assert d.train.x.shape == (8, 50, 1) and sorted(d.test) == [50, 100, 200]
    assert x.abs().max() <= 1.0
    t = torch.arange(1, 51, dtype=torch.float64)
    assert torch.allclose(y, x.cumsum(1) / t.sqrt(), atol=1e-5)
    m = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 2, "target_scale": "mean"}))
    assert torch.allclose(m.train.y.double(), x.cumsum(1) / t, atol=1e-5)


def test_gu2025_task1_label_is_trigger_distance_and_sentences_follow_the_code():
    d = tasks.load(TaskConfig("gu2025_task1", 42, {"n_samples": 3000}))
    x, y = d.train.x.numpy(), d.train.y.numpy()
    assert d.vocab_size == 574 and d.n_outputs == 72 and x.shape[1] == 128
    assert y.min() >= 2 and y.max() <= 71
    assert (x[:, 120:] == PAD).all() and (x.max() <= 573)
    lengths = (x != PAD).sum(1)
    assert lengths.min() >= 1 + 1 + 1 + 1 + 1 and lengths.max() <= 120
    # The trigger pair is the only pair of words that occurs in (almost) every sentence.
    counts = np.bincount(x[x != PAD], minlength=574)
    w1, w2 = np.argsort(counts)[-2:]
    ok = 0
    for row, label in zip(x, y):
        p1, p2 = np.flatnonzero(row == w1), np.flatnonzero(row == w2)
        if len(p1) == 1 and len(p2) == 1:  # triggers not repeated inside a segment
            ok += abs(int(p2[0]) - int(p1[0])) == label
            assert abs(int(p2[0]) - int(p1[0])) == label
    assert ok > len(x) // 2
    assert len(np.unique(np.concatenate([x, y[:, None]], 1), axis=0)) == len(x)  # duplicates removed
    assert abs(len(d.test[128]) / (len(d.test[128]) + len(x)) - 0.3) < 0.01


def test_gu2025_task1_segments_are_drawn_without_replacement():
    p = {"n_samples": 400, "max_between": 40, "max_side": 5, "cut": 60, "max_len": 64}
    d = tasks.load(TaskConfig("gu2025_task1", 0, p))
    x = d.train.x.numpy()
    # the longest segment (middle) never repeats a word; a whole sentence may (segments are independent)
    counts = np.bincount(x[x != PAD], minlength=574)
    w1, w2 = np.argsort(counts)[-2:]
    for row in x:
        p1, p2 = np.flatnonzero(row == w1), np.flatnonzero(row == w2)
        if len(p1) == 1 and len(p2) == 1:
            a, b = sorted((p1[0], p2[0]))
            mid = row[a + 1:b]
            assert len(np.unique(mid)) == len(mid)


def test_gu2025_task2_label_counts_the_triggers():
    d = tasks.load(TaskConfig("gu2025_task2", 42, {"n_samples": 2000}))
    x, y = d.train.x.numpy(), d.train.y.numpy()
    assert d.n_outputs == 101 and x.shape[1] == 128 and (x[:, 120:] == PAD).all()
    assert ((x[:, :120] != PAD).all())
    assert y.min() == 0 and y.max() == 100
    # the 30 triggers are the words whose count correlates with the label
    ids = np.setdiff1d(np.unique(x), [PAD])
    corr = {w: np.corrcoef((x == w).sum(1), y)[0, 1] for w in ids}
    triggers = sorted(corr, key=corr.get)[-30:]
    assert np.array_equal(np.isin(x, triggers).sum(1), y)
    dz = tasks.load(TaskConfig("gu2025_task2", 42, {"n_samples": 2000, "drop_zero": True}))
    assert dz.train.y.min() >= 1


def _answers(split):
    for x, y, m in zip(split.x, split.y, split.mask):
        seq = torch.cat([x[:1], y]).tolist()
        sep = seq.index(SEP)
        ans = [t for t, keep in zip(y.tolist(), m.tolist()) if keep]
        yield seq[1:sep], ans


def test_lm_tasks_put_the_right_answer_after_sep():
    p = {"n_train": 64, "n_test": 8, "train_len": 6, "test_lens": (6, 9)}
    for name in ("parity", "copy", "reverse", "addition"):
        d = tasks.load(TaskConfig(name, 1, p))
        assert sorted(d.test) == [6, 9]
        for split in (d.train, d.test[9]):
            for inp, ans in _answers(split):
                assert ans[-1] == EOS
                ans = ans[:-1]
                if name == "parity":
                    bits = [t - SYM for t in inp]
                    assert ans == [sum(bits[: i + 1]) % 2 + SYM for i in range(len(bits))]
                elif name == "copy":
                    assert ans == inp
                elif name == "reverse":
                    assert ans == inp[::-1]
                else:
                    k = inp.index(PLUS)
                    num = lambda ds: int("".join(str(t - SYM) for t in ds[::-1]))  # noqa: E731  LSB first
                    assert num(ans) == num(inp[:k]) + num(inp[k + 1:]) and len(ans) == k + 1
        assert all(s.x[:, 0].eq(BOS).all() for s in (d.train, *d.test.values()))
        n_sizes = {len(inp) for inp, _ in _answers(d.test[9])}
        assert n_sizes == ({9} if name != "addition" else {19})


def test_lm_training_sizes_span_min_to_train_len():
    d = tasks.load(TaskConfig("copy", 0, {"n_train": 400, "min_len": 2, "train_len": 5}))
    sizes = {len(inp) for inp, _ in _answers(d.train)}
    assert sizes == {2, 3, 4, 5}


@pytest.mark.parametrize(
    "name, params, match",
    [
        ("running_sum", {"nope": 1}, "has no parameter nope"),
        ("running_sum", {"dist": "cauchy"}, "dist must be one of"),
        ("copy", {"min_len": 9, "train_len": 4}, "min_len=9 must be <= train_len=4"),
        ("copy", {"n_train": 0}, "positive integer"),
        ("gu2025_task1", {"test_fraction": 1.5}, "test_fraction"),
        ("nonexistent", {}, "task must be one of"),
    ],
)
def test_bad_task_parameters_raise(name, params, match):
    with pytest.raises(ValueError, match=match):
        tasks.load(TaskConfig(name, 0, params))
