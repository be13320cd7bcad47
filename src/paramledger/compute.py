"""Compute: forward FLOPs per token at a context length, and training compute 6·N·D.

A multiply-add is 2 FLOPs.  The forward pass of one token that attends to ``context`` keys
(itself included) costs
- 2 × the active matmul weights: every matrix a token multiplies by (attention and FFN
  projections, the router, num_experts_per_tok of the routed experts, the shared experts
  and the output head).  The token-table lookup is a gather, not a matmul, and a learned
  position table likewise, so both are left out; a tied head is the same table used as a
  matmul, so it is counted in (vocab_size × hidden_size once).  Norm scales, biases and
  attention sinks are left out: they cost one operation per element, not two per
  parameter, and are a rounding error beside the matrices (Kaplan et al. 2020, Table 1,
  leaves them out likewise).
- the attention terms that grow with context, per layer: 2 × heads × qk_head_dim × keys for
  QKᵀ and 2 × heads × v_head_dim × keys for AV (= 2 × 2 × heads × head_dim × keys without
  MLA, unless v_head_dim narrows the values), keys = context on a full layer,
  min(context, sliding_window) on a sliding one.  MLA is priced as computed per head
  (qk_head_dim = qk_nope_head_dim + qk_rope_head_dim), as transformers computes it after
  expand_kv.  Softmax and masking are left out.  With per-layer head widths (Gemma 4's
  per_layer_config) each layer's own head_dim.
- DeepSeek Sparse Attention (index_n_heads): each layer that runs its own lightning indexer
  scores every key, 2 × index_n_heads × (index_head_dim + 1) × keys (q·k per indexer head, then
  the weighted sum over heads), and attention then reads min(keys, index_topk) keys, as DSA
  does.  transformers 5.24.0's eager and SDPA paths compute every key and mask the unselected
  ones, so their count equals this one only while the context is within index_topk.
- MLA decoding from a latent cache, as transformers 5.24.0 does it, also passes every cached
  latent back through kv_b_proj at each step: 2 × kv_b_proj weights × (keys − 1) per layer,
  reported apart (``mla_expansion_flops``, not in ``total``): a full-sequence forward
  expands each token once, and DeepSeek's own inference absorbs kv_b_proj into the query
  and output projections instead (that absorbed form is not modelled).
- Gated DeltaNet layers (linear_attention_layers: Qwen3-Next, Qwen3.5): their projections are matmul
  weights, and so is their depthwise conv (conv_dim × kernel weights, one multiply-add each per
  token); they attend to no keys, so they add no attention term: the per-token recurrence on
  their fixed state (about 4 × linear_num_value_heads × linear_key_head_dim × linear_value_head_dim
  FLOPs a token, whatever the context) and the gates are left out, as softmax is.
- AltUp (Gemma 3n, altup_num_inputs = n streams), per layer and context-independent: its
  modality router (n × hidden_size) runs twice, before the layer (predict) and after it
  (correct), so once more than its weights say, 2 × n × hidden_size; and the predicted n × n
  coefficients mix the n streams, 2 × hidden_size × n² (a matmul of activations, no weights)
  (modeling_gemma3n.py, Gemma3nTextAltUp).  Reported as ``altup_flops``, in ``total``.
- Cross-attention (add_cross_attention: a decoder attending over an encoder's output): its k and v
  project the encoder's states once, on the first step (EncoderDecoderCache.cross_attention_cache), so
  a decoded token runs only its q and o, 2 × (q + o weights), and QKᵀ and AV over the encoder's
  ``encoder_length`` cached keys, 2 × 2 × heads × head_dim × encoder_length per layer: reported as
  ``cross_attention_flops``, in ``total``, and its weights left out of ``matmul_parameters``.  Without
  an encoder length, no encoder output: the sublayer does not run (BartDecoderLayer skips it).
- A layer run more than once a token (layer_passes: HRM-Text's cycles run its L_module's layers H_cycles ×
  L_cycles times and its H_module's H_cycles times) multiplies by its weights and attends over its keys on each
  run: its weights are in ``matmul_parameters`` once per run.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._exceptions import OptionError
from ._expert_shares import expert_share, whole
from .architecture import Architecture
from .inventory import ACTIVE_DEFINITION, TOWER_COMPONENTS, Inventory, Tensor
from .kvcache import check_context, layer_runs

MATMUL_DEFINITION = (
    "matrices a token multiplies by: attention and FFN projections, the router, num_experts_per_tok "
    "routed experts, shared experts, a Gated DeltaNet's projections and depthwise conv, the output head (a "
    "tied head counted once as a matmul); "
    "the embedding and position lookups (gathers), norms, biases and sinks are left out"
)
TRAINING_DEFINITION = ("6 × N × D: N = the active parameters per token (the total for a dense model), "
                       "D = training tokens; attention terms left out")


NO_FLOPS = {
    # transformers 5.24.0 models/blt (BltModel.forward): the local encoder and decoder run a byte at a time, the
    # global transformer once a patch, and the patcher sets the patches from the bytes' entropy
    "blt": "BLT's global transformer runs once a patch, whose length its patcher sets from the bytes' entropy: no "
           "fixed FLOPs per token",
    # transformers 5.24.0 models/reformer: LocalSelfAttention and LSHSelfAttention attend within chunks
    # (local_attn_chunk_length, lsh_attn_chunk_length, the chunks before and after), LSH after sorting by buckets
    "reformer": "Reformer attends within chunks (local and LSH chunk lengths, chunks before and after, num_hashes "
                "rounds of bucket sorting), not over the context: its attention FLOPs are not modelled",
    # transformers 5.24.0 models/pi0 (PI0ForConditionalGeneration.sample_actions): the VLM once over the prefix, then
    # the action expert num_inference_steps times over 1 + chunk_size tokens attending to it
    "pi0": "PI0 runs its VLM once over the prefix and its action expert num_inference_steps times over the state and "
           "chunk_size action tokens: no FLOPs per token of one decoder",
    # transformers 5.24.0 models/idefics (IdeficsModel.forward): each gated cross-attention layer projects every
    # image's vision states to keys and values again at every step (cache=None) and its q, o and MLP run per text
    # token, over as many vision states as the images given
    "idefics": "IDEFICS's gated cross-attention layers project the images' vision states again at every step "
               "(nothing cached) and attend over as many as the images given: its FLOPs per token are not modelled",
    # transformers 5.24.0 models/evolla (EvollaModel.forward, EvollaSequenceAlignerCrossAttention): each adapter
    # projects the resampled protein latents to keys and values again at every step (no cache) and runs its query,
    # out_proj and ff per text token, over as many latents as the proteins given
    "evolla": "Evolla's adapters project the resampled protein latents again at every step (nothing cached) and "
              "attend over as many as the proteins given: its FLOPs per token are not modelled",
    # transformers 5.24.0 models/diffusion_gemma (DiffusionGemmaForBlockDiffusion, generation_diffusion_gemma.py): the
    # encoder runs once over the prompt, the decoder as many denoising steps as the sampler takes over each canvas
    "diffusion_gemma": "DiffusionGemma's decoder runs its whole stack over a canvas of canvas_length tokens once per "
                       "denoising step (as many as the sampler takes), after the encoder's pass over the prompt: no "
                       "FLOPs per token of one decoder",
}


def as_inventory(source: Inventory | Architecture) -> Inventory:
    """An inventory as it is, or the inventory of an architecture."""
    if isinstance(source, Inventory):
        return source
    from . import inventory

    return inventory(source)


def per_expert_rank(t: Tensor) -> int:
    """Dimensions of one expert's share of ``t`` (of ``t`` itself when dense).  Experts stacked on
    an axis of their own drop it: (experts, out, in) is a matrix each, (experts, out) a bias each.
    Experts flattened on the first axis, (experts × out, in) (DBRX's w1, v1, w2), keep it: a 2-D
    expert tensor is flattened unless it is a bias."""
    if t.experts and (len(t.shape) != 2 or t.name.endswith("bias")):
        return len(t.shape) - 1
    return len(t.shape)


def _is_matrix(t: Tensor) -> bool:
    # Cohere's per-head q/k norm weights (heads, head_dim) and ERNIE's (1, experts) routing
    # correction are 2-D but scale or offset elementwise: no matmul.  A multimodal model's towers run once per
    # image, not for each token the decoder reads or writes.
    # GLM-5-Next's index_kpool_compress_ape, a position offset added to the pools' gate scores: no matmul either.
    return (per_expert_rank(t) >= 2 and t.component not in _NOT_PER_TOKEN and not t.name.endswith(("bias", "_ape")))


_NOT_PER_TOKEN = frozenset({"embedding", "positions", "token_types", "norm", *TOWER_COMPONENTS})


def active_parameters(source: Inventory | Architecture) -> tuple[int, str]:
    """Parameters one token reads, with the definition they follow."""
    return as_inventory(source).active, ACTIVE_DEFINITION


def matmul_parameters(source: Inventory | Architecture) -> int:
    """Active matmul weights per token (MATMUL_DEFINITION)."""
    inv = as_inventory(source)
    arch = inv.architecture
    k = arch.num_experts_per_tok if arch is not None and arch.is_moe else 0
    share = expert_share
    if arch is not None and arch.vision_moe_intermediate_size:  # a text token runs no vision expert
        from .parts.modality_experts import text_token_share as share
    total = whole(inv.sum_of(lambda t: (share(t) * k if t.experts else t.count) if _is_matrix(t) else 0))
    looked_up: frozenset[str] = frozenset()
    if arch is not None and arch.towers:  # an encoder's embed_tokens tied to the shared table: looked up, no matmul
        from .towers import tower_aliases

        looked_up = tower_aliases(arch)
    for alias, target in inv.aliases.items():  # each use of a shared tensor runs it again
        if alias in looked_up:
            continue
        tensor = inv[target]
        if tensor.component == "embedding" or _is_matrix(tensor):  # the tied head: the token table as a matmul
            total += tensor.count
    return total


@dataclass(frozen=True, slots=True)
class ForwardFlops:
    context: int
    matmul_parameters: int
    weight_flops: int  # 2 × matmul_parameters
    attention_flops: int  # QKᵀ and AV over the keys each layer attends to
    mla_expansion_flops: int = 0  # MLA decode from a latent cache: cached latents through kv_b_proj again
    altup_flops: int = 0  # AltUp's second router pass and its stream mixing (Gemma 3n)
    cross_attention_flops: int = 0  # q, o and attention over an encoder's cached keys and values
    encoder_length: int | None = None  # the encoder's input tokens the cross-attention reads (None: no encoder)

    @property
    def total(self) -> int:
        return self.weight_flops + self.attention_flops + self.altup_flops + self.cross_attention_flops


def forward_flops_per_token(source: Inventory | Architecture, context: int,
                            encoder_length: int | None = None) -> ForwardFlops:
    """FLOPs for one token that attends to ``context`` keys (itself included) and, through any cross-attention,
    to an encoder's ``encoder_length`` tokens (None: no encoder output, the cross-attention does not run)."""
    check_context(context, 1)
    if encoder_length is not None and (isinstance(encoder_length, bool) or not isinstance(encoder_length, int)
                                       or encoder_length < 1):
        raise OptionError("encoder-length", f"must be a whole number of at least 1, got {encoder_length!r}")
    inv = as_inventory(source)
    arch = inv.architecture
    if arch is None:
        raise OptionError("source", "FLOPs need the architecture (heads, head_dim), not a bare tensor list")
    if arch.model_type in NO_FLOPS:
        raise OptionError("flops", f"{arch.model_type}: {NO_FLOPS[arch.model_type]}")
    attention = expansion = cross = cross_weights = again = 0
    window = arch.sliding_window
    # each (kind of layer, sliding or not) once, times its layers: a 10⁷-layer design in milliseconds
    for run in layer_runs(arch):
        keys = min(context, window) if run.sliding else context
        attention += run.layers * (run.layer.attention_flops(keys) + run.layer.context_flops(context))
        expansion += run.layers * run.layer.expansion_flops(keys)
        cross_weights += run.layers * run.layer.encoder_weights()  # (0 but in a layer attending over an encoder)
        again += run.layers * run.layer.repeated_weights()  # (0 but in a layer run more than once a token)
        cross += run.layers * run.layer.encoder_flops(encoder_length) if encoder_length else 0
    matmul = matmul_parameters(inv) - cross_weights + again
    streams, d = arch.altup_num_inputs, arch.hidden_size
    altup = arch.num_hidden_layers * (2 * streams * d + 2 * d * streams * streams)
    return ForwardFlops(context, matmul, 2 * matmul, attention, expansion, altup, cross, encoder_length)


def training_flops(source: Inventory | Architecture, tokens: int, parameters: int | None = None) -> int:
    """6 · N · D (Kaplan et al. 2020; Hoffmann et al. 2022): forward 2ND plus backward 4ND,
    attention terms left out.  N defaults to the active parameters per token."""
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise OptionError("tokens", f"must be a whole number of at least 1, got {tokens!r}")
    return 6 * (as_inventory(source).active if parameters is None else parameters) * tokens
