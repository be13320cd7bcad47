"""Activations whose module holds weights (issue #15): transformers 5.24.0 makes every activation a config names
through ACT2FN (activations.py lines 324-350, ACT2CLS), a new module wherever one is applied.  Two of them hold
parameters: "prelu" (nn.PReLU: a weight of one element) and "xielu" (XIELUActivation, lines 236-262: alpha_p and
alpha_n, one element each).

paramledger places xIELU's two in every dense FFN at the family's ``Naming.act`` (parts/ffn.py), which is what the
decoders build (Apertus, Llama and its kin: checked by scripts/flag_parity.py).  It places no PReLU weight anywhere,
and no xIELU weight in the modules that apply an activation elsewhere: BERT's prediction head and intermediate,
Mamba's mixer, Zamba's mamba blocks, a router's scoring function, ModernBERT's head.  A config that names either
there is refused in one line instead of a count short by a few parameters (scripts/flag_parity.py --strings found
each family below: transformers builds 2 more per module than paramledger counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

# the modules each learned activation is (activations.py ACT2CLS) and what they hold
LEARNED = {"prelu": "nn.PReLU holds a weight", "xielu": "XIELUActivation holds alpha_p and alpha_n"}
# config keys whose value transformers' modeling code passes to ACT2FN (or, for scoring_func, applies by name)
ACTIVATION_KEYS = ("hidden_act", "hidden_activation", "activation_function", "activation", "afn", "ff_activation",
                   "dense_act_fn", "feed_forward_proj", "classifier_activation", "scoring_func", "mamba_hidden_act",
                   "hidden_mamba_act", "projector_hidden_act")
# keys whose activation is applied outside the dense FFN (a router, a Mamba mixer, a classifier head): paramledger
# places xIELU's weights in none of them
XIELU_ELSEWHERE_KEYS = frozenset({"classifier_activation", "scoring_func", "mamba_hidden_act", "hidden_mamba_act",
                                  "projector_hidden_act"})
# types whose class applies hidden_act (or its spelling) in modules other than the dense FFN's act, or whose
# config class refuses xielu (NeoMME: hidden_act is Literal["relu2"]; OpenAI GPT: its own ACT_FNS, a KeyError)
XIELU_ELSEWHERE = frozenset({
    "albert", "bamba", "bert", "big_bird", "blip", "deberta", "deberta-v2", "distilbert", "encoder-decoder", "ernie",
    "falcon_h1", "falcon_mamba", "fnet", "funnel", "gemma3n", "gemma3n_text", "granitemoehybrid", "idefics",
    "idefics2", "inkling_mm_model", "inkling_text", "layoutlm", "luke", "mamba", "mamba2", "megatron-bert",
    "mobilebert", "mra", "neomme", "nomic_bert", "nystromformer", "openai-gpt", "recurrent_gemma", "reformer",
    "rembert", "roc_bert", "roformer", "squeezebert", "step3p7", "tapas", "whisper", "xlnet", "yoso", "zamba"})


def check(config: Mapping[str, Any], model_type: str, text_type: str, where: str | None) -> None:
    """Refuse a learned activation paramledger does not place for ``model_type`` (read by ``text_type``'s table),
    naming its key."""
    for key in ACTIVATION_KEYS:
        value = config.get(key)
        if type(value) is not str or value not in LEARNED:
            continue
        if value == "xielu" and key not in XIELU_ELSEWHERE_KEYS and model_type not in XIELU_ELSEWHERE and (
                text_type not in XIELU_ELSEWHERE):
            continue
        raise ArchitectureError(key, f"{value!r} is not counted: {LEARNED[value]} of its own in each module that "
                                f"applies it, which paramledger does not place for {model_type} (transformers "
                                "5.24.0 activations.py ACT2CLS)", where)
