"""Two speed-ups of ``petheory check`` (issue 43) that must change nothing but the time: the token types of a corpus
found by a dict instead of a sort, and the BLAS thread limit with its controller made once."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from petheory import _threads
from petheory.geometry import distributions

# tokens as whitespace splitting makes them, and the awkward ones: empty, trailing NUL (numpy drops it), non-ASCII
TOKENS = st.lists(st.one_of(st.sampled_from(["", "a", "a\x00", "A", "é", "ß", "z" * 30, "10", "9"]),
                            st.text(max_size=4)), min_size=1, max_size=60)


@given(TOKENS)
def test_string_types_are_numpys_unique(tokens):
    flat = np.asarray(tokens)
    want = np.unique(flat.astype(str), return_inverse=True, return_counts=True)
    got = distributions._string_types(flat)
    assert got[0].tolist() == want[0].tolist()
    assert np.array_equal(got[1], want[1].reshape(-1)) and np.array_equal(got[2], want[2])


def test_string_types_of_objects_are_numpys_unique():
    flat = np.array(["x", 3, None, "x", 3.5], dtype=object)
    want = np.unique(flat.astype(str), return_inverse=True, return_counts=True)
    got = distributions._string_types(flat)
    assert got[0].tolist() == want[0].tolist() and np.array_equal(got[1], want[1].reshape(-1))


def test_blas_threads_limits_blas_and_makes_its_controller_once(monkeypatch):
    from threadpoolctl import ThreadpoolController

    made = []

    class Counting(ThreadpoolController):
        def __init__(self):
            made.append(1)
            super().__init__()

    monkeypatch.setattr("threadpoolctl.ThreadpoolController", Counting)
    monkeypatch.setattr(_threads, "_controller", None)
    for _ in range(3):
        with _threads.blas_threads(1):
            inside = [p["num_threads"] for p in ThreadpoolController.info(_threads._controller) if p["user_api"] == "blas"]
        assert inside and set(inside) == {1}
    assert len(made) == 1


def test_blas_threads_makes_its_controller_again_after_new_imports(monkeypatch):
    """A module imported since may have loaded another BLAS: the controller is made again so it is limited too."""
    import sys

    with _threads.blas_threads(1):
        first = _threads._controller
    monkeypatch.setitem(sys.modules, "petheory_test_new_module", object())
    with _threads.blas_threads(1):
        assert _threads._controller is not first


@given(st.lists(st.lists(st.sampled_from(["", "a", "a\x00", "b\x00c", "A", "é", "the", "of"]), min_size=1, max_size=6),
                min_size=1, max_size=30), st.integers(1, 4))
def test_lists_of_words_give_the_tables_numpy_gives(seqs, max_vocab):
    """Sequences as lists of words are counted without a numpy array; as tuples they go through numpy: same table."""
    def fast(line):
        return seqs[int(line)]

    def slow(line):
        return tuple(seqs[int(line)])

    lines = [str(i) for i in range(len(seqs))]
    a = distributions.positional_distributions(lines, tokenizer=fast, max_vocab=max_vocab, n=1, on_sparse="keep")
    b = distributions.positional_distributions(lines, tokenizer=slow, max_vocab=max_vocab, n=1, on_sparse="keep")
    assert a.vocab == b.vocab and (a.counts != b.counts).nnz == 0 and a.n_tokens == b.n_tokens
