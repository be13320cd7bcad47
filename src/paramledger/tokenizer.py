"""Tokenizer identity: which vocabulary a design's table rows belong to.

Seed 000: vocabulary size (the table's rows) and sequence length (tokens per text) are
different variables, and token ids mean nothing outside their own vocabulary.  A design
names its tokenizer; the bundled toy vocabularies hold only the pieces the seed uses,
and encode by greedy longest match.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ._exceptions import OptionError, SourceError
from .architecture import Architecture


@dataclass(frozen=True)
class ToyVocabulary:
    name: str
    vocab_size: int
    pieces: tuple[tuple[str, int], ...]  # piece -> id

    def encode(self, text: str) -> list[tuple[str, int]]:
        """Greedy longest-match segmentation of ``text`` into (piece, id) pairs."""
        table = dict(self.pieces)
        longest = max(len(p) for p in table)
        out: list[tuple[str, int]] = []
        i = 0
        while i < len(text):
            for size in range(min(longest, len(text) - i), 0, -1):
                piece = text[i:i + size]
                if piece in table:
                    out.append((piece, table[piece]))
                    i += size
                    break
            else:
                raise OptionError("text", f"{text[i:]!r} has no piece in the toy vocabulary {self.name} "
                                  f"(it lists only {', '.join(sorted(table))})")
        return out


@lru_cache(maxsize=None)
def toy_vocabulary(name: str) -> ToyVocabulary:
    import json

    path = Path(str(resources.files("paramledger") / "designs" / "tokenizers" / f"{name}.json"))
    if not path.is_file():
        raise SourceError(name, "no bundled toy vocabulary of that name")
    data = json.loads(path.read_text(encoding="utf-8"))
    vocab = ToyVocabulary(data["name"], int(data["vocab_size"]), tuple(data["pieces"].items()))
    for piece, index in vocab.pieces:
        if not 0 <= index < vocab.vocab_size:  # an id must name a row of its own table
            raise SourceError(name, f"piece {piece!r} has id {index}, outside 0..{vocab.vocab_size - 1}")
    return vocab


def encode(architecture: Architecture, text: str) -> list[tuple[str, int]]:
    """Encode ``text`` with the design's named toy vocabulary."""
    if architecture.tokenizer is None:
        raise OptionError("tokenizer", f"{architecture.source or 'the design'} names no tokenizer")
    vocab = toy_vocabulary(architecture.tokenizer)
    if vocab.vocab_size != architecture.vocab_size:
        raise OptionError("tokenizer", f"{vocab.name} has {vocab.vocab_size:,} ids but the table has "
                          f"{architecture.vocab_size:,} rows: ids would not line up with rows")
    return vocab.encode(text)
