"""What transformers' own modules do with a config, per layer: the oracle of the verification sweep (:mod:`tools.verify.sweep`).

:func:`facts` builds a configuration's text model on the ``meta`` device (modules, no weights), finds its
decoder layers and their attention modules, and reads from them what positions and the logit scale depend on:
the head size, the softmax scale (``scaling`` and its older spellings), the sliding window, the sinks, whether
the attention's ``forward`` applies the rotary embedding at that layer (the condition around the call to the
rotary function is evaluated on the module itself; one it cannot evaluate is reported, never guessed), and any
other factor on the queries, keys or logits its ``forward`` reads from ``self`` (``key_multiplier``, ...). The
rotary module is rebuilt on the CPU (its buffers are small) for its inverse frequencies (one set per layer type
where it keeps several), its cos/sin factor and M-RoPE sections. ALiBi slopes and T5 buckets come from the
families' own functions. Everything returned is JSON (floats as Python floats), so the sweep caches it.

Needs torch and transformers (the test extra); a tool, not the library.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import os
import re
import textwrap

import torch

#: Attention-like classes that are not softmax attention over the token sequence (they carry no positions here).
NOT_SOFTMAX = ("Linear", "Lightning", "GatedDeltaNet", "Delta", "Mamba", "Cross", "ShortConv", "Vision", "Audio", "Image",
               "Indexer", "Pooling", "Resampler", "Perceiver", "Projector", "Merger")
#: ``self.X`` read in an attention's forward that may scale queries, keys or logits beyond ``scaling``.
FACTOR_NAME = re.compile(r"multiplier|scale|scalar|temperature|softcap|mscale", re.I)
#: Factors on an MLA's key/value latent (dots.llm3, LongCat-Flash): they scale the unrotated keys and the values it
#: expands to, so the content term of the logits only, never the rotary one.
KV_LATENT_SCALES = ("kv_lora_scale", "mla_scale_kv_lora")
#: Names a rotary call goes by in a forward.
ROTARY_CALL = re.compile(r"rotary|rope|rotate", re.I)


def _float(x):
    if isinstance(x, torch.Tensor):
        return float(x.detach().double().item()) if x.numel() == 1 and x.device.type != "meta" else None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def build_meta(config):
    """The text model of ``config`` (its own class where transformers maps the text config, else the whole model), on
    the meta device."""
    from transformers import AutoModel
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

    with torch.device("meta"):
        text = config.get_text_config(decoder=True)
        if text is not config and text.model_type in MODEL_MAPPING_NAMES:
            try:
                return AutoModel.from_config(text), text
            except Exception:  # noqa: BLE001 - fall back to the whole model
                pass
        return AutoModel.from_config(config), text


def decoder_layers(model, text) -> list:
    """(qualified name, layer module) of the text decoder's layers (T5-style: the encoder's, then the decoder's)."""
    n = getattr(text, "num_hidden_layers", None)
    lists = []
    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.ModuleList) and len(mod) and not re.search(
                r"vision|visual|audio|image|speech|mtp|vit|patch|connector|projector|merger", name, re.I):
            lists.append((name, mod))
    enc = [x for x in lists if re.search(r"(^|\.)encoder\.(block|layers?)$", x[0])]
    dec = [x for x in lists if re.search(r"(^|\.)decoder\.(block|layers?)$", x[0])]
    if enc and dec:
        return [(f"{enc[0][0]}.{i}", m) for i, m in enumerate(enc[0][1])] + \
               [(f"{dec[0][0]}.{i}", m) for i, m in enumerate(dec[0][1])]
    match = [x for x in lists if len(x[1]) == n and not re.search(r"experts|heads|norms?$", x[0])]
    twice = [x for x in lists if n and 2 * len(x[1]) == n and all(isinstance(getattr(m, "self_attn", None),
                                                                            torch.nn.ModuleList) for m in x[1])]
    if not match and twice:  # LongCat-Flash: each decoder layer runs two attention sublayers (num_hidden_layers = 2 x)
        name, mods = min(twice, key=lambda x: x[0].count("."))
        return [(f"{name}.{i}.self_attn.{j}", a) for i, m in enumerate(mods) for j, a in enumerate(m.self_attn)]
    if not match:
        shared = _run_order(model, text)
        if shared:
            return shared
        raise LookupError(f"no module list of num_hidden_layers={n} layers in {type(model).__name__}")
    name, mods = min(match, key=lambda x: x[0].count("."))
    return [(f"{name}.{i}", m) for i, m in enumerate(mods)]


def _run_order(model, text) -> list:
    """The layers a model runs more than once, in the order its forward runs them (empty: none found).

    ALBERT (``AlbertTransformer.forward``): step i of num_hidden_layers runs group ``int(i / (n / num_hidden_groups))``,
    each group all its ``inner_group_num`` layers. HRM (``HrmTextModel.forward``): per high cycle, L_cycles passes of
    the L stack then one of the H stack, num_layers_per_stack layers each, whatever num_hidden_layers says (the
    product, as ``HrmTextConfig`` derives it when the file has no num_layers_per_stack)."""
    for name, mod in model.named_modules():
        pre = f"{name}." if name else ""
        if isinstance(getattr(mod, "albert_layer_groups", None), torch.nn.ModuleList):
            n, groups = text.num_hidden_layers, text.num_hidden_groups
            out = []
            for i in range(n):
                g = int(i / (n / groups))
                out += [(f"{pre}albert_layer_groups.{g}.albert_layers.{j}", m)
                        for j, m in enumerate(mod.albert_layer_groups[g].albert_layers)]
            return out
        if hasattr(mod, "L_module") and hasattr(mod, "H_module"):
            out = []
            for _ in range(text.H_cycles):
                for stack in ["L_module"] * text.L_cycles + ["H_module"]:
                    out += [(f"{pre}{stack}.layers.{j}", m) for j, m in enumerate(getattr(mod, stack).layers)]
            return out
    return []


def attention_of(layer, prefix: str = ""):
    """The softmax self-attention module of a decoder layer (None: a layer without one, such as a Mamba layer);
    ``prefix``: the model's class-name prefix (KimiLinear), stripped before the class name is judged."""
    found = []
    for name, mod in layer.named_modules():
        cls = type(mod).__name__
        bare = cls[len(prefix):] if prefix and cls.startswith(prefix) else cls
        mla = name == "" and cls.endswith("MLA")  # LongCat-Flash's sublayer itself (decoder_layers lists its two)
        if not (cls.endswith(("Attention", "Attention2", "SelfAttention")) or mla) or any(x in bare for x in NOT_SOFTMAX):
            continue
        if re.search(r"cross|encoder_attn|vision", name, re.I):
            continue
        found.append((name.count("."), name, mod))
    return min(found, key=lambda x: (x[0], x[1]))[2] if found else None


def _forward_tree(cls):
    try:
        src = textwrap.dedent(inspect.getsource(cls.forward))
    except (OSError, TypeError):
        return None
    return ast.parse(src)


class _Rope(ast.NodeVisitor):
    """Calls to a rotary function in a forward, each with the conditions (test, taken) around it."""

    def __init__(self):
        self.calls, self.stack = [], []

    def visit_If(self, node):
        self.visit(node.test)
        self.stack.append((node.test, True))
        for n in node.body:
            self.visit(n)
        self.stack[-1] = (node.test, False)
        for n in node.orelse:
            self.visit(n)
        self.stack.pop()

    def visit_IfExp(self, node):
        self.stack.append((node.test, True))
        self.visit(node.body)
        self.stack[-1] = (node.test, False)
        self.visit(node.orelse)
        self.stack.pop()

    def visit_Call(self, node):
        name = ast.unparse(node.func)
        if ROTARY_CALL.search(name.split(".")[-1]):
            self.calls.append((name, list(self.stack)))
        self.generic_visit(node)


def rope_applied(attn, env: dict):
    """(True / False / None, why): whether the attention's forward rotates queries and keys at this layer.

    ``env`` gives the values of the forward's local names a condition may test (``position_embeddings``: whether
    the model passes them). None when a condition reads something else: the reason names it.
    """
    tree = _forward_tree(type(attn))
    if tree is None:
        return None, f"no source for {type(attn).__name__}.forward"
    v = _Rope()
    v.visit(tree)
    if not v.calls:
        return False, "its forward calls no rotary function"
    answers = []
    for name, conds in v.calls:
        ok = True
        for test, taken in conds:
            try:
                val = bool(eval(compile(ast.Expression(test), "<cond>", "eval"), {"__builtins__": {}},
                                {"self": attn, **env}))
            except Exception:  # noqa: BLE001 - a name the tool does not know: unverifiable
                return None, f"{type(attn).__name__}.forward applies {name} under `{ast.unparse(test)}`"
            ok = ok and (val == taken)
        answers.append(ok)
    return any(answers), "evaluated"


def extra_factors(attn, skip=("scaling",)) -> list:
    """``self.X`` names read in the attention's forward that look like a factor on q, k or the logits (not ``skip``:
    the softmax scale), with their values."""
    tree = _forward_tree(type(attn))
    out = {}
    if tree is None:
        return []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
                and FACTOR_NAME.search(node.attr) and node.attr not in skip \
                and not re.match(r"v_|value", node.attr) \
                and node.attr not in KV_LATENT_SCALES:  # a factor on the values, not on q, k or the logits
            val = getattr(attn, node.attr, None)
            out[node.attr] = _float(val) if _float(val) is not None else (None if val is None else repr(val)[:40])
    return sorted(out.items())


def _layer_factors(layer) -> list:
    """A decoder layer's factor on its attention's input (Falcon-H1's ``attention_in_multiplier``: q and k both)."""
    val = _float(getattr(layer, "attention_in_multiplier", None))
    return [] if val is None else [("attention_in_multiplier^2", val * val)]


def softmax_scale(attn, head_dim):
    """The factor on q.k before the softmax, as the module keeps it (``scaling`` or an older spelling)."""
    for key in ("scaling", "softmax_scale", "scale", "inv_norm_factor"):
        val = _float(getattr(attn, key, None))
        if val is not None:
            return val, key
    for key in ("norm_factor", "scale_attn"):  # sqrt(head_dim) divides the logits
        val = _float(getattr(attn, key, None))
        if val:
            return 1.0 / val, key
    tree = _forward_tree(type(attn))  # ModernBERT: scaling=self.head_dim**-0.5 in the call, evaluated on the module
    for node in ast.walk(tree) if tree is not None else ():
        kw = next((k for k in getattr(node, "keywords", []) if k.arg == "scaling"), None)
        if isinstance(node, ast.Call) and kw is not None:
            try:
                val = _float(eval(compile(ast.Expression(kw.value), "<scaling>", "eval"), {"__builtins__": {}},
                                  {"self": attn}))
            except Exception:  # noqa: BLE001 - an expression of names the tool does not know: unverifiable
                return None, f"scaling=`{ast.unparse(kw.value)}` in its forward"
            if val is not None:
                return val, f"scaling=`{ast.unparse(kw.value)}`"
    return None, "no scaling attribute"


def global_window(model) -> bool:
    """Whether the text model masks every layer with ``config.sliding_window`` (one sliding mask for all layers,
    Mistral/PhiMoE style) rather than per layer type."""
    for name, mod in model.named_modules():
        if name.count(".") <= 1 and hasattr(mod, "layers") and hasattr(type(mod), "forward"):
            try:
                src = inspect.getsource(type(mod).forward)
            except (OSError, TypeError):
                return False
            return "create_sliding_window_causal_mask" in src and "sliding_attention" not in src
    return False


def window_of(attn, text, everywhere: bool = False):
    if hasattr(attn, "is_sliding"):  # EXAONE 4 style: config.sliding_window on every layer, used where is_sliding
        return getattr(attn, "sliding_window", None) if attn.is_sliding else None
    if hasattr(attn, "sliding_window"):
        w = attn.sliding_window
        return int(w) if w is not None else None
    tree = _forward_tree(type(attn))
    if everywhere or tree is not None and re.search(r"self\.config, .sliding_window.|self\.config\.sliding_window",
                                                    ast.unparse(tree)):
        w = getattr(text, "sliding_window", None)  # Mistral, StarCoder2: config.sliding_window on every layer
        return int(w) if w is not None else None
    return None


def mrope_layout(model, emb) -> str | None:
    """'interleaved' (Qwen3-VL's apply_interleaved_mrope: band t follows axis t mod 3) or 'chunked' (sections in
    order), read from the rotary class's and the modeling module's source; None when neither pattern is found."""
    srcs = []
    for obj in (type(emb), modeling_module(model)):
        try:
            srcs.append(inspect.getsource(obj))
        except (OSError, TypeError):
            pass
    src = "\n".join(srcs)
    if re.search(r"freq_h, freq_w, freq_t = .*\n.*torch\.stack\(\[freq_h, freq_w\]", src):
        return "hw_alternating"  # ERNIE 4.5-VL's recomposition_frequencies
    if re.search(r"mrope_section\[\w+\] \* 3", src):
        return "interleaved"
    if re.search(r"split\((self\.)?mrope_section|mrope_section \* 2|m\[i % 3\]", src):
        return "chunked"
    return None


def rotary_modules(model):
    """The text model's rotary embedding modules (not vision/audio ones): (name, module). The model's own name is no
    sign of a vision or audio module (KyutaiSpeechToTextModel's text rotary is KyutaiSpeechToTextRotaryEmbedding)."""
    own = type(model).__name__

    def other(n, m):
        cls = type(m).__name__
        return re.search(r"vision|visual|audio|image|speech|patch|vit", n + cls[len(os.path.commonprefix([own, cls])):],
                         re.I)
    return [(n, m) for n, m in model.named_modules() if type(m).__name__.endswith("RotaryEmbedding") and not other(n, m)]


def _rebuild(mod, text):
    """A rotary module rebuilt on the CPU from the text config (its inv_freq and factor readable)."""
    cls = type(mod)
    params = inspect.signature(cls.__init__).parameters
    kwargs = {}
    own = getattr(mod, "config", None)  # Granite-SWA's per-theta modules keep a copy of the config with their theta
    if "config" in params:
        kwargs["config"] = own if type(own) is type(text) else text
    elif "dim" in params:
        return None
    if "layer_type" in params and getattr(mod, "layer_type", None) is not None:
        kwargs["layer_type"] = mod.layer_type
    if "scaled" in params:  # Molmo2's unscaled module keeps rope_type "default" whatever the config's is
        rp = getattr(kwargs.get("config"), "rope_parameters", None) or {}
        kwargs["scaled"] = getattr(mod, "rope_type", None) == rp.get("rope_type", "default")
    with torch.device("cpu"):
        return cls(**kwargs)


def _hw_alternating(entry: dict) -> None:
    """ERNIE 4.5-VL's module keeps its ladder permuted (``inv_freq_3d``: the first hw = h + w bands' even ones, then
    their odd ones, then the t bands) and stacks its h and w halves back in forward: the ladder in band order, and its
    sections (h, w, t) in the axes' order (t, h, w) as the scheme holds them."""
    h, w, t = entry["mrope_section"]
    for key, inv in entry.get("inv_freq", {}).items():
        ordered = list(inv)
        ordered[0:h + w:2], ordered[1:h + w:2] = inv[:h], inv[h:h + w]
        entry["inv_freq"][key] = ordered
    entry["mrope_section"] = [t, h, w]


def rotary_facts(model, text) -> dict:
    """Per rotary module and per layer type it keeps: the inverse frequencies (float64 list), the cos/sin factor."""
    out = {}
    for name, mod in rotary_modules(model):
        cpu = _rebuild(mod, text)
        if cpu is None:
            out[name] = {"error": f"{type(mod).__name__} is not built from the config"}
            continue
        entry = {"class": type(cpu).__name__}
        learned = [n for n, _ in cpu.named_parameters()]
        if learned:  # Mistral Large 4's alpha: the frequencies it runs are the buffers times learned weights
            entry["learned"] = learned
        for bname, buf in cpu.named_buffers():
            if bname.endswith("inv_freq") and "original" not in bname:
                key = bname[: -len("inv_freq")].rstrip("_") or "default"
                entry.setdefault("inv_freq", {})[key] = [float(x) for x in buf.double().flatten()]
        table = getattr(cpu, "embed_positions", None)
        if "inv_freq" not in entry and isinstance(table, torch.Tensor) and table.ndim == 2 and table.shape[0] > 1:
            # GPT-J / CodeGen: a [sin | cos] table over positions (create_sinusoidal_positions); its frequencies are
            # the angles at position 1 (each < pi, so atan2 returns them), once row 0 shows the layout
            h = table.shape[1] // 2
            row0, row1 = table[0].double(), table[1].double()
            if table.shape[1] % 2 == 0 and torch.all(row0[:h] == 0) and torch.all(row0[h:] == 1):
                entry.setdefault("inv_freq", {})["default"] = [float(x) for x in torch.atan2(row1[:h], row1[h:])]
                entry["from_table"] = True
        for attr in dir(cpu):
            if attr.endswith("attention_scaling"):
                key = attr[: -len("attention_scaling")].rstrip("_") or "default"
                val = getattr(cpu, attr, None)
                if isinstance(val, (int, float)) or isinstance(val, torch.Tensor):
                    entry.setdefault("attention_scaling", {})[key] = _float(val)
        for attr in ("mrope_section",):
            val = getattr(cpu, attr, None)
            if val is not None:
                entry["mrope_section"] = [int(x) for x in val]
                entry["mrope_layout"] = mrope_layout(model, cpu)
        if entry.get("mrope_layout") == "hw_alternating":
            _hw_alternating(entry)
        for attr in ("rope_type",):
            val = getattr(cpu, attr, None)
            entry["rope_type"] = val if isinstance(val, (str, dict)) else None
        out[name] = entry
    return out


def _calls_only_interleave(attn) -> bool:
    """Whether the text attention's forward rotates with ``apply_rotary_pos_emb_interleave`` alone (dots.llm3, whose
    module's ``apply_rotary_pos_emb`` is its audio encoder's)."""
    tree = _forward_tree(type(attn)) if attn is not None else None
    if tree is None:
        return False
    v = _Rope()
    v.visit(tree)
    names = {name.split(".")[-1] for name, _ in v.calls}
    return "apply_rotary_pos_emb_interleave" in names and "apply_rotary_pos_emb" not in names


def pairing(model, text, attn=None):
    """('half' | 'interleaved' | None, why, reflected): which coordinate the family's ``apply_rotary_pos_emb`` (the
    interleave variant where the text attention ``attn`` calls that one alone) pairs with coordinate 0, on its own
    rotary module's cos/sin at position 1, and whether it turns the pair by -theta."""
    mod = modeling_module(model)
    apply = getattr(mod, "apply_rotary_pos_emb", None)
    if hasattr(mod, "apply_rotary_pos_emb_interleave") and (apply is None or getattr(text, "rope_interleave", False)
                                                            or _calls_only_interleave(attn)):
        # DeepSeek-V3 style: the attention calls it when rope_interleave; a family that has only this one (Bailing
        # hybrid's MLA) calls it always
        apply = mod.apply_rotary_pos_emb_interleave
    complex_apply = apply is None and hasattr(mod, "apply_rotary_emb")  # Llama 4, DeepSeek-V2: freqs_cis
    if complex_apply:
        apply = mod.apply_rotary_emb
    rots = rotary_modules(model)
    if apply is None or not rots:
        return None, "no module-level apply_rotary_pos_emb", False
    try:
        emb = _rebuild(rots[0][1], text)
        params = inspect.signature(emb.forward).parameters
        types = [None]
        if "layer_type" in params:  # the first layer type the module keeps frequencies for (LFM3 lists conv layers)
            types = [t for t in dict.fromkeys(getattr(text, "layer_types", None) or ["full_attention"])
                     if hasattr(emb, f"{t}_inv_freq")] or ["full_attention"]
        kw = {} if types[0] is None else {"layer_type": types[0]}
        pos = torch.tensor([[0, 1]])
        if getattr(emb, "mrope_section", None) is not None or "mrope" in type(emb).__name__.lower():
            pos = torch.tensor([[[0, 1]]] * 3)
        got = emb(torch.zeros(1, 2, 8), pos, **kw)
        one_tensor = next(iter(inspect.signature(apply).parameters)) == "x"  # Gemma 3n / 4: apply(x, cos, sin)
        # GPT-J, CodeGen: apply(tensor, sin, cos) on (B, T, H, d), their module returning (sin, cos) of half width
        sin_first = list(inspect.signature(apply).parameters)[:3] == ["tensor", "sin", "cos"]

        def run(q):
            if sin_first:
                sin, cos = got
                return apply(q.transpose(1, 2), sin.float(), cos.float()).transpose(1, 2)
            if complex_apply:
                try:  # (B, H, T, d): DeepSeek-V2 broadcasts freqs_cis over the heads
                    return apply(q, q.clone(), got)[0]
                except RuntimeError:  # (B, T, H, d): Llama 4
                    return apply(q.transpose(1, 2), q.transpose(1, 2).clone(), got)[0].transpose(1, 2)
            cos, sin = got
            return apply(q, cos.float(), sin.float()) if one_tensor else apply(q, q.clone(), cos.float(), sin.float())[0]

        last = None if complex_apply else got[0].shape[-1]
        widths = [2 * got.shape[-1]] if complex_apply else [last, 2 * last]  # gpt-oss's cos holds one entry per band
        for width in widths:
            q = torch.eye(width)[None, :, None, :].repeat(1, 1, 2, 1)  # head j holds e_j at both positions
            try:
                out = run(q)
                break
            except RuntimeError:
                if width == widths[-1]:
                    raise
        # logits between e_0 at position 1 and e_j at position 0: nonzero for j = 0 and j = 0's partner, whatever
        # layout the function works in (DeepSeek's interleave permutes q and k alike)
        q2 = torch.stack([out[0, 0, 1] @ out[0, j, 0] for j in range(width)]).detach()  # a learned module's grad
    except Exception as exc:  # noqa: BLE001 - a family whose apply takes other arguments: not read
        return None, f"apply_rotary_pos_emb not callable here ({type(exc).__name__})", False
    nz = [i for i in range(1, q2.numel()) if abs(float(q2[i])) > 1e-6]
    # the partner's component is +sin(w_0) in the convention petheory's rotate and every kernel use (e_0 turns towards
    # its partner); a negative one is a rotation by -theta (NanoChat's rotate_half flips the signs): Positions.reflected
    reflected = len(nz) == 1 and float(q2[nz[0]]) < 0
    why = "evaluated" + (": it rotates by -theta (coordinate 0 turns away from its partner)" if reflected else "")
    if nz == [width // 2]:
        return "half", why, reflected
    if nz == [1]:
        return "interleaved", why, reflected
    return None, f"coordinate 0 pairs with {nz[:3]}", False


def _per_type_position_embeddings(model) -> bool:
    """Whether the text model passes each layer its own layer type's position embeddings (None for a null entry of
    ``rope_parameters``: Beam)."""
    for name, mod in model.named_modules():
        if name.count(".") <= 1 and hasattr(mod, "rotary_emb"):
            try:
                src = inspect.getsource(type(mod).forward)
            except (OSError, TypeError):
                return False
            return "position_embeddings[layer_type] = None" in src
    return False


def _layer_condition(model):
    """Per layer index, whether the text model's forward passes that layer its position embeddings, where the call
    in its ``for i, layer in enumerate(...)`` loop chooses between them and None (``position_embeddings=pe if
    self.config.layer_rope_theta[i] else None``: Muse's NoPE layers; LaraMini's global layers); evaluated on the module
    itself with the loop's index and the plain assignments before the call. None when the forward has no such
    choice; else a function of the index that raises LookupError naming the expression when it reads something else."""
    for name, mod in model.named_modules():
        if not (name.count(".") <= 1 and hasattr(mod, "rotary_emb")):
            continue
        tree = _forward_tree(type(mod))
        for loop in ast.walk(tree) if tree is not None else ():
            if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter.func) ==
                    "enumerate" and isinstance(loop.target, ast.Tuple) and isinstance(loop.target.elts[0], ast.Name)):
                continue
            assigned = {s.targets[0].id: s.value for s in loop.body if isinstance(s, ast.Assign)
                        and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)}
            for stmt_no, stmt in enumerate(loop.body):
                for call in ast.walk(stmt):
                    kw = next((k for k in getattr(call, "keywords", []) if k.arg == "position_embeddings"), None)
                    exp = None if kw is None else kw.value
                    if isinstance(exp, ast.Name) and isinstance(assigned.get(exp.id), ast.IfExp):
                        exp = assigned[exp.id]  # Granite-SWA: pe = by_theta[theta] if theta else None, then passed
                    if not (isinstance(call, ast.Call) and isinstance(exp, ast.IfExp)):
                        continue
                    nones = [isinstance(b, ast.Constant) and b.value is None for b in (exp.body, exp.orelse)]
                    if nones.count(True) != 1:
                        continue  # a choice between two tables: every layer gets one
                    before = [s for s in loop.body[:stmt_no] if isinstance(s, ast.Assign) and len(s.targets) == 1
                              and isinstance(s.targets[0], ast.Name)]
                    return _passes(mod, loop.target.elts[0].id, before, exp, none_if_true=nones[0])
        return None
    return None


def _passes(mod, index: str, before: list, exp, none_if_true: bool):
    def passes(i):
        env = {"self": mod, index: i}
        for s in before:  # the loop's assignments, each where the tool can evaluate it (the test says if it needs more)
            try:
                env[s.targets[0].id] = eval(compile(ast.Expression(s.value), "<assign>", "eval"), {"__builtins__": {}},
                                            env)
            except Exception:  # noqa: BLE001 - a name of the forward's own (a tensor table): not needed by the test
                pass
        try:
            val = bool(eval(compile(ast.Expression(exp.test), "<cond>", "eval"), {"__builtins__": {}}, env))
        except Exception as exc:  # noqa: BLE001 - a name the tool does not know: unverifiable
            raise LookupError(f"{type(mod).__name__}.forward passes position_embeddings=`{ast.unparse(exp)}`") from exc
        return val != none_if_true
    return passes


def _rotary_by_theta(model, text):
    """Granite-SWA: the model keeps one rotary module per distinct non-zero ``layer_rope_theta`` (``rotary_embs``) and
    passes layer i the one whose config's ``rope_theta`` is ``layer_rope_theta[i]`` (its forward's
    ``position_embeddings_by_theta``): layer index -> that module's name; None for a model without them."""
    thetas = getattr(text, "layer_rope_theta", None)
    for name, mod in model.named_modules():
        embs = getattr(mod, "rotary_embs", None)
        if name.count(".") <= 1 and isinstance(embs, torch.nn.ModuleList) and thetas:
            keyed = {m.config.rope_parameters["rope_theta"]: f"{name + '.' if name else ''}rotary_embs.{k}"
                     for k, m in enumerate(embs)}
            return lambda i: keyed.get(thetas[i])
    return None


def _rotary_by_key(model):
    """Molmo2: the text model's forward builds ``pe = {"scaled": self.rotary_emb(...), "unscaled":
    self.rotary_emb_unscaled(...)}`` and passes layer i ``pe[<expression of i>]``: layer index -> the module's name,
    the expression evaluated on the module with the loop's index (None for an index it cannot evaluate); None for a
    model without such a table."""
    for name, mod in model.named_modules():
        if not (name.count(".") <= 1 and hasattr(mod, "rotary_emb")):
            continue
        tree = _forward_tree(type(mod))
        tables = {}
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Dict):
                attrs = {}
                for k, v in zip(node.value.keys, node.value.values):
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
                            and isinstance(v.func.value, ast.Name) and v.func.value.id == "self":
                        attrs[k.value] = v.func.attr
                if attrs and len(attrs) == len(node.value.keys):
                    tables[node.targets[0].id] = attrs
        for loop in ast.walk(tree) if tables else ():
            if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter.func) ==
                    "enumerate" and isinstance(loop.target, ast.Tuple) and isinstance(loop.target.elts[0], ast.Name)):
                continue
            for call in ast.walk(loop):
                kw = next((k for k in getattr(call, "keywords", []) if k.arg == "position_embeddings"), None)
                exp = None if kw is None else kw.value
                if isinstance(exp, ast.Subscript) and isinstance(exp.value, ast.Name) and exp.value.id in tables:
                    attrs, index, code = tables[exp.value.id], loop.target.elts[0].id, compile(
                        ast.Expression(exp.slice), "<key>", "eval")
                    prefix = f"{name}." if name else ""

                    def module_of(i, mod=mod, attrs=attrs, index=index, code=code, prefix=prefix):
                        try:
                            key = eval(code, {"__builtins__": {}}, {"self": mod, index: i})
                        except Exception:  # noqa: BLE001 - an expression of names the tool does not know
                            return None
                        return prefix + attrs[key] if key in attrs else None
                    return module_of
        return None
    return None


def _passes_position_embeddings(model) -> bool:
    for name, mod in model.named_modules():
        if name.count(".") <= 1 and hasattr(mod, "rotary_emb"):
            return getattr(mod, "rotary_emb") is not None
    return bool(rotary_modules(model))


#: Positions at which a position-dependent query scale is evaluated, in units of its length L0 (and p = L0 - 1).
QUERY_SCALE_AT = (0, 1, 2, 3, 7, 100, 4096)


def query_scale(attn, text) -> dict | None:
    """A factor on the queries that depends on their position, as the attention's forward computes it: transformers'
    own ``get_llama_4_attn_scale`` (Ministral 3) evaluated at positions 0, L0 - 1, L0, 2 L0, ... (float32, as the
    forward), with L0 and beta read where the forward reads them (``config.rope_parameters``); None when the forward
    calls no such function."""
    mod = importlib.import_module(type(attn).__module__)
    fn = getattr(mod, "get_llama_4_attn_scale", None)
    try:
        src = inspect.getsource(type(attn).forward)
    except (OSError, TypeError):
        return None
    if fn is None or "get_llama_4_attn_scale(" not in src:
        return None
    rp = text.rope_parameters
    beta, L0 = rp.get("llama_4_scaling_beta"), rp.get("original_max_position_embeddings")
    if beta is None or L0 is None:
        return {"error": f"rope_parameters has llama_4_scaling_beta={beta}, original_max_position_embeddings={L0}"}
    pos = sorted({int(k * L0) for k in QUERY_SCALE_AT} | {int(L0) - 1})
    with torch.device("cpu"):
        vals = fn(torch.tensor([pos]), beta, L0).flatten().tolist()
    return {"positions": pos, "values": [float(v) for v in vals]}


def bidirectional_overlay(model, layers, text) -> bool:
    """Whether the forward that runs the decoder layers makes their mask bidirectional although the attention keeps
    ``is_causal`` True: Step 3.5/3.7's text model, where ``config.use_bidirectional_attention`` is set, passes
    ``create_causal_mask`` an ``or_mask_function`` that admits every key (and its sliding layers' mask one that admits
    ``|q - k| < sliding_window``), so the sdpa and eager kernels, which follow the mask, attend both ways."""
    if not layers or not getattr(text, "use_bidirectional_attention", False):
        return False
    owner = model.get_submodule(layers[0][0].rsplit(".", 2)[0]) if layers[0][0].count(".") >= 2 else model
    try:
        src = inspect.getsource(type(owner).forward)
    except (OSError, TypeError):
        return False
    return bool(re.search(r"if self\.config\.use_bidirectional_attention:\s*\n\s*mask_kwargs\[\"or_mask_function\"\] = "
                          r"lambda \*args: torch\.tensor\(True", src))


def modeling_module(model):
    return importlib.import_module(type(model).__module__)


def facts(config) -> dict:
    """What transformers does with ``config``'s text decoder, layer by layer (JSON)."""
    return facts_of(*build_meta(config))


def facts_of(model, text) -> dict:
    """:func:`facts` of a model already built on the meta device and its text config."""
    layers = decoder_layers(model, text)
    env = {"position_embeddings": object() if _passes_position_embeddings(model) else None,
           "is_cross_attention": False, "alibi": object() if getattr(text, "alibi", False) else None,
           "rotary_pos_emb": object() if rotary_modules(model) else None}
    out = {"model_class": type(model).__name__, "text_type": getattr(text, "model_type", None),
           "layer_types": list(text.layer_types) if isinstance(getattr(text, "layer_types", None), (list, tuple)) else None,
           "layers": []}
    per_type = _per_type_position_embeddings(model)
    per_layer = _layer_condition(model)
    names = {id(m): n for n, m in model.named_modules()}
    by_theta = _rotary_by_theta(model, text) or _rotary_by_key(model)
    everywhere = global_window(model)
    prefix = type(model).__name__.removesuffix("Model").removesuffix("ForConditionalGeneration").removesuffix("Text")
    types = out["layer_types"] or []
    rp = getattr(text, "rope_parameters", None) or {}
    overlay = bidirectional_overlay(model, layers, text)
    for i, (qual, layer) in enumerate(layers):
        attn = attention_of(layer, prefix)
        if per_type and i < len(types) and isinstance(rp, dict) and types[i] in rp:
            env = {**env, "position_embeddings": None if rp[types[i]] is None else object()}
        if attn is None:
            out["layers"].append({"name": qual, "attention": None})
            continue
        hd = getattr(attn, "head_dim", getattr(attn, "head_size", None))
        hd = getattr(attn, "qk_head_dim", hd)
        scale, skey = softmax_scale(attn, hd)
        rope, why = rope_applied(attn, env)
        if per_layer is not None and rope:
            try:
                rope = per_layer(i)
            except LookupError as exc:
                rope, why = None, str(exc)
        rec = {"name": qual, "attention": type(attn).__name__, "head_dim": None if hd is None else int(hd),
               "scaling": scale, "scaling_key": skey, "window": window_of(attn, text, everywhere), "rope": rope,
               "rope_why": why, "sinks": hasattr(attn, "sinks"),
               "factors": extra_factors(attn, ("scaling", skey)) + _layer_factors(layer),
               "is_causal": False if overlay else getattr(attn, "is_causal", None)}
        if getattr(attn, "attn_temperature_tuning", False) and rope is False:
            rec["temperature"] = {"floor_scale": _float(attn.floor_scale), "attn_scale": _float(attn.attn_scale)}
        scale = query_scale(attn, text)
        if scale is not None:
            rec["query_scale"] = scale
        if by_theta is not None and rope:
            rec["rotary_module"] = by_theta(i)
        elif isinstance(getattr(attn, "rotary_emb", None), torch.nn.Module):  # Moshi, IDEFICS: each attention its own
            rec["rotary_module"] = names.get(id(attn.rotary_emb))
        out["layers"].append(rec)
    out["rotary"] = rotary_facts(model, text)
    first = next((attention_of(layer, prefix) for _, layer in layers if attention_of(layer, prefix) is not None), None)
    out["pairing"], out["pairing_why"], out["reflected"] = pairing(model, text, first)
    out["absolute"] = [n for n, m in model.named_modules() if (isinstance(m, torch.nn.Embedding) and
                       re.search(r"pos|wpe", n.split(".")[-1], re.I) or re.search(r"Positional?Embedding",
                       type(m).__name__) and "Rotary" not in type(m).__name__) and
                       not re.search(r"vision|visual|audio|image", n)]
    mod = modeling_module(model)
    try:
        heads = getattr(text, "num_attention_heads", None)
    except RuntimeError:  # a head count per layer (per_layer_config: Step 3.7's sliding layers); only ALiBi reads it
        heads = None
    if getattr(text, "alibi", False) or hasattr(mod, "build_alibi_tensor") or hasattr(mod, "build_mpt_alibi_tensor"):
        out["alibi"] = alibi_facts(mod, text, heads)
    for name, m in model.named_modules():
        if hasattr(type(m), "_relative_position_bucket") and getattr(m, "has_relative_attention_bias", True):
            out["t5"] = {"class": type(m).__name__,
                         "num_buckets": int(getattr(m, "relative_attention_num_buckets", 0) or 0),
                         "max_distance": int(getattr(m, "relative_attention_max_distance", 0) or 0)}
            break
    return out


def alibi_facts(mod, text, heads) -> dict:
    """Each head's effective ALiBi slope on the softmax's input, as the family's code builds the bias."""
    if hasattr(mod, "build_mpt_alibi_tensor"):
        attn_cfg = getattr(text, "attn_config", None)
        bias_max = getattr(attn_cfg, "alibi_bias_max", 8) if attn_cfg is not None else 8
        b = mod.build_mpt_alibi_tensor(heads, 4, alibi_bias_max=bias_max)
        return {"slopes": [float(x) for x in (b[:, 0, 3] - b[:, 0, 2]).double()], "rounding": None, "divided_by": 1.0}
    if not hasattr(mod, "build_alibi_tensor"):
        return {"error": "no build_alibi_tensor"}
    b = mod.build_alibi_tensor(torch.ones(1, 4), heads, torch.float32)  # (H, 1, 4): slope_h * position
    slopes = [float(x) for x in b[:, 0, 1].double()]
    src = inspect.getsource(mod.build_alibi_tensor)
    div = 1.0
    if "falcon" in mod.__name__:  # FalconModel.forward adds alibi / sqrt(head_dim) to the mask (read below)
        fsrc = inspect.getsource(mod.FalconModel.forward)
        if "alibi / math.sqrt(self.config.hidden_size // self.num_heads)" in fsrc:
            div = math.sqrt(text.hidden_size // heads)
    return {"slopes": slopes, "rounding": "bfloat16" if ".bfloat16()" in src else None, "divided_by": div}
