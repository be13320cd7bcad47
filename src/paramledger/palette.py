"""One palette for the page, the report and the plots: a colour per inventory component (and the adapter's), so a
component looks the same everywhere.  Okabe and Ito's colour-blind-safe set, with Tol's wine, teal, indigo, dark
red and purple for the components it runs out on; the FFN and the routed experts differ, as do the two tables.  The
page's app.js holds a copy (JavaScript has no import of this), which tests/test_palette.py checks against this one."""

from __future__ import annotations

COLORS: dict[str, str] = {
    "embedding": "#0072B2",  # blue
    "positions": "#56B4E9",  # sky blue
    "attention": "#E69F00",  # orange
    "mixer": "#F0E442",  # yellow: the state-space and convolution mixers
    "ffn": "#009E73",  # bluish green
    "router": "#CC79A7",  # reddish purple
    "experts": "#882255",  # wine
    "shared_experts": "#44AA99",  # teal
    "norm": "#999999",  # grey
    "lm_head": "#D55E00",  # vermillion
    "adapter": "#332288",  # indigo: a LoRA adapter's tensors
    "vision": "#661100",  # Tol's dark red: a multimodal model's vision tower
    "audio": "#999933",  # Tol's olive: a multimodal model's audio tower
    "projector": "#AA4499",  # Tol's purple: its projector
    "talker": "#117733",  # Tol's green: a speech decoder beside the text decoder (Qwen2.5-Omni's talker)
    "vocoder": "#DDCC77",  # Tol's sand: codes to a waveform (Qwen2.5-Omni's token2wav)
}
OTHER = "#BBBBBB"  # a component outside the list


def color(component: str) -> str:
    return COLORS.get(component, OTHER)
