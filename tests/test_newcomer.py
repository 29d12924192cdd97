"""A newcomer's friction list (issue 12): each point that can be tested, tested as the user meets it."""

from __future__ import annotations

import sys

import pytest

from petheory import loaders


# ----------------------------------------------------------------------------- 12.4 extras messages


def test_missing_submitit_names_the_command_that_works_from_a_clone(monkeypatch, tmp_path):
    from petheory import sweep

    monkeypatch.setitem(sys.modules, "submitit", None)  # import submitit -> ImportError
    with pytest.raises(ValueError, match=r'pip install -e "\.\[cluster\]"'):
        sweep._run_slurm([None], [0], tmp_path, {}, None, lambda *a: None)
