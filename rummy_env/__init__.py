"""rummy_env: PettingZoo AEC environments for the rummy family, with exact action masks.

>>> import rummy_env
>>> env = rummy_env.make("contract_rummy", num_players=4)
>>> env.reset(seed=0)

``VARIANTS`` lists the names; ``make(name, **options)`` builds one; each is also importable as a
versioned module (``from rummy_env import contract_rummy_v1``) and registered with PettingZoo
(``pettingzoo.make("aec", "rummy_env/contract_rummy-v1")``) where PettingZoo has a registry
(1.27 on; on 1.25 and 1.26 use ``rummy_env.make``).

Importing the package loads no RL library, so the engine modules (``rummy_env.cards``,
``rummy_env.<family>.state``, ...) stay free of them (docs/design.md, "Layers"): the
environments are imported on first use (``make``, ``rummy_env.<variant>_v1``), and the
PettingZoo registration happens as soon as PettingZoo itself is imported, before or after this
package.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rummy_env.errors import (
    CardParseError, IllegalActionError, RuleConfigError, RummyError, ScenarioError,
)

__version__ = "0.1.0"

#: Variant names and the versioned module of each.
_MODULES = {
    "contract_rummy": "contract_rummy_v1",
    "contract_rummy_single_pack": "contract_rummy_single_pack_v1",
    "liverpool_rummy": "liverpool_rummy_v1",
    "may_i": "may_i_v1",
    "shanghai_rummy": "shanghai_rummy_v1",
    "shanghai_tahelia_powe": "shanghai_tahelia_powe_v1",
    "shanghai_deb_kolsov": "shanghai_deb_kolsov_v1",
    "progressive_rummy": "progressive_rummy_v1",
    "indian_rummy": "indian_rummy_v1",
    "manipulation_rummy": "manipulation_rummy_v1",
    "gin_rummy": "gin_rummy_v1",
}
VARIANTS: tuple[str, ...] = tuple(_MODULES)
NAMESPACE = "rummy_env"


def make(name: str, **options: Any) -> Any:
    """The AEC environment of variant ``name`` with ``options`` (env options and rule fields)."""
    if not isinstance(name, str) or name not in _MODULES:
        raise RuleConfigError(f"unknown variant {name!r}; allowed: {', '.join(VARIANTS)}")
    mod = importlib.import_module(f"rummy_env.envs.{_MODULES[name]}")
    return mod.env(**options)


def __getattr__(attr: str) -> ModuleType:
    # ``from rummy_env import contract_rummy_v1`` without importing every variant up front.
    if attr in _MODULES.values():
        return importlib.import_module(f"rummy_env.envs.{attr}")
    base, _, version = attr.rpartition("_v")
    if base in _MODULES and version.isdigit():
        # An older version, as PettingZoo's DeprecatedModule does: say which one replaced it.
        raise ImportError(f"rummy_env.{attr} was replaced by rummy_env.{_MODULES[base]} (see "
                          "the module's Version History)")
    raise AttributeError(f"module 'rummy_env' has no attribute {attr!r}")


def __dir__() -> list[str]:
    # The versioned modules are attributes too (through __getattr__), so tab completion and
    # dir() list them although they are not imported yet.
    return sorted({*globals(), *_MODULES.values()})


def _register() -> None:
    # PettingZoo's registry (``pettingzoo.register`` / ``pettingzoo.make``) first shipped in 1.27;
    # on 1.25 and 1.26, which pyproject allows (AgileRL pins ``pettingzoo<1.27``), the package
    # imports and every env works through ``rummy_env.make`` and the versioned modules, only
    # ``pettingzoo.make("aec", "rummy_env/...")`` is missing.
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    if not (hasattr(pettingzoo, "register") and hasattr(pettingzoo, "aec_registry")):
        return
    for name, mod in _MODULES.items():
        env_id = f"{NAMESPACE}/{name}-v{mod.rsplit('_v', 1)[1]}"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"rummy_env.envs.{mod}:env")


class _RegisterWithPettingZoo(importlib.abc.MetaPathFinder):
    """Runs :func:`_register` right after PettingZoo is imported, so that
    ``pettingzoo.make("aec", "rummy_env/...")`` works after ``import rummy_env`` without this
    package importing PettingZoo itself (an engine import must load no RL library, and every
    ``import rummy_env.x`` runs this file). PettingZoo has no plugin entry point for its
    registry, hence the import hook; it removes itself once it has fired."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "pettingzoo":
            return None
        sys.meta_path.remove(self)  # the normal finders locate it; this hook only wraps it
        spec = importlib.util.find_spec(fullname)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _register()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if "pettingzoo" in sys.modules:
    _register()
elif not any(type(f).__name__ == "_RegisterWithPettingZoo" for f in sys.meta_path):  # reloads
    sys.meta_path.insert(0, _RegisterWithPettingZoo())

__all__ = [
    "VARIANTS", "make", "CardParseError", "IllegalActionError", "RuleConfigError",
    "RummyError", "ScenarioError", "__version__",
]
