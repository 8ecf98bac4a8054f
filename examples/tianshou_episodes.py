"""Collect full episodes of rummy_env variants with Tianshou's multi-agent collector
(python examples/tianshou_episodes.py). The environments go into ``tianshou.env.PettingZooEnv``
unchanged; swap the random policies for trained ones."""

from functools import partial

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import rummy_env


def make_env(variant):
    return PettingZooEnv(rummy_env.make(variant, num_players=4))


def main(variants=("contract_rummy", "indian_rummy"), episodes=2, n_envs=2, seed=0):
    stats = {}
    for name in variants:
        env = make_env(name)
        policy = MultiAgentPolicy({  # one random-legal-action policy per seat
            agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
            for agent in env.agents})
        venv = DummyVectorEnv([partial(make_env, name)] * n_envs)
        venv.seed(seed)  # env i gets seed + i
        collector = Collector(policy, venv)
        result = collector.collect(n_episode=episodes, reset_before_collect=True)
        # returns: one row per episode, one column per seat (rewards from env.rewards)
        print(name, result.n_collected_episodes, "episodes,", result.n_collected_steps,
              "steps; returns per seat:", result.returns.round(2).tolist())
        stats[name] = result
    return stats


if __name__ == "__main__":
    main()
