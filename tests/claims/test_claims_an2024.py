"""an2024 (STRING, arXiv 2410.18745): the position frequency of §2.2 and STRING's position matrix of §4.1, through
petheory.encodings.shifted and the library's RoPE; a planted violation through each library function the holding
claims read."""

from __future__ import annotations

import numpy as np
import pytest

from petheory.encodings import rotary
from petheory.encodings import shifted as sh
from petheory.errors import ValidationError
from proofs_check.claims import an2024
from proofs_check.engine import get
from proofs_check.runner import check_claim


def record(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)


def test_verdicts():
    assert record("an2024.position_frequency")["verdict"] == "holds"
    assert record("an2024.string_keeps_neighbours_closest")["verdict"] == "holds"
    assert record("an2024.string_query_shift")["verdict"] == "holds"
    share = record("an2024.position_share_2048")
    assert share["verdict"] == "depends"
    by = {x["name"]: x for x in share["readings"]}
    assert by["relative_matrix"]["verdict"] == "refuted" and by["uniform_lengths"]["verdict"] == "holds"
    drops = record("an2024.string_drops_infrequent")
    assert {x["name"]: x["verdict"] for x in drops["readings"]} == {"any_shift": "refuted", "suggested_range": "holds"}


def test_the_2048_shares_are_exact_fractions():
    # f(i) = 2048 - i: sum_{i<=1024} = 1025*2048 - 1024*1025/2 = 1574400 of 2048*2049/2 = 2098176 (75.04 %);
    # i >= 1536: 1 + ... + 512 = 131328 (6.26 %)
    low, high = an2024._shares([2048])
    assert low == pytest.approx(1574400 / 2098176, abs=1e-15) and high == pytest.approx(131328 / 2098176, abs=1e-15)
    low, high = an2024._shares(np.arange(1, 2049))
    assert low > 0.8 and high < 0.05


def test_figure_5_and_the_shift_beyond_half():
    assert sh.string_relative_positions(9, shift=3)[-1].tolist() == [5, 4, 3, 2, 1, 0, 2, 1, 0]
    assert sh.string_relative_positions(9, shift=3, window=1)[-1].tolist() == [6, 5, 4, 3, 2, 1, 2, 1, 0]
    # S = 2 > L/2 = 1.5: the unshifted index 1 stays although N = 1
    assert an2024.string_drops_infrequent({"n": 3, "shift": 2}) == 1.0


def test_bad_input_is_one_line():
    with pytest.raises(ValidationError, match="shift must be >= 1"):
        sh.string_relative_positions(4, shift=0)
    with pytest.raises(ValidationError, match="non-negative integers"):
        sh.position_frequency([2.5], 3)


def test_planted_window_ignored_breaks_the_neighbours(monkeypatch):
    real = sh.string_relative_positions
    monkeypatch.setattr(sh, "string_relative_positions", lambda n, shift, window=0: real(n, shift=shift, window=0))
    assert record("an2024.string_keeps_neighbours_closest")["verdict"] == "refuted"


def test_planted_non_relative_rotation_breaks_the_query_shift(monkeypatch):
    real = rotary.RotaryTable.apply
    monkeypatch.setattr(rotary.RotaryTable, "apply",
                        lambda self, x: real(rotary.RotaryTable(self.angles ** 1.5, self.d, self.pairing), x))
    assert record("an2024.string_query_shift")["verdict"] == "refuted"


def test_planted_frequency_off_by_one(monkeypatch):
    real = sh.position_frequency
    monkeypatch.setattr(sh, "position_frequency", lambda lengths, n: real(lengths, n) + 1)
    assert record("an2024.position_frequency")["verdict"] == "refuted"
