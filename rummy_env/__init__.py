"""rummy_env: PettingZoo AEC environments for the rummy family, with exact action masks.

>>> import rummy_env
>>> env = rummy_env.make("contract_rummy", num_players=4)
>>> env.reset(seed=0)

``VARIANTS`` lists the names; ``make(name, **options)`` builds one; each is also importable as a
versioned module (``from rummy_env import contract_rummy_v1``) and registered with PettingZoo
(``pettingzoo.make("aec", "rummy_env/contract_rummy-v1")``) where PettingZoo has a registry
(1.27 on; on 1.25 and 1.26 use ``rummy_env.make``).
"""

from __future__ import annotations

import importlib
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


_register()

__all__ = [
    "VARIANTS", "make", "CardParseError", "IllegalActionError", "RuleConfigError",
    "RummyError", "ScenarioError", "__version__",
]
