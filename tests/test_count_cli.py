"""`paramledger count`: the manifest, a live module, a tokenizer beside a config."""

from __future__ import annotations

import json

import pytest

import paramledger


def test_manifest_lists_every_tensor_and_alias(cli):
    status, out, _ = cli("count", "seed-baseline", "--json", "--manifest")
    data = json.loads(out)
    inv = paramledger.inventory("seed-baseline")
    assert [t["name"] for t in data["tensors"]] == inv.names()
    assert sum(t["count"] for t in data["tensors"]) == data["total"] == inv.total
    embed = next(t for t in data["tensors"] if t["name"] == "model.embed_tokens.weight")
    assert embed == {"name": "model.embed_tokens.weight", "shape": [32768, 256], "count": 8388608,
                     "component": "embedding", "layer": None, "frozen": False, "aliases": ["lm_head.weight"]}
    status, text, _ = cli("count", "seed-baseline", "--manifest")
    assert "model.layers.5.mlp.down_proj.weight" in text and "lm_head.weight -> model.embed_tokens.weight" in text


def test_count_a_live_module(cli, tmp_path, monkeypatch):
    (tmp_path / "tiny_factory.py").write_text(
        "import torch\n"
        "class Tied(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.embed = torch.nn.Embedding(10, 4)\n"
        "        self.head = torch.nn.Linear(4, 10, bias=False)\n"
        "        self.head.weight = self.embed.weight\n"
        "        self.register_buffer('mask', torch.ones(3, 3))\n"
        "def build():\n    return torch.nn.Linear(4, 3)\n"
        "def tied():\n    return Tied()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, _ = cli("count", "--module", "tiny_factory:build", "--json")
    assert status == 0 and json.loads(out)["total"] == 15
    status, out, _ = cli("count", "--module", "tiny_factory:tied", "--json", "--manifest")
    data = json.loads(out)
    assert data["total"] == 40 and data["aliases"] == {"head.weight": "embed.weight"}
    assert data["buffers"] == [{"name": "mask", "shape": [3, 3], "count": 9}]


def test_count_needs_a_source(cli):
    status, out, err = cli("count")
    assert status == 2 and err == "paramledger: error: SOURCE: give a SOURCE to count, or --module PKG.MOD:FACTORY\n"
    status, out, err = cli("count", "seed-baseline", "--module", "x:y")
    assert status == 2 and "--module: counts a live module; give it instead of SOURCE and --set" in err


def test_tokenizer_beside_config_is_noted(cli, tmp_path):
    config = {"model_type": "llama", "vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
              "num_attention_heads": 2, "intermediate_size": 16}
    (tmp_path / "config.json").write_text(json.dumps(config))
    tokenizer = {"version": "1.0", "added_tokens": [{"id": 5, "content": "<eos>", "special": True}],
                 "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "d": 3, "e": 4}, "merges": []}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(tokenizer))
    status, out, _ = cli("count", str(tmp_path), "--json")
    notes = json.loads(out)["notes"]
    assert any("embedding has 8 rows; the tokenizer defines 6 tokens" in n and "2 padded rows" in n for n in notes)
    status, text, _ = cli("count", str(tmp_path))
    assert "note: embedding has 8 rows" in text


def test_active_both_ways(cli):
    """Publishers count active parameters with the token table (Mixtral's 12.9B) or without it
    (gpt-oss-20b's 3.6B): both are given."""
    data = json.loads(cli("count", "gpt-oss-20b", "--json")[1])
    assert data["active"] == 4_187_440_704
    assert data["active_non_embedding"] == 4_187_440_704 - data["embedding"]
    assert round(data["active_non_embedding"] / 1e9, 1) == 3.6
    mixtral = json.loads(cli("count", "Mixtral-8x7B-v0.1", "--json")[1])
    assert round(mixtral["active"] / 1e9, 1) == 12.9


def test_set_takes_a_models_own_config_keys(cli):
    """GPT-2's config says n_layer and n_head: --set reads them as its config.json does."""
    assert cli("count", "gpt2", "--set", "n_layer=6", "--json") == cli("count", "gpt2", "--set", "num_hidden_layers=6",
                                                                      "--json")
    status, _, err = cli("count", "gpt2", "--set", "n_head=16", "--set", "num_attention_heads=4")
    assert (status, err) == (2, "paramledger: error: --set: n_head and num_attention_heads both set "
                                "num_attention_heads\n")
    status, _, err = cli("count", "gpt2", "--set", "n_heda=5")
    assert status == 2 and err.endswith("n_heda: unknown key (did you mean 'n_head'?)\n")
    status, _, err = cli("count", "seed-baseline", "--set", "n_layer=2")  # a design has no GPT-2 keys
    assert status == 2 and "n_layer: unknown key" in err


def test_bare_paramledger_prints_its_commands(cli):
    code, out, err = cli()
    assert code == 0 and not err
    assert out.startswith("usage: paramledger") and "count" in out and "memory" in out


def test_counts_on_the_command_line_take_decimal_suffixes(cli):
    """--context 128k is 128,000 tokens, --tokens 2T two million million, as --budget 1.5B is read."""
    code, out, _ = cli("memory", "gpt2", "--context", "128k", "--batch", "2", "--tokens", "2T", "--json")
    report = json.loads(out)
    assert code == 0 and report["context"] == 128_000 and report["batch"] == 2
    assert report["training_flops"]["tokens"] == 2 * 10**12
    code, _, err = cli("memory", "gpt2", "--context", "12.5")
    assert code == 2 and "argument --context: must be a whole number of tokens, got '12.5'" in err


def test_one_layer_is_one_layer(cli):
    code, out, _ = cli("count", "seed-baseline", "--set", "num_hidden_layers=1")
    assert out.splitlines()[0] == "seed-baseline: paramledger, 1 layer, hidden 256, vocabulary 32,768, MHA"


def test_the_count_table_gives_each_figure_at_a_glance_beside_the_exact_one(cli):
    """Decimal prefixes beside every exact count: 8.03 B for Llama 3.1 8B, never a binary prefix."""
    code, out, _ = cli("count", "Llama-3.1-8B")
    total = next(line for line in out.splitlines() if line.startswith("total"))
    assert total.split() == ["total", "8,030,261,248", "8.03", "B", "100.00", "%"]


@pytest.mark.parametrize("model_type", sorted(paramledger.families.supported()))
def test_every_family_answers_every_view_at_its_defaults(model_type):
    """Each view of a family's class defaults answers (the table's break-even vocabulary, the JSON, memory and the
    report): Moshi's and CPM-Ant's head of their own row count failed the table's break-even step, which the
    inventory alone never reached."""
    pytest.importorskip("transformers")
    from paramledger._exceptions import OptionError
    from paramledger.kvcache import NO_CACHE
    from paramledger.memory import memory_report
    from paramledger.reference import default_config
    from paramledger.render import inventory_json, inventory_table
    from paramledger.report import report_html

    inv = paramledger.inventory(paramledger.load(default_config(model_type)))
    assert f"{inv.total:,}" in inventory_table(inv)
    assert inventory_json(inv)["total"] == inv.total
    if model_type in NO_CACHE:  # memory refuses a cache it cannot size, in one line (BLT's); the report still answers
        # (BLT's: no cache kept; Reformer's: a cache of states and buckets, no keys and values)
        with pytest.raises(OptionError, match=f"kv-cache: {model_type}: transformers 5.24.0('s ReformerDynamicCache|"
                                              "'s PI0 cache|'s DiffusionGemma cache| keeps no KV cache)"):
            memory_report(inv)
    else:
        assert memory_report(inv).weights.total > 0
    assert "<html" in report_html(inv)
