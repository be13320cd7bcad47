"""GLM-4.6V (the dense Glm46VForConditionalGeneration): GLM-4.1V's vision tower with its merger under "model.visual"
(towers/qwen_vl.py's glm4v_vision), GLM-4.1V's decoder (glm4v_text) under "model.language_model", the head, tied by
the whole config's tie_word_embeddings alone (Glm46VConfig: False).  As for GLM-4.1V (families/qwen_vl.py), the
decoder has no CausalLM of its own in transformers 5.24.0, so this family's own table reads text_config; it takes
glm4v_text only, and refuses another decoder type in one line (a GLM-4.5V-style MoE text_config would count as a
dense one)."""

import dataclasses

from .._exceptions import ArchitectureError
from ._family import multimodal
from .glm import FAMILIES as GLM
from .qwen_vl import FAMILIES as QWEN_VL

GLM4 = next(family for family in GLM if family.model_type == "glm4")
GLM4V = next(family for family in QWEN_VL if family.model_type == "glm4v")


def glm4v_text_only(config):
    """Glm46VConfig's text_config is built by AutoConfig from its model_type: this family counts glm4v_text."""
    kind = config.get("model_type", "glm4v_text")
    if kind != "glm4v_text":
        raise ArchitectureError("text_config.model_type", f"{kind!r} is not a text decoder paramledger builds in "
                                "glm46v (it builds glm4v_text)")
    return {}


# GLM-4.1V's decoder read under glm46v (its own names, not the whole model's), the decoder type checked first.
TEXT = dataclasses.replace(GLM4V, model_type="glm46v", whole=None, naming=GLM4.naming,
                           derive=(glm4v_text_only, *GLM4V.derive))
FAMILIES = [
    multimodal(TEXT, "glm46v", "transformers 5.24.0 models/glm46v/configuration_glm46v.py (Glm46VConfig)",
               GLM4V.whole._replace(tie_from_text=False), "Glm46VForConditionalGeneration"),
]
