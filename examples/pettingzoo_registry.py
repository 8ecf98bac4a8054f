"""Play one deal of every rummy_env variant through PettingZoo's registry, with random legal
actions (python examples/pettingzoo_registry.py; ``main(max_turns=10)`` cuts deals short)."""

import numpy as np
import pettingzoo

import rummy_env  # registers "rummy_env/<variant>-v1" with PettingZoo


def main(variants=rummy_env.VARIANTS, seed=0, **options):
    rng = np.random.default_rng(seed)
    for name in variants:
        env = pettingzoo.make("aec", f"rummy_env/{name}-v1", **options)  # options: env args
        env.reset(seed=seed)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            returns[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        print(name, {a: round(r, 2) for a, r in returns.items()}, info)
        env.close()


if __name__ == "__main__":
    main()
