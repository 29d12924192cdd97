r"""Claims of li2025 (Yin Li, arXiv 2506.06398) about extrapolation past the training length :math:`N_{max}`:
the wavelet atoms' decay and the wavelet encoding's extrapolation (§6.1.4), and the learned PE's collapse past
its table (§6); ALiBi's are in :mod:`proofs_check.claims.li2025_alibi`.

Conventions as in :mod:`proofs_check.claims.li2025`: statements quoted from CLAIMS.md and checked as
stated, every quantity from :mod:`petheory.bounds` or the encodings registry, and a failing statement's
strongest corrected variant registered next to it as ``<id>__corrected``.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from petheory import bounds
from petheory import encodings as enc
from petheory import fits
from petheory.encodings import absolute as enc_absolute
from proofs_check import plants as pl
from proofs_check.engine import Evidence, Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import tolerance


# ============================================================================= wavelet: atom decay

_FAMILIES = {"quick": ["db2", "db4", "sym4"], "thorough": ["haar", "db2", "db4", "db8", "sym4", "coif2"]}


_ATOM_DECAY_RECON = ("Reading c_depends_on_jmax holds for any compactly supported atoms (any beta works), which "
    "makes it vacuous as a decay statement. Reading uniform_c, one C and one beta for all scales: per scale j the smallest C_j "
    "is read off the encoding's own atoms (bounds.wavelet_scale_ratios; beta = the fitted envelope rate of "
    "bounds.wavelet_decay_fit), and log2 max_{j<=j_max} C_j is fitted against j_max (OLS, 95% t-interval; the "
    "data are deterministic, so the interval measures fit, not noise). A uniform C exists iff that slope is 0. "
    "Conventions: dilation 'unit' (psi(2^j t - k), t = pos/N_max, j = 0, 1, ...: the paper's centre k2^-j and "
    "width 2^-j) and 'position' (psi(2^j pos - k), j <= 0); amplitudes c_j = 2^(j/2) ('l2', the standard "
    "orthonormal atom psi_{j,k}), 2^(-j/2) ('paper'), 1 ('none'). The verdict is for the standard atoms "
    "(unit, l2); details give every convention.")


def wavelet_atom_decay(ctx) -> Evidence:
    """Reading 'uniform_c': one C and one beta for all scales."""
    return _atom_decay_uniform("quick" if ctx.profile == "quick" else "thorough")


@functools.lru_cache(maxsize=2)
def _atom_decay_uniform(profile: str) -> Evidence:
    fams = _FAMILIES[profile]
    table = {}
    for w in fams:
        fit = bounds.wavelet_decay_fit(w)
        table[w] = {"beta": fit.beta, "beta_ci95": list(fit.beta_ci), "C_mother": fit.C, "support": fit.support}
        for dil in ("unit", "position"):
            for nm in ("l2", "paper", "none"):
                if dil == "unit":  # d covering scales 0..6
                    S = fit.support
                    d = sum(2**j + S - 1 for j in range(7))
                    r = bounds.wavelet_scale_ratios(d, wavelet=w, n_max=64, normalisation=nm, dilation="unit", beta=fit.beta,
                                                    samples_per_unit=16)
                    js, Cs = r["scales"], r["C"]  # coarse -> fine; j_max grows by adding finer scales
                else:  # all scales -J..0 at n_max = 2^8; j_max grows by adding coarser scales (larger N_max)
                    S = fit.support
                    d = sum((-(-256 // 2 ** (-j)) + S - 1) for j in range(-8, 1))
                    r = bounds.wavelet_scale_ratios(d, wavelet=w, n_max=256, normalisation=nm, dilation="position", beta=fit.beta)
                    js, Cs = r["scales"][::-1], r["C"][::-1]
                running = np.log2(np.maximum.accumulate(np.asarray(Cs)))
                # the asymptotic regime is the tail (j_max -> infinity): fit the last half of the scales. In the
                # position dilation the finest atoms are sampled only at integer positions, so C_j rises over the
                # first few scales and then stays flat; in the unit dilation it keeps growing.
                tail = max(3, (len(js) + 1) // 2)
                lf = fits.fit_line(np.arange(len(js))[-tail:], running[-tail:])
                # flat within rounding: log2 of values that are equal up to ~10 roundings of size |log2 C|
                flat = bool(lf.slope_ci[1] <= tolerance(n_ops=10, scale=float(np.max(np.abs(running)))))
                # or certified: every scale obeys the bound with the mother wavelet's own constant C_psi(beta) e^{beta h}
                # (h the psi sampling step): densely sampled coarse atoms approach C_psi from below
                ceiling = fit.C * math.exp(fit.beta * 2.0**-10)
                capped = bool(max(Cs) <= ceiling * (1 + tolerance(n_ops=10, scale=1.0)))
                uniform = flat or capped
                table[w][f"{dil}/{nm}"] = {"scales": js, "C_j": Cs, "log2_C_growth_per_scale": lf.slope,
                                           "ci95": list(lf.slope_ci), "tail_points": tail,
                                           "max_C_over_mother_C": max(Cs) / fit.C, "flat": flat, "capped": capped,
                                           "uniform_C": uniform}
    verdicts = {f"{w}/{k}": v["uniform_C"] for w in table for k, v in table[w].items() if isinstance(v, dict)}
    holds_for = sorted(k for k, ok in verdicts.items() if ok)
    fails_for = sorted(k for k, ok in verdicts.items() if not ok)
    std = [table[w]["unit/l2"] for w in fams]
    ref = "db2" if "db2" in fams else fams[0]
    r0 = table[ref]["unit/l2"]
    ce = {"wavelet": ref, "dilation": "unit", "normalisation": "l2", "beta": table[ref]["beta"],
          "C_fixed_at_scale_0": r0["C_j"][0], "scale": r0["scales"][1], "C_needed_at_scale_1": r0["C_j"][1],
          "ratio": r0["C_j"][1] / r0["C_j"][0],
          "note": "with C set so the bound holds at j=0, the j=1 atom exceeds it by this ratio; the ratio grows as "
          "2^j (amplitude 2^(j/2) against the stated 2^(-j/2))"}
    details = {"per_family": table, "uniform_C_holds_for": holds_for, "uniform_C_fails_for": fails_for}
    if all(s["uniform_C"] for s in std):
        return Evidence("holds", len(verdicts), margin=0.0, details=details,
                        summary="one C serves every scale for the standard (unit, l2) atoms")
    g = std[0]["log2_C_growth_per_scale"]
    return Evidence(
        "refuted", len(verdicts), margin=-float(g), details=details, counterexample=ce,
        summary=f"standard L2 atoms psi_jk = 2^(j/2) psi(2^j t - k): the smallest C grows as 2^({g:.3f} j) "
        f"(CI {std[0]['ci95'][0]:.3f}..{std[0]['ci95'][1]:.3f}): amplitude 2^(j/2), not 2^(-j/2). The bound holds "
        f"with one C for the 'paper' amplitude (either dilation) and for every amplitude in the 'position' dilation (j <= 0); fails for {', '.join(fails_for)}. "
        f"Fitted envelope rates beta: " + ", ".join(f"{w} {table[w]['beta']:.2f} [{table[w]['beta_ci95'][0]:.2f}, "
                                                    f"{table[w]['beta_ci95'][1]:.2f}]" for w in fams)
        + ". See li2025.wavelet_atom_decay__corrected.",
    )


def wavelet_atom_decay_paper_amplitude(ctx) -> Evidence:
    """Reading 'uniform_c_paper_amplitude': one C for every scale when the atoms carry the paper's :math:`2^{-j/2}` amplitude.

    Decided by the constant the argument constructs, not by the trend: with the paper's amplitude every atom is the
    same interpolated psi dilated and shifted, so :math:`C = C_\\psi(\\beta) e^{\\beta h}` (the mother wavelet's own constant, h the
    psi sampling step) serves every scale j, and the check asks that it bound every :math:`C_j` computed ('capped'). The
    fitted trend ('flat') is reported beside it: in the position dilation the densely sampled coarse atoms approach
    :math:`C_\\psi` from below, so :math:`C_j` still rises by rounding-sized steps there and the trend alone would not certify it."""
    ev = _atom_decay_uniform("quick" if ctx.profile == "quick" else "thorough")
    rows = {f"{w}/{k}": v for w, t in ev.details["per_family"].items() for k, v in t.items()
            if isinstance(v, dict) and k.endswith("/paper")}
    bad = sorted(k for k, v in rows.items() if not v["capped"])
    worst = max(rows.values(), key=lambda v: v["log2_C_growth_per_scale"])
    return Evidence("refuted" if bad else "holds", len(rows), margin=-float(worst["log2_C_growth_per_scale"]),
                    details={"per_construction": rows}, counterexample={"fails_for": bad} if bad else None,
                    summary=(f"one C fails for {', '.join(bad)}" if bad else
                             f"atoms with the paper's amplitude $2^{{-j/2}}$: the mother wavelet's own $C_\\psi(\\beta) e^{{\\beta h}}$ "
                             f"serves every scale in all {len(rows)} constructions (family x dilation; largest $C_j / "
                             f"C_\\psi$ {max(v['max_C_over_mother_C'] for v in rows.values()):.6f})"))


def wavelet_atom_decay_per_jmax(ctx) -> Evidence:
    """Reading 'c_depends_on_jmax': for each :math:`j_{max}` some C (allowed to depend on :math:`j_{max}`) serves every :math:`j \\le j_{max}`."""
    ev = _atom_decay_uniform("quick" if ctx.profile == "quick" else "thorough")
    std = {w: v["unit/l2"] for w, v in ev.details["per_family"].items()}
    finite = all(np.all(np.isfinite(v["C_j"])) and max(v["C_j"]) > 0 for v in std.values())
    needed = {w: {"scales": v["scales"], "C_jmax": np.maximum.accumulate(np.asarray(v["C_j"])).tolist()} for w, v in std.items()}
    ref = next(iter(needed))
    return Evidence(
        "holds" if finite else "refuted", sum(len(v["scales"]) for v in needed.values()), margin=None,
        details={"standard_atoms_C_for_each_jmax": needed}, strength="proved",
        summary="compactly supported, bounded atoms: on the support $e^{\\beta \\lvert u\\rvert} \\le e^{\\beta S}$, so "
        "$C(j_{\\max}) = \\max_{j \\le j_{\\max}} C_j$ is finite for every $\\beta$ and $j_{\\max}$ (the bound is then "
        f"vacuous as a decay statement). Standard (unit, l2) {ref} atoms: $C(j_{{\\max}})$ = "
        + ", ".join(f"{c:.3g}" for c in needed[ref]["C_jmax"])
        + f" for $j_{{\\max}}$ = {needed[ref]['scales'][0]}..{needed[ref]['scales'][-1]}, growing as $2^{{j_{{\\max}}}}$.",
    )


def _unbounded_atoms(mp):
    """Plant: the standard atoms' per-scale constants reported unbounded (C_j = inf), as the atom table reports them."""
    from proofs_check.claims import li2025_extrapolation as X

    real = X._atom_decay_uniform

    def planted(profile):
        ev = real(profile)
        fams = {w: {**t, "unit/l2": {**t["unit/l2"], "C_j": [np.inf] * len(t["unit/l2"]["C_j"])}}
                for w, t in ev.details["per_family"].items()}
        return X.Evidence(ev.verdict, ev.cases, details={**ev.details, "per_family": fams})
    mp.setattr(X, "_atom_decay_uniform", planted)


claim(
    id="li2025.wavelet_atom_decay",
    source="li2025 §6.1.4 (the summary names no status)",
    statement=r"$\lvert\psi_{j,k}(pos)\rvert \le C\,2^{-j/2}\exp(-\beta\lvert pos-k2^{-j}\rvert/2^{-j})$ for $j\le j_{max}$. "
    r"Whether $C$ may depend on $j_{max}$ is not said, nor which amplitude the atoms carry; each reading is checked.",
    kind="asymptotic",
    paper_status=None,  # the summary names no status
    reconstruction=_ATOM_DECAY_RECON,
    readings=[
        Reading("uniform_c", r"one $C$ (and one $\beta$) for every scale $j$, with the library's standard atoms "
                r"(L2 amplitude $2^{j/2}$, unit dilation): the smallest $C_j$ per scale stays bounded as $j_{max}$ grows.",
                check=wavelet_atom_decay, kind="asymptotic"),
        Reading("uniform_c_paper_amplitude", r"one $C$ for every scale, with atoms of the paper's own amplitude "
                r"$2^{-j/2}$ (normalisation 'paper'), either dilation.", check=wavelet_atom_decay_paper_amplitude,
                kind="asymptotic",
                plants=(
                    pl.Plant("paper amplitude replaced by none",
                             pl.attr("petheory.encodings.absolute.wavelet_amplitude", lambda real: (lambda j, nm: real(j, "none")))),
                    pl.Plant("the scale ratios doubled",
                             pl.attr("petheory.bounds.wavelet_scale_ratios", lambda real: (lambda *a, **k: pl.doubled(real(*a, **k))))),
                    pl.Plant("the mother wavelet's C without its e^{beta u} weight",
                             pl.attr("petheory.bounds.wavelet_decay_fit", pl.unweighted_decay_constant)),
                    pl.Plant("(none: fit_line)", lambda mp: None,
                             reads=("petheory.fits:fit_line",),
                             equivalent="the fitted trend of log2 C_j decides only the uniform_c reading (refuted) and the details: the "
                             "holding readings decide by the constant the argument constructs (uniform_c_paper_amplitude: C_psi(beta) "
                             "e^{beta h} bounds every C_j) and by finiteness (c_depends_on_jmax), neither of which reads the fit; the fit "
                             "itself is tests/theory's (petheory.fits against scipy's linregress)"),
                )),
        Reading("c_depends_on_jmax", r"for each $j_{max}$ some $C=C(j_{max})$ serves every $j\le j_{max}$.",
                check=wavelet_atom_decay_per_jmax, kind="asymptotic", evidence="proved",
                plants=(
                    pl.Plant("the standard atoms' per-scale constants unbounded (C_j = inf), "
                             "as the shared atom table reports them", _unbounded_atoms),
                )),
    ],
)


#: The atoms' amplitude :math:`c_j` as the corrected statement gives it, per normalisation (the encoding's features must carry
#: exactly this: petheory.encodings.wavelet_amplitude is what is checked, not what the check reads).
STATED_AMPLITUDE = {"l2": lambda j: 2.0 ** (j / 2), "paper": lambda j: 2.0 ** (-j / 2), "none": lambda j: 1.0}


@st.composite
def _atom_cases(draw):
    """Cases anywhere (the atom must vanish outside its support), inside the atom's support, and at the position
    nearest the point where the bound is tight (the argmax of |psi(s)| e^{beta s}): a position drawn uniformly from
    0..40 N_max meets a given atom's support rarely, and its peak more rarely still."""
    n_max = draw(st.integers(1, 256))
    w, dil, atom = (draw(st.sampled_from(["db2", "db4", "haar", "sym4", "coif1"])),
                    draw(st.sampled_from(["unit", "position"])), draw(st.integers(0, 199)))
    beta = draw(st.floats(0.0, 6.0))
    pos = draw(st.integers(0, 40 * n_max))
    where = draw(st.sampled_from(["anywhere", "support", "peak"]))
    if where != "anywhere":
        x, psi, taps = enc.wavefun(w, 10)
        j, k = enc.wavelet_atoms(atom + 1, taps - 1, dilation=dil, n_max=n_max)[atom]
        unit = (n_max if dil == "unit" else 1) * 2.0 ** -j  # pos = unit (k + s) for s in the support [0, S]
        if where == "peak":
            pos = max(0, round(unit * (k + float(x[np.argmax(np.abs(psi) * np.exp(beta * x))]))))
        elif math.floor(unit * (k + taps - 1)) >= max(0, math.ceil(unit * k)):
            pos = draw(st.integers(max(0, math.ceil(unit * k)), math.floor(unit * (k + taps - 1))))
    return {"wavelet": w, "normalisation": draw(st.sampled_from(["l2", "paper", "none"])), "dilation": dil,
            "n_max": n_max, "atom": atom, "pos": pos, "beta": beta}


@claim(
    id="li2025.wavelet_atom_decay__corrected",
    paper_status=None,  # the summary names no status
    evidence="definitional",
    evidence_note="C_psi(beta) is computed as the maximum of |psi(s)| e^{beta s} over the same sampled psi the "
    "encoding interpolates, so the bound holds by construction of C; what the search adds is that the encoding's "
    "features are c_j psi(2^j u - k) with the stated amplitude and support (zero outside it)",
    source="li2025 §6.1.4 (corrected) (the summary names no status)",
    statement=r"For every $\beta\ge0$, every scale and shift: $\lvert c_j\psi(2^ju-k)\rvert \le C_\psi(\beta)\,c_j\,"
    r"e^{-\beta\lvert 2^ju-k\rvert}$ with $C_\psi(\beta)=\max_s\lvert\psi(s)\rvert e^{\beta s}$ and $c_j$ the atom's "
    r"own amplitude ($2^{j/2}$ for $L^2$-normalised atoms), and $\psi_{j,k}=0$ outside $[k2^{-j},(k+S)2^{-j}]$.",
    kind="exact",
    cases=_atom_cases,
    corrected_of="li2025.wavelet_atom_decay",
    reconstruction="The amplitude is the atom's (2^(j/2) for the orthonormal psi_{j,k}), not 2^(-j/2); the constant "
    "is uniform in j and k. Checked on the encoding's own features (petheory.encodings.wavelet, psi sampled by "
    "PyWavelets and linearly interpolated: the interpolant obeys the bound with C_psi(beta) e^{beta h}, h = the "
    "sampling step 2^-resolution, since |interp| is at most its left neighbour's value). c_j is the statement's "
    "(2^(j/2) 'l2', 2^(-j/2) 'paper', 1 'none'), written here, not read from the library, so an encoding whose "
    "atoms carry another amplitude fails.",
    plants=(
        pl.Plant("wavelet PE tripled", pl.scaled("petheory.encodings.absolute.wavelet", 3.0, 1e-6)),
        pl.Plant("the wavelet function tripled",
                 pl.attr("petheory.encodings.absolute.wavefun", lambda real: (lambda *a, **k: pl.tripled(real(*a, **k))))),
        pl.Plant("the atoms tripled",
                 pl.attr("petheory.encodings.absolute.wavelet_atoms", lambda real: (lambda *a, **k: pl.tripled(real(*a, **k))))),
        pl.Plant("the amplitude of scale j read at -j (a level index for a scale)",
                 pl.attr("petheory.encodings.absolute.wavelet_amplitude", lambda real: (lambda j, nm: real(-j, nm)))),
    ),
)
def wavelet_atom_decay__corrected(case) -> float:
    w, nm, dil, n_max = case["wavelet"], case["normalisation"], case["dilation"], case["n_max"]
    x, psi, taps = enc.wavefun(w, 10)
    S = taps - 1
    a = case["atom"]
    j, k = enc.wavelet_atoms(a + 1, S, dilation=dil, n_max=n_max)[a]
    val = enc_absolute.wavelet(1, a + 1, wavelet=w, n_max=n_max, normalisation=nm, dilation=dil, start=case["pos"])[0, a]
    u = 2.0**j * (case["pos"] / n_max if dil == "unit" else case["pos"]) - k
    beta, h = case["beta"], float(x[1] - x[0])
    C = float(np.max(np.abs(psi) * np.exp(beta * x))) * math.exp(beta * h)
    cj = STATED_AMPLITUDE[nm](j)  # the statement's c_j, not the library's: the encoding must carry it
    if u < 0 or u > x[-1]:
        return float(abs(val))  # outside the support: must be exactly 0
    # val is c_j * interp(u): one product and one interpolation (3 roundings) on values <= C c_j
    return float(abs(val) - C * cj * math.exp(-beta * abs(u)) - tolerance(n_ops=4, scale=C * cj))


# ============================================================================= wavelet: extrapolation


@st.composite
def _wav_extra_cases(draw):
    return {
        "wavelet": draw(st.sampled_from(["db2", "db4", "haar", "sym4", "coif1"])),
        "d": draw(st.integers(1, 64)),
        "n_max": draw(st.integers(2, 512)),
        "normalisation": draw(st.sampled_from(["l2", "paper", "none"])),
        "dilation": draw(st.sampled_from(["unit", "position"])),
        "far": draw(st.integers(0, 10**6)),
    }


def _wav_params(case) -> dict:
    return {k: case[k] for k in ("wavelet", "n_max", "normalisation", "dilation")}


@claim(
    id="li2025.wavelet_extrapolation",
    paper_status=None,  # the summary names no status
    source="li2025 Mechanism 2 (the summary names no status)",
    statement=r"$\lVert PE_{wav}(pos)-PE_{wav}(N_{max})\rVert_2 = O(e^{-\beta(pos-N_{max})})$ for $pos>N_{max}$.",
    kind="exact",
    cases=_wav_extra_cases,
    reconstruction="PE(N_max) is the encoding of the last training position (0-based n_max-1). O(e^{-beta(pos-N_max)}) "
    "requires the left side to tend to 0. The checker evaluates the encoding at two far positions P and 2P+1 past "
    "the end of the atoms' support (bounds.wavelet_support_end): when the encoding is identical there (it is "
    "exactly 0 by compact support), the left side is the same constant ||PE(P) - PE(N_max)|| at every later "
    "position, and the statement fails by that constant whenever it is > 0 (no C can make a constant O(e^{-beta t})).",
)
def wavelet_extrapolation(case) -> float:
    p = _wav_params(case)
    end = bounds.wavelet_support_end(case["d"], case["n_max"], wavelet=case["wavelet"], dilation=case["dilation"])
    P = end + case["far"]
    anchor = enc_absolute.wavelet(1, case["d"], start=case["n_max"] - 1, **p)[0]
    far1 = enc_absolute.wavelet(1, case["d"], start=P, **p)[0]
    far2 = enc_absolute.wavelet(1, case["d"], start=2 * P + 1, **p)[0]
    if np.any(far1 != far2):
        return -1.0  # tail not constant at these points: this checker cannot conclude (never seen)
    gap = float(np.linalg.norm(far1 - anchor))
    quantities(support_end=end, far_positions=[P, 2 * P + 1], distance_far_to_n_max=gap, norm_at_n_max=float(np.linalg.norm(anchor)),
               norm_far=float(np.linalg.norm(far1)), tolerance=tolerance(n_ops=case["d"] + 4, scale=float(np.linalg.norm(anchor)) + 1e-300))
    # a norm of d entries, each a product c_j * interp: gamma_{d+4} relative
    return gap - tolerance(n_ops=case["d"] + 4, scale=float(np.linalg.norm(anchor)) + 1e-300)


@claim(
    id="li2025.wavelet_extrapolation__corrected",
    paper_status=None,  # the summary names no status
    source="li2025 §6.1.4 (corrected) (the summary names no status)",
    statement=r"$PE_{wav}(pos)=PE_\infty:=0$ for every $pos\ge P_S$, $P_S\le\lceil(S+h)N_{max}\rceil+1$ for the unit "
    r"dilation and $\lceil(S+h)2^{\lceil\log_2N_{max}\rceil}\rceil+1$ for the position dilation ($S$ = support length "
    r"of $\psi$, $h=2^{-10}$ PyWavelets' sampling step), so $\lVert PE(pos)-PE_\infty\rVert_2=O(e^{-\beta(pos-N_{max})})$ "
    r"for every $\beta>0$, while $\lVert PE(pos)-PE(N_{max})\rVert_2=\lVert PE(N_{max})\rVert_2$ there.",
    kind="exact",
    cases=_wav_extra_cases,
    corrected_of="li2025.wavelet_extrapolation",
    reconstruction="The limit is the zero vector (every atom has compact support), not PE(N_max): past P_S the "
    "encoding collapses to one point, as the learned PE collapses to p_{N_max}. P_S is computed by "
    "bounds.wavelet_support_end from the atoms in use (h matters only for Haar, whose sampled psi is -1 at x = 1 "
    "and 0 at 1 + h); the checker asks that P_S obey the stated formula, for exact zeros from P_S on (positions past "
    "every support get no interpolated value at all), and for the predicted constant distance to PE(N_max).",
    plants=(
        pl.Plant("wavelet PE never exactly zero far out",
                 pl.scaled("petheory.encodings.absolute.wavelet", 1.0, 1e-9)),
        pl.Plant("the support length one short",
                 pl.attr("petheory.bounds.wavelet_support_length", lambda real: (lambda *a, **k: real(*a, **k) - 1))),
        pl.Plant("the support's end one position early (floor(end), no + 1)",
                 pl.attr("petheory.bounds.wavelet_support_end", lambda real: (lambda *a, **k: real(*a, **k) - 1))),
    ),
)
def wavelet_extrapolation__corrected(case) -> float:
    p = _wav_params(case)
    n_max, d = case["n_max"], case["d"]
    end = bounds.wavelet_support_end(d, n_max, wavelet=case["wavelet"], dilation=case["dilation"])
    S = bounds.wavelet_support_length(case["wavelet"])
    J = math.ceil(math.log2(n_max)) if n_max > 1 else 0
    stated_end = math.ceil((S + 2.0**-10) * (n_max if case["dilation"] == "unit" else 2**J)) + 1
    far = enc_absolute.wavelet(1, d, start=end + case["far"], **p)[0]
    anchor = enc_absolute.wavelet(1, d, start=n_max - 1, **p)[0]
    zero = float(np.max(np.abs(far)))  # exact zeros required
    dist = abs(float(np.linalg.norm(far - anchor)) - float(np.linalg.norm(anchor)))
    return max(zero, float(end > stated_end), dist - tolerance(n_ops=d + 4, scale=float(np.linalg.norm(anchor))))


# ============================================================================= learned PE


@st.composite
def _learned_cases(draw):
    return {
        "n_max": draw(st.integers(1, 256)),
        "extra": draw(st.integers(1, 256)),
        "d": draw(st.integers(1, 64)),
        "seed": draw(st.integers(0, 2**16)),
    }


@st.composite
def _learned_model_cases(draw):
    n_max = draw(st.integers(1, 12))
    extra = draw(st.integers(1, 12))
    T = n_max + extra
    a = draw(st.integers(n_max - 1, T - 1))
    return {
        "n_max": n_max,
        "extra": extra,
        "d": draw(st.sampled_from([4, 8])),
        "n_layer": draw(st.integers(1, 2)),
        "steps": draw(st.integers(0, 4)),
        "seed": draw(st.integers(0, 2**16)),
        "swap": [a, draw(st.integers(n_max - 1, T - 1))],
    }


def _trained_learned_model(case):
    """A small bidirectional Transformer with li2025's learned PE (n_max rows, reuse of the last row past it),
    trained for ``steps`` Adam steps on a random regression task at the training length n_max."""
    import torch

    from petheory.nn import ModelConfig, build_model

    n_max, d = case["n_max"], case["d"]
    torch.manual_seed(case["seed"])
    cfg = ModelConfig(head="regression", pe=f"learned:n_max={n_max},beyond=clamp", vocab_size=0, input_dim=1, out_dim=1,
                      n_layer=case["n_layer"], n_head=1, d_model=d, d_ff=2 * d, max_len=n_max, causal=False)
    model = build_model(cfg).double()
    g = torch.Generator().manual_seed(case["seed"] + 1)
    if case["steps"]:
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        X, Y = torch.randn(8, n_max, 1, generator=g, dtype=torch.float64), torch.randn(8, n_max, 1, generator=g, dtype=torch.float64)
        for _ in range(case["steps"]):
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(X), Y).backward()
            opt.step()
    return model.eval(), g


def learned_no_extrapolation_gap(case) -> tuple[float, float]:
    """(how far positions past :math:`N_{max}` are from collapsing, tolerance): registry rows, the model's rows, and the
    model's outputs, which cannot tell two positions :math:`\\ge N_{max} - 1` apart if they share :math:`p_{N_{max}}`."""
    import torch

    n_max, extra, d = case["n_max"], case["extra"], case["d"]
    T = n_max + extra
    P = enc_absolute.learned(T, d, n_max=n_max, seed=case["seed"], beyond="clamp")
    registry = float(np.max(np.abs(P[n_max:] - P[n_max - 1])))  # row copies are exact
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: thread start-up costs more than the arithmetic
    try:
        model, g = _trained_learned_model(case)
        with torch.no_grad():
            rows = model.abs_pe(T)
            collapse = float((rows[n_max:] - rows[n_max - 1]).abs().max())
            X = torch.randn(1, T, 1, generator=g, dtype=torch.float64)
            a, b = case["swap"]
            perm = torch.arange(T)
            perm[a], perm[b] = b, a
            Y, Yp = model(X)[0], model(X[:, perm])[0]
            gap = float((Yp - Y[perm]).abs().max())  # the swapped tokens' outputs follow them
            gain = 1.0
            for p in model.parameters():
                if p.ndim == 2:
                    gain *= 1.0 + float(torch.linalg.matrix_norm(p, ord=2))
            scale = float(max(Y.abs().max(), X.abs().max(), rows.abs().max()))
    finally:
        torch.set_num_threads(prev)
    # Swapping two keys changes only the order of the n-term sums over keys: rounding, carried through the
    # layers with gain at most the product of (1 + ||W||_2) (as in cirrincione2026.necessity).
    tol = tolerance(n_ops=case["n_layer"] * (T + 4 * d + 16), scale=scale, cond=gain)
    return max(registry, collapse, gap - tol), tol


@claim(
    id="li2025.learned_no_extrapolation",
    paper_status=None,  # the summary names no status
    source="li2025 'Key results' (learned); 'Design tradeoffs' (learned); 'Failure signatures' (learned) (the summary names no status)",
    statement=r"Learned PE has zero extrapolation beyond $N_{max}$: reusing $p_{N_{max}}$ collapses all later positions. "
    r"Checked on trained models: a bidirectional Transformer (petheory.nn, float64) with li2025's learned PE, trained "
    r"for 0-4 Adam steps at length $N_{max}$, run at length $N_{max}+extra$: its position rows past $N_{max}$ equal "
    r"$p_{N_{max}}$ (as in the registry's table), and swapping the tokens at two positions $\ge N_{max}$ only swaps "
    r"their outputs: the model cannot tell those positions apart.",
    kind="exact",
    cases=_learned_model_cases,
    examples={"quick": 20, "thorough": 300},
    evidence="definitional",
    evidence_note="true by the definition of the policy: reusing p_{N_max} gives every later position the same row, so "
    "no model can tell them apart; the search checks that the registry and petheory.nn implement the reuse",
    reconstruction="The paper's policy past the table is beyond='clamp' (reuse the last row), in the registry and in "
    "petheory.nn's AbsolutePE (their default refuses longer inputs). Trained weights are any weights: the collapse "
    "holds for every value of them, so a few steps of a random regression task stand for training. Bidirectional "
    "attention: a causal mask would tell positions apart by itself (see cirrincione2026.necessity).",
    plants=(
        pl.Plant("learned rows past the table differ", pl.leaky_learned),
        pl.Plant("build_model gives the learned table a sinusoidal tail",
                 pl.attr("petheory.nn.build_model", lambda real: (lambda cfg: real(pl.sinusoidal_cfg(cfg))))),
    ),
)
def learned_no_extrapolation(case) -> float:
    return learned_no_extrapolation_gap(case)[0]
