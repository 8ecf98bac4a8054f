"""Roll out full episodes of rummy_env variants with TorchRL (python examples/torchrl_episodes.py).
The AEC environments go into ``PettingZooWrapper(use_mask=True)`` unchanged: one group per
seat, the legal-action mask in each group's ``action_mask``, the numeric infos under ``info``."""

import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import rummy_env


def main(variants=("contract_rummy", "indian_rummy"), episodes=2, seed=0):
    torch.set_num_threads(1)
    rollouts = {}
    for name in variants:
        env = PettingZooWrapper(env=rummy_env.make(name, num_players=4), use_mask=True,
                                categorical_actions=True, seed=seed)
        rollouts[name] = []
        for _ in range(episodes):
            # The random policy samples from the action spec, which carries the mask.
            td = env.rollout(max_steps=10_000, break_when_any_done=True)
            returns = {g: round(td["next", g, "reward"].sum().item(), 2) for g in env.group_map}
            print(name, td.batch_size[0], "steps; returns:", returns)
            rollouts[name].append(td)
        env.close()
    return rollouts


if __name__ == "__main__":
    main()
