"""Vocabulary rows against the tokenizer: how many embedding rows no token can reach.

The token table has ``vocab_size`` rows (config.json); the tokenizer beside it defines its
own number of tokens (tokenizer.json: the model's vocabulary plus the added tokens that are
not already in it).  Releases pad the table past the tokenizer to a round size (Qwen2.5:
151,936 rows for 151,665 tokens); the padded rows are learned tensors all the same and
count in every total.  Read with the standard library only: no tokenizers, no transformers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._exceptions import FileFormatError, ParamledgerError


@dataclass(frozen=True, slots=True)
class TokenizerVocabulary:
    base: int  # entries in model.vocab
    added: int  # added_tokens not already in model.vocab
    kind: str  # the model type: "BPE", "Unigram", "WordPiece", "WordLevel"

    @property
    def size(self) -> int:
        return self.base + self.added


def read_tokenizer_vocabulary(path: str | Path) -> TokenizerVocabulary:
    """The vocabulary a tokenizer.json defines (huggingface/tokenizers' serialization:
    ``model.vocab`` is a token -> id object for BPE/WordPiece/WordLevel and a list of
    [token, score] pairs for Unigram; ``added_tokens`` a list of {"id", "content", ...})."""
    from .sources import read_json

    path = Path(path)
    data = read_json(path, "tokenizer")
    model = data.get("model") if isinstance(data, Mapping) else None
    if not isinstance(model, Mapping) or "vocab" not in model:
        raise FileFormatError(str(path), "not a tokenizer.json: no model.vocab")
    tokens = _vocab_tokens(model["vocab"], path)
    added = data.get("added_tokens") or []
    if not isinstance(added, list) or not all(isinstance(t, Mapping) and isinstance(t.get("content"), str)
                                              for t in added):
        raise FileFormatError(str(path), "added_tokens must be a list of objects with a 'content'")
    new = {t["content"] for t in added} - tokens
    return TokenizerVocabulary(len(tokens), len(new), str(model.get("type", "?")))


def _vocab_tokens(vocab: Any, path: Path) -> set[str]:
    if isinstance(vocab, Mapping):
        return set(vocab)
    if isinstance(vocab, list) and all(isinstance(e, list) and e and isinstance(e[0], str) for e in vocab):
        return {e[0] for e in vocab}  # Unigram: [token, score] pairs
    raise FileFormatError(str(path), "model.vocab is neither a token -> id object nor a list of [token, score]")


def _config_path(config_path: str | Path) -> Path:
    path = Path(config_path)
    return path / "config.json" if path.is_dir() else path


def _embedding_rows(config: Any) -> int | None:
    """vocab_size of the decoder (a multimodal config keeps it in text_config)."""
    if not isinstance(config, Mapping):
        return None
    if isinstance(config.get("text_config"), Mapping) and "vocab_size" in config["text_config"]:
        config = config["text_config"]
    rows = config.get("vocab_size")
    return rows if isinstance(rows, int) and not isinstance(rows, bool) else None


def tokenizer_note(config_path: str | Path) -> str | None:
    """One line comparing the token table's rows with the tokenizer.json beside the config,
    or None when there is no tokenizer.json (or no vocab_size) to compare."""
    config_file = _config_path(config_path)
    tokenizer_file = config_file.parent / "tokenizer.json"
    if not tokenizer_file.is_file() or not config_file.is_file():
        return None
    from .sources import read_json

    try:
        rows = _embedding_rows(read_json(config_file))
    except ParamledgerError:
        return None  # the config's own reader reports that, with its own error
    if rows is None:
        return None
    try:
        vocab = read_tokenizer_vocabulary(tokenizer_file)
    except ParamledgerError as error:
        return f"the tokenizer.json beside the config was not compared: {error}"
    return vocabulary_note(rows, vocab)


def vocabulary_note(rows: int, vocab: TokenizerVocabulary) -> str:
    tokens = vocab.size
    defined = f"the tokenizer defines {tokens:,} tokens"
    if vocab.added:
        defined += f" ({vocab.base:,} in its vocabulary + {vocab.added:,} added)"
    if rows > tokens:
        padded = rows - tokens
        return (f"embedding has {rows:,} rows; {defined}: {padded:,} padded row{'s' if padded != 1 else ''} "
                f"no token reaches still count")
    if rows < tokens:
        missing = tokens - rows
        ids = "token id has" if missing == 1 else "token ids have"
        return (f"embedding has {rows:,} rows; {defined}: {missing:,} {ids} no row "
                f"(the tokenizer does not match this model)")
    return f"embedding has {rows:,} rows; {defined}: one row per token"
