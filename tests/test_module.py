"""Live modules counted by object identity: seed 000's three rules on a real nn.Module, and
transformers' LlamaForCausalLM against the config-derived inventory."""

from __future__ import annotations

import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import paramledger  # noqa: E402
from paramledger._exceptions import ModuleFactoryError, OptionError, TorchRequiredError  # noqa: E402
from paramledger.module import from_module, inventory_from_factory, module_buffers  # noqa: E402


class TinyLM(nn.Module):
    """A token table, one block, an output head tied to the table, and a second table that
    happens to hold the same values as the first."""

    def __init__(self, vocab: int = 50, d: int = 8) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.twin_table = nn.Embedding(vocab, d)
        with torch.no_grad():
            self.twin_table.weight.copy_(self.embed_tokens.weight)  # equal values, independent object
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.Linear(4 * d, d))
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embed_tokens.weight  # tied: one object, two names
        self.register_buffer("causal_mask", torch.ones(4, 4))


def test_seed_000_three_rules_on_a_real_module():
    model = TinyLM()
    model.embed_tokens.weight.requires_grad_(False)  # frozen, still counted
    inv = from_module(model)
    table = 50 * 8
    block = (8 * 32 + 32) + (32 * 8 + 8) + 2 * 8
    # alias once, frozen still counted, the equal-valued twin counted twice
    assert inv.total == 2 * table + block == sum(p.numel() for p in model.parameters())
    assert inv.aliases == {"lm_head.weight": "embed_tokens.weight"}
    assert inv["embed_tokens.weight"].frozen and inv.frozen == table
    assert inv.trainable == inv.total - table
    assert "twin_table.weight" in inv.names()


def test_buffers_are_listed_apart_and_not_counted():
    model = TinyLM()
    inv = from_module(model)
    assert [b.name for b in module_buffers(model)] == ["causal_mask"]
    assert "causal_mask" not in inv.names()
    assert any("1 buffer(s), 16 values, not learned and not counted: causal_mask" in note for note in inv.notes)


def test_components_guessed_from_names():
    inv = from_module(TinyLM())
    assert inv["embed_tokens.weight"].component == "embedding"
    assert inv["norm.weight"].component == "norm"
    assert inv["mlp.0.weight"].component == "ffn"
    assert inv["twin_table.weight"].component == "embedding"  # an nn.Embedding: a table, whatever its name


def test_llama_for_causal_lm_equals_the_config_inventory():
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=256, hidden_size=64, intermediate_size=160, num_hidden_layers=3,
                         num_attention_heads=8, num_key_value_heads=2, tie_word_embeddings=True)
    with torch.device("meta"):
        model = LlamaForCausalLM(config)
    live = from_module(model)
    declared = paramledger.inventory(config.to_dict())
    assert [(t.name, t.shape, t.component, t.layer) for t in live.tensors] == \
        [(t.name, t.shape, t.component, t.layer) for t in declared.tensors]
    assert live.aliases == declared.aliases
    assert live.total == declared.total == model.num_parameters()


def test_full_size_llama_on_the_meta_device():
    import json

    from transformers import AutoConfig, LlamaForCausalLM

    from paramledger.sources import bundled_models

    entry = json.loads(bundled_models()["Llama-2-7b-hf"].read_text())
    with torch.device("meta"):
        model = LlamaForCausalLM(AutoConfig.for_model(**entry["config"]))
    assert from_module(model).total == paramledger.inventory("Llama-2-7b-hf").total == 6_738_415_616


FACTORY = textwrap.dedent('''
    import torch

    def build():
        return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))

    def refuses_meta():
        if torch.empty(1).device.type == "meta":
            raise RuntimeError("needs real weights")
        return torch.nn.Linear(2, 2)

    def not_a_module():
        return 42

    def broken():
        raise ValueError("bad config\\nsecond line")

    VALUE = 3

    class Namespace:
        @staticmethod
        def make():
            return torch.nn.Linear(5, 1, bias=False)
''')


@pytest.fixture
def factory_module(tmp_path, monkeypatch):
    (tmp_path / "plmod_factories.py").write_text(FACTORY)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "plmod_factories"
    sys.modules.pop("plmod_factories", None)


def test_factory_built_on_the_meta_device(factory_module):
    inv = inventory_from_factory(f"{factory_module}:build")
    assert inv.total == (4 * 3 + 3) + (3 * 2 + 2)
    assert inv.source == f"{factory_module}:build"


def test_factory_attribute_path(factory_module):
    assert inventory_from_factory(f"{factory_module}:Namespace.make").total == 5


def test_factory_that_fails_on_meta_is_built_on_the_cpu(factory_module):
    inv = inventory_from_factory(f"{factory_module}:refuses_meta")
    assert inv.total == 6
    assert any("built on the CPU: the factory fails on the meta device (RuntimeError)" in n for n in inv.notes)


def test_factory_spec_without_a_colon():
    with pytest.raises(OptionError, match=r"--module: expected pkg.mod:factory, got 'pkg.mod'"):
        inventory_from_factory("pkg.mod")


def test_factory_module_not_importable():
    with pytest.raises(ModuleFactoryError, match=r"no_such_pkg_xyz:f: cannot import no_such_pkg_xyz "
                                                 r"\(ModuleNotFoundError"):
        inventory_from_factory("no_such_pkg_xyz:f")


def test_factory_missing_attribute(factory_module):
    with pytest.raises(ModuleFactoryError, match=r"plmod_factories has no attribute 'nope'"):
        inventory_from_factory(f"{factory_module}:nope")


def test_factory_not_callable(factory_module):
    with pytest.raises(ModuleFactoryError, match=r"VALUE is not callable"):
        inventory_from_factory(f"{factory_module}:VALUE")


def test_factory_returning_something_else(factory_module):
    with pytest.raises(ModuleFactoryError, match=r"not_a_module\(\) returned int, not a torch nn.Module"):
        inventory_from_factory(f"{factory_module}:not_a_module")


def test_factory_that_raises_is_one_line(factory_module):
    with pytest.raises(ModuleFactoryError, match=r"calling broken\(\) failed \(ValueError: bad config\)$"):
        inventory_from_factory(f"{factory_module}:broken")


def test_from_module_refuses_a_non_module():
    with pytest.raises(ModuleFactoryError, match=r"not a torch nn.Module \(dict\)"):
        from_module({"w": 1})


def test_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(TorchRequiredError, match="counting a live module needs torch"):
        inventory_from_factory("x.y:z")


def test_a_plain_module_applies_each_non_embedding_definition_as_stated():
    """An nn.Embedding is a table whatever its name (``emb``); one named for positions is the position table; an
    untied Linear onto the token table's rows is the output head.  Hugging Face's own num_parameters
    (exclude_embeddings=True), run on the same module, is the reference for "hf"."""
    torch = pytest.importorskip("torch")
    from transformers.modeling_utils import ModuleUtilsMixin

    class Plain(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(1000, 64)
            self.pos_emb = torch.nn.Embedding(16, 64)
            self.fc = torch.nn.Linear(64, 64)
            self.head = torch.nn.Linear(64, 1000, bias=False)

    module = Plain()
    inv = paramledger.from_module(module)
    assert inv.total == 133_184
    assert inv.non_embedding("hf") == ModuleUtilsMixin.num_parameters(module, exclude_embeddings=True) == 68_160
    assert inv.non_embedding("nanogpt") == 133_184 - 16 * 64  # the position table only
    assert inv.non_embedding("kaplan") == 64 * 64 + 64  # the token and position tables and the untied head out
    del module.pos_emb, module.head
    assert paramledger.from_module(module).non_embedding("hf") == 4_160  # the example: emb and a Linear
