"""The bundled registry: every real release counted exactly as transformers builds it, at full size."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import paramledger
from paramledger import families, registry
from paramledger._exceptions import FileFormatError, UnknownModelError
from paramledger.hf_config import architecture_from_config
from paramledger.towers import text_only

NAMES = registry.names()

# Published totals (model cards, papers) that the configs must reproduce.
PUBLISHED_TOTALS = {
    "gpt2": 124_439_808,
    "Llama-2-7b-hf": 6_738_415_616,
    "Mistral-7B-v0.1": 7_241_732_096,
    "Mixtral-8x7B-v0.1": 46_702_792_704,
    "Llama-3.2-1B": 1_235_814_400,
    "Qwen2.5-0.5B": 494_032_768,
    "gemma-3-270m": 268_098_176,
}

ISSUE_3_MODELS = ("gpt2", "gemma-3-270m", "Llama-3.2-1B", "Llama-2-7b-hf", "Qwen2.5-0.5B", "Qwen2.5-3B", "SmolLM2-135M",
                  "Mistral-7B-v0.1", "Mixtral-8x7B-v0.1", "Phi-3-mini-4k-instruct", "gemma-2-2b", "DeepSeek-V3",
                  "gpt-oss-20b")


# Issue #17 (encoders and seq2seq) and issue #14 (state-space hybrids): the releases whose verbatim config.json
# was found (docs/notes/registry-hunt17.md lists the ones still missing and what was searched).
ISSUE_17_MODELS = ("roberta-large", "ModernBERT-base", "ModernBERT-large", "deberta-v3-base", "bart-large")
ISSUE_14_MODELS = ("Bamba-9B", "LFM2-700M")
# Issue #15 (decoder types without a bundled release): docs/notes/registry-hunt15.md gives each source and the
# types still missing.
ISSUE_15_MODELS = ("rwkv-4-430m-pile", "rwkv-4-7b-pile", "OLMo-2-1124-13B", "BioGPT-Large", "phi-2",
                   "recurrentgemma-9b", "helium-1-preview-2b", "Minitron-4B-Base", "openai-gpt", "ctrl",
                   "persimmon-8b-base", "cpm-ant-10b", "internlm3-8b-instruct",
                   "DiffLlama-0.3B-handcut", "OLMoE-1B-7B-0924-SFT",
                   "Doge-20M-MoE-Instruct")


# Hunt 18 (issues #14, #15, #16): docs/notes/registry-hunt18.md gives each source and what is still missing.
HUNT_18_MODELS = ("xLSTM-7b", "BLOOMChat-176B-v1", "bertin-gpt-j-6B", "GLM-4.7", "INTELLECT-3-Base",
                  "User-VLM-3B-base", "Replit-v1-CodeInstruct-3B", "MiniMax-M2",
                  "llava-v1.6-mistral-7b-hf", "llava-v1.6-vicuna-7b-hf", "llava-v1.6-34b-hf",
                  "llama3-llava-next-8b-hf")


def test_hunt_18_releases_are_bundled():
    assert set(HUNT_18_MODELS) <= set(NAMES)


def test_registry_holds_at_least_thirty_real_releases_including_the_issues_list():
    assert len(NAMES) >= 30
    assert set(ISSUE_3_MODELS) <= set(NAMES)
    assert set(ISSUE_17_MODELS) <= set(NAMES)
    assert set(ISSUE_14_MODELS) <= set(NAMES)
    assert set(ISSUE_15_MODELS) <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_entry_names_its_repo_and_source(name):
    model = registry.get(name)
    assert model.repo.split("/")[-1] == model.name  # the file is named after the release
    assert model.repo.count("/") == 1
    assert model.source.startswith(f"https://huggingface.co/{model.repo}/")
    assert model.model_type == model.config["model_type"]


@pytest.mark.parametrize("name", NAMES)
def test_bundled_model_matches_transformers_at_full_size(name):
    """Names, shapes, aliases and total equal transformers' <Family>ForCausalLM on the meta device."""
    reference = pytest.importorskip("paramledger.reference")
    model = registry.get(name)
    config = model.config
    family = families.get(config["model_type"])
    if family is None:  # kept so it runs the day the family lands
        pytest.xfail(f"model_type {config['model_type']!r} has no family yet")
    inv = paramledger.inventory(architecture_from_config(config, model.repo))
    ref = reference.build_reference(config, text_config=family.text_decoder_only)
    result = reference.diff(inv, ref)
    assert result.matches, json.dumps(result.to_json(), indent=1)[:2000]
    assert inv.total == ref.total
    assert dict(inv.aliases) == dict(ref.aliases)
    assert [t.name for t in inv.tensors] == [name for name, _ in ref.tensors]  # named_parameters()' order


def test_tensors_outside_the_layers_keep_their_places():
    """The token table comes first, every layer's tensors stand together, and the final norm and an untied
    head come after the last layer, as transformers lists them (the builder keeps three lists), unless the
    naming's model_order places the final norm before the layers (OPTDecoder registers it first) or the token
    table after them (CpmAntModel: encoder, then segment and input embeddings)."""
    for name in NAMES:
        inv = paramledger.inventory(name)
        arch = inv.architecture
        naming = families.naming_of(arch)  # (a whole encoder-decoder's: its decoder's table the shared one)
        layers = [i for i, t in enumerate(inv.tensors) if t.layer is not None]
        # a whole model's towers come first (those its model_order lists before the decoder: Gemma 4's embedders follow it)
        towers = sum(t.component in ("vision", "audio", "projector", "encoder") for t in inv.tensors[:layers[0]])
        first = 0 if naming.model_order[:1] == (naming.embed,) else towers  # (the shared table before the encoder)
        root, order = naming.layer.partition(".{i}")[0], naming.model_order
        if not (naming.embed in order and root in order and order.index(naming.embed) > order.index(root)):
            assert inv.tensors[first].name == naming.embed + ".weight", name  # (CpmAntModel registers it after)
        assert all(t.layer is not None for t in inv.tensors[layers[0]:layers[-1] + 1]), name
        after = {t.name for t in inv.tensors[layers[-1] + 1:]}
        order = naming.model_order
        before_layers = naming.final_norm in order and (
            order.index(naming.final_norm) < order.index(naming.layer.partition(".{i}")[0]))
        if inv.architecture.final_norm and inv.architecture.norm_type != "nonparametric":
            assert (naming.final_norm + ".weight" in after) != before_layers, name
        if not inv.tied:
            assert naming.lm_head + ".weight" in after, name


@pytest.mark.parametrize("name, total", PUBLISHED_TOTALS.items())
def test_published_totals(name, total):
    assert paramledger.inventory(name).total == total


def test_pythia_160m_matches_the_pythia_readme():
    # EleutherAI/pythia README, models table: 160M has 85,056,000 non-embedding and 162,322,944 total parameters.
    inv = paramledger.inventory("pythia-160m")
    assert (inv.total, inv.non_embedding("kaplan")) == (162_322_944, 85_056_000)


def test_pythia_1b_matches_the_pythia_readme():
    # EleutherAI/pythia README, models table: 1.0B has 805,736,448 non-embedding parameters (the README gives no total).
    assert paramledger.inventory("pythia-1b").non_embedding("kaplan") == 805_736_448


@pytest.mark.parametrize("name, total, non_embedding, digits", [
    # Qwen/Qwen2.5-1.5B card: "Number of Parameters: 1.54B", "Number of Paramaters (Non-Embedding): 1.31B"
    ("Qwen2.5-1.5B", 1.54, 1.31, 2),
    # Qwen/Qwen3-0.6B card: "Number of Parameters: 0.6B", "Number of Paramaters (Non-Embedding): 0.44B"
    ("Qwen3-0.6B", 0.6, 0.44, 2),
    # Qwen/Qwen3-1.7B card: "Number of Parameters: 1.7B", "Number of Paramaters (Non-Embedding): 1.4B"
    ("Qwen3-1.7B", 1.7, 1.4, 1),
])
def test_qwen_cards_rounded_sizes(name, total, non_embedding, digits):
    # The cards print billions rounded; their non-embedding figure drops the token table (tied or not).
    inv = paramledger.inventory(name)
    assert (round(inv.total / 1e9, digits), round(inv.non_embedding() / 1e9, digits)) == (total, non_embedding)


def test_llama_32_3b_matches_its_model_card():
    # meta-llama/Llama-3.2-3B card, model information table: "3B (3.21B)", rounded.
    assert round(paramledger.inventory("Llama-3.2-3B").total / 1e9, 2) == 3.21


@pytest.mark.parametrize("name, non_embedding", [
    # Gemma paper (arXiv 2403.08295) Table 2, non-embedding parameters: 2B 1,981,884,416; 7B 7,751,248,896
    ("gemma-2b", 1_981_884_416),
    ("gemma-7b", 7_751_248_896),
    # Gemma 2 paper (arXiv 2408.00118) Table 2: 2B 2,024,517,888; 9B 8,324,201,984; 27B 26,047,480,320
    ("gemma-2-2b", 2_024_517_888),
    ("gemma-2-9b-it", 8_324_201_984),
    ("gemma-2-27b", 26_047_480_320),
])
def test_gemma_papers_non_embedding_counts(name, non_embedding):
    # Only the non-embedding column is compared: the papers' embedding column counts the Gemini vocabulary's
    # 256,128 rows (e.g. 524,550,144 = 256,128 x 2048 for 2B), the released configs have vocab_size 256000.
    assert paramledger.inventory(name).non_embedding() == non_embedding


def test_gpt_oss_120b_matches_its_model_card():
    # gpt-oss model card (arXiv 2508.10925), model architecture: "gpt-oss-120b: 116.8B total parameters (5.1B
    # active)", rounded; its active count leaves out the token embedding and keeps the unembedding.
    inv = paramledger.inventory("gpt-oss-120b")
    assert (round(inv.total / 1e9, 1), round(inv.active_non_embedding / 1e9, 1)) == (116.8, 5.1)


def test_bitnet_matches_its_checkpoint_listing():
    # github.com/kevbuh/bitnet README.md @032c4535 lists every tensor of microsoft/bitnet-b1.58-2B-4T-bf16 (the
    # master weights, same architecture) under "Layer Info (2,412,820,480 parameters)"; the model card only says
    # "~2 Billion". The listing has no lm_head: the unembedding is tied to the token table.
    assert paramledger.inventory("bitnet-b1.58-2B-4T").total == 2_412_820_480


def test_gemma4_31b_matches_its_checkpoint_listing():
    # A model-information report for google/gemma-4-31B-it (the same one the entry's config comes from) lists its
    # checkpoint's 1,188 tensors, 31,273,088,876 parameters: the whole Gemma4ForConditionalGeneration, which
    # paramledger counts (issue #16). transformers holds 62 of those tensors as buffers, no parameters: the 60 layer
    # scalars (one value each) and the vision tower's two (1152,) standardization vectors (std_bias, std_scale).
    inv = paramledger.inventory("gemma-4-31B-it")
    assert inv.total == 31_273_088_876 - 60 - 2 * 1152
    # Less the vision tower (27 layers of 3 x 1152 x 4304 + 4 x 1152^2 + 4 x 1152 + 2 x 72, the 1152 x 768 patch
    # projection, the 2 x 10240 x 1152 position table: 569,548,080) and embed_vision's 5376 x 1152 projection, the
    # text decoder holds 30,697,345,280.
    assert inv.components["vision"] == 569_548_080 and inv.components["projector"] == 5376 * 1152
    assert paramledger.inventory(text_only(paramledger.load("gemma-4-31B-it"))).total == 30_697_345_280


def test_qwen15_moe_matches_its_announced_sizes():
    # transformers' qwen2_moe docs: "14.3B parameters in total and 2.7B activated parameters during runtime"
    inv = paramledger.inventory("Qwen1.5-MoE-A2.7B-Chat")
    assert (round(inv.total / 1e9, 1), round(inv.active / 1e9, 1)) == (14.3, 2.7)


@pytest.mark.parametrize("name, total, non_embedding", [
    # Qwen/Qwen3-14B card: "Number of Parameters: 14.8B", "Number of Paramaters (Non-Embedding): 13.2B"
    ("Qwen3-14B", 14.8, 13.2),
    # Qwen/Qwen3-32B card: "Number of Parameters: 32.8B", "Number of Paramaters (Non-Embedding): 31.2B"
    ("Qwen3-32B", 32.8, 31.2),
    # Qwen/Qwen3-235B-A22B card: "Number of Parameters: 235B in total and 22B activated",
    # "Number of Paramaters (Non-Embedding): 234B"
    ("Qwen3-235B-A22B", 235, 234),
])
def test_qwen3_cards_rounded_sizes(name, total, non_embedding):
    # These untied cards' non-embedding figure drops both the token table and the output head.
    inv = paramledger.inventory(name)
    digits = 0 if isinstance(total, int) else 1
    assert (round(inv.total / 1e9, digits), round(inv.non_embedding("kaplan") / 1e9, digits)) == (total, non_embedding)


def test_qwen3_235b_matches_its_announced_active_size():
    # Qwen/Qwen3-235B-A22B card: "235B in total and 22B activated"
    assert round(paramledger.inventory("Qwen3-235B-A22B").active / 1e9) == 22


@pytest.mark.parametrize("name, total", [
    # Model-information reports in the search index (repository not named) count each checkpoint's tensors:
    # Qwen3-14B 443 tensors, 14,768,307,200; Qwen2.5-72B-Instruct 963 tensors, 72,706,203,648;
    # QwQ-32B 771 tensors, 32,763,876,352.
    ("Qwen3-14B", 14_768_307_200),
    ("Qwen2.5-72B-Instruct", 72_706_203_648),
    ("QwQ-32B", 32_763_876_352),
    # Qwen3-Next-80B-A3B-Instruct: 75,944 tensors, 81,324,862,720, of which the mtp.* multi-token-prediction
    # block (fc 2048 x 4096, one full-attention decoder layer with its 512 experts and shared expert, mtp.norm
    # and the two pre-fc norms) holds 1,650,471,424 that transformers does not build.
    ("Qwen3-Next-80B-A3B-Instruct", 81_324_862_720 - 1_650_471_424),
])
def test_matches_its_checkpoint_listing(name, total):
    assert paramledger.inventory(name).total == total


def test_exaone_4_32b_matches_its_model_cards_size_without_embeddings():
    # LGAI-EXAONE/EXAONE-4.0-32B card: "Number of Parameters (without embeddings): 30.95B" (quoted as "a 30.95B
    # parameter multilingual LLM" in public summaries); without the token table and the untied output head.
    # Its config's sliding_window_pattern is the string "LLLG", read by transformers only without layer_types.
    assert round(paramledger.inventory("EXAONE-4.0-32B").non_embedding("kaplan") / 1e9, 2) == 30.95


@pytest.mark.parametrize("spelling",
                         ["llama-3.2-1b", "meta-llama/Llama-3.2-1B", "META-LLAMA/llama-3.2-1B", "Llama-3.2-1B"])
def test_lookup_ignores_case_and_the_org(spelling):
    assert registry.get(spelling).name == "Llama-3.2-1B"
    assert paramledger.inventory(spelling).total == 1_235_814_400


def test_names_are_unique_ignoring_case():
    lowered = [n.lower() for n in NAMES]
    assert len(lowered) == len(set(lowered))


def test_unknown_name_offers_the_closest():
    with pytest.raises(UnknownModelError, match=r"Llama-3.2-1C: .*did you mean 'Llama-3.2-1B'"):
        registry.get("Llama-3.2-1C")


def test_summaries_count_from_the_inventory():
    by_name = {s.model.name: s for s in registry.summaries()}
    mixtral = by_name["Mixtral-8x7B-v0.1"]
    assert mixtral.counted and mixtral.is_moe
    assert mixtral.total == 46_702_792_704
    assert mixtral.active == paramledger.inventory("Mixtral-8x7B-v0.1").active < mixtral.total
    gpt2 = by_name["gpt2"]
    assert (gpt2.active, gpt2.is_moe) == (gpt2.total, False)
    assert gpt2.embedding_share == paramledger.inventory("gpt2").embedding_share


@pytest.fixture
def entry_with_an_unsupported_family(tmp_path):
    path = tmp_path / "made-up-lm-1b.json"
    path.write_text(json.dumps({"repo": "org/made-up-lm-1b", "source": "test",
                                "config": {"model_type": "made_up_lm", "vocab_size": 32000, "hidden_size": 4096}}))
    return registry.BundledModel("made-up-lm-1b", "org/made-up-lm-1b", "test", "made_up_lm", path)


def test_unsupported_family_is_a_reason_not_a_crash(entry_with_an_unsupported_family):
    summary = registry.summarize(entry_with_an_unsupported_family)
    assert not summary.counted and summary.total is None
    assert summary.reason == "model_type 'made_up_lm' is not supported yet"
    assert registry.summary_json(summary)["not_counted"] == summary.reason


@pytest.fixture
def entry_without_a_source(tmp_path):
    path = tmp_path / "nameless.json"
    path.write_text(json.dumps({"repo": "org/nameless", "config": {"model_type": "llama"}}))
    return path


def test_entry_without_a_source_is_refused(entry_without_a_source):
    with pytest.raises(FileFormatError, match=r"nameless.json: a bundled model entry needs a 'source' string"):
        registry.read_entry(entry_without_a_source)


@pytest.fixture
def entry_whose_config_is_a_list(tmp_path):
    path = tmp_path / "listed.json"
    path.write_text(json.dumps({"repo": "org/listed", "source": "test", "config": [1, 2]}))
    return path


def test_entry_without_a_config_object_is_refused(entry_whose_config_is_a_list):
    with pytest.raises(FileFormatError, match=r"listed.json: a bundled model entry needs a 'config' object"):
        registry.read_entry(entry_whose_config_is_a_list)


@pytest.fixture
def two_entries_differing_in_case(tmp_path, monkeypatch):
    from paramledger import sources

    for stem in ("Tiny", "tiny"):
        (tmp_path / f"{stem}-{id(stem)}.json").write_text(
            json.dumps({"repo": f"org/{stem}", "source": "test", "config": {"model_type": "llama"}}))
    paths = sorted(tmp_path.glob("*.json"))
    monkeypatch.setattr(sources, "bundled_models", lambda: {"Tiny": paths[0], "tiny": paths[1]})
    registry.bundled.cache_clear()
    yield
    registry.bundled.cache_clear()


def test_a_name_declared_twice_is_refused(two_entries_differing_in_case):
    with pytest.raises(RuntimeError, match=r"bundled model 'tiny' is declared twice"):
        registry.bundled()


def test_counting_a_bundled_model_needs_neither_torch_nor_transformers():
    """Import paramledger with torch and transformers blocked; count and list still work."""
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("torch", "transformers"):
                    raise ImportError(f"blocked: {name}")
        sys.meta_path.insert(0, Block())
        import paramledger
        from paramledger import registry
        print(paramledger.inventory("DeepSeek-V3").total, len(registry.summaries()))
        assert "torch" not in sys.modules and "transformers" not in sys.modules
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    total, count = done.stdout.split()
    assert int(total) == 671_026_404_352
    assert int(count) == len(NAMES)


def test_modernbert_matches_its_model_cards():
    # answerdotai/ModernBERT-base README (the hub's stored README.md): "ModernBERT-base - 22 layers, 149 million
    # parameters", "ModernBERT-large - 28 layers, 395 million parameters"; the card truncates (149.66 M, 395.88 M).
    assert paramledger.inventory("ModernBERT-base").total // 10**6 == 149
    assert paramledger.inventory("ModernBERT-large").total // 10**6 == 395


def test_deberta_v3_base_matches_its_model_card():
    # microsoft/deberta-v3-base README (commit 5bd4ba4 on the hub): "86M backbone parameters with a vocabulary
    # containing 128K tokens which introduces 98M parameters in the Embedding layer". The 86M is everything but the
    # token table (86,170,980: the MLM head and the relative-position table included).
    inv = paramledger.inventory("deberta-v3-base")
    table = next(t.count for t in inv.tensors if t.name == "deberta.embeddings.word_embeddings.weight")  # 128100 x 768
    assert (round(table / 1e6), round((inv.total - table) / 1e6)) == (98, 86)


def test_bamba_9b_matches_the_transformers_docs():
    # transformers docs/source/en/model_doc/bamba.md, the BambaConfig table: "Bamba | 9B (9.78B) | 32 | 4096 | 32".
    assert round(paramledger.inventory("Bamba-9B").total / 1e9, 2) == 9.78


def test_issue_15_published_sizes():
    # CTRL paper abstract (arXiv 1909.05858, quoted in transformers' CTRL docs): "a 1.63 billion-parameter conditional
    # transformer language model"; microsoft/phi-2 card: "Phi-2 is a Transformer with 2.7 billion parameters".
    # Both truncate (1,637,964,550 and 2,779,683,840).
    assert paramledger.inventory("ctrl").total // 10**7 == 163
    assert paramledger.inventory("phi-2").total // 10**8 == 27
