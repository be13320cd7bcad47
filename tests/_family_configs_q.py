"""Hypothesis strategies: random small configs for the families of set Q (decoder-only types), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from _family_configs_d import dory as dory_d
from hypothesis import strategies as st

from paramledger import families

# DoryConfig.to_dict: a released config.json names each layer as an attention block and an "mlp" block, with
# num_hidden_layers and the three section sizes doubled (DoryConfig.__post_init__ halves them back)
_DORY_DOUBLED = ("num_hidden_layers", "n_input_layers", "n_output_layers", "n_recurrent_layers")


@st.composite
def dory(draw) -> dict:
    """Set D's strategy (nGPT on the sphere: sections, loops, cache mode, sliding and full layers, biases, tying),
    and half the time the released layout of the same config."""
    config = draw(dory_d())
    if draw(booleans):
        kinds = config.get("layer_types") or ["full_attention" if (i + 1) % 4 == 0 else "sliding_attention"
                                              for i in range(config["num_hidden_layers"])]
        config["layer_types"] = [block for kind in kinds for block in (kind, "mlp")]
        config.update({key: 2 * config[key] for key in _DORY_DOUBLED})
    return config


_STRATEGIES = {"dory": dory}
CONFIGS_Q: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}
