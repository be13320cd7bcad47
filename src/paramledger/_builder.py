"""The generic builder: one architecture plus one naming table gives the tensor list.

The arithmetic is written once here for every family; a family only names tensors and
turns switches on (see naming.py and families/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from itertools import islice, repeat

from .architecture import Architecture
from .inventory import Inventory, StampedTensors, Tensor, inventory_from_tensors
from .naming import Naming

_new = tuple.__new__


class _Collector:
    """Collects one list of tensors.  Each tensor is made with tuple.__new__: NamedTuple's own
    __new__ without its Python frame (the fields are ours), and appended in the method that names
    it, not through another call (a count makes a few dozen)."""

    def __init__(self, arch: Architecture, naming: Naming) -> None:
        self.arch = arch
        self.naming = naming
        self.tensors: list[Tensor] = []
        self._append = self.tensors.append
        self._conv1d = naming.conv1d
        self._norm_kind = arch.norm_type

    def add(self, name: str, shape: tuple[int, ...], component: str, layer: int | None = None,
            experts: int = 0) -> None:
        self._append(_new(Tensor, (name, shape, component, layer, False, experts)))

    def linear(self, path: str, out_features: int, in_features: int, component: str,
               layer: int | None, bias: bool) -> None:
        shape = (in_features, out_features) if self._conv1d else (out_features, in_features)
        self._append(_new(Tensor, (path + ".weight", shape, component, layer, False, 0)))
        if bias:
            self._append(_new(Tensor, (path + ".bias", (out_features,), component, layer, False, 0)))

    def norm(self, path: str, size: int, layer: int | None, rows: int = 0, offset: bool = True) -> None:
        """A norm over ``size`` channels; ``rows``: one per head stored as one (rows, size)
        weight; ``offset`` False drops a LayerNorm's bias (qk_norm_bias)."""
        kind = self._norm_kind
        if kind == "nonparametric":
            return
        shape = (rows, size) if rows else (size,)
        self._append(_new(Tensor, (path + ".weight", shape, "norm", layer, False, 0)))
        if kind == "layernorm" and offset:
            self._append(_new(Tensor, (path + ".bias", shape, "norm", layer, False, 0)))


def build(arch: Architecture, naming: Naming, source: str | None = None) -> Inventory:
    c = _Collector(arch, naming)
    n = naming
    d = arch.hidden_size
    c.add(n.embed + ".weight", (arch.vocab_size, d), "embedding")
    if arch.position_embedding_type == "learned":
        c.add(n.positions + ".weight", (arch.max_position_embeddings + n.position_offset, d), "positions")
    if n.embed_norm is not None:
        c.norm(n.embed_norm, d, None)
    _model_extras(c, arch)
    # Every layer of a kind (dense or MoE) holds the same tensors under its own prefix: build
    # each kind once and share it between the layers (StampedTensors sums it once per kind).
    layers = arch.num_hidden_layers
    per_layer_heads = arch.num_attention_heads_per_layer
    per_layer_ffn = arch.intermediate_size_per_layer
    if (arch.sliding_layers_differ or arch.indexer_layers_differ or per_layer_heads
            or arch.attention_output_bias_layers or per_layer_ffn or arch.num_kv_shared_layers
            or arch.attention_shapes_differ or arch.linear_attention_layers):
        built: dict[tuple, tuple[Tensor, ...]] = {}
        blocks = []
        keys, arguments = _layer_kinds(arch)
        for key in keys:  # one look-up per layer, by what varies between layers
            block = built.get(key)
            if block is None:
                block = built[key] = tuple(_block(arch, naming, *arguments(key)))
            blocks.append(block)
        ids = list(map(id, blocks))  # counted by identity, at C speed (blocks of two kinds may compare equal)
        kinds = [(block, ids.count(id(block))) for block in built.values()]
    elif arch.is_moe and arch.mlp_only_layers:
        dense_layers = frozenset(arch.mlp_only_layers)
        dense = tuple(_block(arch, naming, False))
        moe = tuple(_block(arch, naming, True)) if len(dense_layers) < layers else dense
        blocks = [dense if i in dense_layers else moe for i in range(layers)]
        kinds = [(dense, len(dense_layers))] + ([(moe, layers - len(dense_layers))] if moe is not dense else [])
    else:
        blocks = [tuple(_block(arch, naming, arch.is_moe))] * layers
        kinds = [(blocks[0], layers)]
    before, c = c.tensors, _Collector(arch, naming)  # the tensors after the layers: a list of their own
    for j in range(arch.altup_num_inputs - 1):  # the extra AltUp streams, back to the hidden state
        c.linear(n.altup_unembed_projections.format(j=j), d, d, "ffn", None, False)
    if arch.final_norm:
        c.norm(n.final_norm, d, None)
    aliases: dict[str, str] = {}
    lm_head = n.lm_head + ".weight"
    if arch.tie_word_embeddings:
        aliases[lm_head] = n.embed + ".weight"
    else:
        c.add(lm_head, (arch.lm_head_rows, d), "lm_head")
    if arch.lm_head_bias:
        c.add(n.lm_head + ".bias", (arch.lm_head_rows,), "lm_head")
    tensors: StampedTensors | tuple[Tensor, ...] = StampedTensors(before, n.layer + ".", blocks, c.tensors, kinds,
                                                                  n.layer_order, n.model_order)
    if arch.frozen:  # frozen marks match full names: mark the expanded list (in the naming's order)
        tensors = tuple(t._replace(frozen=_frozen(t.name, arch.frozen)) for t in tensors)
    return inventory_from_tensors(tensors, aliases, architecture=arch, source=source, notes=arch.notes)


def _layer_kinds(arch: Architecture) -> tuple[Iterable[tuple], Callable[[tuple], list]]:
    """Each layer's kind, by the arguments of _block after the naming: routed?, sliding with tensors of
    its own?, its own indexer?, its query heads, an output bias?, its FFN width, keys and values shared
    from an earlier layer?, its head width and KV heads, values from the keys?, a Gated DeltaNet?

    A column the design does not vary is one value repeated: only what varies is looked at layer by
    layer. Returned: each layer's key (the values of the columns that vary) and the function giving a
    key's full arguments."""
    layers = range(arch.num_hidden_layers)
    shapes_differ = arch.attention_shapes_differ
    sliding = arch.sliding_layers() if arch.sliding_layers_differ or arch.attention_k_eq_v else None
    columns = (
        [arch.is_moe_layer(i) for i in layers] if arch.mlp_only_layers else repeat(arch.is_moe),
        sliding if arch.sliding_layers_differ else repeat(False),
        [arch.has_indexer(i) for i in layers] if arch.indexer_types else repeat(arch.index_n_heads is not None),
        arch.num_attention_heads_per_layer or repeat(None),
        [arch.has_output_bias(i) for i in layers] if arch.attention_output_bias_layers
        else repeat(arch.attention_output_bias),
        arch.intermediate_size_per_layer or repeat(None),
        [arch.is_kv_shared_layer(i) for i in layers] if arch.num_kv_shared_layers else repeat(False),
        (arch.head_dim_per_layer or repeat(arch.attention_head_dim)) if shapes_differ else repeat(None),
        (arch.num_key_value_heads_per_layer or [arch.layer_kv_heads(i) for i in layers]) if shapes_differ
        else repeat(None),
        [not s for s in sliding] if arch.attention_k_eq_v else repeat(False),  # values from keys: full layers
        [i in arch.linear_attention_set for i in layers] if arch.linear_attention_layers else repeat(False),
    )
    varying = [i for i, column in enumerate(columns) if type(column) is not repeat]
    template = [None if i in varying else next(column) for i, column in enumerate(columns)]

    def arguments(key: tuple) -> list:
        full = template.copy()
        for i, value in zip(varying, key):
            full[i] = value
        return full

    keys = islice(zip(*[columns[i] for i in varying]), arch.num_hidden_layers) if varying else repeat((), len(layers))
    return keys, arguments


def _frozen(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def _block(arch: Architecture, naming: Naming, moe: bool, sliding: bool = False,
           indexer: bool | None = None, heads: int | None = None, output_bias: bool | None = None,
           ffn_size: int | None = None, kv_shared: bool = False, head_dim: int | None = None,
           kv_heads: int | None = None, values_from_keys: bool = False, linear: bool = False) -> list[Tensor]:
    """One layer's tensors, named relative to the layer prefix (``indexer``, ``output_bias`` None:
    as the design's layers all are; ``heads`` None: num_attention_heads; ``ffn_size`` None: ffn_size;
    ``kv_shared``: the layer reuses an earlier layer's keys and values; ``head_dim``, ``kv_heads``
    None: the design's; ``values_from_keys``: no value projection; ``linear``: a Gated DeltaNet in place of
    self-attention)."""
    c = _Collector(arch, naming)
    if linear:
        _gated_deltanet(c, arch)
    else:
        _attention(c, arch, "", None, sliding, heads,
                   arch.attention_output_bias if output_bias is None else output_bias, kv_shared, head_dim, kv_heads,
                   values_from_keys)
    if (not linear and arch.index_n_heads is not None
            and (indexer if indexer is not None else arch.has_indexer(0))):
        _indexer(c, arch, "", None)
    if moe and arch.moe_beside_dense_mlp:  # the dense FFN and the experts side by side (Gemma4TextDecoderLayer)
        _dense_ffn(c, arch, "", None, ffn_size or arch.ffn_size, naming.gate, naming.up, naming.down, "ffn",
                   arch.mlp_bias)
        _experts(c, arch, "", None)
        for path in (naming.ffn_post_norm_1, naming.ffn_pre_norm_2, naming.ffn_post_norm_2):
            c.norm(path, arch.hidden_size, None)
    elif moe:
        _experts(c, arch, "", None)
    else:
        _dense_ffn(c, arch, "", None, ffn_size or arch.ffn_size, naming.gate, naming.up, naming.down, "ffn",
                   arch.mlp_bias)
    _block_norms(c, arch, "", None)
    _layer_extras(c, arch)
    return c.tensors


def _model_extras(c: _Collector, arch: Architecture) -> None:
    """Gemma 3n's model-level tensors before the layers (Gemma3nTextModel): the per-layer input
    table and the projection of the embeddings to every layer's input, then one d × d projection
    into each extra AltUp stream."""
    n, d = c.naming, arch.hidden_size
    per_layer = arch.hidden_size_per_layer_input
    if per_layer:
        width = arch.per_layer_input_width  # every layer's input in one row
        c.add(n.embed_per_layer + ".weight", (arch.per_layer_input_rows, width), "embedding")
        c.linear(n.per_layer_model_projection, width, d, "ffn", None, False)
        c.norm(n.per_layer_projection_norm, per_layer, None)
    for j in range(arch.altup_num_inputs - 1):
        c.linear(n.altup_projections.format(j=j), d, d, "ffn", None, False)


def _layer_extras(c: _Collector, arch: Architecture) -> None:
    """Gemma 3n's tensors in every layer (Gemma3nTextDecoderLayer): AltUp's output scale, its
    correction and prediction coefficients and its router with the router's norm; LAuReL's two
    low-rank matrices and norm; the per-layer input's gate, projection and norm."""
    n, d = c.naming, arch.hidden_size
    streams = arch.altup_num_inputs
    if streams:
        c.add(n.altup_output_scale, (d,), "ffn")
        c.linear(n.altup_correction_coefs, streams, streams, "router", None, False)
        c.linear(n.altup_prediction_coefs, streams * streams, streams, "router", None, False)
        c.linear(n.altup_router, streams, d, "router", None, False)
        c.norm(n.altup_router_norm, d, None)
    if arch.laurel_rank:
        c.linear(n.laurel_left, arch.laurel_rank, d, "ffn", None, False)
        c.linear(n.laurel_right, d, arch.laurel_rank, "ffn", None, False)
        c.norm(n.laurel_norm, d, None)
    per_layer = arch.hidden_size_per_layer_input
    if per_layer:
        c.linear(n.per_layer_input_gate, per_layer, d, "ffn", None, False)
        c.linear(n.per_layer_projection, d, per_layer, "ffn", None, False)
        c.norm(n.post_per_layer_input_norm, d, None)


def _attention(c: _Collector, arch: Architecture, prefix: str, i: int, sliding: bool = False,
               layer_heads: int | None = None, output_bias: bool = False, kv_shared: bool = False,
               head_dim: int | None = None, layer_kv_heads: int | None = None,
               values_from_keys: bool = False) -> None:
    n = c.naming
    d = arch.hidden_size
    heads = layer_heads or arch.num_attention_heads
    if arch.is_mla:
        q_dim = heads * (arch.qk_nope_head_dim + arch.qk_rope_head_dim)
        if arch.q_lora_rank is None:  # full-rank q_proj carries no bias (modeling_deepseek_v3.py)
            c.linear(prefix + n.q, q_dim, d, "attention", i, False)
        else:
            c.linear(prefix + n.q_a, arch.q_lora_rank, d, "attention", i, arch.attention_bias)
            c.norm(prefix + n.q_a_norm, arch.q_lora_rank, i)
            c.linear(prefix + n.q_b, q_dim, arch.q_lora_rank, "attention", i, False)
        c.linear(prefix + n.kv_a, arch.kv_lora_rank + arch.qk_rope_head_dim, d, "attention", i,
                 arch.attention_bias)
        c.norm(prefix + n.kv_a_norm, arch.kv_lora_rank, i)
        c.linear(prefix + n.kv_b, heads * (arch.qk_nope_head_dim + arch.v_head_dim), arch.kv_lora_rank,
                 "attention", i, False)
        c.linear(prefix + n.o, d, heads * arch.v_head_dim, "attention", i, output_bias)
    else:
        hd = head_dim or arch.attention_head_dim
        kv_heads = arch.sliding_num_key_value_heads if sliding and arch.sliding_num_key_value_heads else arch.kv_heads
        kv_heads = layer_kv_heads or kv_heads
        q_out, kv_out = heads * hd, kv_heads * hd
        v_dim = arch.v_head_dim or hd  # value heads narrower than q/k heads (MiMo-V2-Flash)
        gate = arch.attention_output_gate  # the output gate's rows: one per channel or one per head
        gate_rows = 0 if gate == "none" else heads * v_dim if gate == "per_channel" else heads
        q_gate_rows = gate_rows if n.attn_gate_in_q else 0  # stored in q_proj after the queries' (Qwen3-Next)
        v_out = 0 if values_from_keys else kv_heads * v_dim  # attention_k_eq_v: the keys serve as values
        if arch.attention_experts:  # mixture of attention heads: routed q/o pairs, shared keys and values
            _attention_experts(c, arch, prefix, i, kv_heads * hd)
        elif kv_shared:  # keys and values come from an earlier layer: queries only (Gemma3nTextAttention)
            c.linear(prefix + n.q, q_out + q_gate_rows, d, "attention", i, arch.attention_bias)
        elif n.qkv is not None:
            c.linear(prefix + n.qkv, q_out + q_gate_rows + kv_out + v_out, d, "attention", i, arch.attention_bias)
        else:
            c.linear(prefix + n.q, q_out + q_gate_rows, d, "attention", i, arch.attention_bias)
            c.linear(prefix + n.k, kv_out, d, "attention", i, arch.attention_bias)
            if v_out:
                c.linear(prefix + n.v, v_out, d, "attention", i, arch.attention_bias)
        if not arch.attention_experts:
            c.linear(prefix + n.o, d, heads * v_dim, "attention", i, output_bias and n.o_bias is None)
        if output_bias and n.o_bias is not None:  # a bias kept apart from the projection
            c.add(prefix + n.o_bias, (d,), "attention", i)
        if arch.attn_sub_norm:  # on the attention output, before o_proj
            c.norm(prefix + n.attn_sub_norm, heads * v_dim, i)
        if gate_rows and not q_gate_rows:  # its own projection from the block's input, scaling the output
            c.linear(prefix + n.attn_gate, gate_rows, d, "attention", i, False)
        offset = arch.qk_norm_bias
        if arch.qk_norm == "head":
            c.norm(prefix + n.q_norm, hd, i, offset=offset)
            if not kv_shared:
                c.norm(prefix + n.k_norm, hd, i, offset=offset)
        elif arch.qk_norm == "full":
            c.norm(prefix + n.q_norm, q_out, i, offset=offset)
            if not kv_shared:
                c.norm(prefix + n.k_norm, kv_out, i, offset=offset)
        elif arch.qk_norm == "per_head":
            for path, rows in ((n.q_norm, heads), (n.k_norm, kv_heads))[:2 - kv_shared]:
                if "{h}" in path:  # one norm module per head (a ModuleList)
                    for h in range(rows):
                        c.norm(prefix + path.format(h=h), hd, i, offset=offset)
                else:
                    c.norm(prefix + path, hd, i, rows=rows, offset=offset)
    if arch.attention_sinks or (sliding and arch.sliding_attention_sinks):
        c.add(prefix + n.sinks, (heads,), "attention", i)


def _gated_deltanet(c: _Collector, arch: Architecture) -> None:
    """A Gated DeltaNet token mixer (Qwen3NextGatedDeltaNet, Qwen3_5GatedDeltaNet): input projections for
    q, k, v (2 × key channels + value channels), the output gate z (value channels) and b and a (one per
    value head each), fused as in_proj_qkvz and in_proj_ba or split; a depthwise conv1d over q, k, v
    (conv_dim, 1, kernel) without a bias; dt_bias and A_log per value head; a gated RMSNorm over one
    value head (a scale only, whatever the block norms are); out_proj back to the hidden size."""
    n, d = c.naming, arch.hidden_size
    value_dim, value_heads, conv_dim = arch.linear_value_dim, arch.linear_num_value_heads, arch.linear_conv_dim
    if n.linear_qkvz is not None:
        c.linear(n.linear_qkvz, conv_dim + value_dim, d, "attention", None, False)
        c.linear(n.linear_ba, 2 * value_heads, d, "attention", None, False)
    else:
        c.linear(n.linear_qkv, conv_dim, d, "attention", None, False)
        c.linear(n.linear_z, value_dim, d, "attention", None, False)
        c.linear(n.linear_b, value_heads, d, "attention", None, False)
        c.linear(n.linear_a, value_heads, d, "attention", None, False)
    c.add(n.linear_conv + ".weight", (conv_dim, 1, arch.linear_conv_kernel_dim), "attention")
    c.add(n.linear_dt_bias, (value_heads,), "attention")
    c.add(n.linear_a_log, (value_heads,), "attention")
    c.add(n.linear_norm + ".weight", (arch.linear_value_head_dim,), "norm")
    c.linear(n.linear_out, d, value_dim, "attention", None, False)


def _attention_experts(c: _Collector, arch: Architecture, prefix: str, i: int, width: int) -> None:
    """JetMoE's mixture of attention heads (JetMoeMoA): a router, num_experts query projections in
    and output projections out of ``width`` (the KV heads' channels), a (hidden,) output bias, and
    one shared key and value projection (fused when the naming says so)."""
    n = c.naming
    d, e = arch.hidden_size, arch.num_experts
    c.linear(prefix + n.attn_router, e, d, "router", i, False)
    c.add(prefix + n.attn_experts_q, (e, width, d), "experts", i, experts=e)
    c.add(prefix + n.attn_experts_o, (e, d, width), "experts", i, experts=e)
    c.add(prefix + n.attn_experts_bias, (d,), "attention", i)
    if n.kv is not None:
        c.linear(prefix + n.kv, 2 * width, d, "attention", i, arch.attention_bias)
    else:
        c.linear(prefix + n.k, width, d, "attention", i, arch.attention_bias)
        c.linear(prefix + n.v, width, d, "attention", i, arch.attention_bias)


def _indexer(c: _Collector, arch: Architecture, prefix: str, i: int) -> None:
    """DeepSeek-V3.2's lightning indexer: queries from the q LoRA latent, one shared key from the
    hidden state, a LayerNorm on the key (with its offset, whatever the block norms are) and
    one weight per indexer head (DeepseekV32Indexer)."""
    n = c.naming
    heads, width = arch.index_n_heads, arch.index_head_dim
    c.linear(prefix + n.indexer_q, heads * width, arch.q_lora_rank, "attention", i, False)
    c.linear(prefix + n.indexer_k, width, arch.hidden_size, "attention", i, False)
    c.add(prefix + n.indexer_k_norm + ".weight", (width,), "norm", i)
    c.add(prefix + n.indexer_k_norm + ".bias", (width,), "norm", i)
    c.linear(prefix + n.indexer_weights, heads, arch.hidden_size, "attention", i, False)


def _dense_ffn(c: _Collector, arch: Architecture, prefix: str, i: int, size: int, gate: str, up: str,
               down: str, component: str, bias: bool, fused_gate_up: str | None = None) -> None:
    d = arch.hidden_size
    fused = fused_gate_up if fused_gate_up is not None else (
        prefix + c.naming.gate_up if c.naming.gate_up is not None and component == "ffn" else None)
    if arch.mlp_gated and fused is not None:
        c.linear(fused, 2 * size, d, component, i, bias)
    elif arch.mlp_gated:
        c.linear(gate, size, d, component, i, bias)
        c.linear(up, size, d, component, i, bias)
    else:
        c.linear(up, size, d, component, i, bias)
    c.linear(down, d, size, component, i, bias)
    if component == "ffn":
        if arch.ffn_sub_norm:  # on the inner activations, before down_proj
            c.norm(prefix + c.naming.ffn_sub_norm, size, i)
        if arch.learned_activation:
            c.add(prefix + c.naming.act + ".alpha_p", (1,), "ffn", i)
            c.add(prefix + c.naming.act + ".alpha_n", (1,), "ffn", i)


def _experts(c: _Collector, arch: Architecture, prefix: str, i: int) -> None:
    n = c.naming
    d, e, m = arch.hidden_size, arch.num_experts, arch.expert_size
    c.linear(prefix + n.router, e, d, "router", i, arch.router_bias)
    if arch.router_scales:  # Gemma4TextRouter: scales its normed input, then each expert's weight
        c.add(prefix + n.router_scale, (d,), "router", i)
        c.add(prefix + n.router_per_expert_scale, (e,), "router", i)
    if arch.router_correction_bias:
        c.add(prefix + n.router_correction_bias, (1, e) if n.router_correction_bias_row else (e,), "router", i)
    up_out = 2 * m if arch.mlp_gated else m
    inputs = ([(n.experts_gate_up, m), (n.experts_up, m)] if n.experts_up is not None and arch.mlp_gated
              else [(n.experts_gate_up, up_out)])
    for path, rows in inputs:
        if n.experts_flat:  # experts flattened on the first axis (DBRX)
            shape = (e * rows, d)
        else:
            shape = (e, d, rows) if n.experts_in_out else (e, rows, d)
        c.add(prefix + path, shape, "experts", i, experts=e)
        if n.expert_biases:
            c.add(prefix + path + "_bias", (e, rows), "experts", i, experts=e)
    if n.experts_flat:  # the down projection stored (experts × width, hidden) too: DbrxExpertGLU's w2
        c.add(prefix + n.experts_down, (e * m, d), "experts", i, experts=e)
    elif n.experts_in_out:
        c.add(prefix + n.experts_down, (e, m, d), "experts", i, experts=e)
    else:
        c.add(prefix + n.experts_down, (e, d, m), "experts", i, experts=e)
    if n.expert_biases:
        c.add(prefix + n.experts_down + "_bias", (e, d), "experts", i, experts=e)
    shared = arch.shared_expert_size
    if shared and n.shared_expert_gate_up is not None:
        _dense_ffn(c, arch, prefix, i, shared, "", "", prefix + n.shared_expert_down, "shared_experts",
                   arch.mlp_bias, fused_gate_up=prefix + n.shared_expert_gate_up)
    elif shared:
        base = prefix + n.shared_expert + "."
        _dense_ffn(c, arch, prefix, i, shared, base + "gate_proj", base + "up_proj", base + "down_proj",
                   "shared_experts", arch.mlp_bias)
    if arch.shared_expert_gate:
        c.linear(prefix + n.shared_expert_gate, 1, d, "shared_experts", i, False)
    if arch.experts_output_bias:
        c.add(prefix + n.experts_output_bias, (d,), "experts", i)
    if arch.moe_output_norm:
        c.norm(prefix + n.moe_output_norm, d, i)


def _block_norms(c: _Collector, arch: Architecture, prefix: str, i: int) -> None:
    n = c.naming
    d = arch.hidden_size
    placement = arch.norm_placement
    if placement in ("pre", "sandwich", "parallel"):
        c.norm(prefix + n.attn_pre_norm, d, i)
    if placement in ("post", "sandwich"):
        c.norm(prefix + n.attn_post_norm, d, i)
    if placement in ("pre", "sandwich"):
        c.norm(prefix + n.ffn_pre_norm, d, i)
    if placement in ("post", "sandwich"):
        c.norm(prefix + n.ffn_post_norm, d, i)
    if placement == "parallel_split":
        c.norm(prefix + n.attn_branch_norm, d, i)
        c.norm(prefix + n.ffn_branch_norm, d, i)
