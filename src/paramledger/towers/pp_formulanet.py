"""PP-FormulaNet's vision encoder and the projector inside it (transformers 5.24.0 models/pp_formulanet).

PPFormulaNetVisionModel (modeling_pp_formulanet.py lines 431-465) is GOT-OCR 2.0's SAM ViT (towers/got_ocr2.py, the
same module names and order: pos_embed, patch_embed.projection, layers of layer_norm1, attn.rel_pos_h/w, attn.qkv,
attn.proj, layer_norm2, mlp.lin1/lin2, then neck.conv1, layer_norm1, conv2, layer_norm2; each layer's relative
table window_size wide, or the patch grid's where it is in global_attn_indexes or window_size is 0) at
PPFormulaNetVisionConfig's defaults (a 512-pixel image), except that it holds its projector after the neck:
``multi_modal_projector`` (PPFormulaNetMultiModalProjector, lines 226-241: conv1, a 3×3 conv without bias from
post_conv_in_channels to post_conv_mid_channels; conv2, one to post_conv_out_channels; linear_1, biased, at that
width; linear_2, biased, to decoder_hidden_size: the vision config's own key, not the decoder's d_model)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._kind import TowerKind, positive, section
from .got_ocr2 import GOT_OCR2_DEFAULTS, make

# transformers 5.24.0 models/pp_formulanet/configuration_pp_formulanet.py (PPFormulaNetVisionConfig)
PP_FORMULANET_DEFAULTS = {**GOT_OCR2_DEFAULTS, "image_size": 512, "post_conv_in_channels": 256,
                          "post_conv_out_channels": 1024, "post_conv_mid_channels": 512, "decoder_hidden_size": 512}
KIND = "pp_formulanet_vision"

TOWERS = {KIND: TowerKind(PP_FORMULANET_DEFAULTS, make)}


def projector(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """PPFormulaNetMultiModalProjector, sized by vision_config alone (Whole.projector)."""
    vision = section(config, "vision_config", PP_FORMULANET_DEFAULTS)
    into, mid, out, decoder = (positive(vision, key, "vision_config") for key in (
        "post_conv_in_channels", "post_conv_mid_channels", "post_conv_out_channels", "decoder_hidden_size"))
    return [("conv1.weight", (mid, into, 3, 3)), ("conv2.weight", (out, mid, 3, 3)),
            ("linear_1.weight", (out, out)), ("linear_1.bias", (out,)),
            ("linear_2.weight", (decoder, out)), ("linear_2.bias", (decoder,))]
