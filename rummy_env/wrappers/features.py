"""Solver features: what each family's solver and greedy bot compute from a seat's own view.

A network that must learn meld arithmetic from card bits learns slowly; the solvers already know
it. :func:`solver_features` turns one :class:`~rummy_env.bots.SeatView` (the seat's observation
pieces, its legal actions and the public layouts: nothing else, so the features leak nothing the
observation does not) into a fixed-length float32 vector of per-card and per-hand quantities,
computed by the family's own solver and greedy-bot functions (imported, never re-implemented):

* gin (:mod:`rummy_env.gin.melds`, :class:`~rummy_env.bots.gin.GinGreedyBot`): deadwood after
  each discard (GR-5), the best arrangement, greedy's discard, and what taking the top discard
  would do (GR-4);
* indian (:func:`rummy_env.indian.solver.best_arrangement`,
  :class:`~rummy_env.bots.indian.IndianGreedyBot`): payment after each discard (IR-9), the
  arrangement, greedy's discard, the hand with the top discard, declarations (IR-6);
* contract (:class:`~rummy_env.bots.greedy.ContractGreedyBot`'s card strength, its table
  model, :func:`rummy_env.contract.melds.joker_lower_bound`): each card's use toward the
  contract, whether it fits a table meld (CR-10), penalty points in hand (CR-12), the cards the
  contract still lacks, and whether the top discard is worth taking or claiming (CR-7);
* manipulation (the legal actions): hand values (MR-6), which cards can join the table now
  (MR-4), knocking (MR-7).

Choice-based parts (greedy's discard or take) are zero when the seat has no legal action (the
final view of an episode); the rest is defined for every view.

:class:`SolverFeatures` appends the features to the flat observation of a
:class:`~rummy_env.wrappers.SingleSeatEnv` (or :class:`~rummy_env.wrappers.SelfPlayEnv`)::

    env = SolverFeatures(SingleSeatEnv("gin_rummy", opponents="greedy", seed=0))
    obs, info = env.reset()          # obs: observation then features, float32

With ``shaping > 0`` it adds potential-based reward shaping (Ng, Harada and Russell 1999, which
leaves the optimal policy unchanged): ``reward += shaping * (gamma * phi(s') - phi(s))``, where
``phi`` is :func:`potential` (minus the hand's deadwood, IR-9 payment, CR-12 penalty or MR-6
value, times the env's ``reward_scale``: the reward the hand would cost now) and ``phi`` of the
final position (terminated or truncated) is 0. ``info["true_reward"]`` is always the unshaped
reward.

With ``prior="greedy"`` the observation ends with one more entry: the action the greedy bot would
play from the learner's view (-1 with no legal action), for the residual policy of
``training.prior_policy``; the bot reads the view only, so the entry leaks nothing either.

:func:`feature_layout` gives the named pieces (an :class:`~rummy_env.obs.ObsLayout`);
:func:`feature_size` the length; :func:`feature_table` the table below (generated: run
``python -m rummy_env.wrappers.features`` after a change, a test checks it is not stale). All
values lie in [0, 1] except where the table gives other bounds (``features_space`` has them).

Gin Rummy:

<!-- features:gin_rummy:2:begin -->
Features of `gin_rummy` at 2 players (family `gin`): `Box(163,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `discard_deadwood` | (52,) | 1 | deadwood left after discarding the card / 100; 0 if not in hand (GR-5) |
| 52 | `in_best` | (52,) | 1 | 1 if the card is in the hand's best arrangement (GR-5) |
| 104 | `best_discard` | (52,) | 1 | one-hot: the greedy bot's discard (least deadwood left, then highest card); zero unless a discard is legal |
| 156 | `deadwood` | (1,) | 1.1 | deadwood of the hand / 100 (11 cards: before the discard) |
| 157 | `best_after` | (1,) | 1 | least deadwood after one discard / 100 (10 cards or fewer: the deadwood) |
| 158 | `take_deadwood` | (1,) | 1 | hand + top discard, then the best other discard: deadwood / 100 (GR-4); 0 without a top discard or with 11 cards |
| 159 | `take_melds` | (1,) | 1 | 1 if the top discard is in a meld of that hand's best arrangement |
| 160 | `take_gain` | (1,) | 1 | 1 if taking the top discard lowers the deadwood (greedy takes it) |
| 161 | `can_knock` | (1,) | 1 | 1 if a knock is legal now (GR-5) |
| 162 | `stock` | (1,) | 1 | cards in the stock / 31 |
| | | **total: (163,) float32** | | |
<!-- features:gin_rummy:2:end -->

Indian Rummy:

<!-- features:indian_rummy:4:begin -->
Features of `indian_rummy` at 4 players (family `indian`): `Box(167,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `discard_points` | (53,) | 1.3 | with 14 cards (after the draw): IR-9 payment of the 13 left after discarding the card / 100; 0 if not in hand or with 13 cards |
| 53 | `in_melds` | (53,) | 1 | copies of the card in the hand's least-paying arrangement's melds (not counted) / 3 |
| 106 | `best_discard` | (53,) | 1 | one-hot: the greedy bot's discard (or declaration) card; zero unless one is legal |
| 159 | `points` | (1,) | 1.4 | IR-9 payment of the hand / 100 |
| 160 | `best_after` | (1,) | 1.4 | least payment after one discard / 100 (13 cards or fewer: the payment) |
| 161 | `take_points` | (1,) | 1.4 | payment of the hand with the top discard / 100 (13 cards held; else 0) |
| 162 | `take_melds` | (1,) | 1 | 1 if the top discard lies in a meld of that arrangement |
| 163 | `greedy_take` | (1,) | 1 | 1 if the greedy bot takes the top discard now |
| 164 | `lives` | (2,) | 1 | the arrangement has a first life, a second life (IR-9) |
| 166 | `can_declare` | (1,) | 1 | 1 if a declaration is legal now (IR-6), or, with 13 cards, if the hand with the top discard could declare |
| | | **total: (167,) float32** | | |
<!-- features:indian_rummy:4:end -->

The contract family (every contract variant has the same layout):

<!-- features:contract_rummy:4:begin -->
Features of `contract_rummy` at 4 players (family `contract`): `Box(272,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `strength` | (53,) | 1 | the greedy bot's use of the card / 2: toward the contract (a pair or near-run, 2 strong, a joker 2) before it is met, 1 if it can be laid off after; for a held card, judged against the rest of the hand |
| 53 | `fits_table` | (53,) | 1 | 1 if the card would fit a table meld (CR-10, the bot's estimate) |
| 106 | `held_points` | (53,) | 3 | CR-12 penalty of the copies held / 50 |
| 159 | `discard_cost` | (53,) | 1 | for a held card: natural cards the contract lacks without it, less with it (lower bounds, joker_lower_bound), / 2, capped at 1; 0 once melded |
| 212 | `best_discard` | (53,) | 1 | one-hot: the greedy bot's discard; zero unless a discard is legal |
| 265 | `missing` | (1,) | 2 | natural cards the contract still lacks (lower bound), less jokers held, / 10; 0 once melded |
| 266 | `melds_needed` | (1,) | 1 | melds of the contract / 4; 0 once melded |
| 267 | `penalty` | (1,) | 3 | CR-12 penalty of the hand / 100 |
| 268 | `top_useful` | (1,) | 1 | 1 if the top discard is useful to this seat (the greedy bot's test) |
| 269 | `top_claim` | (1,) | 1 | 1 if the top discard is claim-worthy (CR-7, the greedy bot's test) |
| 270 | `top_gain` | (1,) | 1 | natural cards the contract lacks, less those it lacks with the top discard (lower bounds) / 2, capped at 1; 0 once melded |
| 271 | `melded` | (1,) | 1 | 1 if the seat has met the contract |
| | | **total: (272,) float32** | | |
<!-- features:contract_rummy:4:end -->

Manipulation Rummy:

<!-- features:manipulation_rummy:2:begin -->
Features of `manipulation_rummy` at 2 players (family `manipulation`): `Box(160,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `held_value` | (53,) | 1 | MR-6 value of the copies held / 50 (joker 25) |
| 53 | `playable` | (52,) | 1 | 1 if playing the card from hand is legal now (MR-4) |
| 105 | `joker_playable` | (52,) | 1 | 1 if a joker may be played standing for the card now (MR-5) |
| 157 | `hand_value` | (1,) | 3 | MR-6 value of the hand / 100 |
| 158 | `n_playable` | (1,) | 2 | hand cards that can be played now / 10 |
| 159 | `can_knock` | (1,) | 1 | 1 if knocking is legal now (MR-7) |
| | | **total: (160,) float32** | | |
<!-- features:manipulation_rummy:2:end -->
"""

from __future__ import annotations

import pathlib
import re
import sys
from typing import Any

import gymnasium as gym
import numpy as np

from rummy_env.bots.base import SeatView, seat_view

# The features themselves are numpy-only and live in the bots layer, where PolicyBot reads them;
# re-exported here with the docs tables, the Box and the wrapper.
from rummy_env.bots.view_features import (
    _HIGHS,
    _LAYOUTS,
    _SPECS,
    _family_of,
    feature_layout,
    feature_size,
    potential,
    prior_choice,
    solver_features,
)


def features_space(env: Any) -> gym.spaces.Box:
    """The Box of the features (true bounds: 0 up to each piece's ``high``)."""
    family = env if isinstance(env, str) and env in _LAYOUTS else _family_of(env)
    feature_layout(family)
    high = _HIGHS[family]
    return gym.spaces.Box(np.zeros_like(high), high.copy(), dtype=np.float32)


def feature_table(variant: str, num_players: int) -> str:
    """The markdown table of the features of ``variant`` at ``num_players`` players."""
    import rummy_env

    env = rummy_env.make(variant, num_players=num_players)
    family = env.family
    layout = feature_layout(family)
    highs = {n: h for n, _, _, h in _SPECS[family]}
    rows = [f"Features of `{variant}` at {num_players} players (family `{family}`): "
            f"`Box({layout.size},) float32`.", "",
            "| offset | piece | shape | high | meaning |", "|---|---|---|---|---|"]
    for p in layout.pieces.values():
        rows.append(f"| {p.start} | `{p.name}` | {p.shape} | {highs[p.name]:g} | {p.meaning} |")
    rows.append(f"| | | **total: ({layout.size},) float32** | | |")
    return "\n".join(rows)


class SolverFeatures(gym.Wrapper):
    """Appends :func:`solver_features` of the learner's view to the observation of a
    :class:`~rummy_env.wrappers.SingleSeatEnv` (or ``SelfPlayEnv``), with optional
    potential-based shaping; see the module docstring.

    :param shaping: weight of the shaping term (0: rewards unchanged).
    :param gamma: the discount of the shaping term (use the learner's).
    :param prior: a bot name (``"greedy"``): one more entry after the features, the action id
        that bot would choose from the learner's view (-1 without a legal action), for a policy
        that adds a bonus to that action's logit (``training.prior_policy``; a policy file
        says ``"prior"`` in its header and :class:`~rummy_env.bots.policy.PolicyBot` plays it
        the same way). The bot sees the learner's view only, so the entry leaks nothing.
    """

    def __init__(self, env: gym.Env, shaping: float = 0.0, gamma: float = 0.99,
                 prior: str | None = None) -> None:
        base = getattr(env, "unwrapped", None)
        if not isinstance(env, gym.Env) or not hasattr(base, "aec") or not hasattr(
                base, "learner"):
            raise TypeError(f"SolverFeatures wraps a SingleSeatEnv or SelfPlayEnv, not {env!r}")
        super().__init__(env)
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self.family = base.aec.family
        self.layout = feature_layout(self.family)
        self.n_features = self.layout.size
        obs_space = env.observation_space
        feats = features_space(self.family)
        low = [obs_space.low.astype(np.float32), feats.low]
        high = [obs_space.high.astype(np.float32), feats.high]
        self.prior = prior
        self._prior_bot: Any = None
        if prior is not None:
            from rummy_env.bots import make_bot  # lazily: rummy_env.bots imports wrappers

            self._prior_bot = make_bot(prior, seed=0)
            space = env.action_space
            if not isinstance(space, gym.spaces.Discrete):
                raise TypeError(f"prior={prior!r} needs a Discrete action space, not {space!r}")
            n_actions = int(space.n)
            low.append(np.array([-1.0], dtype=np.float32))
            high.append(np.array([n_actions - 1], dtype=np.float32))
        self.observation_space = gym.spaces.Box(np.concatenate(low), np.concatenate(high),
                                                dtype=np.float32)
        self._phi = 0.0

    # ------------------------------------------------------------------ delegation
    @property
    def aec(self) -> Any:
        return self.env.unwrapped.aec

    @property
    def learner(self) -> str:
        return self.env.unwrapped.learner

    @property
    def learner_seat(self) -> int:
        return self.env.unwrapped.learner_seat

    @property
    def opponents(self) -> dict[int, Any]:
        return self.env.unwrapped.opponents

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def set_opponents(self, opponents: Any) -> None:
        self.env.unwrapped.set_opponents(opponents)

    def add_snapshot(self, bot: Any) -> None:
        self.env.unwrapped.add_snapshot(bot)

    # ------------------------------------------------------------------ gym API
    def view(self) -> SeatView:
        """The learner's current view."""
        base = self.env.unwrapped
        return seat_view(base.aec, base.learner)

    def _with_features(self, obs: np.ndarray, view: SeatView) -> np.ndarray:
        parts = [np.asarray(obs, dtype=np.float32), solver_features(view)]
        if self._prior_bot is not None:
            parts.append(np.array([prior_choice(self._prior_bot, view)], dtype=np.float32))
        return np.concatenate(parts)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        view = self.view()
        self._phi = potential(view, self.aec.reward_scale) if self.shaping else 0.0
        info = dict(info)
        info["true_reward"] = 0.0
        return self._with_features(obs, view), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        view = self.view()
        info = dict(info)
        info["true_reward"] = float(reward)
        if self.shaping:
            phi = 0.0 if terminated or truncated else potential(view, self.aec.reward_scale)
            reward = float(reward) + self.shaping * (self.gamma * phi - self._phi)
            self._phi = phi
        return self._with_features(obs, view), reward, terminated, truncated, info


# --------------------------------------------------------------------------- docs
_BLOCK = re.compile(r"(<!-- features:(?P<v>[a-z_]+):(?P<n>\d+):begin -->\n)(?:.*?\n)?"
                    r"(<!-- features:(?P=v):(?P=n):end -->)", re.S)


def render_docstring(text: str) -> str:
    """``text`` with every generated feature table block filled in from the code."""
    return _BLOCK.sub(lambda m: m.group(1) + feature_table(m.group("v"), int(m.group("n")))
                      + "\n" + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    """Rewrite this module's generated tables (``--check``: exit 1 if stale)."""
    path = pathlib.Path(__file__)
    old = path.read_text()
    new = render_docstring(old)
    if argv is None:
        argv = sys.argv[1:]
    if "--check" in argv:
        if old != new:
            print(f"stale feature tables in {path}; run: python -m rummy_env.wrappers.features")
            return 1
        return 0
    if old != new:
        path.write_text(new)
        print(f"updated {path}")
    return 0


__all__ = ["SolverFeatures", "prior_choice", "feature_layout", "feature_size", "feature_table",
           "features_space", "potential", "solver_features"]

if __name__ == "__main__":
    sys.exit(main())
