"""Train sb3-contrib's MaskablePPO for one seat of contract rummy against random bots, then
play deals with the trained policy (python examples/sb3_maskable_ppo.py).

``SingleSeatEnv`` is a Gymnasium env (the learner's seat rotates every episode; the bots play
the other seats) with ``action_masks()``, the method MaskablePPO looks for.
"""

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from rummy_env.wrappers import SingleSeatEnv


def main(variant="contract_rummy", timesteps=50_000, deals=50, seed=0):
    torch.set_num_threads(1)  # more threads are slower next to the env on a small machine
    venv = make_vec_env(SingleSeatEnv, n_envs=4, seed=seed, env_kwargs={
        "variant": variant, "opponents": "random", "seat": "rotate", "num_players": 4})
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=256, seed=seed)
    model.learn(total_timesteps=timesteps)

    env = SingleSeatEnv(variant, opponents="random", seat="rotate", num_players=4)
    wins = penalty = 0.0
    for deal in range(deals):
        obs, info = env.reset(seed=10_000 + deal)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += info["won"]
        penalty += info["deal_penalty"]
    print(f"{variant}: {deals} deals vs 3 random bots: win rate {wins / deals:.2f} "
          f"(random play: about 0.25), {penalty / deals:.1f} penalty points per deal")
    return wins / deals


if __name__ == "__main__":
    main()
