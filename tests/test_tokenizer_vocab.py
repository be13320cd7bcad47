"""Embedding rows against the tokenizer.json beside a config (standard library only)."""

from __future__ import annotations

import json

import pytest

from paramledger._exceptions import FileFormatError, SourceError
from paramledger.tokenizer_vocab import (
    TokenizerVocabulary,
    read_tokenizer_vocabulary,
    tokenizer_note,
    vocabulary_note,
)

tokenizers = pytest.importorskip("tokenizers")  # the real writer of tokenizer.json


def bpe_tokenizer():
    vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4}
    tok = tokenizers.Tokenizer(tokenizers.models.BPE(vocab=vocab, merges=[("a", "b")], unk_token="<unk>"))
    tok.add_special_tokens(["<|endoftext|>", "<unk>"])  # "<unk>" is already in the vocabulary
    tok.add_tokens(["hello"])
    return tok


def write_model(folder, rows, tok=None, text_config=False):
    config = {"model_type": "llama", "vocab_size": rows}
    if text_config:
        config = {"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "vocab_size": rows}}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))
    if tok is not None:
        tok.save(str(folder / "tokenizer.json"))
    return folder


def test_bpe_counts_like_the_tokenizers_library(tmp_path):
    tok = bpe_tokenizer()
    folder = write_model(tmp_path / "m", 8, tok)
    vocab = read_tokenizer_vocabulary(folder / "tokenizer.json")
    assert (vocab.base, vocab.added, vocab.kind) == (5, 2, "BPE")
    assert vocab.size == tok.get_vocab_size(with_added_tokens=True) == 7


def test_padded_rows_are_reported_and_still_count(tmp_path):
    folder = write_model(tmp_path / "m", 8, bpe_tokenizer())
    assert tokenizer_note(folder / "config.json") == (
        "embedding has 8 rows; the tokenizer defines 7 tokens (5 in its vocabulary + 2 added): "
        "1 padded row no token reaches still count")
    assert tokenizer_note(folder) == tokenizer_note(folder / "config.json")  # the folder works too


def test_one_row_per_token(tmp_path):
    folder = write_model(tmp_path / "m", 7, bpe_tokenizer())
    assert tokenizer_note(folder).endswith("one row per token")


def test_more_tokens_than_rows_is_said(tmp_path):
    folder = write_model(tmp_path / "m", 6, bpe_tokenizer())
    assert tokenizer_note(folder).endswith("1 token id has no row (the tokenizer does not match this model)")


def test_unigram_vocabulary_is_a_list_of_pairs(tmp_path):
    tok = tokenizers.Tokenizer(tokenizers.models.Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -2.0)], unk_id=0))
    tok.add_special_tokens(["<pad>"])
    folder = write_model(tmp_path / "m", 16, tok)
    vocab = read_tokenizer_vocabulary(folder / "tokenizer.json")
    assert (vocab.base, vocab.added, vocab.kind) == (3, 1, "Unigram")
    assert vocab.size == tok.get_vocab_size(with_added_tokens=True)
    assert tokenizer_note(folder).endswith("12 padded rows no token reaches still count")


def test_multimodal_config_compares_its_text_decoder(tmp_path):
    folder = write_model(tmp_path / "m", 10, bpe_tokenizer(), text_config=True)
    assert tokenizer_note(folder).startswith("embedding has 10 rows; the tokenizer defines 7 tokens")


def test_qwen_sized_example():
    # Qwen2.5: 151,643 tokens in the BPE vocabulary + 22 added; the table has 151,936 rows.
    assert vocabulary_note(151_936, TokenizerVocabulary(151_643, 22, "BPE")) == (
        "embedding has 151,936 rows; the tokenizer defines 151,665 tokens (151,643 in its vocabulary + 22 added): "
        "271 padded rows no token reaches still count")


def test_no_tokenizer_no_note(tmp_path):
    assert tokenizer_note(write_model(tmp_path / "m", 8)) is None
    assert tokenizer_note(tmp_path / "absent" / "config.json") is None


@pytest.fixture
def tokenizer_json_truncated(tmp_path):
    folder = write_model(tmp_path / "m", 8)
    (folder / "tokenizer.json").write_text('{"model": {"type": "BPE", "vocab": {"a": 0}')
    return folder


def test_truncated_tokenizer_json_is_an_error_and_a_note(tokenizer_json_truncated):
    with pytest.raises(FileFormatError, match=r"tokenizer.json: invalid JSON at line 1 column \d+"):
        read_tokenizer_vocabulary(tokenizer_json_truncated / "tokenizer.json")
    note = tokenizer_note(tokenizer_json_truncated)
    assert note.startswith("the tokenizer.json beside the config was not compared: ")
    assert "invalid JSON" in note


@pytest.fixture
def tokenizer_json_without_model_vocab(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"version": "1.0", "added_tokens": []}))
    return path


def test_tokenizer_json_without_a_vocabulary_is_refused(tokenizer_json_without_model_vocab):
    with pytest.raises(FileFormatError, match=r"not a tokenizer.json: no model.vocab"):
        read_tokenizer_vocabulary(tokenizer_json_without_model_vocab)


@pytest.fixture
def tokenizer_json_with_a_number_for_vocab(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"model": {"type": "BPE", "vocab": 5}}))
    return path


def test_vocab_of_the_wrong_shape_is_refused(tokenizer_json_with_a_number_for_vocab):
    with pytest.raises(FileFormatError, match=r"model.vocab is neither a token -> id object nor a list"):
        read_tokenizer_vocabulary(tokenizer_json_with_a_number_for_vocab)


@pytest.fixture
def tokenizer_json_with_bad_added_tokens(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"model": {"type": "BPE", "vocab": {"a": 0}}, "added_tokens": ["<s>"]}))
    return path


def test_added_tokens_of_the_wrong_shape_are_refused(tokenizer_json_with_bad_added_tokens):
    with pytest.raises(FileFormatError, match=r"added_tokens must be a list of objects with a 'content'"):
        read_tokenizer_vocabulary(tokenizer_json_with_bad_added_tokens)


def test_missing_tokenizer_file_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match=r"tokenizer.json: no such file"):
        read_tokenizer_vocabulary(tmp_path / "tokenizer.json")


@pytest.fixture
def tokenizer_json_in_latin1(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_bytes(b'{"model": {"type": "BPE", "vocab": {"caf\xe9": 0}}}')
    return path


def test_tokenizer_json_that_is_not_utf8_is_refused(tokenizer_json_in_latin1):
    with pytest.raises(FileFormatError, match=r"tokenizer.json: cannot be read \(UnicodeDecodeError\)"):
        read_tokenizer_vocabulary(tokenizer_json_in_latin1)
