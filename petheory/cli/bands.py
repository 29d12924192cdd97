"""``petheory bands``: the norm of each rotary frequency band of W_q and W_k, per head and layer, from a model's weights."""

from __future__ import annotations

NAME = "bands"
HELP = "band usage from weights: norm of each RoPE frequency band of W_q and W_k per head and layer (hf:DIR)"
DESCRIPTION = (
    "For a Hugging Face model directory with safetensors weights (hf:DIR): the norm of each rotary band's two rows of "
    "W_q and W_k, per head and layer (pairing from the model family, key heads as stored under grouped-query "
    "attention), with each band's wavelength against the context; the weight-space counterpart of Barbero et al. "
    "2025's band-usage measurement. Reads one tensor at a time."
)


def add_arguments(p) -> None:
    p.add_argument("--pe", required=True, metavar="hf:DIR", help="a model directory with config.json and *.safetensors")
    p.add_argument("--context", type=int, metavar="L", help="context the wavelengths are compared with (default: the "
                   "config's original context)")
    p.add_argument("--json", metavar="FILE", help="write the record as JSON to FILE ('-' for stdout)")
    p.add_argument("--figure", metavar="FILE.png", help="draw the heatmaps (FILE.png and FILE.json)")


def run(args) -> int:
    import json

    import numpy as np

    from petheory.io import atomic_write_json
    from petheory.loaders.band_usage import band_usage

    rec = band_usage(args.pe, context=args.context)
    if args.json == "-":
        print(json.dumps(rec, indent=2))
    elif args.json:
        atomic_write_json(args.json, rec)
    if args.figure:
        from petheory.plots import use_agg
        from petheory.plots.long_context import save_band_usage

        use_agg()
        paths = save_band_usage(rec, args.figure)
        if not args.quiet and args.json != "-":
            print(f"figure: {', '.join(map(str, paths))}")
    if args.json != "-":
        q, k = np.asarray(rec["query"]["norms"]), np.asarray(rec["key"]["norms"])
        lam = np.asarray(rec["bands"]["global"]["wavelength_over_context"])
        over = int(np.sum(lam > 1))
        print(f"{rec['model']} ({rec['model_type']}, {rec['pairing']} pairing): {len(rec['layers'])} layers, "
              f"{rec['num_heads']} query / {rec['num_kv_heads']} key heads, {q.shape[-1]} bands of which {over} have a "
              f"wavelength longer than the context {rec['context']}")
        quarter = max(1, q.shape[-1] // 4)
        for name, n in (("query", q), ("key", k)):
            hi, lo = n[..., :quarter].mean(), n[..., -quarter:].mean()
            print(f"  {name}: mean band norm, highest-frequency quarter {hi:.4g}, lowest-frequency quarter {lo:.4g}")
    return 0
