"""A newcomer's second run (issue 20): each point that can be tested, tested as the user meets it."""

from __future__ import annotations

import json

import pytest

from petheory.cli import main


# ----------------------------------------------------------------------------- 20.2 bounds with a spec's own n_max


@pytest.mark.parametrize("spec,n_max", [("rope_yarn:scale=4,n_max=32768", 32768), ("learned:n_max=50", 50),
                                        ("wavelet:n_max=50", 50)])
def test_bounds_takes_a_specs_own_n_max_as_the_training_length(spec, n_max, capsys):
    assert main(["bounds", "--pe", spec, "--length", "4096", "--json", "-"]) == 0
    [row] = json.loads(capsys.readouterr().out)["rows"]
    assert row["n_max"] == n_max
    assert main(["bounds", "--pe", spec, "--length", "4096", "--n-max", str(n_max), "--json", "-"]) == 0  # the same: fine
    assert json.loads(capsys.readouterr().out)["rows"][0]["n_max"] == n_max


def test_bounds_refuses_two_different_training_lengths_as_bad_input(capsys):
    assert main(["bounds", "--pe", "learned:n_max=50", "--n-max", "40", "--length", "100"]) == 2
    err = capsys.readouterr().err
    assert "learned:n_max=50 and --n-max 40" in err and "give one" in err


def test_yarn_original_context_comes_from_the_spec_then_n_max_then_the_registry(capsys):
    def n_max(*argv):
        assert main(["bounds", "--pe", "rope_yarn:scale=4", "--length", "8192", "--json", "-", *argv]) == 0
        return json.loads(capsys.readouterr().out)["rows"][0]["norm"]["params"]["n_max"]

    assert n_max() == 2048  # the registry's default, named in --help
    assert n_max("--n-max", "4096") == 4096
    with pytest.raises(SystemExit):
        main(["bounds", "--help"])
    assert "YaRN's original context" in capsys.readouterr().out


def test_yarn_at_mscale_one_claims_no_added_vector():
    from petheory.bounds import norm_bound

    nb = norm_bound("rope_yarn", 512, 64, scale=4.0, mscale=1.0)
    assert "sup ||PE||" not in nb.stated_formula and nb.additive is None


# ----------------------------------------------------------------------------- 20.4 -q hides progress, never results


@pytest.mark.parametrize("argv,expect", [
    (["stress", "--pe", "rope", "--null-draws", "0"], "stress"),
    (["bounds", "--pe", "alibi"], "alibi"),
    (["spectrum", "--pe", "alibi", "--n", "64"], "eigenvalue range"),
    (["encodings", "--kind", "bias"], "alibi"),
    (["compare", "--pe", "alibi", "--null-draws", "2", "--n", "32", "--lengths", "32,64"], "alibi"),
])
def test_quiet_still_prints_the_results(argv, expect, capsys):
    assert main([*argv, "-q"]) == 0
    cap = capsys.readouterr()
    assert expect in cap.out and cap.err == ""


# ----------------------------------------------------------------------------- 20.8 piped output prints whole cells


def test_piped_check_table_keeps_every_word_whole(capsys):
    assert main(["check", "--claims", "chen2025.learned_relation_pe,gu2025.lemma_b1_range", "-q"]) == 0
    out = capsys.readouterr().out
    # the evidence cell is printed on one line, whole: no token cut across lines
    assert "significantly worse on parity/fire-vs-nope/s0/small" in out
    assert "petheory check --claims gu2025.lemma_b1_range --case '" in out  # the replay command, whole


def test_piped_bounds_table_shows_specs_whole(capsys):
    specs = ["rope_yarn:scale=4,beta=32,alpha=1,n_max=32768", "rope_yarn:scale=4,beta=16,alpha=1,n_max=32768"]
    assert main(["bounds", "--pe", specs[0], "--pe", specs[1], "--length", "65536"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "rope_yarn" in ln]
    assert len(lines) == 2 and "beta=32," in lines[0] and "beta=16," in lines[1]
    assert all("…" not in ln for ln in lines)
