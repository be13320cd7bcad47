"""Encoders (issue #17): masked-LM families as transformers builds them, and what their checkpoints hold beside.
Each family is checked tensor by tensor against transformers in tests/test_families.py (its strategy in
tests/_family_configs_h.py); these are the behaviours around it."""

from __future__ import annotations


def test_bert_base_uncased_counts_bert_for_masked_lm_and_says_what_the_hub_label_adds(cli):
    """Issue #17: BertForMaskedLM's count (its tensors are BertLMHeadModel's, the CausalLM head the mapping
    registers), with the checkpoint's pretraining heads said apart."""
    _, out, _ = cli("count", "bert-base-uncased")
    assert "total        109,514,298" in out and "token_types        1,536" in out
    assert "output head: tied (cls.predictions.decoder.weight -> bert.embeddings.word_embeddings.weight, " \
           "cls.predictions.decoder.bias -> cls.predictions.bias), counted once" in out
    assert "pooler (590,592) and the next-sentence head (1,538): 592,130 more" in out
    assert "non-embedding (Hugging Face exclude_embeddings): 85,678,650" in out  # num_parameters(True)
