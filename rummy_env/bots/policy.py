"""A trained policy as a bot: plays from its seat's view only, with numpy alone.

A policy file (``.npz``, written by :func:`export_policy` or ``training.train``) holds the actor
of a masked MLP policy (sb3-contrib's ``MaskableActorCriticPolicy`` layout: hidden layers with
tanh or relu, then one linear layer to the ``Discrete(N)`` logits) and a small JSON header::

    {"format": "rummy_env.policy/1", "variant": "gin_rummy", "num_players": 2,
     "obs_size": 812, "features": true, "activation": "tanh", "n_actions": 569, ...}

:class:`PolicyBot` plays the argmax (or a sample) of the masked logits. It needs no torch: the
forward pass is a few numpy matrix products (about 30-100 us per decision), which is what makes
evaluating thousands of deals cheap. When the header says ``features: true`` the bot appends
:func:`rummy_env.wrappers.features.solver_features` of its view, exactly as the training
wrapper did; the features are computed from the view alone, so the bot still sees only what its
seat may see.

A header may also say ``"delegate": {"bot": "greedy", "kinds": ["meld", "lay_off", "done"]}``:
the decisions whose legal actions are all of those kinds (Gin Rummy's laying out after a knock)
are the named bot's, as they were in training (:class:`~rummy_env.wrappers.SingleSeatEnv`'s
``delegate``); the bot sees the same view, so the policy still sees only its seat.

A header may say ``"prior": {"bot": "greedy", "weight": 4.0}``: the logit of the action that
bot would play from the same view gets ``weight`` more (a residual policy over the bot, trained
by ``training.prior_policy``).

``make_bot("checkpoints/gin_rummy.npz")`` builds one; an sb3-contrib ``.zip`` checkpoint is also
accepted (it is converted in memory; that needs ``sb3_contrib`` installed).
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from rummy_env.bots.base import Bot, RandomBot, SeatView, only_kinds
from rummy_env.bots.family import GreedyBot, bot_options
from rummy_env.bots.search import SearchBot

FORMAT = "rummy_env.policy/1"
_ACTIVATIONS = ("tanh", "relu")


class PolicyBot:
    """Argmax (``deterministic=True``) or sampled action of a saved masked MLP policy.

    :param source: a ``.npz`` policy file, an sb3-contrib ``.zip`` checkpoint, or a dict with the
        arrays and header (what :func:`policy_arrays` returns).
    :param seed: seeds the sampling generator (unused when deterministic).
    """

    def __init__(self, source: str | pathlib.Path | dict[str, Any], deterministic: bool = True,
                 seed: int | None = None) -> None:
        if isinstance(source, dict):
            data = source
            self.path = "<memory>"
        else:
            self.path = str(source)
            data = load_policy(source)
        self.meta: dict[str, Any] = dict(data["meta"])
        self.weights: list[tuple[np.ndarray, np.ndarray]] = [
            (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
            for w, b in data["layers"]]
        act = self.meta.get("activation", "tanh")
        if act not in _ACTIVATIONS:
            raise ValueError(f"policy {self.path}: activation {act!r} is not one of "
                             f"{_ACTIVATIONS}")
        self.activation = act
        self.features = bool(self.meta.get("features", False))
        self.name = pathlib.Path(self.path).stem if self.path != "<memory>" else "policy"
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.delegate_kinds: frozenset[str] = frozenset()
        self.delegate: Any = None
        spec = self.meta.get("delegate")
        if spec:
            if not isinstance(spec, dict) or set(spec) != {"bot", "kinds"}:
                raise ValueError(f"policy {self.path}: delegate must be {{'bot': name, "
                                 f"'kinds': [...]}}, got {spec!r}")
            self.delegate = make_bot(spec["bot"], seed)
            self.delegate_kinds = frozenset(spec["kinds"])
        self.prior_bot: Any = None
        self.prior_weight = 0.0
        prior = self.meta.get("prior")
        if prior:
            if (not isinstance(prior, dict) or set(prior) != {"bot", "weight"}
                    or not isinstance(prior["weight"], (int, float))):
                raise ValueError(f"policy {self.path}: prior must be {{'bot': name, 'weight': "
                                 f"number}}, got {prior!r}")
            self.prior_bot = make_bot(prior["bot"], seed)
            self.prior_weight = float(prior["weight"])

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        if self.delegate is not None:
            self.delegate.reset(seed)
        if self.prior_bot is not None:
            self.prior_bot.reset(seed)

    def input_of(self, view: SeatView) -> np.ndarray:
        """The network input of a view: its observation, plus the solver features if trained
        with them."""
        if not self.features:
            return np.asarray(view.observation, dtype=np.float32)
        from rummy_env.bots.view_features import solver_features

        return np.concatenate([np.asarray(view.observation, dtype=np.float32),
                               solver_features(view)])

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Unmasked logits of one input vector (or a batch of rows)."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            h = h @ w + b
            if i < last:
                h = np.tanh(h) if self.activation == "tanh" else np.maximum(h, 0.0)
        return h

    def legal_logits(self, x: np.ndarray, legal: Sequence[int]) -> np.ndarray:
        """The logits of the ``legal`` actions only, for one input vector: ``logits(x)[legal]``
        up to float rounding.

        Why not ``logits``: the first layer reads only the rows of the nonzero inputs (the card
        planes are mostly zeros) and the last computes only the legal columns, so one decision
        costs a small fraction of the full products, and they stay small enough that BLAS does
        not start its threads: on a loaded two-core machine OpenBLAS's threads made a full
        product 7 times slower than one thread.
        """
        last = len(self.weights) - 1
        cols = np.asarray(legal, dtype=np.intp)
        nz = np.flatnonzero(x)
        h = x[nz]
        for i, (w, b) in enumerate(self.weights):
            if i == 0:
                w = w[nz]
            if i == last:
                return h @ w[:, cols] + b[cols]
            h = h @ w + b
            h = np.tanh(h) if self.activation == "tanh" else np.maximum(h, 0.0)
        raise AssertionError("a policy has at least one layer")

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        if len(legal) == 1:
            return int(legal[0])
        if self.delegate is not None and only_kinds(view, self.delegate_kinds):
            return int(self.delegate.act(view))
        x = self.input_of(view)
        expected = self.meta.get("obs_size")
        if expected is not None and x.shape[0] != expected:
            raise ValueError(f"policy {self.path} expects inputs of size {expected}, the view "
                             f"gives {x.shape[0]} (another variant or player count? the policy "
                             f"was trained on {self.meta.get('variant')} at "
                             f"{self.meta.get('num_players')} players)")
        z = self.legal_logits(x, legal)
        if self.prior_bot is not None:
            from rummy_env.bots.view_features import prior_choice

            z[np.asarray(legal) == prior_choice(self.prior_bot, view)] += self.prior_weight
        if self.deterministic:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(legal[int(self.rng.choice(len(legal), p=p))])


def policy_arrays(policy: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """The actor of an sb3 ``(Maskable)ActorCriticPolicy`` as numpy arrays plus header."""
    import torch.nn as nn  # lazily: only exporting needs torch

    layers = []
    acts = set()
    for m in policy.mlp_extractor.policy_net:
        if isinstance(m, nn.Linear):
            layers.append((m.weight.detach().cpu().numpy().T.copy(),
                           m.bias.detach().cpu().numpy().copy()))
        elif isinstance(m, nn.Tanh):
            acts.add("tanh")
        elif isinstance(m, nn.ReLU):
            acts.add("relu")
        else:
            raise ValueError(f"cannot export policy layer {m!r}")
    head = policy.action_net
    layers.append((head.weight.detach().cpu().numpy().T.copy(),
                   head.bias.detach().cpu().numpy().copy()))
    if len(acts) > 1:
        raise ValueError(f"mixed activations {acts} cannot be exported")
    full = {"format": FORMAT, "activation": acts.pop() if acts else "tanh",
            "obs_size": int(layers[0][0].shape[0]), "n_actions": int(layers[-1][0].shape[1]),
            **meta}
    weight = getattr(policy, "prior_weight", None)  # training.prior_policy.PriorMaskablePolicy
    if weight is not None:
        bot = (meta.get("prior") or {}).get("bot")
        if not bot:
            raise ValueError("a policy with a prior weight needs meta['prior']['bot'] (the bot "
                             "whose choice gets the bonus)")
        full["prior"] = {"bot": str(bot), "weight": float(weight.detach().cpu())}
    return {"meta": full, "layers": layers}


#: Policies with more parameters than this are stored as float16 (halving the file; a 256x256
#: MLP over a 5,000-wide observation would otherwise be 7 MB). The bot computes in float32.
FLOAT16_ABOVE = 1_000_000


def save_policy(data: dict[str, Any], path: str | pathlib.Path,
                dtype: str | None = None) -> pathlib.Path:
    """Write :func:`policy_arrays` output as a compressed ``.npz`` policy file, in ``dtype``
    (``"float32"`` or ``"float16"``; default: float16 above :data:`FLOAT16_ABOVE` parameters)."""
    path = pathlib.Path(path)
    if dtype is None:
        size = sum(np.size(w) + np.size(b) for w, b in data["layers"])
        dtype = "float16" if size > FLOAT16_ABOVE else "float32"
    if dtype not in ("float32", "float16"):
        raise ValueError(f"dtype {dtype!r}: float32 or float16")
    # numpy scalars in the header (a space's n, a config value) are written as numbers
    text = json.dumps(data["meta"], sort_keys=True,
                      default=lambda o: o.item() if isinstance(o, np.generic) else str(o))
    arrays: dict[str, Any] = {"meta": np.array(text)}
    for i, (w, b) in enumerate(data["layers"]):
        arrays[f"w{i}"] = np.asarray(w, dtype=dtype)
        arrays[f"b{i}"] = np.asarray(b, dtype=dtype)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)
    return path


def export_policy(model: Any, path: str | pathlib.Path, **meta: Any) -> pathlib.Path:
    """Save the actor of an sb3-contrib MaskablePPO ``model`` as a ``.npz`` policy file."""
    return save_policy(policy_arrays(model.policy, meta), path)


def load_policy(path: str | pathlib.Path) -> dict[str, Any]:
    """Arrays and header of a ``.npz`` policy file or an sb3-contrib ``.zip`` checkpoint."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise ValueError(f"policy file {str(path)!r} does not exist")
    if path.suffix == ".zip":
        from sb3_contrib import MaskablePPO  # lazily: only .zip checkpoints need it

        model = MaskablePPO.load(str(path), device="cpu")
        return policy_arrays(model.policy, dict(getattr(model, "rummy_meta", None) or {}))
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{str(path)!r} is not a {FORMAT} policy file "
                             f"(format {meta.get('format')!r})")
        n = sum(1 for k in z.files if k.startswith("w"))
        layers = [(z[f"w{i}"], z[f"b{i}"]) for i in range(n)]
    return {"meta": meta, "layers": layers}


#: Bot names accepted by :func:`make_bot`, and their classes.
BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's name and options: ``"greedy"`` is ``("greedy", {})``,
    ``"greedy(endgame_turn=150, endgame_whole_hand=true)"`` is ``("greedy", {"endgame_turn": 150,
    "endgame_whole_hand": True})``. A value reads as an int, a float, ``true``/``false``,
    ``none``/``null``, or else a string. ValueError for a malformed spec."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is a string, got {spec!r}")
    m = re.fullmatch(r"\s*([A-Za-z_][\w]*)\s*\((.*)\)\s*", spec, flags=re.S)
    if m is None:
        return spec, {}
    options: dict[str, Any] = {}
    for part in filter(None, (x.strip() for x in m.group(2).split(","))):
        key, eq, text = (x.strip() for x in part.partition("="))
        if not eq or not key.isidentifier() or not text:
            raise ValueError(f"bot spec {spec!r}: {part!r} is not key=value")
        if key in options:
            raise ValueError(f"bot spec {spec!r}: option {key!r} given twice")
        options[key] = _spec_value(text)
    return m.group(1), options


def _spec_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ``"search"``), by a name with options
    (``"greedy(endgame_turn=150)"``, ``"search(worlds=16)"``: :func:`parse_bot_spec`, the
    options being the bot class's keyword arguments) or by the path of a trained policy
    (``"checkpoints/gin_rummy.npz"``, or an sb3-contrib ``.zip``: a
    :class:`~rummy_env.bots.policy.PolicyBot`), seeded; ValueError naming the allowed names
    or options otherwise."""
    base, options = parse_bot_spec(name) if isinstance(name, str) else (name, {})
    cls = BOTS.get(base) if isinstance(base, str) else None
    if cls is not None:
        if hasattr(cls, "option_names"):  # GreedyBot checks its families' options itself
            return cls(seed, **options)
        allowed = bot_options(cls)
        bad = sorted(set(options) - set(allowed))
        if bad:
            raise ValueError(f"bot {base!r} has no option {', '.join(map(repr, bad))}; its "
                             f"options: {', '.join(allowed) or 'none'}")
        return cls(seed, **options)
    if isinstance(name, str) and name.endswith((".npz", ".zip")):
        import os

        if os.path.isfile(name):
            return PolicyBot(name, seed=seed)
        raise ValueError(f"bot {name!r} looks like a policy file, but there is no such file")
    raise ValueError(f"unknown bot {name!r}; allowed: {', '.join(BOTS)} (with options, e.g. "
                     "'greedy(endgame_turn=150)'), or the path of a policy file (.npz, .zip)")


__all__ = ["FLOAT16_ABOVE", "FORMAT", "PolicyBot", "export_policy", "load_policy", "policy_arrays",
           "save_policy", "BOTS", "make_bot", "parse_bot_spec"]
