"""``petheory bands``: the norm of each rotary frequency band of :math:`W_q` and :math:`W_k`, per head and layer, from a model's weights."""

from __future__ import annotations

NAME = "bands"
HELP = "band usage from weights: norm of each RoPE frequency band of W_q and W_k per head and layer (hf:DIR)"
DESCRIPTION = (
    "For a Hugging Face model directory with safetensors weights (hf:DIR): the norm of each rotary band's two rows of "
    "W_q and W_k, per head and layer, read from the tensors transformers loads for the model type and the layers its "
    "config declares, each layer with its own kind's rotation (pairing, rotary width, head size; NoPE layers marked), "
    "key heads as stored under grouped-query attention, and each band's wavelength against the kind's reach "
    "(min(context, its span)); the weight-space counterpart of Barbero et al. 2025's band-usage measurement. Reads "
    "one tensor at a time."
)


def add_arguments(p) -> None:
    """Declare ``petheory bands``'s options on ``p``: --pe hf:DIR (a model folder with its weights), --context, --json
    and --figure.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "hf:model"]).pe
    'hf:model'
    """
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders.band_usage import band_usage

    add_pe(p, "folder", required=True, metavar="hf:DIR", grammar=False)
    add_param(p, band_usage, "context", metavar="L", help="context the wavelengths are compared with (default: the "
              "config's original context)")
    p.add_argument("--json", metavar="FILE", help="write the record as JSON to FILE ('-' for stdout)")
    p.add_argument("--figure", metavar="FILE.png", help="draw the heatmaps (FILE.png and FILE.json); a FILE.json that "
                   "another command wrote is not replaced")


def run(args) -> int:
    """Read the rotary weights of the model folder ``args.pe`` and print their band record (or write it as JSON, and
    draw the heatmaps).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("bands").parse_args(["bands", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> run(build_parser("bands").parse_args(["bands", "--pe", "hf:no-such-folder"]))
    Traceback (most recent call last):
    ...
    FileNotFoundError: model directory not found: no-such-folder
    """
    import json

    from petheory import io as pio
    from petheory.loaders.band_usage import band_usage, band_usage_lines

    fig_json = pio.figure_json(args.figure) if args.figure else None
    pio.distinct_outputs({"--json": args.json, "--figure": args.figure, "--figure (its .json)": fig_json})
    if fig_json is not None:  # the figure's data goes to FILE.json: never over another command's output
        pio.refuse_replacing(fig_json, own_field="figure", by="a petheory figure")
    rec = band_usage(args.pe, context=args.context)
    if args.json == "-":
        print(json.dumps(rec, indent=2))
    elif args.json:
        pio.atomic_write_json(args.json, rec)
    if args.figure:
        from petheory.plots import use_agg
        from petheory.plots.long_context import save_band_usage

        use_agg()
        paths = save_band_usage(rec, args.figure)
        if not args.quiet and args.json != "-":
            print(f"figure: {', '.join(map(str, paths))}")
    if args.json != "-":
        print("\n".join(band_usage_lines(rec)))
    return 0
