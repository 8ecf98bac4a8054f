"""Train a MaskablePPO agent for one seat against baseline bots, evaluating as it goes.

    python -m training.train --config configs/train/gin_rummy.yaml
    python -m training.train --config configs/train/contract_rummy.yaml --timesteps 20000 \\
        --opponents greedy --pretrain greedy:50000 --set ppo.learning_rate=1e-4 --out runs/try1

The YAML holds the variant and its options, the opponents, the algorithm settings and the
evaluation schedule; flags override it (``--set a.b=value`` reaches any key). The methods,
each a config key:

* ``opponents``: a fixed bot, a mix, a curriculum or a league (:mod:`training.opponents`);
  ``selfplay`` keeps the older snapshot-only pool (:class:`rummy_env.wrappers.SelfPlayEnv`).
* ``pretrain``: behaviour cloning of a bot's decisions before PPO (:mod:`training.pretrain`);
  the cloned policy is evaluated and reported (``timesteps: 0`` in ``evals.json``).
* ``features``: ``{enabled: true, shaping: 0.0}`` appends the solver features of
  :class:`rummy_env.wrappers.features.SolverFeatures` to the observation; ``shaping`` > 0 adds
  potential-based shaping (Ng et al. 1999). Evaluation always scores the true points.
* ``delegate``: ``{bot: greedy, kinds: [meld, lay_off, done]}`` lets the bot play the
  learner's decisions whose legal actions are all of those kinds (Gin Rummy's laying out after
  a knock: arithmetic the solver does exactly, where a flat policy head errs); the exported
  policy carries it and plays the same way as a bot. Off by default.
* ``policy.prior``: ``greedy`` adds ``policy.prior_weight`` to the logit of the action the greedy
  bot would play from the learner's view (:mod:`training.prior_policy`: a residual policy over
  the bot; needs ``features.enabled``); ``policy.prior_learn`` trains the weight. Off by default.
* ``eval``: every ``every`` steps the policy is exported (``checkpoint_<steps>.npz``, numpy
  only) and evaluated in duplicate mode (:func:`training.evaluate.evaluate`) against each of
  ``opponents``; the checkpoint with the lowest points per deal against ``best_by`` relative
  to the field is kept as ``best.npz`` / ``best.zip``. The final evaluation plays the best
  checkpoint on fresh deals (another seed than the selection's, so the choice does not bias
  the reported number), ``final_deals`` deals in duplicate mode (``final_deals_by: {random:
  200}`` sets fewer for an opponent whose margin needs no more; ``final_opponents`` lists
  the final evaluation's opponents when they differ from the periodic ones).

The output folder gets ``config.yaml`` (the resolved config), checkpoints, TensorBoard logs
(``tb/``), ``evals.json``, ``learning_curve.png``, ``final.zip``, ``best.npz`` and
``final_eval.json`` (CPU seconds of each part: collection, cloning, PPO, evaluation).

On these 2-core machines torch runs with one thread (``torch_threads: 1``): with two, OpenMP
contention with the environment makes training many times slower (ECOSYSTEM-NOTES).
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import shutil
import sys
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml

from training.opponents import Schedule
from training.pretrain import PRETRAIN_DEFAULTS, parse_flag

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

DEFAULTS: dict[str, Any] = {
    "variant": "contract_rummy",
    "env": {"num_players": 4, "deal": "random", "reward_scale": 0.01},
    "opponents": "random",
    "seat": "rotate",
    "algorithm": "MaskablePPO",
    "timesteps": 100_000,
    "seed": 0,
    "n_envs": 4,
    "vec_env": "dummy",
    "policy": {"net_arch": [256, 256], "activation": "tanh", "prior": None, "prior_weight": 4.0,
               "prior_learn": False},
    "ppo": {"n_steps": 512, "batch_size": 256, "learning_rate": 3.0e-4, "gamma": 0.995,
            "gae_lambda": 0.95, "ent_coef": 0.01, "n_epochs": 4},
    "features": {"enabled": False, "shaping": 0.0},
    "delegate": None,
    "pretrain": dict(PRETRAIN_DEFAULTS),
    "eval": {"every": 25_000, "deals": 100, "opponents": ["random", "greedy"],
             "final_deals": 400, "final_deals_by": {}, "final_opponents": None, "duplicate": True,
             "best_by": "greedy"},
    "out": "runs/contract_rummy",
    "torch_threads": 1,
    "progress_bar": True,
}

#: Env options that describe the evaluation episode, not the game's rules (the rest of ``env``
#: travels with the exported policy so evaluation plays the same game).
_EPISODE_KEYS = ("num_players", "deal", "reward_scale", "episode")
_SELECTION_SEED = 10_000
_FINAL_SEED = 99_999


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _set(cfg: dict[str, Any], dotted: str) -> None:
    key, sep, raw = dotted.partition("=")
    if not sep:
        raise SystemExit(f"--set wants key=value, got {dotted!r}")
    *path, last = key.split(".")
    node = cfg
    for p in path:
        node = node.setdefault(p, {})
    value = yaml.safe_load(raw)
    if isinstance(value, str):
        try:  # YAML 1.1 reads 1e-4 (no dot) as a string
            value = float(value)
        except ValueError:
            pass
    node[last] = value


def resolve_config(argv: list[str] | None = None) -> dict[str, Any]:
    """The run's config: defaults, then the YAML file, then the flags."""
    args = _parser().parse_args(argv)
    cfg = copy.deepcopy(DEFAULTS)
    if args.config:
        with open(args.config) as f:
            cfg = _merge(cfg, yaml.safe_load(f) or {})
    _apply_flags(cfg, args)
    _check_config(cfg)
    return cfg


def _parser() -> argparse.ArgumentParser:
    """The command line: each flag overrides its key of the YAML file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="YAML file (configs/train/<variant>.yaml)")
    ap.add_argument("--variant")
    ap.add_argument("--opponents", help="random | greedy | league | selfplay | a policy file "
                    "(mixes and curricula in the YAML)")
    ap.add_argument("--timesteps", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--n-envs", type=int)
    ap.add_argument("--pretrain", metavar="TEACHER:DECISIONS",
                    help="behaviour cloning first, e.g. greedy:200000 (0 decisions: none)")
    ap.add_argument("--eval-every", type=int)
    ap.add_argument("--eval-deals", type=int)
    ap.add_argument("--final-deals", type=int)
    ap.add_argument("--out")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    return ap


def _apply_flags(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    """The flags over the config, ``--set`` last (it reaches any key)."""
    for flag, key in (("variant", "variant"), ("opponents", "opponents"),
                      ("timesteps", "timesteps"), ("seed", "seed"), ("n_envs", "n_envs"),
                      ("out", "out")):
        v = getattr(args, flag)
        if v is not None:
            cfg[key] = v
    if args.pretrain is not None:
        cfg["pretrain"].update(parse_flag(args.pretrain))
    if args.eval_every is not None:
        cfg["eval"]["every"] = args.eval_every
    if args.eval_deals is not None:
        cfg["eval"]["deals"] = args.eval_deals
    if args.final_deals is not None:  # the flag sets every final opponent's deal count
        cfg["eval"]["final_deals"] = args.final_deals
        cfg["eval"]["final_deals_by"] = {}
    if args.no_progress:
        cfg["progress_bar"] = False
    for s in args.set:
        _set(cfg, s)


def _check_values(cfg: dict[str, Any]) -> None:
    """The values :func:`_check_config` checks beyond the keys: ``policy.prior``,
    ``pretrain.teacher``, ``pretrain.label_smoothing`` and ``delegate``."""
    prior = cfg["policy"]["prior"]
    if prior is not None:
        from rummy_env.bots import BOTS
        from rummy_env.bots.policy import parse_bot_spec

        if not isinstance(prior, str) or parse_bot_spec(prior)[0] not in BOTS:
            raise SystemExit(f"policy.prior {prior!r} is not a bot name; allowed: "
                             f"{', '.join(BOTS)}, with options as in 'greedy(endgame_turn=150)' "
                             "(or null)")
        _check_bot("policy.prior", prior)
        if not cfg["features"].get("enabled"):
            raise SystemExit("policy.prior needs features.enabled: true (the prior's choice is "
                             "an entry of the SolverFeatures observation)")
    if cfg["pretrain"].get("teacher"):
        _check_bot("pretrain.teacher", cfg["pretrain"]["teacher"])
    eps = cfg["pretrain"].get("label_smoothing")
    if not isinstance(eps, (int, float)) or isinstance(eps, bool) or not 0.0 <= eps < 1.0:
        raise SystemExit(f"pretrain.label_smoothing must be a number in [0, 1), got {eps!r}")
    d = cfg["delegate"]
    if d is not None:
        if (not isinstance(d, dict) or set(d) != {"bot", "kinds"}
                or not isinstance(d["kinds"], list) or not d["kinds"]):
            raise SystemExit(f"delegate must be {{bot: NAME, kinds: [KIND, ...]}}, got {d!r}")
        if cfg["opponents"] == "selfplay":
            raise SystemExit("delegate works with SingleSeatEnv opponents, not selfplay")


def _check_bot(where: str, spec: Any) -> None:
    """SystemExit when ``make_bot`` refuses the bot spec (a bad name, option or file)."""
    from rummy_env.bots import make_bot

    try:
        make_bot(spec)
    except ValueError as e:
        raise SystemExit(f"{where}: {e}")


def _check_config(cfg: dict[str, Any]) -> None:
    """SystemExit naming the first key or value the script cannot run with: unknown keys, an
    algorithm, activation or prior bot it does not know, a label smoothing outside [0, 1), a
    malformed delegate, opponents that :class:`~training.opponents.Schedule` refuses."""
    for section in ("features", "pretrain", "eval", "policy"):
        unknown = set(cfg[section]) - set(DEFAULTS[section])
        if unknown:
            raise SystemExit(f"unknown {section} keys {sorted(unknown)}; allowed: "
                             f"{sorted(DEFAULTS[section])}")
    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise SystemExit(f"unknown config keys {sorted(unknown)}; allowed: {sorted(DEFAULTS)}")
    if cfg["algorithm"] != "MaskablePPO":
        raise SystemExit(f"algorithm {cfg['algorithm']!r} is not supported; allowed: MaskablePPO")
    if cfg["policy"]["activation"] not in ("tanh", "relu"):
        raise SystemExit(f"policy.activation {cfg['policy']['activation']!r}: tanh or relu")
    _check_values(cfg)
    try:
        Schedule(cfg["opponents"])
    except ValueError as e:
        raise SystemExit(f"opponents: {e}")


def _make_env_fn(cfg: dict[str, Any], rank: int, sampler: Any):
    def make():
        from rummy_env.wrappers import SelfPlayEnv, SingleSeatEnv

        seed = cfg["seed"] * 1000 + rank
        if cfg["opponents"] == "selfplay":
            # Opponents are drawn from snapshots of the learner (random bots until the first
            # evaluation adds one); the last few are kept.
            env = SelfPlayEnv(cfg["variant"], max_pool=5, seat=cfg["seat"], seed=seed,
                              **cfg["env"])
        else:
            env = SingleSeatEnv(cfg["variant"], opponents=sampler, seat=cfg["seat"], seed=seed,
                                delegate=_delegate(cfg), **cfg["env"])
        feats = cfg["features"]
        if feats.get("enabled"):
            from rummy_env.wrappers.features import SolverFeatures

            env = SolverFeatures(env, shaping=float(feats.get("shaping", 0.0)),
                                 gamma=float(cfg["ppo"].get("gamma", 0.99)),
                                 prior=cfg["policy"].get("prior"))
        return env

    return make


def _delegate(cfg: dict[str, Any]) -> tuple[str, list[str]] | None:
    """``delegate: {bot: greedy, kinds: [meld, lay_off, done]}`` as SingleSeatEnv's argument."""
    d = cfg.get("delegate")
    return None if not d else (str(d["bot"]), [str(k) for k in d["kinds"]])


def policy_meta(cfg: dict[str, Any], steps: int) -> dict[str, Any]:
    """What an exported policy carries about its training (read by evaluate --agent)."""
    meta = {"variant": cfg["variant"], "num_players": int(cfg["env"].get("num_players", 4)),
            "features": bool(cfg["features"].get("enabled")),
            "env_options": {k: v for k, v in cfg["env"].items() if k not in _EPISODE_KEYS},
            "timesteps": int(steps)}
    d = _delegate(cfg)
    if d:  # the bot plays these decisions for the policy, as it did in training
        meta["delegate"] = {"bot": d[0], "kinds": d[1]}
    if cfg["policy"].get("prior"):  # export adds the weight (policy_arrays)
        meta["prior"] = {"bot": cfg["policy"]["prior"]}
    return meta


def _evaluate(cfg: dict[str, Any], policy: str, opponent: Any, deals: int, seed: int,
              bots: list[Any] | None = None) -> dict[str, Any]:
    from training.evaluate import evaluate

    n = cfg["env"].get("num_players", 4)
    name = opponent if isinstance(opponent, str) else "stage"
    seats = [policy] + [name] * (n - 1)
    env_options = {k: v for k, v in cfg["env"].items() if k not in _EPISODE_KEYS}
    return evaluate(cfg["variant"], seats, deals, seed, players=n, env_options=env_options,
                    duplicate=bool(cfg["eval"].get("duplicate", True)), bots=bots)


def _plot(history: list[dict[str, Any]], path: pathlib.Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for opp in sorted({h["opponent"] for h in history}):
        pts = [h for h in history if h["opponent"] == opp and "paired" in h]
        x = [h["timesteps"] for h in pts]
        y = [h["paired"]["penalty_diff"] for h in pts]
        lo = [h["paired"]["penalty_diff_ci"][0] for h in pts]
        hi = [h["paired"]["penalty_diff_ci"][1] for h in pts]
        ax.plot(x, y, marker="o", label=f"agent minus {opp}")
        ax.fill_between(x, lo, hi, alpha=0.2)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("timesteps (0: after pretraining)")
    ax.set_ylabel("points per deal vs the field (lower is better)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _row(step: int, opp: str, res: dict[str, Any], tag: str) -> dict[str, Any]:
    rows = res["results"]
    return {"timesteps": step, "opponent": opp, "deals": res["deals"], "checkpoint": tag,
            "agent": rows[0], "paired": res["paired"],
            "opponent_mean_penalty": sum(p["mean_penalty"] for p in rows[1:]) / (len(rows) - 1)}


def _print_row(row: dict[str, Any]) -> None:
    a, pr = row["agent"], row["paired"]
    lo, hi = pr["penalty_diff_ci"]
    print(f"[eval {row['timesteps']:>8}] vs {row['opponent']:6s}: agent {a['mean_penalty']:.1f}"
          f" points/deal, {pr['penalty_diff']:+.1f} [{lo:+.1f}, {hi:+.1f}] vs the field, win "
          f"rate {a['win_rate']:.3f}", flush=True)


def _build_model(cfg: dict[str, Any], venv: Any, out: pathlib.Path) -> MaskablePPO:
    """The MaskablePPO model of ``policy`` and ``ppo`` (the prior's policy class when
    ``policy.prior`` is set), logging to ``out/tb``."""
    import torch
    from sb3_contrib import MaskablePPO

    act_fn = torch.nn.Tanh if cfg["policy"]["activation"] == "tanh" else torch.nn.ReLU
    policy_cls: Any = "MlpPolicy"
    policy_kwargs: dict[str, Any] = {"net_arch": list(cfg["policy"]["net_arch"]),
                                     "activation_fn": act_fn}
    if cfg["policy"].get("prior"):
        from training.prior_policy import PriorMaskablePolicy

        policy_cls = PriorMaskablePolicy
        policy_kwargs.update(prior_weight=float(cfg["policy"]["prior_weight"]),
                             prior_learn=bool(cfg["policy"]["prior_learn"]))
    return MaskablePPO(
        policy_cls, venv, seed=cfg["seed"], verbose=0, tensorboard_log=str(out / "tb"),
        policy_kwargs=policy_kwargs, device="cpu", **cfg["ppo"],
    )


class _Run:
    """One training run: the config, the output folder, the opponents' schedule, the vectorised
    envs and the model, the evaluations so far and the best checkpoint, the CPU seconds of
    each part. :func:`train` calls its steps in order; the periodic evaluations call back into
    it (they update the best checkpoint and the opponents)."""

    def __init__(self, cfg: dict[str, Any], out: pathlib.Path, schedule: Schedule, venv: Any,
                 model: MaskablePPO, cpu: dict[str, float]) -> None:
        self.cfg, self.out, self.schedule, self.venv, self.model = cfg, out, schedule, venv, model
        self.cpu = cpu
        self.history: list[dict[str, Any]] = []
        ev = self.ev = cfg["eval"]
        self.best: dict[str, Any] = {"score": float("inf"), "tag": None}
        self.best_by = ev.get("best_by") if ev.get("best_by") in ev["opponents"] else (
            ev["opponents"][-1] if ev["opponents"] else None)

    def save_all(self) -> None:
        """``evals.json`` and the learning curve, rewritten after every evaluation."""
        (self.out / "evals.json").write_text(json.dumps(self.history, indent=1))
        _plot(self.history, self.out / "learning_curve.png",
              f"{self.cfg['variant']} MaskablePPO")

    def run_eval(self, step: int, deals: int, tag: str) -> None:
        """Export the policy as ``tag``, evaluate it against each periodic opponent (keeping
        it as ``best`` when it beats the best so far against ``best_by``), then let the
        opponents follow (snapshots, league rates, curriculum stage)."""
        from rummy_env.bots.policy import export_policy

        model, out, best = self.model, self.out, self.best
        c0 = time.process_time()
        # the header rides in the SB3 zip too, so make_bot(".zip") knows about the features
        model.rummy_meta = policy_meta(self.cfg, step)
        model.save(out / f"{tag}.zip")
        path = export_policy(model, out / f"{tag}.npz", **model.rummy_meta)
        for opp in self.ev["opponents"]:
            res = _evaluate(self.cfg, str(path), opp, deals, seed=_SELECTION_SEED + step)
            row = _row(step, opp, res, tag)
            self.history.append(row)
            _print_row(row)
            if opp == self.best_by and row["paired"]["penalty_diff"] < best["score"]:
                best.update(score=row["paired"]["penalty_diff"], tag=tag)
                shutil.copyfile(path, out / "best.npz")
                shutil.copyfile(out / f"{tag}.zip", out / "best.zip")
        self._update_opponents(step, path, deals)
        self.save_all()
        self.cpu["eval"] += time.process_time() - c0

    def _update_opponents(self, step: int, path: pathlib.Path, deals: int) -> None:
        from rummy_env.bots.policy import PolicyBot

        schedule = self.schedule
        if self.cfg["opponents"] == "selfplay":
            # Sampling (not argmax) keeps the snapshot opponents varied.
            self.venv.env_method("add_snapshot", PolicyBot(path, deterministic=False))
            return
        if schedule.kind == "league":
            self._rate_league(step, path, deals)
            changed = True
        elif schedule.kind == "curriculum":
            changed = self._curriculum_step(step, path, deals)
        else:
            changed = False
        if changed:
            self.venv.env_method("set_opponents", schedule.sampler())
            print(f"[opponents] {schedule.current()}", flush=True)

    def _rate_league(self, step: int, path: pathlib.Path, deals: int) -> None:
        """A league adds a snapshot of the learner, then rates the policy against every member
        of its pool (a quarter of the deals: the rates only weight the sampling)."""
        from rummy_env.bots.policy import PolicyBot, policy_arrays

        cfg, schedule = self.cfg, self.schedule
        snap = PolicyBot(policy_arrays(self.model.policy, policy_meta(cfg, step)),
                         deterministic=False)
        snap.name = f"snapshot_{step}"
        schedule.add_snapshot(snap)
        pool = schedule.pool()
        n = cfg["env"].get("num_players", 4)
        small = max(n, deals // 4)
        for i, entry in enumerate(pool):
            bots = None if isinstance(entry, str) else (
                [PolicyBot(path)] + [entry] * (n - 1))
            res = _evaluate(cfg, str(path), entry if isinstance(entry, str) else "league",
                            small, seed=20_000 + step, bots=bots)
            schedule.win_rates[i] = res["results"][0]["win_rate"]

    def _curriculum_step(self, step: int, path: pathlib.Path, deals: int) -> bool:
        """A curriculum plays the policy against its stage; True when that promotes it."""
        from rummy_env.bots.policy import PolicyBot

        cfg, schedule = self.cfg, self.schedule
        n = cfg["env"].get("num_players", 4)
        rng = np.random.default_rng(step)
        sampler = schedule.sampler()
        bots = [PolicyBot(path)] + [sampler(s, rng) for s in range(1, n)]
        res = _evaluate(cfg, str(path), "stage", deals, seed=30_000 + step, bots=bots)
        wr = res["results"][0]["win_rate"]
        if not schedule.promote(wr):
            return False
        print(f"[curriculum] win rate {wr:.3f} >= {schedule.promote_at}: stage "
              f"{schedule.stage} ({schedule.stage_spec()!r})", flush=True)
        return True

    def pretrain(self) -> dict[str, Any]:
        """Behaviour cloning of ``pretrain.teacher`` before PPO, DAgger rounds after it, then
        the cloned policy's evaluation; the report of what was collected and cloned (empty
        when pretraining is off)."""
        from training.pretrain import clone, collect

        cfg, cpu, pre = self.cfg, self.cpu, self.cfg["pretrain"]
        report: dict[str, Any] = {}
        if not (pre.get("teacher") and int(pre.get("decisions", 0)) > 0):
            return report
        c0 = time.process_time()
        envs = [fn() for fn in _make_env_fn_list(cfg, self.schedule)]
        data = collect(envs, pre["teacher"], int(pre["decisions"]),
                       gamma=float(cfg["ppo"].get("gamma", 0.99)), seed=cfg["seed"] + 77)
        cpu["collect"] = time.process_time() - c0
        print(f"[pretrain] {len(data['action'])} decisions of {pre['teacher']} collected in "
              f"{cpu['collect']:.0f} CPU-s", flush=True)
        c0 = time.process_time()
        report["epochs"] = clone(
            self.model.policy, data, epochs=int(pre["epochs"]),
            batch_size=int(pre["batch_size"]), lr=float(pre["lr"]), value=bool(pre["value"]),
            actor=bool(pre["actor"]), seed=cfg["seed"],
            label_smoothing=float(pre["label_smoothing"]))
        cpu["clone"] = time.process_time() - c0
        report["decisions"] = int(len(data["action"]))
        data = self._dagger(envs, data, report)
        report["decisions"] = int(len(data["action"]))
        del data, envs
        self.run_eval(0, self.ev["deals"], "pretrained")
        return report

    def _dagger(self, envs: list[Any], data: dict[str, Any],
                report: dict[str, Any]) -> dict[str, Any]:
        """``pretrain.dagger_rounds`` rounds: the clone plays, the teacher labels its states,
        and the clone is trained again on everything so far (``report["dagger"]`` says how
        often the clone chose the teacher's action); the data grown by every round."""
        from training.pretrain import argmax_actor, clone, collect, merge

        cfg, cpu, pre, policy = self.cfg, self.cpu, self.cfg["pretrain"], self.model.policy
        rounds = report["dagger"] = []
        for r in range(int(pre.get("dagger_rounds") or 0)):
            c0 = time.process_time()
            new = collect(envs, pre["teacher"], int(pre["dagger_decisions"]),
                          gamma=float(cfg["ppo"].get("gamma", 0.99)),
                          seed=cfg["seed"] + 1_000 * (r + 1), actor=argmax_actor(policy))
            cpu["collect"] += time.process_time() - c0
            agree = float(np.mean(new["played"] == new["action"]))
            print(f"[dagger] round {r + 1}: {len(new['action'])} decisions of the clone, "
                  f"teacher's action chosen on {agree:.4f} of them", flush=True)
            data = merge(data, new)
            c0 = time.process_time()
            epochs = clone(policy, data, epochs=int(pre["dagger_epochs"]),
                           batch_size=int(pre["batch_size"]), lr=float(pre["lr"]) / 2,
                           value=bool(pre["value"]), actor=bool(pre["actor"]),
                           label_smoothing=float(pre["label_smoothing"]),
                           seed=cfg["seed"] + r + 1)
            cpu["clone"] += time.process_time() - c0
            rounds.append({"round": r + 1, "decisions": int(len(new["action"])),
                           "agreement": agree, "epochs": epochs})
        return data

    def learn(self) -> float:
        """PPO for ``timesteps`` with the periodic evaluations; the wall seconds it took. The
        CPU seconds of PPO exclude the evaluations: on a shared machine they, not the wall
        clock, are the "one core for N minutes" budget."""
        start, c0 = time.time(), time.process_time()
        cb = _eval_callback(self)
        self.model.learn(total_timesteps=self.cfg["timesteps"], callback=cb,
                         progress_bar=bool(self.cfg["progress_bar"]))
        train_seconds = time.time() - start
        self.cpu["ppo"] = time.process_time() - c0 - cb.eval_cpu
        return train_seconds

    def save_final(self, train_seconds: float) -> None:
        """Export the last policy as ``final``, evaluate it unless the last periodic
        evaluation already did, and keep it as ``best`` when nothing was evaluated against
        ``best_by``."""
        from rummy_env.bots.policy import export_policy

        cfg, ev, out, model, best = self.cfg, self.ev, self.out, self.model, self.best
        model.rummy_meta = policy_meta(cfg, cfg["timesteps"])
        model.save(out / "final.zip")
        export_policy(model, out / "final.npz", **model.rummy_meta)
        if ev["opponents"] and cfg["timesteps"] > 0 and not any(
                h["timesteps"] == cfg["timesteps"] for h in self.history):
            self.run_eval(cfg["timesteps"], ev["deals"], "final")
        if best["tag"] is None:
            shutil.copyfile(out / "final.npz", out / "best.npz")
            shutil.copyfile(out / "final.zip", out / "best.zip")
            best["tag"] = "final"
        print(f"trained {cfg['timesteps']} steps in {train_seconds:.0f} s wall, "
              f"{self.cpu['ppo']:.0f} s CPU for PPO; best checkpoint: {best['tag']}; final "
              f"evaluation of best.npz on fresh deals:")

    def final_evaluation(self) -> dict[str, Any]:
        """``best.npz`` against each final opponent on fresh deals (another seed than the
        selection's, so the choice does not bias the number), printed as tables; by
        opponent."""
        from training.evaluate import format_table

        cfg, ev = self.cfg, self.ev
        finals = {}
        c0 = time.process_time()
        for opp in ev.get("final_opponents") or ev["opponents"]:
            n = cfg["env"].get("num_players", 4)
            deals = int((ev.get("final_deals_by") or {}).get(opp, ev["final_deals"]))
            res = _evaluate(cfg, str(self.out / "best.npz"), opp, deals, seed=_FINAL_SEED)
            finals[opp] = res
            print(f"\n{cfg['variant']}: best.npz ({self.best['tag']}) vs {n - 1} x {opp}, "
                  f"{res['deals']} deals" + (" (duplicate)" if res["duplicate"] else ""))
            print(format_table(res))
        self.cpu["final_eval"] = time.process_time() - c0
        return finals


def _eval_callback(run: _Run) -> Any:
    """The SB3 callback that calls ``run.run_eval`` every ``eval.every`` steps and counts the
    CPU seconds those evaluations took (``eval_cpu``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    ev, cpu = run.ev, run.cpu

    class EvalCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = ev["every"]
            self.eval_cpu = 0.0

        def _on_step(self) -> bool:
            if ev["every"] and self.num_timesteps >= self.next_eval:
                before = cpu["eval"]
                run.run_eval(self.num_timesteps, ev["deals"], f"checkpoint_{self.num_timesteps}")
                self.eval_cpu += cpu["eval"] - before
                self.next_eval += ev["every"]
            return True

    return EvalCallback()


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    """Train, evaluate and export as ``cfg`` says (the module docstring); the summary written
    to ``final_eval.json``."""
    import torch

    if cfg.get("torch_threads"):
        torch.set_num_threads(int(cfg["torch_threads"]))
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    cpu: dict[str, float] = {"collect": 0.0, "clone": 0.0, "ppo": 0.0, "eval": 0.0}
    out = pathlib.Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    schedule = Schedule(cfg["opponents"])
    fns = [_make_env_fn(cfg, i, schedule.sampler()) for i in range(cfg["n_envs"])]
    venv = SubprocVecEnv(fns) if cfg["vec_env"] == "subproc" else DummyVecEnv(fns)
    run = _Run(cfg, out, schedule, venv, _build_model(cfg, venv, out), cpu)
    pretrain_report = run.pretrain()
    train_seconds = run.learn()
    run.save_final(train_seconds)
    finals = run.final_evaluation()
    run.save_all()
    summary = {"train_seconds": train_seconds, "cpu_seconds": cpu,
               "train_cpu_seconds": cpu["collect"] + cpu["clone"] + cpu["ppo"] + cpu["eval"],
               "timesteps": cfg["timesteps"], "best": run.best["tag"],
               "pretrain": pretrain_report, "final": finals}
    if cfg["opponents"] == "selfplay":
        summary["snapshots"] = [len(pool) for pool in venv.get_attr("snapshot_pool")]
    (out / "final_eval.json").write_text(json.dumps(summary, indent=1))
    venv.close()
    return summary


def _make_env_fn_list(cfg: dict[str, Any], schedule: Schedule) -> list[Any]:
    """Env builders for collecting a teacher's decisions (seeds apart from the PPO envs')."""
    sub = dict(cfg, seed=cfg["seed"] + 500)
    return [_make_env_fn(sub, i, schedule.sampler()) for i in range(cfg["n_envs"])]


def main(argv: list[str] | None = None) -> int:
    cfg = resolve_config(argv)
    train(cfg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
