"""``--pe``: one declaration for every command, its help built from the kinds of source the command reads.

Each command names what it accepts (:data:`KINDS`); the help says it in the same words and order everywhere, with the
grammar of a spec (:data:`petheory.spec.GRAMMAR`) once at the end (issue 45: nine commands declared ``--pe`` each with
its own help, and four of them did not say that a model's config.json or a GGUF header is accepted).
"""

from __future__ import annotations

from petheory.spec import GRAMMAR

#: What a ``--pe`` value can name, in the words every command's help uses.
KINDS = {
    "model": "a model: PATH/config.json, hf:DIR or gguf:FILE",
    "folder": "a model folder hf:DIR with config.json and *.safetensors",
    "encoding": "a registered encoding with parameters (alibi:slope=0.5, rope_yarn:scale=4; `petheory encodings` "
                "lists them)",
    "rope": "a registered RoPE with parameters (rope:base=10000)",
    "table": "a table of absolute position vectors: file.npy, file.safetensors[#KEY], pytorch_model.bin or "
             "hf:DIR[#KEY] (hf:minilm: the bundled all-MiniLM-L6-v2)",
    "mechanism": "a position mechanism to train: a registered encoding or mla with parameters, plus at most one "
                 "absolute PE after '+' (alibi, rope+sinusoidal, 'rope:heads=4', 'alibi:slopes=gu2025', "
                 "'learned:n_max=50,beyond=clamp')",
}


def add_pe(p, *kinds: str, several: bool = False, required: bool = False, default: str | None = None,
           note: str | None = None, metavar: str = "SPEC", grammar: bool = True):
    """Declare ``--pe`` on parser (or group) ``p``: ``kinds`` from :data:`KINDS`, in the order the help names them.

    ``several``: repeatable (a list); ``note``: what the command adds (its default, how it reads the value);
    ``grammar``: end with the spec grammar (not for a command that takes a folder only).
    """
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ValueError(f"--pe kinds {unknown or '(none)'}; known: {', '.join(KINDS)}")
    text = "; or ".join(KINDS[k] for k in kinds)
    if several:
        text += "; repeat --pe for several"
    if note:
        text += f" ({note})"
    if grammar:
        text += f". {GRAMMAR}"
    kw = {"metavar": metavar, "help": text}
    if several:
        kw["action"] = "append"
    if required:
        kw["required"] = True
    if default is not None:
        kw["default"] = default
    return p.add_argument("--pe", **kw)
