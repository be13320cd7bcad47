"""LoRA on an inventory: the tensors ``get_peft_model(model, LoraConfig(...))`` holds, named as PEFT 0.21.2 names
them, each marked trainable or frozen as PEFT marks it, so that the Inventory's ``trainable`` and ``total`` are
``PeftModel.get_nb_trainable_parameters()``.

PEFT's rules, each from its source (peft 0.21.2):
- which modules are targeted: BaseTuner.inject_adapter walks named_modules() and asks
  check_target_module_exists (tuners/tuners_utils.py): exclude_modules first, then modules under
  modules_to_save, then target_modules, a str matched whole (re.fullmatch), else a name equal to the path or
  ending it after a dot, narrowed by layers_to_transform (the first number after layers_pattern, or after any
  segment); "all-linear" is every nn.Linear and Conv1D but the output embeddings (_maybe_include_all_linear_layers);
  no target_modules: TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING (utils/constants.py).
- Mixtral- and Qwen2-MoE-like families first have their v4 expert targets renamed onto transformers 5's fused
  parameters (utils/transformers_weight_conversion.py, _convert_peft_config_moe): see moe.py.
- rank and alpha per module: get_pattern_key (utils/other.py), the first key of rank_pattern/alpha_pattern
  matching ``(.*\\.)?(key)$``.
- what a LoRA layer adds: LoraLayer.update_layer (tuners/lora/layer.py): lora_A (r, in), lora_B (out, r) with a
  bias when lora_bias; DoRA's lora_magnitude_vector (out,) (tuners/lora/variants.py DoraLinearVariant.init);
  Embedding.update_layer: lora_embedding_A (r, num_embeddings), lora_embedding_B (embedding_dim, r);
  ParamWrapper.update_layer (target_parameters): lora_A (r·experts, in), lora_B (out, r·experts).
  The wrapped module moves under ``base_layer``; a ModulesToSaveWrapper (utils/other.py) holds
  ``original_module`` and a full trainable copy under ``modules_to_save.default``.
- trainable: BaseTuner._mark_only_adapters_as_trainable: the adapters, then every ``.bias`` for bias="all" or
  the adapted layers' biases for "lora_only"; the modules_to_save copies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from .._exceptions import AdapterError
from ..inventory import Inventory, Tensor, inventory_from_tensors
from .config import ALL_LINEAR, LoraSpec
from .modules import Module, module_table
from .moe import convert_moe_targets

PREFIX = "base_model.model."  # PeftModelForCausalLM.base_model (LoraModel) .model (the wrapped model)
ADAPTER = "default"  # get_peft_model's adapter_name
COMPONENT = "adapter"  # the component of every LoRA tensor

# peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING, the supported families in it
DEFAULT_TARGETS: dict[str, str | tuple[str, ...]] = {
    "bloom": ("query_key_value",), "codegen": ("qkv_proj",), "falcon": ("query_key_value",),
    "gemma": ("q_proj", "v_proj"), "gemma2": ("q_proj", "v_proj"), "gemma3_text": ("q_proj", "v_proj"),
    "gemma4": r".*language_model\..*\.(q_proj|v_proj)", "gpt2": ("c_attn",), "gpt_bigcode": ("c_attn",),
    "gpt_neo": ("q_proj", "v_proj"), "gpt_neox": ("query_key_value",), "gptj": ("q_proj", "v_proj"),
    "llama": ("q_proj", "v_proj"), "llama4": ("q_proj", "v_proj"), "mistral": ("q_proj", "v_proj"),
    "mixtral": ("q_proj", "v_proj"), "mpt": ("Wqkv",), "opt": ("q_proj", "v_proj"),
    "phi": ("q_proj", "v_proj", "fc1", "fc2"), "qwen2": ("q_proj", "v_proj"), "qwen3": ("q_proj", "v_proj"),
    "stablelm": ("q_proj", "v_proj"),
}


def _excluded(spec: LoraSpec, key: str) -> bool:
    """check_target_module_exists's first two refusals: exclude_modules, and anything under modules_to_save."""
    exclude = spec.exclude_modules
    if exclude:
        if isinstance(exclude, str):
            if re.fullmatch(exclude, key):
                return True
        elif key in exclude or any(key.endswith(f".{name}") for name in exclude):
            return True
    return any(re.match(rf"(^|.*\.){name}($|\..*)", key) for name in spec.modules_to_save)


def _targeted(spec: LoraSpec, targets: str | frozenset[str], key: str) -> bool:
    """check_target_module_exists, after the exclusions."""
    if isinstance(targets, str):
        return re.fullmatch(targets, key) is not None
    if key in targets:
        return True
    if not any(key.endswith(f".{name}") for name in targets):
        return False
    layers = spec.layers_to_transform
    if layers is None or layers == ():
        return True
    patterns = spec.layers_pattern
    if not patterns:  # lazy: the first numbered segment, never an expert's index
        match = re.match(r".*?\.[^.]*\.(?P<idx>\d+)\.", key)
    else:
        match = None
        for pattern in [patterns] if isinstance(patterns, str) else patterns:
            match = re.match(rf"(?:^|.*?\.){pattern}\.(?P<idx>\d+)\.", key)
            if match is not None:
                break
    if match is None:
        return False
    index = int(match.group("idx"))
    return index == layers if isinstance(layers, int) else index in layers


def _pattern_value(patterns: dict, key: str, default):
    """get_pattern_key: the first pattern ``(.*\\.)?(pattern)$`` matches, else the default."""
    for pattern in patterns:
        if re.match(rf"(.*\.)?({pattern})$", key):
            return patterns[pattern]
    return default


# peft 0.21.2 tuners/tuners_utils.py _check_lora_target_modules_mamba: LoRA refuses these modules by name in
# these model types, whichever module the name is.
MAMBA_MODEL_TYPES = frozenset({"falcon_h1", "mamba", "mamba2", "falcon_mamba", "nemotron_h"})
MAMBA_INCOMPATIBLE = frozenset({"out_proj", "conv1d"})


def apply_lora(inv: Inventory, spec: LoraSpec, *, conv1d: bool = False, lm_head: str = "lm_head",
               experts_in_out: bool = False) -> Inventory:
    """The inventory of ``get_peft_model(model, LoraConfig(**spec))``: the base tensors under ``base_model.model.``,
    frozen, and the adapter's tensors, trainable.  ``conv1d``, ``lm_head``, ``experts_in_out``: the family's
    Naming (GPT-2's Conv1D weights, the output head's path, gpt-oss's (experts, in, out) experts)."""
    where = spec.where
    arch = inv.architecture
    model_type = arch.model_type if arch is not None else ""
    tensors = tuple(inv.tensors)
    table = module_table(inv, tensors, conv1d)
    targets = spec.target_modules
    if targets is None and not spec.target_parameters:
        targets = DEFAULT_TARGETS.get(model_type)
        if targets is None:
            raise AdapterError("target_modules", f"Please specify target_modules: PEFT has no default for "
                                                 f"{model_type or 'this model'}", where)
    if isinstance(targets, str) and targets.lower() == ALL_LINEAR:
        targets = tuple(path for path, m in table.items() if m.kind == "linear" and path != lm_head)
    targets, spec_parameters, ranks, alphas = convert_moe_targets(model_type, spec, targets, table, lm_head,
                                                                  _excluded)
    target_set: str | frozenset[str] = targets if isinstance(targets, str) else frozenset(targets or ())
    ranks = {**spec.rank_pattern, **ranks}  # PEFT adds the fused experts' patterns after the user's
    alphas = {**spec.alpha_pattern, **alphas}

    adapted: dict[str, int] = {}  # module path -> rank
    excluded = unmatched = 0
    for path, m in table.items():
        if _excluded(spec, path):
            excluded += 1
            continue
        if not targets or not _targeted(spec, target_set, path):
            unmatched += 1
            continue
        leaf = path.rpartition(".")[2]
        if model_type in MAMBA_MODEL_TYPES and leaf in MAMBA_INCOMPATIBLE:  # checked before the module's kind
            raise AdapterError("target_modules", f"Module '{leaf}' is incompatible with Mamba-based models "
                                                 f"(model_type='{model_type}'): PEFT refuses out_proj and conv1d "
                                                 f"there ({path})", where)
        if m.kind not in ("linear", "embedding"):
            raise AdapterError("target_modules", f"{path} is not supported (no nn.Linear, nn.Embedding or Conv1D: "
                                                 f"{_describe(m)})", where)
        if m.kind == "embedding" and spec.lora_bias:
            raise AdapterError("lora_bias", f"lora_bias=True is not supported for Embedding ({path})", where)
        adapted[path] = _rank(_pattern_value(ranks, path, spec.r), path, where)
    wrapped = _target_parameters(spec_parameters, table, adapted, ranks, spec, where)
    if not adapted and not wrapped:
        _nothing_targeted(spec, targets, excluded, unmatched, where)
    saved = _modules_to_save(spec, table)
    return _build(inv, tensors, table, spec, adapted, wrapped, saved, experts_in_out)


def _rank(r: object, path: str, where: str) -> int:
    if isinstance(r, bool) or not isinstance(r, int) or r <= 0:
        raise AdapterError("r", f"`r` should be a positive integer value but the value passed is {r} ({path})", where)
    return r


def _describe(m: Module) -> str:
    return "a container of modules" if m.kind == "container" else f"holds {', '.join(m.leaves)}"


def _target_parameters(names: Iterable[str], table: dict[str, Module], adapted: dict[str, int],
                       ranks: dict, spec: LoraSpec, where: str) -> dict[str, list[tuple[str, int]]]:
    """BaseTuner._inject_parameters: module path -> [(parameter leaf, rank)], in the module's parameter order
    (each wraps the one before: ParamWrapper nests)."""
    names = set(names)
    wrapped: dict[str, list[tuple[str, int]]] = {}
    if not names:
        return wrapped
    for path, m in table.items():
        for t in m.parameters:
            leaf = t.name.rpartition(".")[2]
            key = f"{path}.{leaf}"
            if key in names or any(key.endswith(f".{name}") for name in names):
                if spec.use_dora or spec.lora_bias or spec.fan_in_fan_out:  # ParamWrapper.__init__, a match found
                    option = "use_dora" if spec.use_dora else "lora_bias" if spec.lora_bias else "fan_in_fan_out"
                    raise AdapterError(option, f"lora.ParamWrapper (target_parameters: {key}) does not work with "
                                               f"{option}=True", where)
                if path in adapted:
                    raise AdapterError("target_parameters", f"{key}: its layer {path} is also targeted with "
                                                            "target_modules", where)
                if len(t.shape) not in (2, 3):
                    raise AdapterError("target_parameters", f"{key}: only 2d and 3d parameters are supported, "
                                                            f"not {len(t.shape)}d", where)
                wrapped.setdefault(path, []).append((leaf, _rank(_pattern_value(ranks, key, spec.r), key, where)))
    return wrapped


def _nothing_targeted(spec: LoraSpec, targets, excluded: int, unmatched: int, where: str) -> None:
    """inject_adapter's errors when no module and no parameter was targeted."""
    if excluded and not unmatched:
        raise AdapterError("exclude_modules", "All modules were excluded. Check target_modules, exclude_modules "
                                              "and modules_to_save", where)
    if spec.target_parameters and not targets:
        raise AdapterError("target_parameters", f"{list(spec.target_parameters)} not found in the base model", where)
    shown = targets if isinstance(targets, str) else sorted(targets or ())
    note = (f" (layers_to_transform {spec.layers_to_transform}"
            + (f", layers_pattern {spec.layers_pattern}" if spec.layers_pattern else "") + ")"
            if spec.layers_to_transform is not None else "")
    if not excluded:
        raise AdapterError("target_modules", f"Target modules {shown} not found in the base model{note}", where)
    raise AdapterError("target_modules", f"No modules were targeted for adaptation: {shown} matched only excluded "
                                         f"modules{note}", where)


def _modules_to_save(spec: LoraSpec, table: dict[str, Module]) -> set[str]:
    """_set_trainable (utils/other.py): every module whose path ends with a name (no dot needed), the outermost
    when one holds another."""
    saved: set[str] = set()
    for path in table:
        if any(path.endswith(name) for name in spec.modules_to_save):
            if not any(path.startswith(outer + ".") for outer in saved):
                saved.add(path)
    return saved


def _build(inv: Inventory, tensors: tuple[Tensor, ...], table: dict[str, Module], spec: LoraSpec,
           adapted: dict[str, int], wrapped: dict[str, list[tuple[str, int]]], saved: set[str],
           experts_in_out: bool) -> Inventory:
    out: list[Tensor] = []
    aliases: dict[str, str] = {}
    renamed: dict[str, str] = {}  # base name -> its name in the PEFT model
    new = tuple.__new__
    bias_all, bias_lora = spec.bias == "all", spec.bias == "lora_only"

    wrappers = {*adapted, *wrapped}

    def wrapper_of(path: str) -> str | None:
        """The nearest module at or above ``path`` that a LoRA layer wraps: its whole subtree (an Ernie router's
        moe_statics too) moves under its base_layer."""
        while path:
            if path in wrappers:
                return path
            path = path.rpartition(".")[0]
        return None

    def base_name(path: str, leaf: str) -> str:
        full = f"{path}.{leaf}"
        if (holder := wrapper_of(path)) is not None:
            inner = ".base_layer" * (1 if holder in adapted else len(wrapped[holder]))
            full = f"{holder}{inner}{full[len(holder):]}"
        outer = next((s for s in saved if path == s or path.startswith(s + ".")), None)
        if outer is not None:
            full = f"{outer}.original_module{full[len(outer):]}"
        return PREFIX + full

    def add(name: str, shape: tuple[int, ...], component: str, layer: int | None, trainable: bool) -> None:
        if name.endswith(".bias") and (bias_all or (bias_lora and trainable is None)):
            trainable = True
        out.append(new(Tensor, (name, shape, component, layer, not trainable, 0)))

    def adapters(m: Module, layer: int | None) -> None:
        """What a LoRA layer (or its ParamWrappers, innermost first) adds after the module's own tensors."""
        path = PREFIX + m.path
        if m.path in adapted:
            r = adapted[m.path]
            if m.kind == "embedding":
                add(f"{path}.lora_embedding_A.{ADAPTER}", (r, m.in_features), COMPONENT, layer, True)
                add(f"{path}.lora_embedding_B.{ADAPTER}", (m.out_features, r), COMPONENT, layer, True)
                if spec.use_dora:
                    add(f"{path}.lora_magnitude_vector.{ADAPTER}.weight", (m.out_features,), COMPONENT, layer, True)
                return
            add(f"{path}.lora_A.{ADAPTER}.weight", (r, m.in_features), COMPONENT, layer, True)
            add(f"{path}.lora_B.{ADAPTER}.weight", (m.out_features, r), COMPONENT, layer, True)
            if spec.lora_bias:
                add(f"{path}.lora_B.{ADAPTER}.bias", (m.out_features,), COMPONENT, layer, True)
            if spec.use_dora:
                add(f"{path}.lora_magnitude_vector.{ADAPTER}.weight", (m.out_features,), COMPONENT, layer, True)
        shapes = {t.name.rpartition(".")[2]: t.shape for t in m.parameters}
        depth = len(wrapped.get(m.path, ()))
        for i, (leaf, r) in enumerate(wrapped.get(m.path, ())):
            shape = shapes[leaf]
            if len(shape) == 3:  # ParamWrapper._get_in_out_features, swapped unless the experts are (E, in, out)
                experts, a, b = shape
                inputs, outputs = (a, b) if experts_in_out else (b, a)
            else:
                experts, inputs, outputs = 1, shape[1], shape[0]
            at = path + ".base_layer" * (depth - 1 - i)
            add(f"{at}.lora_A.{ADAPTER}.weight", (r * experts, inputs), COMPONENT, layer, True)
            add(f"{at}.lora_B.{ADAPTER}.weight", (outputs, r * experts), COMPONENT, layer, True)

    copies: dict[str, list[Tensor]] = {}  # modules_to_save wrapper -> the copies, added after its last tensor
    last_of: dict[str, int] = {}
    wrapped_last: dict[int, list[str]] = {}  # tensor index -> the LoRA layers whose subtree it ends
    ends: dict[str, int] = {}
    for i, t in enumerate(tensors):
        path = t.name.rpartition(".")[0]
        for s in saved:
            if path == s or path.startswith(s + "."):
                last_of[s] = i
        if (holder := wrapper_of(path)) is not None:
            ends[holder] = i
    stacks = _stack_copies(inv)
    for holder, i in ends.items():
        if not table[holder].tied or holder.startswith(tuple(copy for copy, _ in stacks)):
            wrapped_last.setdefault(i, []).append(holder)  # (a copy's module with a tied weight and its own bias)
    tied_before = _tied_places(tensors, inv.aliases)
    for i, paths in _copy_places(tensors, inv.aliases, stacks).items():
        tied_before.setdefault(i, []).extend(paths)
    for i, t in enumerate(tensors):
        for held in tied_before.get(i, ()):  # a later use of a shared block: its own LoRA, the base aliased
            adapters(table[held], t.layer)
        path, _, leaf = t.name.rpartition(".")
        name = base_name(path, leaf)
        renamed[t.name] = name
        lora_bias = path in adapted and bias_lora
        add(name, t.shape, t.component, t.layer, None if lora_bias else False)
        for holder in wrapped_last.get(i, ()):
            adapters(table[holder], t.layer)
        for s in saved:
            if path == s or path.startswith(s + "."):
                copy = PREFIX + s + ".modules_to_save." + ADAPTER + t.name[len(s):]
                copies.setdefault(s, []).append(new(Tensor, (copy, t.shape, t.component, t.layer, False, t.experts)))
                if last_of[s] == i:
                    out.extend(copies.pop(s))
    for held in tied_before.get(len(tensors), ()):  # a shared block's last use ends the tensor list
        adapters(table[held], tensors[-1].layer if tensors else None)
    placed = {path for paths in (*tied_before.values(), *wrapped_last.values()) for path in paths}
    for alias, target in inv.aliases.items():  # a tied head: its weight is the table's, its LoRA its own
        path, _, leaf = alias.rpartition(".")
        m = table[path]
        aliases[base_name(path, leaf)] = renamed[target]
        shape = next(t.shape for t in tensors if t.name == target)
        for s in saved:
            if path == s or path.startswith(s + "."):  # a tied head's copy is a whole new table
                component = "lm_head" if path.endswith("lm_head") else "embedding"
                out.append(new(Tensor, (PREFIX + s + ".modules_to_save." + ADAPTER + alias[len(s):], shape,
                                        component, None, False, 0)))
        if path not in placed:
            adapters(m, None)
    notes = (*inv.notes, f"LoRA adapter {spec.where}: r={spec.r}, {len(adapted) + len(wrapped)} layers adapted")
    return inventory_from_tensors(out, aliases, architecture=inv.architecture, source=inv.source, notes=notes,
                                  buffers=inv.buffers)


def _tied_places(tensors: Sequence[Tensor], aliases: Mapping[str, str]) -> dict[int, list[str]]:
    """Where the modules that hold only aliases sit among the tensors, by index.  A later use of a shared block
    (Zamba's, Zamba2's) sits in its layer where the block sits in the layer that holds it: before the tensor
    that follows the block there (Zamba: the layer's linear), or after the layer's own when none does
    (Zamba2).  An alias outside any container shared with its target (a tied head) is left out: last."""
    index = {t.name: i for i, t in enumerate(tensors)}
    end: dict[str, int] = {}  # a container's path (with its dot) -> the index after its last tensor
    for i, t in enumerate(tensors):
        path = t.name
        while (path := path.rpartition(".")[0]):
            end[path + "."] = i + 1
    places: dict[int, list[str]] = {}
    for alias, target in aliases.items():
        mine, theirs = alias.split("."), target.split(".")
        k = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
        if not k or target not in index or len(mine) != len(theirs) or not (mine[k].isdigit() and theirs[k].isdigit()):
            continue  # no container holds both, or not two layers of one list (FSMT's head tied to the encoder's table)
        container, held = ".".join(mine[:k + 1]) + ".", ".".join(theirs[:k + 1]) + "."
        block = held + theirs[k + 1] + "."
        i = index[target]  # the first tensor after the block in the holding layer
        while i < len(tensors) and tensors[i].name.startswith(block):
            i += 1
        after = tensors[i].name if i < len(tensors) else ""
        place = index.get(container + after[len(held):]) if after.startswith(held) else None
        if place is None:  # the block ends its layer there: here it follows the layer's own tensors
            place = end.get(container, len(tensors))
        module = alias.rpartition(".")[0]
        if module not in places.get(place, ()):
            places.setdefault(place, []).append(module)
    return places


def _stack_copies(inv: Inventory) -> list[tuple[str, str]]:
    """(the copy's prefix, the prefix of the stack it ties to) of each tower that is a tied copy of the decoder's own
    stack (DiffusionGemma's diffusion decoder: ``copy_of``)."""
    arch = inv.architecture
    if arch is None or not arch.towers:
        return []
    return [tower.copy_of for tower in arch.towers.parts if getattr(tower, "copy_of", None)]


def _copy_places(tensors: Sequence[Tensor], aliases: Mapping[str, str],
                 copies: list[tuple[str, str]]) -> dict[int, list[str]]:
    """Where a tied copy's modules that hold only aliases sit among the tensors, by index: before the copy's first
    tensor of its own that follows them in the stack they tie to (the attention's biases), else before the copy's
    own tensors that stack has none of (DiffusionGemma's self_conditioning), else at the copy's end."""
    if not copies:
        return {}
    index = {t.name: i for i, t in enumerate(tensors)}
    holds = {t.name.rpartition(".")[0] for t in tensors}
    places: dict[int, list[tuple[int, str]]] = {}
    for copy, source in copies:
        mine = [i for i, t in enumerate(tensors) if t.name.startswith(copy)]
        extra = next((i for i in mine if source + tensors[i].name[len(copy):] not in index), None)
        fallback = extra if extra is not None else (mine[-1] + 1 if mine else len(tensors))
        for alias, target in aliases.items():
            module = alias.rpartition(".")[0]
            if not alias.startswith(copy) or target not in index or module in holds:
                continue
            place, j = fallback, index[target] + 1
            while j < len(tensors) and tensors[j].name.startswith(source):
                own = index.get(copy + tensors[j].name[len(source):])
                if own is not None:
                    place = own
                    break
                j += 1
            entry = (index[target], module)
            if entry not in places.setdefault(place, []):
                places[place].append(entry)
    return {i: list(dict.fromkeys(module for _, module in sorted(entries))) for i, entries in places.items()}
