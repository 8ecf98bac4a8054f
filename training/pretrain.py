"""Warm start by imitation: behaviour cloning of a bot's decisions into the masked policy.

``collect`` lets a teacher bot (``greedy`` now) play the learning seat of the training envs
(against the run's opponents) and records, at each of its decisions, the network's input, the
legal mask and the action it chose, plus the rewards, so that the discounted return of every
decision is known. ``clone`` then fits the same ``MaskableActorCriticPolicy`` that PPO trains:
the actor by cross-entropy on the teacher's actions under the mask (``-log pi(a | s, mask)``),
and, with ``value: true``, the critic by regression on the teacher's returns, so that PPO's
first updates start from a critic that already explains the returns of a policy like its own
(a random critic's advantages would first pull the cloned actor away from the teacher).

Plain cloning trains on the states the *teacher* visits; the clone's own small errors then lead
it into states the teacher never showed it, and the errors compound. ``dagger_rounds`` adds
DAgger rounds (Ross, Gordon and Bagnell, 2011): the clone plays the learning seat (its argmax
action, as evaluation plays it), the teacher labels every decision it meets, the new decisions
join the data set and the policy is fitted again on all of it (``dagger_epochs`` epochs at half
the cloning learning rate, since the refit starts from a fitted policy). Each round reports how often the
clone already chose the teacher's action on its own states (``agreement``).

Config (``pretrain:`` in the training YAML, or ``--pretrain greedy:200000``)::

    pretrain: {teacher: greedy, decisions: 200000, epochs: 4, batch_size: 512, lr: 1.0e-3,
               value: true, actor: true, dagger_rounds: 0, dagger_decisions: 50000,
               dagger_epochs: 2, label_smoothing: 0.0}

``actor: false`` fits the critic only: with a policy that already starts from the teacher
(``policy.prior``, :mod:`training.prior_policy`) cloning the actor as well makes it nearly
deterministic (held-out cross-entropy 0.003), and PPO then hardly explores away from it.

``label_smoothing: eps`` fits the actor to ``(1 - eps)`` on the teacher's action and ``eps``
spread evenly over the legal actions (Szegedy et al., 2016, under the mask). A plain clone puts
almost no probability on a move the teacher never makes, so PPO's sampled rollouts never try
it and cannot learn that it pays (Indian Rummy's greedy bot packs only hopeless first hands,
and a clone of it never packs). The argmax, which evaluation plays, is still the teacher's
wherever the clone fits it; only the sampled rollouts explore.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from rummy_env.bots import make_bot, seat_view

PRETRAIN_DEFAULTS: dict[str, Any] = {"teacher": None, "decisions": 0, "epochs": 4,
                                     "batch_size": 512, "lr": 1.0e-3, "value": True,
                                     "actor": True, "dagger_rounds": 0, "dagger_decisions": 50_000,
                                     "dagger_epochs": 2, "label_smoothing": 0.0}

#: ``actor(obs, mask) -> action``: who plays the learning seat while the teacher labels.
Actor = Callable[[np.ndarray, np.ndarray], int]


def collect(envs: list[Any], teacher: str, decisions: int, gamma: float,
            seed: int = 0, actor: Actor | None = None) -> dict[str, np.ndarray]:
    """At least ``decisions`` decisions of ``teacher`` in the learner's seat of ``envs`` (the
    Gymnasium single-seat envs of the run, wrappers included), in whole episodes, cycling over
    the envs. Returns ``obs`` (float32), ``mask`` (bool), ``action`` (the teacher's),
    ``ret`` (discounted return from each decision on, float32), ``played`` (the action
    taken) and ``holdout`` (a fixed tenth that :func:`clone` validates on and never trains on).

    With ``actor``, the actor plays and the teacher only labels the decisions (DAgger); the
    returns are then the actor's."""
    obs_l: list[np.ndarray] = []
    mask_l: list[np.ndarray] = []
    act_l: list[int] = []
    played_l: list[int] = []
    ret_l: list[np.ndarray] = []
    bot = make_bot(teacher, seed)
    k = 0
    while len(act_l) < decisions:
        env = envs[k % len(envs)]
        base = env.unwrapped
        obs, _ = env.reset(seed=seed * 1_000_003 + k)
        bot.reset(seed * 7919 + k)
        rewards: list[float] = []
        done = False
        while not done:
            mask = env.action_masks()
            a = int(bot.act(seat_view(base.aec, base.learner)))
            play = a if actor is None else int(actor(obs, mask))
            obs_l.append(obs)
            mask_l.append(mask)
            act_l.append(a)
            played_l.append(play)
            obs, r, term, trunc, _ = env.step(play)
            rewards.append(float(r))
            done = term or trunc
        ret = np.zeros(len(rewards), dtype=np.float32)
        g = 0.0
        for i in range(len(rewards) - 1, -1, -1):
            g = rewards[i] + gamma * g
            ret[i] = g
        ret_l.append(ret)
        k += 1
    # a tenth held out for validation, fixed here so that later refits keep the same split
    holdout = np.random.default_rng(seed).random(len(act_l)) < 0.1
    return {"obs": np.asarray(obs_l, dtype=np.float32), "mask": np.asarray(mask_l, dtype=bool),
            "holdout": holdout,
            "action": np.asarray(act_l, dtype=np.int64), "ret": np.concatenate(ret_l),
            "played": np.asarray(played_l, dtype=np.int64)}


def argmax_actor(policy: Any) -> Actor:
    """The policy's most probable legal action, as evaluation plays it."""
    import torch as th

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        with th.no_grad():
            dist = policy.get_distribution(th.as_tensor(obs[None], dtype=th.float32),
                                           action_masks=mask[None])
            return int(dist.get_actions(deterministic=True)[0])
    return act


def merge(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Two collections as one data set."""
    return {k: np.concatenate([a[k], b[k]]) for k in a}


def clone(policy: Any, data: dict[str, np.ndarray], epochs: int = 4, batch_size: int = 512,
          lr: float = 1.0e-3, value: bool = True, seed: int = 0,
          log: Any = print, actor: bool = True,
          label_smoothing: float = 0.0) -> list[dict[str, float]]:
    """Fit ``policy`` (a MaskableActorCriticPolicy) to the teacher's decisions in ``data``
    (the actor unless ``actor=False``, the critic if ``value``), with ``label_smoothing`` of
    the actor's target spread over the legal actions (see the module docstring).
    Returns one row per epoch: loss, accuracy (argmax = teacher) and value MSE, measured on a
    held-out tenth of the decisions."""
    import torch as th

    if not (actor or value):
        raise ValueError("clone fits the actor, the critic or both: actor and value are both "
                         "false")
    if not 0.0 <= label_smoothing < 1.0:
        raise ValueError(f"label_smoothing must be in [0, 1), got {label_smoothing!r}")

    n = len(data["action"])
    rng = np.random.default_rng(seed)
    if "holdout" in data and data["holdout"].any():
        # a split fixed at collection, so that refits (DAgger) never validate on trained data
        val, tr = np.flatnonzero(data["holdout"]), np.flatnonzero(~data["holdout"])
    else:
        order = rng.permutation(n)
        n_val = max(1, n // 10)
        val, tr = order[:n_val], order[n_val:]
    t = {k: th.as_tensor(v) for k, v in data.items() if k not in ("played", "holdout")}
    opt = th.optim.Adam(policy.parameters(), lr=lr)
    history = []
    for ep in range(epochs):
        t0 = time.process_time()
        policy.train()
        perm = rng.permutation(tr)
        for s in range(0, len(perm), batch_size):
            idx = th.as_tensor(perm[s:s + batch_size])
            if label_smoothing > 0.0 and actor:
                loss, v = _smoothed_loss(policy, t["obs"][idx], t["action"][idx],
                                         t["mask"][idx], label_smoothing)
            else:
                v, logp, _ = policy.evaluate_actions(t["obs"][idx], t["action"][idx],
                                                     action_masks=t["mask"][idx])
                loss = -logp.mean() if actor else th.zeros(())
            if value:
                loss = loss + 0.5 * th.nn.functional.mse_loss(v.flatten(), t["ret"][idx])
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
        row = {"epoch": ep + 1, **_held_out(policy, t, val),
               "cpu_seconds": time.process_time() - t0}
        history.append(row)
        log(f"[pretrain] epoch {ep + 1}/{epochs}: held-out accuracy {row['accuracy']:.3f}, "
            f"nll {row['nll']:.3f}, value explained variance {row['explained_variance']:.2f}"
            f" ({row['cpu_seconds']:.0f} CPU-s)")
    return history


def _held_out(policy: Any, t: dict[str, Any], val: np.ndarray) -> dict[str, float]:
    """The clone on the held-out decisions: the teacher's move's negative log-likelihood, how
    often the argmax is the teacher's, and the critic's error on the returns."""
    import torch as th

    policy.eval()
    with th.no_grad():
        idx = th.as_tensor(val)
        dist = policy.get_distribution(t["obs"][idx], action_masks=t["mask"][idx].numpy())
        v = policy.predict_values(t["obs"][idx]).flatten()
        logp = dist.log_prob(t["action"][idx])
        acc = (dist.get_actions(deterministic=True) == t["action"][idx]).float().mean()
        vmse = th.nn.functional.mse_loss(v, t["ret"][idx])
        var = t["ret"][idx].var()
    return {"nll": float(-logp.mean()), "accuracy": float(acc), "value_mse": float(vmse),
            "explained_variance": float(1 - vmse / var) if var > 0 else 0.0}


def _smoothed_loss(policy: Any, obs: Any, action: Any, mask: Any, eps: float) -> tuple[Any, Any]:
    """Cross-entropy of the masked policy against ``(1 - eps)`` on ``action`` plus ``eps``
    uniform over the legal actions, and the critic's values (two calls, as the actor's and the
    critic's networks are separate; only the features extractor runs twice)."""
    import torch as th

    dist = policy.get_distribution(obs, action_masks=mask.numpy())
    logp_all = th.log_softmax(dist.distribution.logits, dim=-1)
    # illegal entries hold the masking constant: zero them before the mean over legal ones
    uniform = th.where(mask, logp_all, th.zeros_like(logp_all)).sum(-1) / mask.sum(-1)
    taken = logp_all.gather(1, action.long().view(-1, 1)).squeeze(1)
    loss = -((1.0 - eps) * taken + eps * uniform).mean()
    return loss, policy.predict_values(obs)


def parse_flag(text: str) -> dict[str, Any]:
    """``--pretrain greedy:200000`` as a ``pretrain`` config."""
    teacher, sep, n = text.partition(":")
    try:
        decisions = int(n) if sep else 100_000
    except ValueError:
        raise SystemExit(f"--pretrain wants TEACHER:DECISIONS (e.g. greedy:200000), got {text!r}")
    return {"teacher": teacher, "decisions": decisions}


__all__ = ["PRETRAIN_DEFAULTS", "argmax_actor", "clone", "collect", "merge", "parse_flag"]
