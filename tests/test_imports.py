"""Imports go one way (docs/design.md, "Layers"; issue 21, point 1).

* No import cycle among the modules of ``rummy_env/`` and ``training/``: the graph is built
  statically with :mod:`ast`, from every ``import`` statement, including the ones inside
  functions (a cycle hidden behind a function-level import is still a cycle: it only moves the
  failure from import time to call time, and it couples the two modules all the same).
* Importing an engine module loads no RL library: each one is imported in a fresh interpreter,
  which then reports which of pettingzoo, gymnasium, torch, stable_baselines3 and ray are in
  ``sys.modules``.
"""

from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The packages whose modules make up the graph.
PACKAGES = ("rummy_env", "training")
#: What an engine module must not load.
RL_LIBRARIES = ("pettingzoo", "gymnasium", "torch", "stable_baselines3", "ray")
FAMILIES = ("contract", "gin", "indian", "manipulation")


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, pathlib.Path]:
    """Every module of :data:`PACKAGES`, by dotted name."""
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _resolve(name: str, modules: dict[str, pathlib.Path]) -> str | None:
    """The project module that ``name`` (a module, or a name inside one) refers to."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:`` (its body, not its ``else``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """``module -> the project modules it imports``, anywhere in its body.

    ``import a.b.c`` and ``from a.b import c`` point at ``a.b.c`` when that is a module, else at
    the nearest module that holds the name. The parent packages that Python also runs on the way
    (``a``, ``a.b``) are left out: they are edges of every submodule and would make each package
    ``__init__`` that imports a submodule look like a cycle. Imports under ``if TYPE_CHECKING:``
    are left out too: they never run, they only name a type for the checker (``contract/turn.py``
    holds functions of a ``ContractState``, which binds them as its methods).
    """
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        targets: set[str] = set()
        tree = ast.parse(path.read_text(), str(path))
        type_only = {id(n) for block in ast.walk(tree) if _is_type_checking(block)
                     for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    head = ".".join(base + ([node.module] if node.module else []))
                else:
                    head = node.module or ""
                wanted = [f"{head}.{alias.name}" for alias in node.names]
            else:
                continue
            for w in wanted:
                target = _resolve(w, modules)
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as one
    cycle through it (``a -> b -> ... -> a``), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(_cycle_in(graph, comp) for comp in components)


def _cycle_in(graph: dict[str, set[str]], comp: list[str]) -> list[str]:
    """One cycle through the first module of a strongly connected component (breadth-first, so
    the shortest one), closed: its first module is also its last."""
    members = set(comp)
    start = comp[0]
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [start, *reversed(path[:-1]), start] if v != start else [start, start]
                if w not in parent:
                    parent[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - an SCC has one


def test_graph_sees_function_level_and_relative_imports(tmp_path: pathlib.Path) -> None:
    # The checker itself: a cycle closed only by an import inside a function is found.
    assert find_cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b", "a"]]
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    graph = import_graph()
    # rllib's RLlib classes are imported inside functions only; the graph must still see them.
    assert "rummy_env.integrations._rllib_classes" in graph["rummy_env.integrations.rllib"]
    assert "rummy_env.errors" in graph["rummy_env"]


def test_no_import_cycles() -> None:
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles (each module imports the next):\n" + "\n".join(
        " -> ".join(c) for c in cycles)


#: The engine modules (docs/design.md, layers 1 and 2, and the bots, which see a seat's view):
#: importing any one of them must load no RL library.
ENGINE_MODULES = (
    "rummy_env", "rummy_env.cards", "rummy_env.core", "rummy_env.rules_base", "rummy_env.codec",
    "rummy_env.obs", "rummy_env.errors", "rummy_env.scenario_schema", "rummy_env.scenario_util",
    *(f"rummy_env.{f}.{m}" for f in FAMILIES
      for m in ("rules", "state", "scenario", "codec",
                "solver" if f in ("indian", "manipulation") else "melds")),
    "rummy_env.bots",
)


def test_engine_modules_load_no_rl_library() -> None:
    # One interpreter per module: a module that is clean alone must not pass because another
    # loaded the library first, or fail because of one.
    script = ("import importlib, json, sys; importlib.import_module(sys.argv[1]); "
              f"print(json.dumps([m for m in {list(RL_LIBRARIES)!r} if m in sys.modules]))")
    loaded = {}
    for mod in ENGINE_MODULES:
        out = subprocess.run([sys.executable, "-c", script, mod], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        found = json.loads(out.strip().splitlines()[-1])
        if found:
            loaded[mod] = found
    assert not loaded, f"engine modules that load an RL library: {loaded}"


@pytest.mark.parametrize("name", ["make", "VARIANTS", "NAMESPACE", "contract_rummy_v1",
                                  "gin_rummy_v1", "__version__", "RuleConfigError"])
def test_lazy_package_keeps_its_names(name: str) -> None:
    # The package defers the environments until first use, but every public name still works,
    # as an attribute and through ``from rummy_env import ...``.
    import rummy_env

    assert getattr(rummy_env, name) is not None
    assert name in dir(rummy_env) or name.endswith("_v1")


def test_pettingzoo_registry_after_a_lazy_import() -> None:
    # ``import rummy_env`` no longer imports PettingZoo, yet its registry knows every variant
    # as soon as PettingZoo is imported, whichever comes first.
    pytest.importorskip("pettingzoo")
    script = (
        "import sys, rummy_env\n"
        "assert 'pettingzoo' not in sys.modules\n"
        "import pettingzoo\n"
        "if hasattr(pettingzoo, 'aec_registry'):\n"
        "    for name, mod in rummy_env._MODULES.items():\n"
        "        env_id = f'rummy_env/{name}-v' + mod.rsplit('_v', 1)[1]\n"
        "        assert env_id in pettingzoo.aec_registry, env_id\n"
        "    pettingzoo.make('aec', 'rummy_env/gin_rummy-v1').reset(seed=0)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
