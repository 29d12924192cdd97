r"""What a training record was trained under: its preset, and the reading of li2025 Table 5.

Records (:func:`petheory.nn.training.train`) carry their full config; these functions name it in
the papers' terms, for the claims, the figures and the README table alike (one definition each).
This module imports no torch: the claim catalogue and the figures read records through it, and
:mod:`petheory.nn` loads its torch modules lazily. The preset table (:mod:`petheory.nn.presets`,
which builds models and imports torch) is imported inside the two functions that rebuild a
preset to identify a record's, a sibling import within ``nn``, never one that climbs a layer.
"""

from __future__ import annotations

def preset_of(record: dict) -> str:
    """The record's preset (``'paper'``, ``'small'``, ``'smoke'`` or ``'custom'``); older records lack the field.

    Parameters
    ----------
    record : dict
        A training record.

    Returns
    -------
    str
        Its ``preset`` field, else what :func:`petheory.nn.presets.identify` makes of its config.

    Examples
    --------
    >>> preset_of({"preset": "paper"}), preset_of({"config": {}})
    ('paper', 'custom')
    """
    if record.get("preset"):
        return record["preset"]
    from petheory.nn.presets import identify
    from petheory.nn.config import TrainConfig

    try:
        return identify(TrainConfig.from_dict(record["config"]))
    except (ValueError, TypeError, KeyError):
        return "custom"


#: Preset sizes from the largest model down: the order a reader of records prefers them in.
PRESET_ORDER = ("paper", "small", "custom", "smoke")


def preset_to_read(records, need=(), key=lambda r: r["pe"]) -> str | None:
    """The preset a reader draws or tests ``records`` at: the largest whose records cover every ``key`` in ``need``.

    Paper-preset records arrive a few runs per GPU slice (issue 44): a largest set that lacks a compared run must
    not replace a complete smaller one.

    Parameters
    ----------
    records : iterable of dict
        Training records (their preset from :func:`preset_of`).
    need : collection
        The keys the reader compares (e.g. PE specs); empty: any.
    key : callable
        A record's key (default: its ``pe``).

    Returns
    -------
    str or None
        The largest preset (:data:`PRESET_ORDER`) whose records cover ``need``, else the largest present; None
        without records.

    Examples
    --------
    >>> recs = [{"pe": "a", "preset": "small"}, {"pe": "b", "preset": "small"}, {"pe": "a", "preset": "paper"}]
    >>> preset_to_read(recs, need={"a", "b"}), preset_to_read(recs), preset_to_read([])
    ('small', 'paper', None)
    """
    have: dict = {}
    for r in records:
        have.setdefault(preset_of(r), set()).add(key(r))
    order = [z for z in PRESET_ORDER if z in have] + sorted(set(have) - set(PRESET_ORDER))
    return next((z for z in order if set(need) <= have[z]), order[0] if order else None)


#: li2025 Table 5: the paper's MSE at N=200 (running sum, trained at 50).
LI2025_TABLE5_MSE200 = {"wavelet": 0.0108, "sinusoidal": 0.0423}
#: The reading of li2025 Table 5 that petheory's paper preset trains (the paper states none).
LI2025_TABLE5_DEFAULT = "causal encoder, y_t = S_t/sqrt(t+1), x ~ U(-1,1)"


def li2025_table5_reading(record: dict) -> str:
    """The reconstruction choices a Table 5 record was trained under (the paper gives none of them).

    Parameters
    ----------
    record : dict
        A running-sum training record.

    Returns
    -------
    str
        Causality, target scaling and input distribution, in plain text (:func:`reading_math` writes its formulas).

    Examples
    --------
    >>> li2025_table5_reading({"config": {"task": {"params": {"dist": "normal"}}}, "model": {"causal": False}})
    'bidirectional encoder, y_t = S_t/sqrt(t+1), x ~ N(0,1)'
    """
    p = record["config"]["task"]["params"]
    scale = {"sqrt_t": "S_t/sqrt(t+1)", "mean": "S_t/(t+1)", "sqrt_train": "S_t/sqrt(50)", "none": "S_t"}
    dist = {"uniform": "x ~ U(-1,1)", "normal": "x ~ N(0,1)"}
    return (f"{'causal' if record['model'].get('causal', True) else 'bidirectional'} encoder, "
            f"y_t = {scale.get(p.get('target_scale', 'sqrt_t'), '?')}, {dist.get(p.get('dist', 'uniform'), '?')}")


def reading_math(name: str) -> str:
    r"""A Table 5 reading (:func:`li2025_table5_reading`, plain text) with its formulas as ``$...$`` math: mathtext in
    a figure's title, MathJax in the docs' verdict table.

    Parameters
    ----------
    name : str
        A reading as :func:`li2025_table5_reading` writes it (``'causal encoder, y_t = S_t/sqrt(t+1), x ~ U(-1,1)'``).

    Returns
    -------
    str
        The same words, the target and the input distribution as ``$...$`` formulas.

    Examples
    --------
    >>> print(reading_math("causal encoder, y_t = S_t/sqrt(t+1), x ~ N(0,1)"))
    causal encoder, $y_t = S_t/\sqrt{t+1}$, $x \sim \mathcal{N}(0, 1)$
    """
    import re

    def target(m):
        return "$y_t = " + re.sub(r"sqrt\(([^)]*)\)", r"\\sqrt{\1}", m.group(1)) + "$"

    name = re.sub(r"y_t = ([^,]+)", target, name)
    return name.replace("x ~ U(-1,1)", r"$x \sim U(-1, 1)$").replace("x ~ N(0,1)", r"$x \sim \mathcal{N}(0, 1)$")


def li2025_table5_paper_size(record: dict) -> bool:
    """Whether a record is li2025 Table 5's paper preset, up to the reconstruction choices (causality, target scaling,
    inputs).

    Parameters
    ----------
    record : dict
        A training record.

    Returns
    -------
    bool
        Whether its config, those choices set to the preset's, is the paper preset.

    Examples
    --------
    >>> li2025_table5_paper_size({"config": {}})
    False
    """
    import dataclasses

    from petheory.nn.presets import identify
    from petheory.nn.config import TrainConfig

    try:
        cfg = TrainConfig.from_dict(record["config"])
    except (ValueError, TypeError, KeyError):
        return False
    params = {k: v for k, v in cfg.task.params.items() if k not in ("target_scale", "dist")}
    canon = dataclasses.replace(cfg, model=dataclasses.replace(cfg.model, causal=True),
                                task=dataclasses.replace(cfg.task, params=params))
    return identify(canon) == "paper"
