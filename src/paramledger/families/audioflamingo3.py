"""Audio Flamingo 3 counted whole (families/audio_text.py's AUDIOFLAMINGO3): registered once reference.auto_class
tries the seq-to-seq causal-LM mapping, the only one transformers 5.24.0 puts audioflamingo3 in
(docs/notes/audio-o.patch)."""

from .audio_text import AUDIOFLAMINGO3

FAMILIES = [AUDIOFLAMINGO3]
