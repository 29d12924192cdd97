"""``petheory plan``: what to set (training-free) and what to train with (fine-tuning) for a target context, each with
the outcome published results lead one to expect, the theory's checks beside them, and the configs.

For a model's config.json (or a registry RoPE) and a target context N: per rotary full-attention layer kind,
the candidates (a raised base by Men et al. and by Liu et al., PI, NTK-aware, dynamic NTK, YaRN, Llama 3),
each checked at N (Men's :math:`B_m \\ge 0` up to N, Liu's extrapolation bound, the bands' phase range: predictors, shown
with their measured accuracy on the evidence table), a training-free and a fine-tuning recommendation with the
expected RULER score at N from :mod:`petheory.evidence` (or "no evidence"), and for each candidate the
transformers 5.x / 4.x config block, llama.cpp's flags and vLLM's override (:func:`petheory.analyses.plan.plan`).
On the terminal, as JSON (``--json``), as Markdown (``--markdown``).
"""

from __future__ import annotations

NAME = "plan"
HELP = ("what to set (training-free) and what to train with (fine-tuning) for a target context N, each with the "
        "outcome published results lead one to expect, and the runtime configs")
DESCRIPTION = (
    "What should I set to run this model at N tokens, and what should I train with? For --pe (a model's config.json, "
    "hf:DIR, or a registered RoPE) and --length N: per rotary full-attention layer kind (a Gemma-style model scales "
    "only its global layers), the candidates -- the first base >= the model's whose Men kernel B_m stays >= 0 up to N "
    "(certified by bracket and refine, or said not to be), the base whose Liu bound T_extra reaches N, PI, "
    "NTK-aware, dynamic NTK, YaRN, Llama 3 -- each checked at N (Men, Liu, phase range: shown as predictors, with their measured accuracy on published results), with the bands "
    "kept/interpolated, the logit factor, the kernel's decay and its certified extreme eigenvalues. Two "
    "recommendations: training-free (what to set at inference) and fine-tuning (what to train with at N), each the "
    "candidate whose method family published context-extension results (petheory/data/extension_evidence.json, each "
    "row with its source table) expect to score highest on RULER at N, with the median and range of those results "
    "and their leave-one-source-out error, or 'no evidence' where no result covers a candidate; and for each candidate "
    "the transformers 5.x rope_parameters and 4.x rope_scaling blocks, llama.cpp's flags and vLLM's --hf-overrides. "
    "N must exceed the original context L (an extension method added at a trained length does not help: STRING's table)."
)


#: Head dimension of a registry RoPE in a plan (a model's config fixes its own).
DEFAULT_D = 128


def add_arguments(p) -> None:
    """Declare ``petheory plan``'s options on ``p``: the model, the target context N, the original context L, the head
    dimension and the base grid (from the library's declarations), and the outputs.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "rope", "--length", "8192"]).length
    8192
    """
    from petheory.analyses.plan import plan
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    add_pe(p, "model", "rope", required=True)
    add_param(p, plan, "length", required=True, metavar="N", help="the target context N (> the original context L; "
              "the expectations are for N/L)")
    add_param(p, plan, "context", metavar="L", help="the original context the factors count from (default: the "
              "config's original_max_position_embeddings, else the model card's where petheory knows the family's "
              "(Qwen3: 32,768; Mistral 7B v0.1: 8,192), else max_position_embeddings; a registry RoPE's n_max, "
              "else 4096); the plan prints which one it used")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D",
              help=f"head dimension of a registry RoPE (default {DEFAULT_D}; a model's config fixes its own)")
    add_param(p, plan, "base_grid", metavar="K", help="bases per decade of the first pass of the "
              "Men base search (default 64); the base_men candidate is the first base >= the model's with B_m >= 0 "
              "for every m <= N: a grid pass, then every base below the grid's either certified failing or the "
              "first passing one found to 1e-6 (bracket and refine, islands included); when the fixed search "
              "budget runs out first, the plan says the base is not certified; a K whose grid pass would exceed its own fixed "
              "budget is refused, naming the largest K that fits")
    p.add_argument("--json", metavar="FILE", help="write the plan as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the plan as Markdown to FILE ('-' for stdout)")


def run(args) -> int:
    """Plan ``args.pe`` for the target context ``args.length`` (:func:`petheory.analyses.plan.plan`) and print the plan
    (or write it as JSON and Markdown).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("plan").parse_args(["plan", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("plan").parse_args(["plan", "--pe", "rope:base=10000", "--context", "1024", "--length", "4096", "-d", "64"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'rope:base=10000 (spec): plan from L = 1,024 to N = 4,096 (s = 4); max_position_embeddings 1,024')
    """
    from petheory.analyses.plan import plan
    from petheory.io import atomic_write_set, distinct_outputs, json_text
    from petheory.loaders import resolve_scheme

    distinct_outputs({"--json": args.json, "--markdown": args.markdown})
    scheme = resolve_scheme(args.pe, d=args.d, default_d=DEFAULT_D, default_context=args.context, what="plan")
    rec = plan(scheme, length=args.length, context=args.context if scheme.source != "spec" else None,
               base_grid=args.base_grid, source=str(args.pe))
    texts = [(args.json, json_text(rec.command_json()) + "\n"), (args.markdown, rec.markdown())]
    for f, text in texts:
        if f == "-":
            print(text, end="")
    # the two files as one set: a failure writing either leaves both earlier ones as they were
    atomic_write_set({f: (lambda fh, t=text: fh.write(t.encode("utf-8"))) for f, text in texts if f not in (None, "-")})
    if "-" not in (args.json, args.markdown):
        print(rec)
        if not args.quiet:
            print(f"({rec.seconds} s)")
    return 0
