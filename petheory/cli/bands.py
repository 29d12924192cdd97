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
    import json

    import numpy as np

    from petheory import io as pio
    from petheory.loaders.band_usage import band_usage
    from petheory.scheme import layer_ranges

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
        print(f"{rec['model']} ({rec['model_type']}): {rec['num_layers']} layers, {rec['num_heads']} query / "
              f"{rec['num_kv_heads']} key heads, context {rec['context']}")
        for kind in rec["kinds"]:
            where = f"layers {layer_ranges(kind['layers'])}"
            if "skipped" in kind:
                print(f"  {kind['name']} ({where}): {kind['skipped']}")
                continue
            lam = np.asarray(kind["wavelength_over_reach"])
            span = "" if kind["span"]["kind"] == "full" else f", {kind['span']['kind']} span {kind['span']['size']}"
            print(f"  {kind['name']} ({where}{span}; {kind['pairing']} pairing{', proportional' if kind['proportional'] else ''}"
                  f", {kind['rotary_dim']} of {kind['head_dim']} dimensions rotate, {kind['kv_heads']} key "
                  f"head{'s' if kind['kv_heads'] > 1 else ''}): "
                  f"{lam.size} bands, {int(np.sum(lam > 1))} with a wavelength longer than its reach {kind['reach']}")
            q, k = np.asarray(kind["query"]["norms"]), np.asarray(kind["key"]["norms"])
            quarter = max(1, q.shape[-1] // 4)
            for name, nrm in (("query", q), ("key", k)):
                hi, lo = nrm[..., :quarter].mean(), nrm[..., -quarter:].mean()
                print(f"    {name}: mean band norm, highest-frequency quarter {hi:.4g}, lowest-frequency quarter {lo:.4g}")
    return 0
