"""RL algorithms for :mod:`training.benchmark`, one adapter function each, registered by name.

An adapter turns one benchmark cell (:class:`CellSpec`: variant, player count, env options,
seed, the algorithm's settings) into a :class:`Learner`, an object with three methods the
benchmark drives:

* ``learn(until)``: train until at least ``until`` training samples (see below) have been
  collected in total; return the count reached (algorithms collect in whole rollouts or
  iterations, so it may overshoot a little; the benchmark reports the count).
* ``bot()``: the current policy as a :mod:`rummy_env.bots` bot (``act(view) -> id`` from its
  seat's view only, deterministic: the most likely legal action), which the benchmark
  evaluates with :func:`training.evaluate.evaluate` against the fixed opponent pool.
* ``close()``: free what it holds (vector envs, Ray).

``info`` (a dict) carries anything worth reporting (e.g. the nodes RLlib's env runners ran on).

The registered algorithms (:data:`ALGORITHMS`), each from an established library; the masks
are honoured by the library itself, never by a home-made algorithm:

``maskable_ppo``
    sb3-contrib ``MaskablePPO`` on :class:`rummy_env.wrappers.SingleSeatEnv` (the learner in one
    seat, bots in the others; masks through ``action_masks()``), built from
    :mod:`training.train`'s pieces (its env builder, opponent schedule and policy export).
``league_ppo``
    The same MaskablePPO, its opponents a league (:mod:`training.opponents`): the baseline
    bots and snapshots of the learner taken every ``snapshot_every`` samples, drawn by
    prioritised fictitious self-play (win rates re-measured at each snapshot).
``rllib_ppo``
    Ray RLlib's masked PPO through :mod:`rummy_env.integrations.rllib`
    (``ActionMaskingTorchRLModule``), one policy shared by every seat: self-play in which
    every seat learns. It runs on a Ray cluster unchanged: ``num_env_runners`` remote env
    runners, placed with ``custom_resources_per_env_runner``.
``tianshou_dqn``
    Tianshou 2.0's ``DQN`` (double DQN, target network, n-step returns) on the same
    single-seat env, the mask passed as ``obs.mask``: Tianshou's ``DiscreteQLearningPolicy``
    sets the Q value of every masked action below the minimum, both for acting and for the
    target's argmax, and its epsilon-greedy exploration draws only legal actions.

Training samples: for the single-seat algorithms, the learner's own decisions (the bots' moves
are not counted); for ``rllib_ppo``, every decision of the game (every seat is the learner, so
each is a sample of the shared policy: RLlib's ``num_env_steps_sampled_lifetime``).

Adding an algorithm is one function ``def my_algo(cell: CellSpec) -> Learner`` decorated with
``@register("my_algo", defaults={...})``; ``defaults`` are its settings, which a benchmark
config overrides key by key (unknown keys are refused by name). See docs/benchmark.md.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from training.train import DEFAULTS as TRAIN_DEFAULTS
from training.train import _make_env_fn, _merge


class Learner(Protocol):
    """What an adapter returns (see the module docstring)."""

    info: dict[str, Any]

    def learn(self, until: int) -> int: ...

    def bot(self) -> Any: ...

    def close(self) -> None: ...


@dataclasses.dataclass(frozen=True)
class CellSpec:
    """One cell of a benchmark: what an adapter needs to build its learner.

    :param env: options of :func:`rummy_env.make` for training (``num_players`` included).
    :param settings: the algorithm's settings, its defaults already merged with the config.
    :param out: the cell's folder (for checkpoints an adapter may write).
    """

    algorithm: str
    variant: str
    seed: int
    env: dict[str, Any]
    settings: dict[str, Any]
    out: str

    @property
    def num_players(self) -> int:
        return int(self.env["num_players"])


Adapter = Callable[[CellSpec], Learner]

#: Registered adapters by name, and their default settings.
ALGORITHMS: dict[str, Adapter] = {}
DEFAULT_SETTINGS: dict[str, dict[str, Any]] = {}
#: The modules each algorithm needs, and the extra that installs them.
REQUIRES: dict[str, tuple[tuple[str, ...], str]] = {}


def register(name: str, defaults: dict[str, Any], requires: tuple[str, ...] = (),
             extra: str = "train") -> Callable[[Adapter], Adapter]:
    """Register an adapter under ``name`` with its default ``settings``; ``requires`` lists
    the modules it imports (checked before a benchmark starts), ``extra`` the package extra
    that installs them."""

    def deco(fn: Adapter) -> Adapter:
        if name in ALGORITHMS:
            raise ValueError(f"algorithm {name!r} is already registered")
        ALGORITHMS[name] = fn
        DEFAULT_SETTINGS[name] = copy.deepcopy(defaults)
        REQUIRES[name] = (tuple(requires), extra)
        return fn

    return deco


def missing_modules(name: str) -> str | None:
    """A message naming what ``name`` needs and is not installed, or None."""
    import importlib.util

    mods, extra = REQUIRES.get(name, ((), "train"))
    missing = []
    for m in mods:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(m)
    if not missing:
        return None
    return (f"algorithm {name!r} needs {', '.join(missing)}, not installed; install the "
            f"{extra!r} extra: pip install \"rummy-env[{extra}]\"")


def resolve_settings(name: str, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """An algorithm's settings: its defaults merged with ``overrides``; a ValueError names an
    unknown algorithm or an unknown settings key."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; registered: {', '.join(sorted(ALGORITHMS))}")
    defaults = DEFAULT_SETTINGS[name]
    overrides = dict(overrides or {})
    _check_keys(defaults, overrides, f"algorithms.{name}")
    return _merge(defaults, overrides)


def _check_keys(defaults: dict[str, Any], over: dict[str, Any], where: str) -> None:
    for k, v in over.items():
        if k not in defaults:
            raise ValueError(f"{where}: unknown setting {k!r}; allowed: "
                             + ", ".join(sorted(defaults)))
        # nested dicts of settings (not free-form option dicts such as ppo or ray_init) are
        # checked key by key too
        if isinstance(v, dict) and isinstance(defaults[k], dict) and defaults[k] and \
                k not in _FREE_FORM:
            _check_keys(defaults[k], v, f"{where}.{k}")


#: Settings passed through to a library as keyword arguments: their keys are the library's.
_FREE_FORM = {"ppo", "ray_init", "model", "custom_resources_per_env_runner", "opponents"}


def _torch_threads(settings: dict[str, Any]) -> None:
    import torch

    torch.set_num_threads(int(settings.get("torch_threads") or 1))


def _policy_meta(cell: CellSpec) -> dict[str, Any]:
    return {"variant": cell.variant, "num_players": cell.num_players, "features": False,
            "env_options": {k: v for k, v in cell.env.items()
                            if k not in ("num_players", "deal", "reward_scale", "episode")}}


# ---------------------------------------------------------------------------- sb3-contrib
_PPO_DEFAULTS: dict[str, Any] = {
    "opponents": "greedy",
    "n_envs": 4,
    "net_arch": [256, 256],
    "activation": "tanh",
    "ppo": {"n_steps": 256, "batch_size": 256, "learning_rate": 3.0e-4, "gamma": 0.995,
            "gae_lambda": 0.95, "ent_coef": 0.01, "n_epochs": 4},
    "torch_threads": 1,
}


class _MaskablePPOLearner:
    """sb3-contrib MaskablePPO against an opponent schedule of :mod:`training.opponents`."""

    def __init__(self, cell: CellSpec, league: dict[str, Any] | None = None) -> None:
        _torch_threads(cell.settings)
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv

        from training.opponents import Schedule

        s = cell.settings
        self.cell = cell
        self.info: dict[str, Any] = {}
        opponents = s["opponents"] if league is None else {"league": league}
        self.schedule = Schedule(opponents)
        # train.py's env builder: its config needs only these keys
        cfg = _merge(TRAIN_DEFAULTS, {"variant": cell.variant, "env": dict(cell.env),
                                      "opponents": opponents, "seed": cell.seed,
                                      "n_envs": int(s["n_envs"])})
        # exactly the cell's options, not train.py's defaults; a move outside the mask raises
        cfg["env"] = {**dict(cell.env), "illegal_action": "raise"}
        self.venv = DummyVecEnv([_make_env_fn(cfg, i, self.schedule.sampler())
                                 for i in range(int(s["n_envs"]))])
        if s["activation"] not in ("tanh", "relu"):
            raise ValueError(f"algorithms.{cell.algorithm}.activation={s['activation']!r}: "
                             "tanh or relu")
        act = torch.nn.Tanh if s["activation"] == "tanh" else torch.nn.ReLU
        self.model = MaskablePPO("MlpPolicy", self.venv, seed=cell.seed, verbose=0, device="cpu",
                                 policy_kwargs={"net_arch": list(s["net_arch"]),
                                                "activation_fn": act}, **s["ppo"])
        self.league = league
        self.snapshot_every = int(s.get("snapshot_every") or 0)
        self.next_snapshot = self.snapshot_every
        self.info["snapshots"] = 0

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    def learn(self, until: int) -> int:
        while self.steps < until:
            target = until
            if self.league is not None and self.snapshot_every:
                target = min(until, self.next_snapshot)
            if target > self.steps:
                self.model.learn(total_timesteps=target - self.steps, reset_num_timesteps=False,
                                 progress_bar=False)
            if self.league is not None and self.snapshot_every and self.steps >= self.next_snapshot:
                self._snapshot()
                while self.next_snapshot <= self.steps:
                    self.next_snapshot += self.snapshot_every
        return self.steps

    def _snapshot(self) -> None:
        """The league takes a snapshot of the learner and re-measures the learner's win rate
        against every entry (as training.train does at its evaluations)."""
        from rummy_env.bots import make_bot
        from rummy_env.bots.policy import PolicyBot, policy_arrays
        from training.evaluate import evaluate

        arrays = policy_arrays(self.model.policy, _policy_meta(self.cell))
        snap = PolicyBot(arrays, deterministic=False, seed=self.steps)
        snap.name = f"snapshot_{self.steps}"
        self.schedule.add_snapshot(snap)
        n = self.cell.num_players
        deals = int(self.cell.settings["league_deals"])
        learner = PolicyBot(arrays)
        for i, entry in enumerate(self.schedule.pool()):
            opp = [make_bot(entry, 7 + j) if isinstance(entry, str) else entry
                   for j in range(n - 1)]
            label = entry if isinstance(entry, str) else "league"
            res = evaluate(self.cell.variant, ["learner"] + [label] * (n - 1), deals,
                           seed=20_000 + self.steps, players=n,
                           env_options=_policy_meta(self.cell)["env_options"], duplicate=True,
                           bots=[learner, *opp])
            self.schedule.win_rates[i] = res["results"][0]["win_rate"]
        self.venv.env_method("set_opponents", self.schedule.sampler())
        self.info["snapshots"] += 1

    def bot(self) -> Any:
        from rummy_env.bots.policy import PolicyBot, policy_arrays

        return PolicyBot(policy_arrays(self.model.policy, _policy_meta(self.cell)))

    def close(self) -> None:
        self.venv.close()


@register("maskable_ppo", defaults=_PPO_DEFAULTS, requires=("sb3_contrib",))
def maskable_ppo(cell: CellSpec) -> Learner:
    """sb3-contrib MaskablePPO, one seat against fixed opponents (``opponents``: a bot name,
    ``{mix: ...}`` or ``{curriculum: ...}`` as in training/opponents.py)."""
    opponents = cell.settings["opponents"]
    if opponents == "league" or (isinstance(opponents, dict) and "league" in opponents):
        raise ValueError("algorithms.maskable_ppo.opponents: use the league_ppo algorithm for "
                         "a league")
    return _MaskablePPOLearner(cell)


@register("league_ppo", defaults={
    **{k: v for k, v in _PPO_DEFAULTS.items() if k != "opponents"},
    "league": {"bots": ["random", "greedy"], "snapshots": 6, "power": 2.0},
    "snapshot_every": 5000, "league_deals": 20}, requires=("sb3_contrib",))
def league_ppo(cell: CellSpec) -> Learner:
    """Self-play MaskablePPO with a league: bots plus snapshots of the learner, prioritised
    fictitious self-play (training/opponents.py), a snapshot every ``snapshot_every`` samples,
    its win rates measured over ``league_deals`` duplicate deals per entry."""
    if int(cell.settings["snapshot_every"]) < 1:
        raise ValueError("algorithms.league_ppo.snapshot_every must be >= 1 (samples between "
                         "snapshots)")
    return _MaskablePPOLearner(cell, league=dict(cell.settings["league"]))


# ---------------------------------------------------------------------------- Ray RLlib
class _ModuleBot:
    """The live RLModule of a running RLlib algorithm as a bot (what
    :class:`rummy_env.integrations.rllib.RLlibPolicyBot` does from a checkpoint)."""

    name = "rllib"

    def __init__(self, module: Any) -> None:
        from rummy_env.integrations.rllib import RLlibPolicyBot

        self._bot = RLlibPolicyBot.__new__(RLlibPolicyBot)
        self._bot.module = module
        self._bot.policy_id = "live"
        self._bot.deterministic = True
        self._bot.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self._bot.reset(seed)

    def act(self, view: Any) -> int:
        return self._bot.act(view)


class _RLlibLearner:
    def __init__(self, cell: CellSpec) -> None:
        from rummy_env.integrations.rllib import ENV_NAME, SHARED_POLICY, env_creator, require_ray

        require_ray()
        _torch_threads(cell.settings)
        import ray
        from ray.tune.registry import register_env

        from training.rllib_train import DEFAULTS as RLLIB_DEFAULTS
        from training.rllib_train import build_config

        s = cell.settings
        self.cell = cell
        self.info: dict[str, Any] = {}
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:  # inside a Ray task or a test's cluster, Ray is already up
            kwargs = dict(s["ray_init"] or {})
            if s.get("address"):
                kwargs["address"] = s["address"]
            ray.init(**kwargs)
        register_env(ENV_NAME, env_creator)
        env = {**dict(cell.env), "illegal_action": "penalize"}
        cfg = _merge(RLLIB_DEFAULTS, {
            "variant": cell.variant, "env": env, "policies": "shared", "seed": cell.seed,
            "num_env_runners": int(s["num_env_runners"]),
            "num_envs_per_env_runner": int(s["num_envs_per_env_runner"]),
            "num_cpus_per_env_runner": s["num_cpus_per_env_runner"],
            "num_learners": 0, "model": dict(s["model"]), "ppo": dict(s["ppo"])})
        cfg["ppo"] = dict(s["ppo"])
        config = build_config(cfg)
        if s.get("custom_resources_per_env_runner"):
            config = config.env_runners(
                custom_resources_per_env_runner=dict(s["custom_resources_per_env_runner"]))
        self.algo = config.build_algo()
        self.policy_id = SHARED_POLICY
        self.steps = 0
        self.illegal = 0
        if int(s["num_env_runners"]) > 0:
            nodes = self.algo.env_runner_group.foreach_env_runner(
                lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
            self.info["env_runner_nodes"] = sorted(set(nodes))
        self.info["driver_node"] = ray.get_runtime_context().get_node_id()

    def learn(self, until: int) -> int:
        while self.steps < until:
            result = self.algo.train()
            self.steps = int(result.get("num_env_steps_sampled_lifetime", 0))
            n = (result.get("env_runners") or {}).get("illegal_actions")
            if n is not None and not np.isnan(float(n)):
                self.illegal += int(n)
        self.info["illegal_actions"] = self.illegal
        return self.steps

    def bot(self) -> Any:
        return _ModuleBot(self.algo.get_module(self.policy_id))

    def close(self) -> None:
        import ray

        self.algo.stop()
        if self.owns_ray:
            ray.shutdown()


@register("rllib_ppo", defaults={
    "num_env_runners": 0, "num_envs_per_env_runner": 1, "num_cpus_per_env_runner": 1,
    "custom_resources_per_env_runner": {}, "address": None,
    "ray_init": {"num_cpus": 1, "include_dashboard": False},
    "model": {"fcnet_hiddens": [256, 256]},
    "ppo": {"train_batch_size_per_learner": 2000, "minibatch_size": 250, "num_epochs": 4,
            "lr": 3.0e-4, "gamma": 0.995, "lambda_": 0.95, "entropy_coeff": 0.01},
    "torch_threads": 1}, requires=("ray.rllib",), extra="rllib")
def rllib_ppo(cell: CellSpec) -> Learner:
    """RLlib masked PPO (rummy_env.integrations.rllib), one policy shared by every seat
    (self-play). ``num_env_runners: 0`` samples in the cell's process; with more, the env
    runners are Ray actors, placed by ``custom_resources_per_env_runner`` (e.g. ``{env_node:
    1}`` for nodes started with that resource). ``address``/``ray_init`` go to ``ray.init``
    when Ray is not already running (in a Ray task it is)."""
    return _RLlibLearner(cell)


# ---------------------------------------------------------------------------- Tianshou
def _masked_obs_env(env: Any) -> Any:
    import gymnasium as gym

    class MaskedObs(gym.ObservationWrapper):
        """``{"obs": observation, "mask": int8 legal-action mask}``, the form Tianshou's
        ``DiscreteQLearningPolicy`` reads (``batch.obs.mask``)."""

        def __init__(self, inner: Any) -> None:
            super().__init__(inner)
            n = int(inner.action_space.n)
            self.observation_space = gym.spaces.Dict({
                "obs": inner.observation_space,
                "mask": gym.spaces.Box(0, 1, (n,), np.int8)})

        def observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
            return {"obs": observation,
                    "mask": np.asarray(self.env.action_masks(),  # type: ignore[attr-defined]
                                       dtype=np.int8)}

    return MaskedObs(env)


def _masked_maker(make: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: _masked_obs_env(make())


class _TianshouDQNLearner:
    def __init__(self, cell: CellSpec) -> None:
        _torch_threads(cell.settings)
        import torch
        from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
        from tianshou.algorithm.optim import AdamOptimizerFactory
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.env import DummyVectorEnv
        from tianshou.utils.net.common import Net

        from training.opponents import Schedule

        s = cell.settings
        self.cell = cell
        self.info: dict[str, Any] = {}
        schedule = Schedule(s["opponents"])
        if schedule.kind in ("league", "selfplay"):
            raise ValueError("algorithms.tianshou_dqn.opponents: a bot name, {mix: ...} or "
                             "{curriculum: ...}; no league")
        cfg = _merge(TRAIN_DEFAULTS, {"variant": cell.variant, "opponents": s["opponents"],
                                      "seed": cell.seed + 500})
        # a move outside the mask raises: the masks, not the env's penalty, must stop them
        cfg["env"] = {**dict(cell.env), "illegal_action": "raise"}
        n_envs = int(s["n_envs"])
        makers = [_make_env_fn(cfg, i, schedule.sampler()) for i in range(n_envs)]
        self.envs = DummyVectorEnv([_masked_maker(m) for m in makers])
        self.envs.seed([cell.seed * 1000 + 500 + i for i in range(n_envs)])
        torch.manual_seed(cell.seed)
        np.random.seed(cell.seed)  # Tianshou's epsilon-greedy draws from numpy's global state
        probe = makers[0]()
        obs_dim = int(np.prod(probe.observation_space.shape))
        self.n_actions = int(probe.action_space.n)
        net = Net(state_shape=obs_dim, action_shape=self.n_actions,
                  hidden_sizes=list(s["hidden_sizes"]))
        self.net = net
        self.policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space,
                                              eps_training=float(s["eps_start"]),
                                              eps_inference=0.0)
        self.algorithm = DQN(policy=self.policy, optim=AdamOptimizerFactory(lr=float(s["lr"])),
                             gamma=float(s["gamma"]), n_step_return_horizon=int(s["n_step"]),
                             target_update_freq=int(s["target_update_freq"]), is_double=True,
                             huber_loss_delta=s["huber_loss_delta"])
        self.buffer = VectorReplayBuffer(int(s["buffer_size"]), n_envs)
        self.collector: Any = Collector(self.algorithm, self.envs, self.buffer,
                                        exploration_noise=True)
        self.collector.reset()
        self.steps = 0

    def _eps(self, step: int) -> float:
        s = self.cell.settings
        frac = min(1.0, step / max(1.0, float(s["eps_decay_steps"])))
        return float(s["eps_start"]) + frac * (float(s["eps_end"]) - float(s["eps_start"]))

    def learn(self, until: int) -> int:
        from tianshou.trainer import OffPolicyTrainerParams

        s = self.cell.settings
        if self.steps < int(s["warmup_steps"]):
            # Fill the buffer with uniform legal play first (epsilon 1 draws among the masked
            # actions; Collector(random=True) would sample the whole action space).
            from tianshou.utils.torch_utils import policy_within_training_step

            self.policy.set_eps_training(1.0)
            with policy_within_training_step(self.policy):
                stats = self.collector.collect(n_step=int(s["warmup_steps"]) - self.steps)
            self.steps += int(stats.n_collected_steps)
        if self.steps >= until:
            return self.steps
        start = self.steps

        def on_train(epoch: int, env_step: int) -> None:
            self.policy.set_eps_training(self._eps(start + env_step))

        params = OffPolicyTrainerParams(
            training_collector=self.collector, test_collector=None, max_epochs=1,
            epoch_num_steps=until - self.steps,
            collection_step_num_env_steps=int(s["collect_steps"]),
            update_step_num_gradient_steps_per_sample=float(s["updates_per_sample"]),
            batch_size=int(s["batch_size"]), training_fn=on_train, verbose=False,
            show_progress=False)
        before = self.collector.collect_step
        self.algorithm.create_trainer(params).run(reset_collectors=False)
        self.steps += int(self.collector.collect_step - before)
        return self.steps

    def bot(self) -> Any:
        """The greedy (argmax of the masked Q values) policy as a numpy PolicyBot: the Q
        network is an MLP with ReLU, the layout PolicyBot plays."""
        import torch.nn as nn

        from rummy_env.bots.policy import FORMAT, PolicyBot

        layers = []
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                layers.append((m.weight.detach().cpu().numpy().T.copy(),
                               m.bias.detach().cpu().numpy().copy()))
            elif isinstance(m, (nn.Tanh, nn.Sigmoid, nn.ELU, nn.LeakyReLU)):
                raise ValueError(f"tianshou_dqn: cannot export the layer {m!r} (ReLU only)")
        meta = {"format": FORMAT, "activation": "relu", "obs_size": int(layers[0][0].shape[0]),
                "n_actions": int(layers[-1][0].shape[1]), **_policy_meta(self.cell)}
        return PolicyBot({"meta": meta, "layers": layers})

    def close(self) -> None:
        self.envs.close()


@register("tianshou_dqn", defaults={
    "opponents": "greedy", "n_envs": 4, "hidden_sizes": [256, 256], "lr": 5.0e-4,
    "gamma": 0.995, "n_step": 3, "target_update_freq": 500, "huber_loss_delta": 1.0,
    "buffer_size": 50_000, "batch_size": 128, "collect_steps": 64, "updates_per_sample": 0.25,
    "warmup_steps": 1000, "eps_start": 1.0, "eps_end": 0.05, "eps_decay_steps": 10_000,
    "torch_threads": 1}, requires=("tianshou",), extra="tianshou")
def tianshou_dqn(cell: CellSpec) -> Learner:
    """Tianshou 2.0 double DQN (target network, n-step returns, Huber loss) on the single-seat
    env, masked through ``obs.mask``; epsilon decays linearly from ``eps_start`` to
    ``eps_end`` over ``eps_decay_steps`` samples, after ``warmup_steps`` of uniform legal
    play."""
    return _TianshouDQNLearner(cell)


__all__ = ["ALGORITHMS", "DEFAULT_SETTINGS", "REQUIRES", "CellSpec", "Learner", "league_ppo",
           "maskable_ppo", "missing_modules", "register", "resolve_settings", "rllib_ppo",
           "tianshou_dqn"]
