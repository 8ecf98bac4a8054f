"""The environments in other RL pipelines: the RLlib adapter and training script (extra
``rllib``), Tianshou's ``PettingZooEnv`` and TorchRL's ``PettingZooWrapper(use_mask=True)``
(extras ``tianshou`` / ``torchrl``), unchanged. Library tests skip when the library is missing;
``.ci/run`` installs the extras so they run in CI. The README's snippets are the example files
these tests execute."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import runpy
import sys

import numpy as np
import pytest

import rummy_env
from rummy_env.integrations import rllib as rl

yaml = pytest.importorskip("yaml")  # the RLlib configs (the "rllib" extra brings PyYAML)

ROOT = pathlib.Path(__file__).resolve().parents[1]
TWO_VARIANTS = ("contract_rummy", "indian_rummy")


def _example(name: str) -> dict:
    return runpy.run_path(str(ROOT / "examples" / name))


def _random_legal(obs_mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs_mask)))


# ----------------------------------------------------------------- RLlib adapter without Ray
def test_rllib_module_imports_without_ray_and_names_the_extra(monkeypatch):
    """The pure half works without Ray; building an RLlib object says to install [rllib]."""
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setitem(sys.modules, "ray.rllib", None)
    env = rummy_env.make("contract_rummy", num_players=3)
    assert isinstance(rl.rllib_observation_space(env.observation_space("player_0")),
                      type(env.observation_space("player_0")))
    for call in (lambda: rl.env_creator({"variant": "contract_rummy"}),
                 lambda: rl.masked_ppo_config("contract_rummy"),
                 lambda: rl.RLlibPolicyBot("runs/rllib/contract_rummy/checkpoint"),
                 lambda: rl.RummyRLlibEnv):
        with pytest.raises(ImportError, match=r'the "rllib" extra.*rummy-env\[rllib\]'):
            call()
    from training.rllib_train import main

    with pytest.raises(SystemExit, match=r'install the "rllib" extra'):
        main(["--config", "configs/rllib/indian_rummy.yaml", "--iterations", "1"])


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_rllib_observation_form_for_every_variant(variant):
    """{"observations": float32 flat, "action_mask": float32} with the AEC mask's 0/1 values,
    inside the converted space."""
    env = rummy_env.make(variant)
    env.reset(seed=3)
    space = rl.rllib_observation_space(env.observation_space(env.agent_selection))
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].dtype == np.float32 and space["action_mask"].dtype == np.float32
    obs = env.observe(env.agent_selection)
    conv = rl.to_rllib_observation(obs)
    assert space.contains(conv)
    np.testing.assert_array_equal(conv["action_mask"], obs["action_mask"].astype(np.float32))
    np.testing.assert_array_equal(conv["observations"], obs["observation"])
    with pytest.raises(ValueError, match="expected Dict"):
        rl.rllib_observation_space(space)  # already converted: no "observation" key


def test_policy_ids_and_mappings():
    agents = ["player_0", "player_1", "player_2"]
    assert rl.policy_ids(agents, "shared") == [rl.SHARED_POLICY]
    assert rl.policy_ids(agents, "per_seat") == agents
    assert {rl.shared_policy_mapping(a, None) for a in agents} == {rl.SHARED_POLICY}
    assert [rl.per_seat_policy_mapping(a, None) for a in agents] == agents
    with pytest.raises(ValueError, match="allowed: shared, per_seat"):
        rl.policy_ids(agents, "league")


# ----------------------------------------------------------------- rllib_train config (no Ray)
def test_one_rllib_config_per_variant():
    for name in rummy_env.VARIANTS:
        path = ROOT / "configs" / "rllib" / f"{name}.yaml"
        assert path.exists(), f"missing {path}"
        cfg = yaml.safe_load(path.read_text())
        assert cfg["variant"] == name
        env = rummy_env.make(name, **cfg["env"])  # the options are valid for the variant
        assert env.illegal_action == "penalize"


def test_rllib_train_config_file_then_flags_then_set(tmp_path):
    from training.rllib_train import resolve_config

    cfg = resolve_config(["--config", "configs/rllib/indian_rummy.yaml", "--iterations", "3",
                          "--address", "auto", "--num-env-runners", "8",
                          "--num-envs-per-env-runner", "2", "--policies", "per_seat",
                          "--set", "ppo.lr=0.001", "--set", "env.num_players=3",
                          "--out", str(tmp_path)])
    assert (cfg["variant"], cfg["iterations"], cfg["address"]) == ("indian_rummy", 3, "auto")
    assert (cfg["num_env_runners"], cfg["num_envs_per_env_runner"]) == (8, 2)
    assert cfg["policies"] == "per_seat" and cfg["ppo"]["lr"] == 0.001
    assert cfg["env"] == {"num_players": 3, "reward_scale": 0.01, "illegal_action": "penalize"}
    assert cfg["ppo"]["num_epochs"] == 4  # from the file, untouched
    with pytest.raises(SystemExit, match="unknown config keys"):
        resolve_config(["--set", "bogus=1"])
    with pytest.raises(SystemExit, match="allowed: shared, per_seat"):
        resolve_config(["--policies", "league"])
    with pytest.raises(SystemExit, match="iterations=0 is invalid"):
        resolve_config(["--iterations", "0"])


# ----------------------------------------------------------------- RLlib with Ray
# ray_sandbox: tests/conftest.py


def _aec_returns(variant: str, seed: int, **options) -> tuple[dict, list[int]]:
    """Returns and the action sequence of a seeded random-legal episode played on the AEC env."""
    env = rummy_env.make(variant, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        a = _random_legal(obs["action_mask"], rng)
        actions.append(a)
        env.step(a)
    return returns, actions


@pytest.mark.slow
@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_rllib_env_plays_the_same_episode_with_the_same_rewards(ray_sandbox, variant):
    """The adapter is the AEC game: same actions → same per-agent returns; the actor gets an
    observation in its (per-agent) space, every agent gets a final one, and infos count 0
    illegal actions. Every variant at its default player count: a full deal for contract and
    Indian rummy, a few turns (then truncation) for the others, to keep the test cheap."""
    options = {} if variant in TWO_VARIANTS else {"max_turns": 4}
    expected, actions = _aec_returns(variant, 5, **options)
    env = rl.env_creator({"variant": variant, **options})
    assert set(env.observation_spaces) == set(env.possible_agents) == set(expected)
    obs, infos = env.reset(seed=5)
    returns = dict.fromkeys(expected, 0.0)
    done = {"__all__": False}
    for a in actions:
        assert not done["__all__"]
        (agent,) = obs
        assert env.observation_spaces[agent].contains(obs[agent])
        assert obs[agent]["action_mask"][a] == 1.0
        obs, rewards, done, trunc, infos = env.step({agent: a})
        for k, r in rewards.items():
            returns[k] += r
    assert done["__all__"] or trunc["__all__"]
    assert set(obs) == set(expected)  # everyone sees the end
    assert returns == pytest.approx(expected)
    assert {i["illegal_actions"] for i in infos.values()} == {0}
    assert env.illegal_actions_total == 0


def test_rllib_env_counts_an_illegal_action(ray_sandbox):
    """An action outside the mask is counted before the env's illegal_action policy applies
    ("penalize": the offender gets illegal_reward and the episode ends)."""
    env = rl.env_creator({"variant": "contract_rummy", "num_players": 3,
                          "illegal_action": "penalize"})
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    obs, rewards, done, _, infos = env.step({agent: bad})
    assert done["__all__"] and rewards[agent] == -1.0
    assert {i["illegal_actions"] for i in infos.values()} == {1}
    assert env.illegal_actions_total == 1
    env.reset(seed=1)
    assert env.illegal_actions == 0 and env.illegal_actions_total == 1


def test_illegal_action_callback_logs_the_episode_count(ray_sandbox):
    class Episode:
        def get_infos(self, index):
            assert index == -1
            return {"player_0": {"illegal_actions": 2}, "player_1": {"illegal_actions": 2}}

    class Logger:
        def __init__(self):
            self.logged = []

        def log_value(self, key, value, reduce):
            self.logged.append((key, value, reduce))

    log = Logger()
    rl.IllegalActionCallback().on_episode_end(episode=Episode(), metrics_logger=log)
    assert log.logged == [("illegal_actions", 2, "sum"),
                          ("illegal_actions_lifetime", 2, "lifetime_sum")]


@pytest.mark.slow
def test_rllib_train_script_two_iterations_on_a_remote_env_runner(ray_sandbox, tmp_path,
                                                                   capsys):
    """The distributed path, locally: one Ray env-runner actor samples, the driver learns;
    per-seat policies; two PPO iterations with zero illegal actions and a checkpoint."""
    from training.rllib_train import main

    out = tmp_path / "run"
    code = main(["--config", "configs/rllib/contract_rummy.yaml", "--iterations", "2",
                 "--num-env-runners", "1", "--policies", "per_seat", "--out", str(out),
                 "--set", "env.max_turns=60",  # an episode ends within each batch
                 "--set", "ppo.train_batch_size_per_learner=256",
                 "--set", "ppo.minibatch_size=128", "--set", "ppo.num_epochs=1",
                 "--set", "model.fcnet_hiddens=[32]", "--set", f"ray_init._temp_dir={ray_sandbox}",
                 "--set", "ray_init.num_cpus=2"])
    assert code == 0
    stdout = capsys.readouterr().out
    assert "[iter    2]" in stdout and "illegal actions: 0" in stdout
    rows = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2]
    assert rows[-1]["env_steps"] >= 512
    assert all(r["illegal_actions"] == 0 for r in rows)
    assert set(rows[-1]["policy_loss"]) == {f"player_{i}" for i in range(4)}  # per seat
    summary = json.loads((out / "summary.json").read_text())
    assert summary["illegal_actions"] == 0 and summary["episodes"] >= 1
    assert (out / "checkpoint" / "rllib_checkpoint.json").exists()
    assert yaml.safe_load((out / "config.yaml").read_text())["num_env_runners"] == 1

    # The checkpoint plays as a bot from its seat's view; the env raises on an illegal action.
    from rummy_env.bots import RandomBot, play_episode

    with pytest.raises(ValueError, match="not an RLlib algorithm or module checkpoint"):
        rl.RLlibPolicyBot(tmp_path)
    with pytest.raises(ValueError, match="it has: player_0, player_1, player_2, player_3"):
        rl.RLlibPolicyBot(out / "checkpoint", policy_id=rl.SHARED_POLICY)
    bots = [rl.RLlibPolicyBot(out / "checkpoint", "player_0"),
            rl.RLlibPolicyBot(out / "checkpoint", "player_1", deterministic=False),
            RandomBot(), RandomBot()]
    env = rummy_env.make("contract_rummy", num_players=4, max_turns=60)
    totals = play_episode(env, bots, seed=1)
    assert set(totals) == {f"player_{i}" for i in range(4)}
    assert not env.agents  # the episode ran to its end


@pytest.mark.slow
def test_rllib_example_trains_a_shared_policy(ray_sandbox, tmp_path):
    """examples/rllib_masked_ppo.py (the README snippet), sampling in the driver."""
    runners, checkpoint = _example("rllib_masked_ppo.py")["main"](
        iterations=1, num_env_runners=0, batch=512, checkpoint_dir=str(tmp_path / "ckpt"),
        num_cpus=2, include_dashboard=False, _temp_dir=ray_sandbox)
    assert runners["illegal_actions"] == 0
    assert set(runners["agent_episode_returns_mean"]) == {f"player_{i}" for i in range(4)}
    assert pathlib.Path(checkpoint, "rllib_checkpoint.json").exists()


# ----------------------------------------------------------------- Tianshou
def test_tianshou_collects_full_episodes_of_two_variants_unchanged(monkeypatch):
    """examples/tianshou_episodes.py: tianshou.env.PettingZooEnv over the plain AEC envs
    (identical spaces assert passes); the collector finishes episodes with per-seat returns.
    Indian rummy settles zero-sum, so a row summing to 0 shows every seat's reward arrived."""
    if importlib.util.find_spec("tianshou") is None:
        pytest.skip("tianshou is not installed (extra: tianshou)")
    if "tianshou" not in sys.modules:
        # Tianshou's replay-buffer manager JIT-compiles two numba helpers when a collector is
        # built: ~10 s of CPU against ~1 s for the episodes themselves. Decorated while numba's
        # JIT is off (numba reads the flag at decoration), they run as plain Python.
        import numba

        monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    stats = _example("tianshou_episodes.py")["main"](variants=TWO_VARIANTS, episodes=1,
                                                      n_envs=1)
    for name in TWO_VARIANTS:
        res = stats[name]
        assert res.n_collected_episodes == 1 and res.n_collected_steps > 1
        assert res.returns.shape == (1, 4)
    assert np.all(stats["contract_rummy"].returns <= 0)  # penalty points only
    np.testing.assert_allclose(stats["indian_rummy"].returns.sum(axis=1), 0.0, atol=1e-9)
    assert np.all(stats["indian_rummy"].returns.max(axis=1) > 0)


# ----------------------------------------------------------------- TorchRL
@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version")
def test_torchrl_rolls_out_full_episodes_of_two_variants_unchanged():
    """examples/torchrl_episodes.py: PettingZooWrapper(use_mask=True) builds its specs from the
    numeric fixed-shape infos; every action taken is in the acting seat's mask; the episode
    ends done; Indian rummy's returns sum to 0."""
    pytest.importorskip("torchrl")
    rollouts = _example("torchrl_episodes.py")["main"](variants=TWO_VARIANTS, episodes=1)
    for name in TWO_VARIANTS:
        for td in rollouts[name]:
            assert bool(td["next", "done"][-1].all())
            acting = 0
            for g in (f"player_{i}" for i in range(4)):
                assert set(td["next", g, "info"].keys()) == {"score", "place", "deals_played"}
                turn = td[g, "mask"].reshape(-1)
                acts = td[g, "action"].reshape(-1)[turn]
                masks = td[g, "action_mask"].reshape(len(turn), -1)[turn]
                assert bool(masks[np.arange(len(acts)), acts].all())
                acting += int(turn.sum())
            assert acting == td.batch_size[0]  # exactly one seat acts per step
    for td in rollouts["indian_rummy"]:
        total = sum(td["next", f"player_{i}", "reward"].sum().item() for i in range(4))
        assert total == pytest.approx(0.0, abs=1e-6)


def _docstring_example(doc: str) -> str:
    """The first ``::`` code block of a docstring, dedented."""
    import textwrap

    block = doc.split("::\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line)
    return textwrap.dedent("\n".join(lines))


@pytest.mark.slow
def test_rllib_adapter_docstring_example_runs_as_written(ray_sandbox):
    """The example at the top of rummy_env/integrations/rllib.py, executed as it is written
    (Ray started first with the sandbox's temp dir); RLlib's env pre-check samples unmasked
    actions and passes with the default illegal_action="penalize" (issue 16)."""
    import ray

    code = _docstring_example(rl.__doc__)
    assert "masked_ppo_config(" in code and "algo.train()" in code
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=ray_sandbox)
    scope: dict = {}
    exec(compile(code, "rummy_env/integrations/rllib.py docstring", "exec"), scope)
    result = scope["result"]
    assert result["env_runners"]["num_env_steps_sampled"] >= 512
