"""The modules of a model as PEFT sees them (``model.named_modules()``), read from an inventory's tensor list.

A tensor ``a.b.weight`` is the parameter ``weight`` of the module ``a.b``; every prefix of a path is a module too
(the containers: ``model``, ``model.layers``, ...), listed before what it holds, as named_modules() lists them.
Which modules are an ``nn.Linear`` (or transformers' Conv1D) the inventory says by its components: a 2-D
``.weight`` outside the token and position tables and the norms, not a stack of experts.  The one component it
cannot tell by is the router: transformers 5.24.0 builds most routers as a module holding a raw weight Parameter
(MixtralTopKRouter, DeepseekV3TopkRouter, ...), which PEFT cannot adapt; the families below build theirs as a
Linear (checked against the meta-device model for every family in tests/test_adapters_families.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..inventory import Inventory, Tensor

# model_type -> its router is an nn.Linear (or a subclass: Llama4Router); every other router is a raw weight.
def _naming_of(arch: object) -> object:
    from ..families import naming_of  # (the families' table, imported when an adapter is asked for)

    return naming_of(arch)


LINEAR_ROUTERS = frozenset({
    "afmoe",  # AfmoeTokenChoiceRouter.gate: nn.Linear
    "dbrx",  # DbrxRouter.layer
    "diffusion_gemma",  # DiffusionGemmaTextRouter.proj (both stacks')
    "doge",  # DogeCDMoE.router_gate
    "gemma3n", "gemma3n_text",  # AltUp's correction_coefs, prediction_coefs and modality_router
    "gemma4", "gemma4_text",  # Gemma4TextRouter.proj
    "hunyuan_v1_moe",  # HunYuanMoEV1Gate.wg
    "nllb-moe", "switch_transformers",  # NllbMoeTop2Router.classifier, SwitchTransformersTop1Router.classifier
    "jetmoe",  # JetMoeTopKGating.layer
    "llama4", "llama4_text",  # Llama4Router(nn.Linear)
    "phimoe",  # PhimoeTopKRouter(nn.Linear)
})
TABLES = ("embedding", "positions", "token_types")  # nn.Embedding: LoRA's lora_embedding_A/B


@dataclass
class Module:
    """One module of named_modules(): ``kind`` "linear" (nn.Linear, Conv1D), "embedding", "container" (holds
    only other modules) or "other" (a norm, a raw-weight router, fused experts: no LoRA layer fits it)."""

    path: str
    kind: str = "container"
    in_features: int = 0
    out_features: int = 0
    parameters: list[Tensor] = field(default_factory=list)  # its own (recurse=False), in registration order
    tied: dict[str, str] = field(default_factory=dict)  # leaf -> the tensor it aliases (a tied head's weight)

    @property
    def leaves(self) -> list[str]:
        return [t.name.rpartition(".")[2] for t in self.parameters] + list(self.tied)


def module_table(inv: Inventory, tensors: Sequence[Tensor], conv1d: bool) -> dict[str, Module]:
    """path -> Module for every module that holds a parameter and every container above one, in named_modules()
    order; ``conv1d``: the family's linears are transformers' Conv1D, weight stored (in, out)."""
    arch = inv.architecture
    linear_router = arch is not None and arch.model_type in LINEAR_ROUTERS
    # each expert its own nn.Linear pair (SwitchTransformersExperts, NllbMoeExperts): wrapped as any Linear
    linear_experts = arch is not None and _naming_of(arch).experts_each is not None
    by_name = {t.name: t for t in tensors}
    tower_tables: frozenset[str] = frozenset()
    looked_up: frozenset[str] = frozenset()  # an encoder's embed_tokens tied to the shared table: an nn.Embedding
    if arch is not None and arch.towers:  # a tower's position table is an nn.Embedding too
        from ..towers import embedding_tables, tower_aliases

        tower_tables, looked_up = embedding_tables(arch), tower_aliases(arch)
    table: dict[str, Module] = {}

    def module(path: str) -> Module:
        if path not in table:
            parts = path.split(".")
            for i in range(1, len(parts)):
                table.setdefault(".".join(parts[:i]), Module(".".join(parts[:i])))
            table[path] = Module(path)
        return table[path]

    for t in tensors:
        path, _, leaf = t.name.rpartition(".")
        m = module(path)
        m.parameters.append(t)
        if leaf == "weight" and len(t.shape) == 2 and (not t.experts or linear_experts):
            if t.component in TABLES or t.name in tower_tables:
                m.kind, (m.in_features, m.out_features) = "embedding", t.shape  # (num_embeddings, embedding_dim)
            elif t.component != "norm" and (t.component != "router" or linear_router):
                m.kind = "linear"
                m.in_features, m.out_features = t.shape if conv1d else t.shape[::-1]
                continue
        if m.kind == "container":
            m.kind = "other"
    for alias, target in inv.aliases.items():  # a tied head: an nn.Linear whose weight is the token table
        path, _, leaf = alias.rpartition(".")
        m = module(path)
        m.tied[leaf] = target
        shape = by_name[target].shape
        if leaf == "weight" and len(shape) == 2 and alias in looked_up:
            m.kind, (m.in_features, m.out_features) = "embedding", shape
        elif leaf == "weight" and len(shape) == 2:
            m.kind = "linear"
            m.out_features, m.in_features = shape
    return table
