"""X-MOD's language adapters (transformers 5.24.0 models/xmod, XmodOutput and XmodAdapter, modeling_xmod.py lines
397-430): in every layer's output, one bottleneck per language (adapter_modules.{language}: dense1 hidden ->
hidden / adapter_reduction_factor and dense2 back, both biased), and with adapter_layer_norm a LayerNorm of its own
before them (registered first).

A token runs its own language's adapter only: the FLOPs the views give from 2 × parameters count every language's
(overstated by (languages - 1) × the adapter's weights per layer; not corrected here). Nothing is cached."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part


@part
class LanguageAdapters(NamedTuple):
    hidden_size: int  # hidden_size: each adapter's input and output
    bottleneck: int  # hidden_size // adapter_reduction_factor (XmodAdapter.bottleneck_size)
    languages: tuple[str, ...]  # adapter_languages (XmodConfig's languages, in its order: the ModuleDict's)
    norm: bool  # adapter_layer_norm: a LayerNorm of the adapters' own

    def tensors(self, c: Collector) -> None:
        n, d, width = c.naming, self.hidden_size, self.bottleneck
        if self.norm:
            c.norm(n.adapter_norm, d)
        for language in self.languages:
            path = n.language_adapter.format(language=language)
            c.linear(path + ".dense1", width, d, "ffn", None, True)  # (hidden / factor, hidden) and its bias
            c.linear(path + ".dense2", d, width, "ffn", None, True)  # (hidden, hidden / factor) and its bias


class Keys:
    """The languages (XmodConfig's languages; (): none), the bottleneck's width and the adapters' own norm."""
    adapter_languages: tuple[str, ...] = ()
    adapter_size: int | None = None  # hidden_size // adapter_reduction_factor
    adapter_layer_norm: bool = False


class Names:
    """Its Naming paths, relative to the layer: X-MOD's ("{language}": a language code)."""
    adapter_norm: str = "output.adapter_layer_norm"
    language_adapter: str = "output.adapter_modules.{language}"


def _check(arch: Any, where: str | None) -> None:
    if arch.adapter_languages and arch.adapter_size is None:
        raise ArchitectureError("adapter_languages", "set without adapter_size (the adapters' bottleneck width)",
                                where)
    for language in arch.adapter_languages:
        if not language or "." in language:
            raise ArchitectureError("adapter_languages", f"{language!r} is not a module name (no dots, not empty)",
                                    where)
    if len(set(arch.adapter_languages)) != len(arch.adapter_languages):
        raise ArchitectureError("adapter_languages", "names a language twice (nn.ModuleDict keeps one adapter per "
                                "language)", where)


def _build(arch: Any) -> LanguageAdapters:
    return tuple.__new__(LanguageAdapters, (arch.hidden_size, arch.adapter_size, arch.adapter_languages,
                                            arch.adapter_layer_norm))


# (the norm is built with no language too: XmodOutput makes it by adapter_layer_norm alone)
def _engaged(arch: Any) -> bool:
    return bool(arch.adapter_languages) or arch.adapter_layer_norm


SUBLAYER = SublayerKind(Keys, Names, _build, _engaged, _check, positive_or_null=("adapter_size",))
