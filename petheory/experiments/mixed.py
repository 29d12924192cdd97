r"""One member model for runs of different position mechanisms: a grid of PE families as one program.

:class:`MixedGroup` trains M runs whose models differ only in their position mechanism (and seed)
as one batched Transformer: every weight is a member tensor ``(M, ...)`` and each step is one
sequence of batched kernels for all M members, whatever their PE. The position mechanisms
become member tensors too::

    absolute table   h += table[m]            (M, T, d): the fixed tables (sinusoidal, wavelet, ...), zero for
                                              members without one, plus the trainable ones (random, learned)
    logit bias       s += bias[m]             (M, H, T, T): ALiBi's slope x distance, zero without a bias, plus the
                                              learned per-offset / per-bucket values gathered (relative, T5)
    rotation         q = where(rot[m, h], R q, q)   (M, H): 1 on the heads a member rotates (RoPE: all, partial
                                              RoPE ``rope:heads=k``: the first k), 0 elsewhere

Adding a zero and selecting with ``where`` are exact, so each member computes its own model's
function; what changes against the per-run model is the summation order of batched matmuls (and
explicit softmax attention instead of SDPA's kernels), i.e. float round-off. Parameters a PE owns
(a trainable table, a learned bias) are member tensors of the members that have them,
``(M_n, ...)`` with the members' rows, so AdamW (weight decay included) touches exactly the
tensors the per-run optimiser would.

Which runs mix (:func:`mix_key`): same model config but the PE, and a PE that is an absolute table
covering every length used, a bias (ALiBi, T5, relative or a fixed registry bias), a rotary
encoding (the same one for every rotary member of a group), or a rotary with an absolute table
(gu2025's ``rope+sinusoidal``). MLA (other weights: a latent), KERPLE, FIRE, Scale Hints and
tables shorter than the lengths used do not: :mod:`petheory.experiments.grid` trains them in groups of one
model config, as before.

Notes
-----
On CUDA, attention goes through SDPA with the members folded into the head axis, ``(B, M*H, T,
hd)``, and the bias as one ``(1, M*H, T, T)`` mask broadcast over the batch (the fused kernels
never hold the ``(M, B, H, T, T)`` scores); a bias with a gradient (relative, T5) needs a
kernel that gives the mask's gradient, which CUDA's memory-efficient kernel does and the CPU
kernels do not, so on the CPU a learned bias takes the explicit ``softmax(QK^T/sqrt(hd) + b) V``.
"""

from __future__ import annotations

import json

import torch
import torch.nn.functional as F

from petheory.nn.transformer import build_model


def mix_key(mcfg, max_T: int) -> tuple[str, str | None] | None:
    """``(model, rotation)`` keys of a (completed) model config, or None if it cannot mix.

    Configs with equal ``model`` keys mix (the same model but for the position mechanism) as long as their rotations
    (None: no rotation) are one: every rotary member of a group shares the rotary encoding.

    Parameters
    ----------
    mcfg : ModelConfig
        A completed model config.
    max_T : int
        The longest sequence the runs see (training and every test length).

    Returns
    -------
    tuple of (str, str or None), or None
        The keys; None for a member that trains on its own (MLA, a Scale Hint, a learned bias function, a learned table
        shorter than ``max_T``).

    Examples
    --------
    >>> from petheory.nn.transformer import ModelConfig
    >>> a = mix_key(ModelConfig(pe="alibi", head="regression", d_model=8, n_head=2, d_ff=16), 64)
    >>> b = mix_key(ModelConfig(pe="nope", head="regression", d_model=8, n_head=2, d_ff=16), 64)
    >>> a == b, a[1]
    (True, None)
    """
    pe = mcfg.pe
    if pe.hint is not None or pe.kind == "mla":
        return None
    rot = None
    if pe.kind == "rotary":
        rot = [pe.name, pe.registry_params]
    elif pe.kind == "bias":
        if pe.name not in ("alibi", "t5", "relative") and not _fixed_bias(pe.name):
            return None  # KERPLE, FIRE: learned functions of their own
    elif pe.kind not in ("absolute",):
        return None
    table = pe.name if pe.kind == "absolute" else pe.absolute
    if table not in (None, "nope"):
        trainable = pe.name == "learned" if pe.trainable is None else bool(pe.trainable)
        rows = int(pe.registry_params.get("n_max") or mcfg.max_len) if pe.name == "learned" else mcfg.max_len
        if (trainable or pe.name == "learned") and rows < max_T:
            return None  # a table that must clamp or refuse past its rows: evaluated by its own module
    d = mcfg.as_dict()
    d.pop("pe")
    return json.dumps(d, sort_keys=True, default=str), None if rot is None else json.dumps(rot, sort_keys=True, default=str)


def _fixed_bias(name: str) -> bool:
    from petheory.nn.position import KERPLE

    return name not in KERPLE and name != "fire"


class MixedGroup:
    """Members with one model shape and any mixable PEs, trained as one batched model.

    Same interface as the grid's per-config group (``petheory.experiments.grid._Group``): ``members``, ``S``, ``lo:hi`` (rows in the
    grid), ``models`` (real modules: init, evaluation past the tables, ablation, checkpoints),
    ``tensors()``, ``layout()``, ``forward(x, shared_x)``, ``train_mode(flag)``, ``sync_models()``.

    Parameters
    ----------
    members : list of int
        Indices of the grid's configs in the group.
    cfgs : list of TrainConfig
        The grid's configs.
    mcfgs : dict
        Config index -> completed model config.
    device : torch.device
        Where the group trains.
    lo : int
        The group's first row in the grid's member axis.
    """

    def __init__(self, members, cfgs, mcfgs, device, lo: int):
        # rows in the order [rotary members, the rest, learned-bias members]: each position mechanism then reads
        # a slice of the member axis (a view) instead of a gather
        def rank(k):
            pe = mcfgs[k].pe
            return 0 if pe.kind == "rotary" else 2 if pe.kind == "bias" and pe.name in ("t5", "relative") else 1

        members = sorted(members, key=rank)
        self.members, self.S = list(members), len(members)
        self.lo, self.hi = lo, lo + self.S
        self.device = device
        self.models = []
        for k in self.members:
            torch.manual_seed(cfgs[k].seed)  # the initialisation train() gives this seed
            self.models.append(build_model(mcfgs[k]).to(device))
        m0 = self.models[0]
        self.cfg = m0.cfg
        self.L, self.H, self.d = self.cfg.n_layer, self.cfg.n_head, self.cfg.d_model
        self.hd = self.d // self.H
        self.training = True
        # member tensors: names every member has are stacked (M, ...); a PE's own parameters are stacked
        # over the members that have them, (M_n, ...), with their member rows in self.rows[name]
        names = [dict(m.named_parameters()) for m in self.models]
        self.params, self.rows, self._layout = {}, {}, []
        order = []
        for nm in names:
            order += [n for n in nm if n not in order]
        with torch.no_grad():
            for n in order:
                have = [i for i, nm in enumerate(names) if n in nm]
                t = torch.stack([names[i][n].detach() for i in have]).clone().requires_grad_(True)
                self.params[n] = t
                self.rows[n] = torch.tensor(have, device=device)
                self._layout.append((t, [(self.members[i], n, i) for i in have], True))
        attn = [m.blocks[0].attn for m in self.models]
        rot = torch.zeros(self.S, self.H, dtype=torch.bool)
        for i, a in enumerate(attn):
            if a.rotary is not None:
                rot[i, :a.rotary.heads] = True
        self.rot = rot.to(device)[:, None, :, None, None]  # (M, 1, H, 1, 1): the heads each member rotates
        self.n_rot = sum(a.rotary is not None for a in attn)  # rows 0..n_rot-1
        self.rot_all = bool(rot[:self.n_rot].all())  # no partial RoPE among them: no select needed
        self.rotary = attn[0].rotary if self.n_rot else None
        self.n_learned = sum(a.bias is not None and a.bias.name in ("t5", "relative") for a in attn)  # the last rows
        self.has_fixed_bias = any(a.bias is not None and a.bias.name not in ("t5", "relative") for a in attn)
        self._fixed: dict = {}

    # ------------------------------------------------------------------ the grid's interface

    def tensors(self) -> list[torch.Tensor]:
        return [t for t, _, _ in self._layout]

    def layout(self):
        """[(tensor, [(member k, parameter name, row)], stacked)] for every tensor the optimiser updates."""
        return self._layout

    def train_mode(self, flag: bool) -> None:
        self.training = bool(flag)

    def sync_models(self) -> list:
        with torch.no_grad():
            for t, rows, _ in self._layout:
                for pos, (k, n, _) in enumerate(rows):
                    dict(self.models[self.members.index(k)].named_parameters())[n].copy_(t[pos])
        return self.models

    # ------------------------------------------------------------------ position tensors at length T

    def _position_tensors(self, T: int):
        """(fixed absolute tables (M, T, d) or None, fixed bias (M, H, T, T) or None with the causal -inf folded
        in, learned-bias index matrices (M_b, T, T)); cached per length (CUDA graphs hold these addresses)."""
        if T in self._fixed:
            return self._fixed[T]
        dev = self.device
        with torch.no_grad():
            tabs, any_tab = [], False
            for m in self.models:
                a = m.abs_pe
                if a is not None and not a.trainable:
                    tabs.append(a(T).float())
                    any_tab = True
                else:
                    tabs.append(torch.zeros(T, self.d, device=dev))
            table = torch.stack(tabs) if any_tab else None
            bias = None
            if self.has_fixed_bias or self.cfg.causal:
                bias = torch.zeros(self.S, self.H, T, T, device=dev)
                for i, m in enumerate(self.models):
                    b = m.blocks[0].attn.bias
                    if b is not None and b.name not in ("t5", "relative"):
                        bias[i] = b(T, dev)  # ALiBi's slope x distance, or a fixed registry bias
                if self.cfg.causal:
                    bias = bias.masked_fill(torch.ones(T, T, dtype=torch.bool, device=dev).triu(1), float("-inf"))
            idx = None
            if self.n_learned:
                idx = torch.stack([m.blocks[0].attn.bias._matrix(T, dev) for m in self.models[self.S - self.n_learned:]])
        self._fixed[T] = (table, bias, idx)
        return self._fixed[T]

    # ------------------------------------------------------------------ the batched model

    def forward(self, x: torch.Tensor, shared_x: bool) -> torch.Tensor:
        """Outputs (M, B, ...) for inputs (M, B, ...) per member, or (B, ...) shared by all."""
        P, M = self.params, self.S
        if shared_x:
            x = x.expand(M, *x.shape)
        T = x.shape[2]
        table, fbias, bidx = self._position_tensors(T)
        if self.cfg.vocab_size:  # one embedding lookup into the members' stacked tables
            V = self.cfg.vocab_size
            off = (torch.arange(M, device=x.device) * V).view(M, 1, 1)
            h = F.embedding(x + off, P["embed.weight"].reshape(M * V, self.d))  # (M, B, T, d)
        else:
            h = _linear(x, P["embed.weight"], P.get("embed.bias"))
        if "abs_pe.table" in P:  # trainable tables into the rows of the members that have one (zero there)
            base = table if table is not None else torch.zeros(M, T, self.d, device=h.device)
            table = base.index_add(0, self.rows["abs_pe.table"], P["abs_pe.table"][:, :T])
        if table is not None:
            h = h + table[:, None].to(h.dtype)  # (M, 1, T, d) over the batch
        h = F.dropout(h, self.cfg.dropout, self.training)
        for i in range(self.L):
            p = f"blocks.{i}."
            a = _layer_norm(h, P[p + "ln_1.weight"], P[p + "ln_1.bias"])
            learned = None
            if bidx is not None:  # learned biases (the last rows): each member's values gathered by its index matrix
                vals = P[p + "attn.bias.values"]  # (M_b, H, n)
                learned = vals.gather(2, bidx.flatten(1)[:, None].expand(-1, self.H, -1)).view(-1, self.H, T, T)
                if fbias is not None:
                    learned = fbias[M - self.n_learned:] + learned
            y = self._attention(a, P[p + "attn.c_attn.weight"], P.get(p + "attn.c_attn.bias"), fbias, learned)
            y = _linear(y, P[p + "attn.c_proj.weight"], P.get(p + "attn.c_proj.bias"))
            h = h + F.dropout(y, self.cfg.dropout, self.training)
            a = _layer_norm(h, P[p + "ln_2.weight"], P[p + "ln_2.bias"])
            a = _linear(a, P[p + "mlp.0.weight"], P.get(p + "mlp.0.bias"))
            a = F.relu(a) if self.cfg.activation == "relu" else F.gelu(a)
            a = _linear(a, P[p + "mlp.2.weight"], P.get(p + "mlp.2.bias"))
            h = h + F.dropout(a, self.cfg.dropout, self.training)
        h = _layer_norm(h, P["ln_f.weight"], P["ln_f.bias"])
        if self.cfg.head == "classifier":
            h = h.mean(dim=2)  # (M, B, d): mean over all positions, as the model
        return _linear(h, P["head.weight"], P.get("head.bias"))

    def _attention(self, a, w, b, fbias, learned):
        """Self-attention of every member: a (M, B, T, d) -> (M, B, T, d). ``fbias`` (M, H, T, T) or None: the
        fixed biases with the causal -inf; ``learned`` (M_b, H, T, T) or None: the whole bias of the last M_b rows."""
        M, B, T, _ = a.shape
        H, hd, nr, nl = self.H, self.hd, self.n_rot, self.n_learned
        q, k, v = _linear(a, w, b).view(M, B, T, 3, H, hd).permute(3, 0, 1, 4, 2, 5)  # each (M, B, H, T, hd)
        if nr:  # the rotary members' rows; partial RoPE keeps its other heads as they are
            qr, kr = self.rotary.rotate(q[:nr]), self.rotary.rotate(k[:nr], key=True)
            if not self.rot_all:
                qr, kr = torch.where(self.rot[:nr], qr, q[:nr]), torch.where(self.rot[:nr], kr, k[:nr])
            q, k = (torch.cat([qr, q[nr:]]), torch.cat([kr, k[nr:]])) if nr < M else (qr, kr)
        if (fbias is not None or learned is not None) and q.dtype in (torch.bfloat16, torch.float16):
            q, k, v = q.float(), k.float(), v.float()  # a bias in bf16 would tie ALiBi's neighbours (as the model)
        if learned is None:
            y = self._sdpa(q, k, v, fbias)
        elif a.device.type == "cuda":  # the memory-efficient kernel gives the mask's gradient
            head = fbias[:M - nl] if fbias is not None else torch.zeros(M - nl, H, T, T, device=a.device, dtype=learned.dtype)
            y = self._sdpa(q, k, v, torch.cat([head, learned]))
        elif nl == M:
            y = self._explicit(q, k, v, learned)
        else:  # CPU: SDPA for the members without a learned bias (as their own models), explicit softmax for the rest
            y = torch.cat([self._sdpa(q[:M - nl], k[:M - nl], v[:M - nl], None if fbias is None else fbias[:M - nl]),
                           self._explicit(q[M - nl:], k[M - nl:], v[M - nl:], learned)])
        return y.to(a.dtype).permute(0, 1, 3, 2, 4).reshape(M, B, T, H * hd)

    def _sdpa(self, q, k, v, bias):
        """SDPA with the members folded into the heads: (B, M*H, T, hd), one mask (1, M*H, T, T) broadcast over
        the batch. q, k, v (M, B, H, T, hd) -> (M, B, H, T, hd)."""
        M, B, H, T, hd = q.shape
        fq, fk, fv = (t.transpose(0, 1).reshape(B, M * H, T, hd) for t in (q, k, v))
        m = None if bias is None else bias.to(q.dtype).reshape(1, M * H, T, T)
        y = F.scaled_dot_product_attention(fq, fk, fv, attn_mask=m, dropout_p=self.cfg.dropout if self.training else 0.0)
        return y.view(B, M, H, T, hd).transpose(0, 1)

    def _explicit(self, q, k, v, bias):
        """softmax(QK^T/sqrt(hd) + bias) V (a learned bias on the CPU, whose SDPA kernels give no mask gradient)."""
        s = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5 + bias[:, None]  # (M, B, H, T, T)
        return F.dropout(s.softmax(-1), self.cfg.dropout, self.training) @ v


def _linear(x, w, b):
    """Per-member ``x @ w.T + b``: x (M, ..., i), w (M, o, i), b (M, o) or None -> (M, ..., o)."""
    M = x.shape[0]
    x2 = x.reshape(M, -1, x.shape[-1])
    y = torch.bmm(x2, w.transpose(1, 2).to(x2.dtype)) if b is None else torch.baddbmm(b[:, None].to(x2.dtype), x2, w.transpose(1, 2).to(x2.dtype))
    return y.view(*x.shape[:-1], w.shape[1])


def _layer_norm(x, w, b):
    """Per-member LayerNorm over the last dim: x (M, ..., d), w and b (M, d)."""
    shape = (x.shape[0],) + (1,) * (x.dim() - 2) + (x.shape[-1],)
    return torch.addcmul(b.view(shape), F.layer_norm(x, x.shape[-1:]), w.view(shape))
