"""Hypothesis strategies: random small configs for the whole multimodal families of set MA (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import _set, whole
from hypothesis import strategies as st

booleans = st.booleans()

CONFIGS_MA = {
    # MiniCPM-V 4.6's strategy (tests/_family_configs_l.py) under MiniCPM-OCR's types
    "minicpm_ocr": whole("minicpm_ocr", "qwen3_5_text", _set("qwen3_5_text"), vit("minicpm_ocr_vision").flatmap(
        lambda vision: st.lists(st.integers(1, 3), min_size=2, max_size=2).map(
            lambda kernel: {**vision, "window_kernel_size": kernel})), merger_times=st.integers(1, 3)),
}
