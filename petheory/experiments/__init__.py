r"""Many training runs: the paper experiments, the grids and sweeps that train them, and what is done to trained runs.

:mod:`petheory.nn` is one model and its training run; this package is what runs many of them and measures them:

:mod:`~petheory.experiments.papers`
    One function per reproduced paper experiment (li2025 Table 5, gu2025 §4-5, chen2025, li2025 §4.2/Eq. 9).
:mod:`~petheory.experiments.sweep`
    A grid of runs from a file or flags, trained by the engine that fits (one by one, a grid, seed ensembles).
:mod:`~petheory.experiments.grid`, :mod:`~petheory.experiments.mixed`, :mod:`~petheory.experiments.ensemble`
    Engines that train many runs as one batched model (and their measurements, :mod:`~petheory.experiments.grid_measure`).
:mod:`~petheory.experiments.chen2025_runs`, :mod:`~petheory.experiments.retrieval_runs`
    chen2025's length-generalisation records and the passkey/MQAR retrieval records (their JSON readers import no torch).
:mod:`~petheory.experiments.context_extension`
    A rotary scaling swapped into a trained RoPE run, or fine-tuned in.
:mod:`~petheory.experiments.extend`
    A trained run evaluated at longer lengths with each scaling swapped in, its record and table (``petheory extend``).
:mod:`~petheory.experiments.extension_lengths`
    Effective length of small RoPE models extended by each of ``plan``'s candidates, beside ``plan``'s checks.
"""
