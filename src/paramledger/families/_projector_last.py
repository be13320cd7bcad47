"""A whole model whose projector its model registers after the decoder (PaddleOCR-VL's projector, Kimi K2.5's
mm_projector, MiniCPM-V 4.6's merger): the family's naming lists the tower, the decoder, then the projector
(Naming.model_order), as named_parameters() does."""

import dataclasses

from ._family import Family


def projector_last(family: Family, tower: str, projector: str) -> Family:
    """``family`` (a whole multimodal family) with ``tower``'s and ``projector``'s module paths around its decoder's
    ("model.language_model")."""
    order = (tower, "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm",
             projector)
    return dataclasses.replace(family, naming=dataclasses.replace(family.naming, model_order=order))
