"""GLM-4.6V and GLM-GA (the dense Glm46VForConditionalGeneration): GLM-4.1V's vision tower with its merger under
"model.visual" (towers/qwen_vl.py's glm4v_vision), GLM-4.1V's decoder (glm4v_text) under "model.language_model", the head, tied by
the whole config's tie_word_embeddings alone (Glm46VConfig: False).  As for GLM-4.1V (families/qwen_vl.py), the
decoder has no CausalLM of its own in transformers 5.24.0, so this family's own table reads text_config; it takes
glm4v_text only, and refuses another decoder type in one line (a GLM-4.5V-style MoE text_config would count as a
dense one)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import Family, multimodal
from .glm import FAMILIES as GLM
from .qwen_vl import FAMILIES as QWEN_VL

GLM4 = next(family for family in GLM if family.model_type == "glm4")
GLM4V = next(family for family in QWEN_VL if family.model_type == "glm4v")


def glm4v_text_only(model_type: str) -> Any:
    """The rule refusing a text_config of another type: Glm46VConfig's (and GlmgaConfig's) text_config is built by
    AutoConfig from its model_type, and this family counts glm4v_text."""
    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        kind = config.get("model_type", "glm4v_text")
        if kind != "glm4v_text":
            raise ArchitectureError("text_config.model_type", f"{kind!r} is not a text decoder paramledger builds in "
                                    f"{model_type} (it builds glm4v_text)")
        return {}
    return rule


def _glm46v(model_type: str, config_class: str) -> Family:
    """GLM-4.1V's decoder read under ``model_type`` (its own names, not the whole model's), the decoder type checked
    first."""
    text = dataclasses.replace(GLM4V, model_type=model_type, whole=None, naming=GLM4.naming,
                               derive=(glm4v_text_only(model_type), *GLM4V.derive))
    return multimodal(text, model_type, f"transformers 5.24.0 models/{model_type}/configuration_{model_type}.py "
                      f"({config_class})", GLM4V.whole._replace(tie_from_text=False), "Glm46VForConditionalGeneration")


# GLM-GA: transformers 5.24.0 builds Glm46VForConditionalGeneration for it (its image-text-to-text mapping); GlmgaConfig
# has Glm46VConfig's fields and defaults.
FAMILIES = [_glm46v("glm46v", "Glm46VConfig"), _glm46v("glmga", "GlmgaConfig")]
