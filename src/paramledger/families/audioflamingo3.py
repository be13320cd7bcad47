"""Audio Flamingo 3 and Music Flamingo counted whole (families/audio_text.py's AUDIOFLAMINGO3 and MUSICFLAMINGO):
registered once reference.auto_class tries the seq-to-seq causal-LM mapping, the only one transformers 5.24.0 puts
audioflamingo3 and musicflamingo in (docs/notes/audio-o.patch)."""

from .audio_text import AUDIOFLAMINGO3, MUSICFLAMINGO

FAMILIES = [AUDIOFLAMINGO3, MUSICFLAMINGO]
