"""PP-FormulaNet counted whole (transformers 5.24.0 models/pp_formulanet: PPFormulaNetForConditionalGeneration,
registered as image-text-to-text; no CausalLM).

PPFormulaNetModel (modeling_pp_formulanet.py lines 963-968) registers the text decoder first (``model.decoder``,
PPFormulaNetTextModel, lines 772-812: MBart's decoder, the same modules in the same order: a scaled token table,
learned positions of max_position_embeddings + 2 rows, pre-norm layers with cross-attention, layernorm_embedding and
the final layer_norm; MBartForCausalLM's names), then its vision encoder (``model.encoder``, towers/pp_formulanet.py:
a SAM ViT with its projector inside), then ``lm_head`` (line 1040), never tied (_tied_weights_keys = {}).
The decoder reads text_config (PPFormulaNetTextConfig) as MBart's family reads its config: decoder_layers,
decoder_attention_heads, decoder_ffn_dim, d_model; the encoder_* keys size nothing (no text encoder is built)."""

from __future__ import annotations

import dataclasses

from ..towers import Whole
from ..towers.pp_formulanet import KIND, projector
from ._family import derived_from, multimodal
from .bart import ENCODER_SIDE, MBART, _defaults

SOURCE = "transformers 5.24.0 models/pp_formulanet/configuration_pp_formulanet.py"

# identical to mbart's decoder except: PPFormulaNetTextConfig's defaults (a 50,000-token table, 2,560 positions,
# 8 layers of 16 heads at 512 wide, an FFN of 2,048, untied) and no encoder of its own.
TEXT = derived_from(MBART, model_type="pp_formulanet", causal_lm_class="PPFormulaNetForConditionalGeneration",
                    source=f"{SOURCE} (PPFormulaNetTextConfig)", seq2seq=None,
                    defaults={**_defaults(50000, 2560, 8, 2048, 16, 512), "tie_word_embeddings": False},
                    count_neutral=ENCODER_SIDE | {"is_encoder_decoder"})

WHOLE = multimodal(TEXT, "pp_formulanet", f"{SOURCE} (PPFormulaNetConfig)",
                   Whole({"model_type": KIND}, projector, vision_prefix="model.encoder.",
                         projector_prefix="model.encoder.multi_modal_projector.", decoder_prefix="model.",
                         tie_word_embeddings=False, tie_keys=(), vision_kind=KIND,
                         decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (no CausalLM "
                                               "is registered for pp_formulanet_text; PPFormulaNetTextModel has no "
                                               "head): count the whole model"),
                   "PPFormulaNetForConditionalGeneration")
# the decoder, then the vision encoder (its projector inside it), then the head, as named_parameters() lists them
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(WHOLE.naming, model_order=(
    *WHOLE.naming.model_order, "model.encoder")))]
