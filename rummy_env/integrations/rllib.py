"""Ray RLlib adapter: every rummy_env variant as an RLlib ``MultiAgentEnv`` for masked PPO.

Install the extra: ``pip install "rummy-env[rllib]"`` (Ray RLlib 2.60, new API stack).

RLlib's action-masking module (``ActionMaskingTorchRLModule``, PPO) reads observations of the
form ``{"observations": float32, "action_mask": float32}``; PettingZoo's convention, which the
environments follow, is ``{"observation": float32, "action_mask": int8}``. The adapter renames
the key and casts the mask; nothing else changes (same agents, same rewards, same turn order)::

    from ray.tune.registry import register_env
    from rummy_env.integrations.rllib import ENV_NAME, env_creator, masked_ppo_config

    register_env(ENV_NAME, env_creator)   # once per driver; env runners get it from Ray
    config = (masked_ppo_config("contract_rummy", {"num_players": 4}, policies="shared")
              .env_runners(num_env_runners=1, num_envs_per_env_runner=1)
              .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=1))
    algo = config.build_algo()   # RLlib's env pre-check samples unmasked actions: it relies
    result = algo.train()        # on the default illegal_action="penalize"
    algo.stop()

(a small batch for a first run; RLlib's default is 4000 steps; ``tests/test_integrations.py``
runs this block as written)

* :func:`env_creator` (for ``register_env``) takes the env config ``{"variant": name,
  **options}`` (options as for :func:`rummy_env.make`) and returns a
  :class:`RummyRLlibEnv`, a subclass of RLlib's own ``PettingZooEnv`` wrapper: the agent to
  act gets its observation; when the episode ends every agent gets its final observation and
  reward. Each agent's observation space is ``Dict{"observations": Box(float32, (obs size,)),
  "action_mask": Box(0, 1, (N,), float32)}``; the action space stays ``Discrete(N)``.
* Every ``info`` carries ``illegal_actions``: the number of actions this episode that were
  not in the acting agent's mask (counted before the env applies its ``illegal_action``
  policy). With masking it is zero; :class:`IllegalActionCallback` reports it per training
  iteration as ``env_runners/illegal_actions``.
* :func:`masked_ppo_config` builds the ``PPOConfig``: the adapter env, one masked PPO policy
  shared by every seat (``policies="shared"``; the observation is ego-centric, so one policy
  can play any seat) or one per seat (``"per_seat"``), and the callback.
* :class:`RLlibPolicyBot` plays a trained policy from a checkpoint as a :mod:`rummy_env.bots`
  bot (its seat's view only), e.g. against ``RandomBot`` with
  :func:`rummy_env.bots.play_episode`.

Only the functions that build RLlib objects import Ray, so this module imports without it and
a missing Ray gives an ImportError naming the ``rllib`` extra. ``ActionMaskingTorchRLModule``
lives in ``ray.rllib.examples`` (an example class, not a stable API; it logs a deprecation
warning about ``PPOTorchRLModule`` in Ray 2.60).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import rummy_env

# The observation conversions live in a Ray-free module that both this module and the Ray
# classes import, so neither imports the other back; re-exported here, their public home.
from rummy_env.integrations._rllib_spaces import rllib_observation_space, to_rllib_observation

#: The name :func:`env_creator` is registered under by ``training.rllib_train``.
ENV_NAME = "rummy_env"
#: Policy modes of :func:`masked_ppo_config`.
POLICY_MODES = ("shared", "per_seat")
#: The policy id every agent maps to with ``policies="shared"``.
SHARED_POLICY = "shared_policy"
_INSTALL_HINT = ('Ray RLlib is not installed; install the "rllib" extra: '
                 'pip install "rummy-env[rllib]" (tested with ray[rllib] 2.60.0)')


def require_ray() -> None:
    """Raise an ImportError naming the ``rllib`` extra if Ray RLlib cannot be imported."""
    try:
        importlib.import_module("ray.rllib")
    except ImportError as e:
        raise ImportError(f"{_INSTALL_HINT} ({e})") from e


def env_creator(env_config: Mapping[str, Any]) -> Any:
    """For ``register_env``: a :class:`RummyRLlibEnv` of ``env_config["variant"]`` (default
    ``contract_rummy``) built with the other keys as :func:`rummy_env.make` options."""
    require_ray()
    from rummy_env.integrations._rllib_classes import RummyRLlibEnv

    options = dict(env_config)  # an RLlib EnvContext is a dict with extra attributes
    variant = options.pop("variant", "contract_rummy")
    return RummyRLlibEnv(rummy_env.make(variant, **options))


def shared_policy_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """``policy_mapping_fn`` of ``policies="shared"``: every seat plays :data:`SHARED_POLICY`."""
    return SHARED_POLICY


def per_seat_policy_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """``policy_mapping_fn`` of ``policies="per_seat"``: seat ``player_i`` has policy
    ``player_i`` (agents keep their seat from episode to episode)."""
    return agent_id


def policy_ids(agents: Sequence[str], policies: str) -> list[str]:
    """The policy ids of a mode in :data:`POLICY_MODES` for these agents."""
    if policies not in POLICY_MODES:
        raise ValueError(f"policies={policies!r} is invalid; allowed: {', '.join(POLICY_MODES)}")
    return [SHARED_POLICY] if policies == "shared" else list(agents)


def masked_ppo_config(
    variant: str,
    env_options: Mapping[str, Any] | None = None,
    policies: str = "shared",
    model: Mapping[str, Any] | None = None,
    env_name: str = ENV_NAME,
) -> Any:
    """A ``PPOConfig`` training masked PPO on ``variant``: the :func:`env_creator` env
    (registered as ``env_name`` beforehand) with ``env_options``, ``policies`` in
    :data:`POLICY_MODES`, ``model`` as RLlib's ``DefaultModelConfig`` keys (e.g.
    ``{"fcnet_hiddens": [256, 256]}``) and :class:`IllegalActionCallback`. Chain
    ``.env_runners(...)``, ``.training(...)`` and ``.learners(...)`` onto it."""
    require_ray()
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    from rummy_env.integrations._rllib_classes import IllegalActionCallback

    env_config = {"variant": variant, **dict(env_options or {})}
    # The agents (and the spaces) come from one throwaway instance, so a bad option fails
    # here, in the driver, with the env's own error.
    probe = rummy_env.make(variant, **dict(env_options or {}))
    ids = policy_ids(probe.possible_agents, policies)
    mapping = shared_policy_mapping if policies == "shared" else per_seat_policy_mapping
    specs = {pid: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                               model_config=dict(model or {})) for pid in ids}
    return (
        PPOConfig()
        .environment(env_name, env_config=env_config)
        .multi_agent(policies=set(ids), policy_mapping_fn=mapping,
                     policies_to_train=list(ids))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .callbacks(IllegalActionCallback)
    )


class RLlibPolicyBot:
    """One policy of an RLlib checkpoint as a :mod:`rummy_env.bots` bot: it sees only its seat's
    view (``act(view)``), like every bot, so it plays against ``RandomBot``/``GreedyBot`` or
    other policies through :func:`rummy_env.bots.play_episode`.

    :param checkpoint: an algorithm checkpoint (``training.rllib_train`` writes
        ``<out>/checkpoint``; ``algo.save_to_path()``) or one module's folder inside it.
    :param policy_id: which policy of an algorithm checkpoint: :data:`SHARED_POLICY`
        (``policies="shared"``) or ``player_<i>`` (``policies="per_seat"``).
    :param deterministic: the most likely legal action (True) or a sample from the masked
        policy, drawn from the generator that ``reset(seed)`` seeds (False).

    Loading needs Ray RLlib and torch but no running Ray (``RLModule.from_checkpoint``).
    """

    name = "rllib"

    def __init__(self, checkpoint: str | Any, policy_id: str = SHARED_POLICY,
                 deterministic: bool = True) -> None:
        require_ray()
        import pathlib

        from ray.rllib.core.rl_module.rl_module import RLModule

        path = pathlib.Path(checkpoint)
        modules = path / "learner_group" / "learner" / "rl_module"
        if modules.is_dir():
            if not (modules / policy_id).is_dir():
                found = sorted(p.name for p in modules.iterdir() if p.is_dir())
                raise ValueError(f"policy_id={policy_id!r} is not in {path}; it has: "
                                 + ", ".join(found))
            path = modules / policy_id
        elif not (path / "module_state.pkl").exists():
            raise ValueError(f"{checkpoint!s} is not an RLlib algorithm or module checkpoint")
        self.module = RLModule.from_checkpoint(str(path))
        self.policy_id = policy_id
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng()

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, view: Any) -> int:
        import torch

        legal = np.asarray(view.legal_actions, dtype=np.int64)
        mask = np.zeros(view.action_layout.n, dtype=np.float32)
        mask[legal] = 1.0
        obs = {"observations": torch.as_tensor(
                   np.asarray(view.observation, dtype=np.float32).reshape(1, -1)),
               "action_mask": torch.as_tensor(mask[None])}
        with torch.no_grad():
            logits = self.module.forward_inference({"obs": obs})["action_dist_inputs"]
        scores = logits[0].numpy().astype(np.float64)[legal]  # only legal ids compete
        if self.deterministic:
            return int(legal[int(np.argmax(scores))])
        p = np.exp(scores - scores.max())
        return int(self.rng.choice(legal, p=p / p.sum()))


def __getattr__(name: str) -> Any:
    # The classes that subclass Ray's are built on first use, so importing this module needs
    # no Ray.
    if name in ("RummyRLlibEnv", "IllegalActionCallback"):
        require_ray()
        from rummy_env.integrations import _rllib_classes

        return getattr(_rllib_classes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# RummyRLlibEnv and IllegalActionCallback are left out so that ``import *`` needs no Ray.
__all__ = [
    "ENV_NAME", "POLICY_MODES", "SHARED_POLICY", "env_creator", "masked_ppo_config",
    "per_seat_policy_mapping", "policy_ids", "RLlibPolicyBot",
    "require_ray", "rllib_observation_space", "shared_policy_mapping", "to_rllib_observation",
]
