"""Masked PPO with Ray RLlib: one policy shared by every seat of contract rummy
(python examples/rllib_masked_ppo.py). ``training/rllib_train.py`` is the full script
(YAML configs, checkpoints, per-seat policies, ``--address`` for a cluster)."""

import ray
import torch
from ray.tune.registry import register_env

from rummy_env.integrations.rllib import ENV_NAME, env_creator, masked_ppo_config


def main(iterations=10, num_env_runners=2, batch=4000, seed=0, checkpoint_dir=None,
         address=None, **ray_init):
    torch.set_num_threads(1)
    ray.init(address=address, **ray_init)  # address="auto" joins a running cluster
    register_env(ENV_NAME, env_creator)
    config = (
        masked_ppo_config("contract_rummy", {"num_players": 4, "illegal_action": "penalize"},
                          policies="shared", model={"fcnet_hiddens": [256, 256]})
        .env_runners(num_env_runners=num_env_runners)  # 0: sample in this process
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 500),
                  num_epochs=2)
        .debugging(seed=seed)
    )
    algo = config.build_algo()
    for i in range(iterations):
        runners = algo.train()["env_runners"]  # episode stats: episodes that ended
        returns = {a: round(float(r), 2)
                   for a, r in sorted(runners.get("agent_episode_returns_mean", {}).items())}
        print(f"iteration {i + 1}: {runners.get('num_episodes', 0)} episodes, return per "
              f"seat {returns}, illegal actions {runners.get('illegal_actions', 0)}")
    checkpoint = algo.save_to_path(checkpoint_dir)  # Algorithm.from_checkpoint() restores it
    algo.stop()
    ray.shutdown()
    return runners, checkpoint


if __name__ == "__main__":
    main()
