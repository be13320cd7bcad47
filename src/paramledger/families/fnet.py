"""FNet (transformers 5.24.0 models/fnet, FNetForMaskedLM; no CausalLM class is registered): BERT's encoder
(families/bert.py) with the self-attention replaced by a Fourier transform that learns nothing.

Identical to bert except (configuration_fnet.py, modeling_fnet.py lines 83-360): FNetModel under "fnet"; every layer
mixed by a Fourier transform (parts/fourier.py: no tensor) in place of attention, its post-norm
fourier.output.LayerNorm; a Linear after the embeddings' LayerNorm at equal widths (FNetEmbeddings.projection,
biased); the pooler FNetModel always builds (fnet.pooler.dense), registered after the layers; no heads key (FNetConfig
has none: one nominal head, which names no tensor); FNetConfig's defaults (vocabulary 32,000, four token types,
gelu_new)."""

from __future__ import annotations

from ._family import derived_from
from .bert import BERT
from .bert_variants import renamed


def fourier_layers(config) -> dict:
    """Every layer mixes tokens by an FFT (FNetBasicFourierTransform), which holds no tensor."""
    return {"fourier_layers": tuple(range(config["num_hidden_layers"]))}


FNET = derived_from(
    BERT, model_type="fnet", causal_lm_class="FNetForMaskedLM",
    source="transformers 5.24.0 models/fnet/configuration_fnet.py",
    naming=renamed(BERT.naming, "fnet", embed_project="fnet.embeddings.projection", embed_project_always=True,
                   attn_post_norm="fourier.output.LayerNorm", pooler="fnet.pooler.dense",
                   layer_order=("fourier", "intermediate", "output.dense", "output.LayerNorm"),
                   model_order=("fnet.embeddings", "fnet.encoder.layer", "fnet.pooler", "cls.predictions.bias",
                                "cls.predictions.transform")),
    keys={key: field for key, field in BERT.keys.items() if key != "num_attention_heads"},
    defaults={"vocab_size": 32000, "hidden_size": 768, "num_hidden_layers": 12, "intermediate_size": 3072,
              "hidden_act": "gelu_new", "max_position_embeddings": 512, "type_vocab_size": 4,
              "tie_word_embeddings": True},
    switches={**BERT.switches, "num_attention_heads": 1},
    # the TPU path's DFT matrices are buffers (dft_mat_hidden, dft_mat_seq, complex64), built only with SciPy
    count_neutral=BERT.count_neutral | {"use_tpu_fourier_optimizations", "tpu_short_seq_length"},
    requires={}, derive=(fourier_layers,), explain=())

FAMILIES = [FNET]
