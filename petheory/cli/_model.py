"""The one argument every command that takes a model adds: ``--as-family FAMILY``."""

from __future__ import annotations


def add_as_family(p) -> None:
    """``--as-family FAMILY``: read a model's config.json as this verified model type (the user's assertion)."""
    p.add_argument("--as-family", metavar="FAMILY", default=None,
                   help="read a model's config.json as this verified model type (e.g. llama) when petheory does not "
                        "know or has not verified its own: your assertion that its code positions tokens that way, "
                        "stated in the output (docs/guide/families.md lists the verified types)")
