"""Smoke tests of the training script: it trains a few hundred steps, evaluates a few deals and
writes everything it promises. No test asserts a learning result (those are in the README)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# The training stack's tests need the "train" extra (PyYAML, Stable-Baselines3, torch).
yaml = pytest.importorskip("yaml")
pytest.importorskip("sb3_contrib")

import rummy_env  # noqa: E402
from training.train import resolve_config  # noqa: E402


def test_config_file_then_flags_then_set(tmp_path):
    cfg = resolve_config(["--config", "configs/train/may_i.yaml", "--timesteps", "123",
                          "--opponents", "greedy", "--set", "ppo.learning_rate=0.001",
                          "--set", "env.num_players=3", "--out", str(tmp_path)])
    assert cfg["variant"] == "may_i" and cfg["timesteps"] == 123 and cfg["opponents"] == "greedy"
    assert cfg["ppo"]["learning_rate"] == 0.001 and cfg["env"]["num_players"] == 3
    assert cfg["ppo"]["n_steps"] == 256  # from the file, untouched
    with pytest.raises(SystemExit, match="unknown config keys"):
        resolve_config(["--set", "bogus=1"])
    with pytest.raises(SystemExit, match="not supported"):
        resolve_config(["--set", "algorithm=DQN"])


def test_one_config_per_variant():
    import pathlib

    import rummy_env

    for name in rummy_env.VARIANTS:
        path = pathlib.Path(f"configs/train/{name}.yaml")
        assert path.exists(), f"missing {path}"
        assert yaml.safe_load(path.read_text())["variant"] == name


@pytest.mark.slow
def test_train_smoke_writes_checkpoints_logs_curve_and_evaluation(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "training.train", "--config", "configs/train/contract_rummy.yaml",
         "--timesteps", "256", "--n-envs", "2", "--eval-every", "128", "--eval-deals", "2",
         "--final-deals", "3", "--out", str(out), "--no-progress",
         "--set", "ppo.n_steps=128", "--set", "ppo.batch_size=64", "--set", "env.num_players=3",
         "--pretrain", "greedy:64", "--set", "pretrain.epochs=1"],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("config.yaml", "final.zip", "evals.json", "final_eval.json",
                 "learning_curve.png", "checkpoint_128.zip", "checkpoint_128.npz", "best.npz",
                 "best.zip", "final.npz"):
        assert (out / name).exists(), name
    assert any((out / "tb").iterdir())
    assert yaml.safe_load((out / "config.yaml").read_text())["timesteps"] == 256
    evals = json.loads((out / "evals.json").read_text())
    assert {e["opponent"] for e in evals} == {"random", "greedy"}
    assert "best.npz (" in proc.stdout and "vs 2 x random, 3 deals (duplicate)" in proc.stdout
    assert "mean penalty (95% CI)" in proc.stdout


@pytest.mark.slow
def test_selfplay_adds_snapshots_of_the_learner(tmp_path):
    """opponents=selfplay: each evaluation's checkpoint joins every env's opponent pool."""
    from training.train import train

    cfg = resolve_config(["--config", "configs/train/contract_rummy.yaml", "--opponents",
                          "selfplay", "--timesteps", "256", "--n-envs", "1", "--eval-every",
                          "128", "--eval-deals", "1", "--final-deals", "1", "--no-progress",
                          "--out", str(tmp_path), "--set", "ppo.n_steps=128",
                          "--set", "ppo.batch_size=64", "--set", "env.num_players=3",
                          "--set", "eval.opponents=[random]", "--pretrain", "greedy:0"])
    summary = train(cfg)
    assert (tmp_path / "checkpoint_128.zip").exists()
    assert summary["timesteps"] == 256
    assert summary["snapshots"] == [2]  # the evaluations at 128 and 256 steps


def _gin_cfg(tmp_path, *extra):
    return resolve_config(["--config", "configs/train/gin_rummy.yaml", "--timesteps", "256",
                           "--n-envs", "1", "--pretrain", "greedy:0",
                           "--eval-every", "128", "--eval-deals", "2",
                           "--final-deals", "2", "--no-progress", "--out", str(tmp_path),
                           "--set", "ppo.n_steps=128", "--set", "ppo.batch_size=64",
                           "--set", "policy.net_arch=[32]", *extra])


def test_mix_of_opponents_trains(tmp_path):
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--set", "opponents={mix: {greedy: 0.7, random: 0.3}}",
                   "--set", "eval.opponents=[greedy]",
                   "--set", "eval.final_opponents=[random, greedy]",
                   "--set", "eval.final_deals_by={random: 4}")
    summary = train(cfg)
    # the SB3 zip carries the policy header: as a bot it plays exactly like the .npz export
    from rummy_env.bots import make_bot
    z, n = make_bot(str(tmp_path / "best.zip")), make_bot(str(tmp_path / "best.npz"))
    assert z.meta["features"] is True and z.meta == n.meta
    assert set(summary["final"]) == {"random", "greedy"}
    assert summary["final"]["random"]["deals"] == 4 and summary["final"]["greedy"]["deals"] == 2
    evals = json.loads((tmp_path / "evals.json").read_text())
    assert {e["opponent"] for e in evals} == {"greedy"}  # periodic: greedy only


def test_curriculum_promotes_when_the_win_rate_is_reached(tmp_path, capsys):
    """promote_at 0 moves on at the first evaluation: the next stage's bots play from then on."""
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--set", "opponents={curriculum: [random, greedy], promote_at: 0.0}")
    train(cfg)
    assert "[curriculum] win rate" in capsys.readouterr().out


def test_league_keeps_bots_and_snapshots(tmp_path, capsys):
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--set", "opponents={league: {bots: [random, greedy], "
                                      "snapshots: 1}}")
    train(cfg)
    out = capsys.readouterr().out
    # after the first evaluation the pool holds both bots and one snapshot, each with a weight
    assert "[opponents] OpponentSampler(random:" in out and "snapshot_128:" in out


@pytest.mark.slow
def test_pretrain_clones_the_teacher_and_reports_the_cloned_policy(tmp_path):
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--pretrain", "greedy:300", "--set", "pretrain.epochs=2",
                   "--set", "eval.opponents=[random, greedy]")
    summary = train(cfg)
    pre = summary["pretrain"]
    assert pre["decisions"] >= 300 and len(pre["epochs"]) == 2
    assert 0.0 <= pre["epochs"][-1]["accuracy"] <= 1.0
    evals = json.loads((tmp_path / "evals.json").read_text())
    assert {e["opponent"] for e in evals if e["checkpoint"] == "pretrained"} == {"random",
                                                                                "greedy"}
    assert summary["cpu_seconds"]["collect"] > 0 and summary["cpu_seconds"]["clone"] > 0


def test_dagger_rounds_label_the_clones_own_states(tmp_path):
    """DAgger: the clone plays, the teacher labels; each round joins the data set and reports
    how often the clone already agreed with the teacher."""
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--pretrain", "greedy:300", "--set", "pretrain.epochs=1",
                   "--set", "pretrain.dagger_rounds=2", "--set", "pretrain.dagger_decisions=100",
                   "--set", "pretrain.dagger_epochs=1")
    summary = train(cfg)
    rounds = summary["pretrain"]["dagger"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert all(r["decisions"] >= 100 and 0.0 <= r["agreement"] <= 1.0 for r in rounds)
    # the data set is the teacher's first collection (at least 300) plus every round's
    assert summary["pretrain"]["decisions"] - sum(r["decisions"] for r in rounds) >= 300


def test_delegate_trains_and_the_exported_policy_delegates_too(tmp_path):
    from rummy_env.bots import make_bot
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--set", "delegate={bot: greedy, kinds: [meld, lay_off, done]}")
    train(cfg)
    bot = make_bot(str(tmp_path / "best.npz"))
    assert bot.meta["delegate"] == {"bot": "greedy", "kinds": ["meld", "lay_off", "done"]}
    assert bot.delegate is not None and bot.delegate_kinds == {"meld", "lay_off", "done"}
    # the README row and the publication into checkpoints/ read the same run folder
    from training.report import publish, row
    line = row(tmp_path)
    assert line.startswith("| `gin_rummy` | 2 | ") and line.count("|") == 12
    entry = publish(tmp_path, root=tmp_path / "repo")
    manifest = json.loads((tmp_path / "repo" / "checkpoints" / "manifest.json").read_text())
    assert manifest == {"gin_rummy": entry} and entry["ppo_steps"] == 256
    assert (tmp_path / "repo" / "checkpoints" / "gin_rummy.npz").read_bytes() == \
        (tmp_path / "best.npz").read_bytes()


def test_prior_policy_starts_as_the_bot_and_exports_the_bonus(tmp_path):
    """policy.prior=greedy: the untrained policy's argmax is greedy's move at every decision
    (its logits are near zero, the bonus is 4), in torch, in the exported .npz and in the .zip;
    the weight is fixed unless prior_learn, and a learnt one moves under PPO."""
    from sb3_contrib import MaskablePPO

    from rummy_env.bots import make_bot, play_episode
    from training.prior_policy import PriorMaskablePolicy
    from training.train import train

    cfg = _gin_cfg(tmp_path, "--set", "policy.prior=greedy", "--timesteps", "128",
                   "--set", "eval.every=0")
    train(cfg)
    bot = make_bot(str(tmp_path / "final.npz"))
    assert bot.meta["prior"] == {"bot": "greedy", "weight": 4.0}
    model = MaskablePPO.load(str(tmp_path / "final.zip"), device="cpu")
    assert isinstance(model.policy, PriorMaskablePolicy)
    assert not model.policy.prior_weight.requires_grad
    greedy = make_bot("greedy")
    disagreements: list[int] = []
    decisions: list[int] = []

    class Compare:  # plays greedy's move and records where the policy would not
        name = "compare"

        def reset(self, seed=None):
            pass

        def act(self, view):
            choice = greedy.act(view)
            if len(view.legal_actions) > 1:
                decisions.append(choice)
                if bot.act(view) != choice:
                    disagreements.append(choice)
            return choice

    for seed in range(4):
        play_episode(rummy_env.make("gin_rummy"), [Compare(), Compare()], seed=seed)
    assert len(decisions) > 40 and not disagreements  # a near-untrained net: argmax = greedy's
    with pytest.raises(ValueError, match="prior"):
        from rummy_env.bots.policy import PolicyBot, load_policy
        data = load_policy(tmp_path / "final.npz")
        data["meta"]["prior"] = {"bot": "greedy"}
        PolicyBot(data)
    learnt = _gin_cfg(tmp_path / "learn", "--set", "policy.prior=greedy", "--set",
                      "policy.prior_learn=true", "--set", "eval.every=0")
    train(learnt)
    w = MaskablePPO.load(str(tmp_path / "learn" / "final.zip"), device="cpu").policy.prior_weight
    assert w.requires_grad and float(w) != 4.0
    with pytest.raises(SystemExit, match="features.enabled"):
        resolve_config(["--config", "configs/train/gin_rummy.yaml", "--set", "policy.prior=greedy",
                        "--set", "features.enabled=false"])
    with pytest.raises(SystemExit, match="not a bot name"):
        resolve_config(["--config", "configs/train/gin_rummy.yaml", "--set", "policy.prior=best"])


def test_collect_with_an_actor_records_the_teachers_labels():
    """With an actor, the actor's actions are played and the teacher's are the labels."""
    import numpy as np

    from training.opponents import Schedule
    from training.pretrain import collect
    from training.train import _make_env_fn

    cfg = resolve_config(["--config", "configs/train/gin_rummy.yaml", "--n-envs", "1"])
    env = _make_env_fn(cfg, 0, Schedule("greedy").sampler())()

    def first_legal(obs, mask):
        return int(np.flatnonzero(mask)[0])

    data = collect([env], "greedy", 60, gamma=0.99, seed=3, actor=first_legal)
    first = np.argmax(data["mask"], axis=1)
    assert (data["played"] == first).all()
    assert data["mask"][np.arange(len(data["action"])), data["action"]].all()
    assert (data["action"] != data["played"]).any()  # greedy does not always play the first
    plain = collect([env], "greedy", 60, gamma=0.99, seed=3)
    assert (plain["played"] == plain["action"]).all()
    # the validation split is fixed at collection: a merged data set keeps each part's split
    from training.pretrain import merge
    both = merge(plain, data)
    assert (both["holdout"] == np.concatenate([plain["holdout"], data["holdout"]])).all()
    assert 0 < plain["holdout"].sum() < len(plain["holdout"])


def test_clone_of_the_critic_only_leaves_the_actor_as_it_was():
    """pretrain.actor=false fits the value head and leaves the actor's weights untouched."""
    import torch as th
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.opponents import Schedule
    from training.pretrain import clone, collect
    from training.train import _make_env_fn

    cfg = resolve_config(["--config", "configs/train/gin_rummy.yaml", "--n-envs", "1"])
    fn = _make_env_fn(cfg, 0, Schedule("greedy").sampler())
    model = MaskablePPO("MlpPolicy", DummyVecEnv([fn]), policy_kwargs={"net_arch": [16]},
                        n_steps=64, batch_size=64, device="cpu", seed=0)
    data = collect([fn()], "greedy", 80, gamma=0.99, seed=1)
    policy = model.policy
    actor = [p.detach().clone() for p in [*policy.mlp_extractor.policy_net.parameters(),
                                           *policy.action_net.parameters()]]
    critic = [p.detach().clone() for p in policy.value_net.parameters()]
    clone(policy, data, epochs=1, batch_size=32, actor=False, log=lambda *_: None)
    after = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
    assert all(th.equal(a, b) for a, b in zip(actor, after))
    assert not all(th.equal(a, b) for a, b in zip(critic, policy.value_net.parameters()))
    with pytest.raises(ValueError, match="both"):
        clone(policy, data, epochs=1, actor=False, value=False)


def test_label_smoothing_spreads_the_clone_over_the_legal_moves():
    """pretrain.label_smoothing: the loss is the cross-entropy against (1 - eps) on the
    teacher's move plus eps uniform over the legal ones, and the fitted clone keeps
    probability on legal moves the teacher never made (a plain clone leaves them none)."""
    import numpy as np
    import torch as th
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.opponents import Schedule
    from training.pretrain import _smoothed_loss, clone, collect
    from training.train import _make_env_fn

    cfg = resolve_config(["--config", "configs/train/gin_rummy.yaml", "--n-envs", "1"])
    fn = _make_env_fn(cfg, 0, Schedule("greedy").sampler())
    data = collect([fn()], "greedy", 120, gamma=0.99, seed=1)
    obs, mask = th.as_tensor(data["obs"]), th.as_tensor(data["mask"])
    act = th.as_tensor(data["action"])

    def fitted(eps):
        model = MaskablePPO("MlpPolicy", DummyVecEnv([fn]), policy_kwargs={"net_arch": [32]},
                            n_steps=64, batch_size=64, device="cpu", seed=0)
        clone(model.policy, data, epochs=30, batch_size=32, lr=3e-3, label_smoothing=eps,
              log=lambda *_: None)
        return model.policy

    policy = fitted(0.3)
    with th.no_grad():
        loss, _ = _smoothed_loss(policy, obs, act, mask, 0.3)
        probs = policy.get_distribution(obs, action_masks=mask.numpy()).distribution.probs
    logp = np.log(np.maximum(probs.numpy(), 1e-30))
    legal = data["mask"]
    want = -np.mean([0.7 * logp[i, a] + 0.3 * logp[i, legal[i]].mean()
                     for i, a in enumerate(data["action"])])
    assert float(loss) == pytest.approx(want, rel=1e-4)
    others = legal.copy()
    others[np.arange(len(act)), data["action"]] = False
    several = others.any(axis=1)

    def floor(p):  # the least probability of a legal non-teacher move, averaged
        return float(np.mean([p[i, others[i]].numpy().min() for i in np.flatnonzero(several)]))

    smooth_floor = floor(probs)
    plain_policy = fitted(0.0)
    with th.no_grad():
        plain = plain_policy.get_distribution(obs, action_masks=mask.numpy()).distribution.probs
    assert smooth_floor > 3 * floor(plain), (smooth_floor, floor(plain))
    with pytest.raises(ValueError, match="label_smoothing"):
        clone(policy, data, epochs=1, label_smoothing=1.0)


def test_bad_schedules_and_flags_are_refused():
    with pytest.raises(SystemExit, match="opponents"):
        resolve_config(["--set", "opponents={mix: {nobot: 1.0}}"])
    with pytest.raises(SystemExit, match="opponents"):
        resolve_config(["--set", "opponents={curriculum: []}"])
    with pytest.raises(SystemExit, match="pretrain"):
        resolve_config(["--pretrain", "greedy:many"])
    with pytest.raises(SystemExit, match="label_smoothing"):
        resolve_config(["--set", "pretrain.label_smoothing=1.5"])
    with pytest.raises(SystemExit, match="unknown eval keys"):
        resolve_config(["--set", "eval.bogus=1"])
    with pytest.raises(SystemExit, match="pretrain.teacher: greedy has no option 'bogus'"):
        resolve_config(["--pretrain", "greedy(bogus=1):100"])
    with pytest.raises(SystemExit, match="policy.prior: endgame_turn must be an int >= 0"):
        resolve_config(["--set", "policy.prior=greedy(endgame_turn=-5)"])


def test_teacher_and_prior_with_bot_options_reach_the_checkpoint(tmp_path):
    """A teacher and a prior given as a bot spec with options are cloned and exported as
    that spec, and the checkpoint's PolicyBot rebuilds the prior bot with them."""
    from rummy_env.bots import make_bot, play_episode
    from training.train import train

    spec = "greedy(gin_hold=3, gin_stock=10)"
    cfg = _gin_cfg(tmp_path, "--pretrain", f"{spec}:200", "--set", f"policy.prior={spec}",
                   "--timesteps", "128", "--set", "eval.every=0")
    assert cfg["pretrain"]["teacher"] == spec
    train(cfg)
    bot = make_bot(str(tmp_path / "final.npz"))
    assert bot.meta["prior"]["bot"] == spec
    assert bot.prior_bot._bots == {} and bot.prior_bot.options == {"gin_hold": 3, "gin_stock": 10}
    play_episode(rummy_env.make("gin_rummy"), [bot, make_bot("greedy")], seed=0)
