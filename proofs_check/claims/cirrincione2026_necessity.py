r"""Claims of cirrincione2026 (G. Cirrincione, *On the Geometry of Positional Encodings in
Transformers*, arXiv 2604.05217) about whether a Transformer can tell positions apart: Theorem 1 (Necessity:
without a positional signal it cannot), checked on real torch modules, and the Positional Separation Theorem
(with one, distinct positions get distinct representations), checked on the position probes of training records.
"""

from __future__ import annotations

from hypothesis import strategies as st

from proofs_check.claims.cirrincione2026 import SRC
from proofs_check import plants as pl
from proofs_check.engine import Evidence, Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import tolerance


# ============================================================================ necessity (torch)


@st.composite
def _necessity_cases(draw, attentions=("causal", "bidirectional")):
    n = draw(st.integers(2, 8))
    return {
        "attention": draw(st.sampled_from(attentions)),
        "output": draw(st.sampled_from(["pooled", "per_token"])),
        "model": draw(st.sampled_from(["encoder_layer", "mha", "encoder_2layers"])),
        "norm_first": draw(st.booleans()),
        "n": n,
        "d_model": draw(st.sampled_from([4, 8, 16])),
        "nhead": draw(st.sampled_from([1, 2])),
        "seed": draw(st.integers(0, 2**16)),
        "perm": draw(st.permutations(list(range(n)))),
    }


def _bidirectional_cases():
    return _necessity_cases(attentions=("bidirectional",))


def permutation_gap(case) -> tuple[float, float]:
    """(largest change of the output under the permutation, tolerance); see :func:`_permutation_gap`.

    Runs torch on one thread (restored afterwards): the matrices are tiny, and on a busy 2-core
    machine thread start-up costs ~40x the arithmetic.
    """
    import torch  # noqa: F401  (loaded first, so torch_threads has a pool to set)

    from petheory._threads import torch_threads

    with torch_threads(1):
        return _permutation_gap(case)


def _mask(case):
    """The additive attention mask of the case's variant: causal (-inf above the diagonal) or none."""
    import torch

    if case["attention"] == "causal":
        return torch.nn.Transformer.generate_square_subsequent_mask(case["n"], dtype=torch.float64)
    return None


def _permutation_gap(case) -> tuple[float, float]:
    """(largest change of the output under the permutation, tolerance) for a torch model without PE.

    pooled: |mean_t f(X_pi)_t - mean_t f(X)_t|_inf (invariance); per_token: |f(X_pi) - f(X)_pi|_inf
    (equivariance: each token's output follows the token).
    """
    import torch

    n, dm, H = case["n"], case["d_model"], case["nhead"]
    torch.manual_seed(case["seed"])
    kw = dict(d_model=dm, nhead=H, dim_feedforward=2 * dm, dropout=0.0, batch_first=True, norm_first=case["norm_first"])
    if case["model"] == "mha":
        net = torch.nn.MultiheadAttention(dm, H, dropout=0.0, batch_first=True)
    elif case["model"] == "encoder_layer":
        net = torch.nn.TransformerEncoderLayer(**kw)
    else:
        net = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(**kw), num_layers=2, enable_nested_tensor=False)
    net = net.double().eval()
    X = torch.randn(1, n, dm, dtype=torch.float64, generator=torch.Generator().manual_seed(case["seed"] + 1))
    perm = torch.tensor(case["perm"])
    mask = _mask(case)

    # Autograd stays on (as in training): under no_grad torch dispatches tiny inputs to its fused
    # inference kernel, which is ~50x slower here and checks the same mathematics.
    def f(Z):
        if case["model"] == "mha":
            return net(Z, Z, Z, attn_mask=mask, need_weights=False)[0][0].detach()
        if case["model"] == "encoder_layer":
            return net(Z, src_mask=mask, is_causal=mask is not None)[0].detach()
        return net(Z, mask=mask, is_causal=mask is not None)[0].detach()

    Y, Yp = f(X), f(X[:, perm])
    if case["output"] == "pooled":
        gap = float((Yp.mean(0) - Y.mean(0)).abs().max())
    else:
        gap = float((Yp - Y[perm]).abs().max())
    # Rounding differs between the two orders of summation over keys (n terms) and features; it is carried
    # through the layers with gain at most the product of (1 + ||W||_2) over the weight matrices.
    gain = 1.0
    for p in net.parameters():
        if p.ndim == 2:
            gain *= 1.0 + float(torch.linalg.matrix_norm(p.detach(), ord=2))
    scale = float(max(Y.abs().max(), X.abs().max()))
    layers = 2 if case["model"] == "encoder_2layers" else 1
    tol = tolerance(n_ops=layers * (n + 4 * dm + 16), scale=scale, cond=gain)
    return gap, tol


def necessity(case) -> float:
    gap, tol = permutation_gap(case)
    quantities(output_change_under_permutation=gap, tolerance=tol)
    return gap - tol


def _causal_cases():
    return _necessity_cases(attentions=("causal",))


@claim(
    id="cirrincione2026.necessity__corrected",
    paper_status="theorem",
    source=f"{SRC}; Theorem 1 (corrected)",
    statement=r"A Transformer with bidirectional (unmasked) attention and no positional signal is permutation-"
    r"equivariant per token, $f(X_\pi)=f(X)_\pi$, and permutation-invariant after symmetric pooling, so with a "
    r"pooled readout it cannot solve any task whose label changes under a permutation of the input. Causal "
    r"attention is excluded: a causal mask is itself a positional signal (the prefix a token sees), and causal "
    r"Transformers without PE are not permutation-invariant.",
    kind="exact",
    cases=_bidirectional_cases,
    corrected_of="cirrincione2026.necessity",
    examples={"quick": 40},
    plants=(
        pl.Plant("a causal mask (a positional signal) slipped into every variant",
                 pl.attr("proofs_check.claims.cirrincione2026_necessity._mask",
                       lambda real: (lambda case: __import__("torch").nn.Transformer.generate_square_subsequent_mask(
                           case["n"], dtype=__import__("torch").float64)))),
    ),
)
def necessity__corrected(case) -> float:
    gap, tol = permutation_gap(case)
    return gap - tol


_NECESSITY_HOW = (r"Checked on real torch modules without PE (MultiheadAttention, TransformerEncoderLayer pre/post-norm, "
                  r"a 2-layer TransformerEncoder; random weights, float64); 'equivalent' = pooled (mean) output "
                  r"invariant, per-token outputs equivariant $f(X_\pi)=f(X)_\pi$.")

claim(
    id="cirrincione2026.necessity",
    source=f"{SRC}; Theorem 1 (Necessity)",
    statement=r"Any Transformer without a positional signal treats every permutation of the input as equivalent, and so "
    r"cannot solve any task sensitive to word order. Whether a causal mask counts as a positional signal is not "
    r"said; each reading is checked. " + _NECESSITY_HOW,
    kind="exact",
    paper_status="theorem",
    readings=[
        Reading("mask_is_not_a_signal", r"'without a positional signal' includes causal (masked) Transformers without "
                r"PE: they too treat every permutation as equivalent.", check=necessity, cases=_causal_cases,
                examples={"quick": 40}),
        Reading("mask_is_a_signal", r"a causal mask is a positional signal, so the theorem is about bidirectional "
                r"attention: without PE it is permutation-equivariant per token and invariant after pooling (same "
                r"computation as cirrincione2026.necessity__corrected).", check=necessity__corrected,
                cases=_bidirectional_cases, examples={"quick": 40},
                plants=(
                    pl.Plant("a causal mask (a positional signal) slipped into every variant",
                             pl.attr("proofs_check.claims.cirrincione2026_necessity._mask",
                                   lambda real: (lambda case: __import__("torch").nn.Transformer.generate_square_subsequent_mask(
                                       case["n"], dtype=__import__("torch").float64)))),
                )),
    ],
)


# ============================================================================ positional separation


SEPARATION_ACC = 0.9  # held-out probe accuracy that counts as "the position is determined" (documented choice)


def separation_evidence(records: list[dict], note: str = "") -> Evidence:
    """Positional separation on trained models, from the records' position probes (petheory.nn.probes).

    Reading (reconstruction): a model whose position signal is a vector added per position
    (absolute PEs, alone or beside RoPE) "gives distinct positions distinct representations" when
    a linear probe recovers every position from its last-layer representation: held-out accuracy
    >= SEPARATION_ACC in every seed. Trained models are not certified global minimisers, so a
    failure is reported as ``inconclusive`` (evidence against, not a counterexample); ``holds``
    needs every such model to separate. Relative mechanisms (RoPE alone, ALiBi, T5, relative,
    MLA) and NoPE give positions no vector; their probes are reported beside, not judged.
    """
    from petheory.nn.position import parse_pe

    rows: dict = {}
    for r in records:
        pr = r.get("probe")
        if not pr:
            continue
        try:
            cfg = parse_pe(r["pe"])
        except ValueError:
            continue
        absolute = cfg.kind == "absolute" and cfg.name != "nope" or bool(cfg.absolute)
        e = rows.setdefault((r["task"], r["pe"]), {"absolute": absolute, "acc": [], "chance": pr["chance"],
                                                   "positions": pr["positions"]})
        e["acc"].append(pr["accuracy"])
    judged = {k: v for k, v in rows.items() if v["absolute"]}
    if not judged:
        return Evidence("inconclusive", 0, details={"skipped": note},
                        summary="no records with position probes (records/ ships them; `petheory train` writes them)")
    fails = {f"{t}/{pe}": min(v["acc"]) for (t, pe), v in judged.items() if min(v["acc"]) < SEPARATION_ACC}
    table = {f"{t}/{pe}": {"min_acc": round(min(v["acc"]), 4), "seeds": len(v["acc"]), "chance": round(v["chance"], 4),
                           "positions": v["positions"], "judged": v["absolute"]} for (t, pe), v in sorted(rows.items())}
    margin = min(min(v["acc"]) for v in judged.values()) - SEPARATION_ACC
    n = sum(len(v["acc"]) for v in rows.values())
    ok = ", ".join(f"`{k}` {min(v['acc']):.3f}" for k, v in ((f"{t}/{pe}", v) for (t, pe), v in sorted(judged.items()))
                   if k not in fails)
    bad = ", ".join(f"`{k}` {v:.3f}" for k, v in fails.items())
    details = {"criterion": f"held-out linear probe of position from the last layer, accuracy >= {SEPARATION_ACC} in "
               "every seed, for models with an absolute position vector", "per_model": table, "skipped": note}
    if fails:
        return Evidence("inconclusive", n, margin=margin, details=details,
                        summary=f"separated (min accuracy over seeds): {ok or 'none'}; NOT separated: {bad} "
                        "(trained models, not certified global minimisers: evidence against, not a counterexample)")
    return Evidence("holds", n, margin=margin, details=details, summary=f"every absolute-PE model separates: {ok}")


@claim(
    id="cirrincione2026.positional_separation",
    paper_status="theorem",
    source=f"{SRC}; Positional Separation Theorem",
    statement="At every global minimiser, under mild verifiable conditions, distinct positions get distinct "
    "representations.",
    kind="empirical",
    setup="reconstruction",
    alpha=0.05,
    reconstruction="The abstract states neither the model class, the loss, the conditions nor what a position's "
    "'representation' is, and global minimisers cannot be enumerated. Checked on trained models instead (the "
    "shipped records: li2025 Table 5 at the paper preset and gu2025 Tasks 1/2 at the small preset, 5 seeds per PE, "
    "plus any under runs/): every record carries a held-out linear probe of position from the last layer "
    "(petheory.nn.probes). Pre-registered: models with an absolute position vector separate positions when the probe's "
    f"accuracy is >= {SEPARATION_ACC} in every seed; holds if all do; a failure is inconclusive (not a certified "
    "minimiser). A threshold over seeds is not a test: no p-value is reported, so under the runner's rules (DESIGN.md) a "
    "'holds' stays inconclusive until a test over seeds is pre-registered. Related exact facts: "
    "exact_reproduction_impossible__corrected, necessity.",
)
def positional_separation(ctx) -> Evidence:
    from proofs_check.claims import _empirical as emp

    recs, note = [], ""
    for task in ("running_sum", "gu2025_task1", "gu2025_task2"):
        r, n = emp.find(task, ctx.workdir or ".")
        recs += r
        note = note or n
    return separation_evidence(recs, note)


# ============================================================================ memory of a --case
# Bytes a checker needs on a case, so that `petheory check --case` refuses a size that cannot fit before
# the checker allocates (proofs_check.runner.replay reads ``checker.memory``; library calls guard themselves).
necessity.memory = lambda case: 8 * (4 * case["nhead"] * case["n"] ** 2 + 16 * case["n"] * case["d_model"]
                                     + 12 * case["d_model"] ** 2)  # attention scores, activations, weights
necessity__corrected.memory = necessity.memory
