"""Single-agent Gymnasium views of a rummy_env AEC game: one learning seat, bots in the others.

:class:`SingleSeatEnv` — train one seat against fixed opponents::

    from rummy_env.wrappers import SingleSeatEnv
    env = SingleSeatEnv("contract_rummy", opponents="random", seat="rotate", seed=0,
                        num_players=4)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

* ``variant``: a name in :data:`rummy_env.VARIANTS`; ``**env_options`` go to
  :func:`rummy_env.make` (``num_players``, ``deal``, ``episode``, ``reward_scale``,
  ``illegal_action``, ``max_turns``, rule fields ...). ``render_mode`` (``"ansi"``/``"human"``/
  ``"rgb_array"``) is handled here: it renders the table from the learner's seat (a picture
  for ``"rgb_array"``, so Gymnasium's ``RecordVideo`` records the learner's games).
* ``opponents``: ``"random"`` (:class:`~rummy_env.bots.RandomBot`), ``"greedy"`` or another
  name known to ``rummy_env.bots.make_bot``; a sequence of bots, one per other seat in seat
  order after the learner (bot ``k`` plays seat ``(learner + 1 + k) % n``); or a callable
  ``factory(seat_index, rng) -> Bot``, called at every reset for each opponent seat (absolute
  seat index, the env's seeded ``np_random``). A bot is anything with ``act(view) -> id``;
  its ``reset(seed)`` (if any) is called at every episode start with a seed drawn from the
  env's generator. Bots given as objects are used as they are (not copied).
* ``seat``: an int; ``"rotate"`` (the learner's seat cycles one seat per episode: 0, 1, 2 ...
  from a fresh env; a reset with an explicit ``seed`` restarts the cycle at ``seed % n``, so
  the same seed always gives the same seat, as Gymnasium's determinism check requires, and an
  evaluation loop ``reset(seed=i)`` still visits every seat); or ``"random"`` (drawn from the
  env's seeded generator at each reset).
* ``seed``: used by the first ``reset()`` that is given no seed (a reset ``seed`` wins).
  Everything random (seat, deal, bots) comes from the env's ``np_random``, so a seed and the
  learner's actions determine the episode.

Spaces: ``observation_space`` is the flat float32 ``Box`` of the AEC observation's
``"observation"`` (ego-centric, the learner's seat first); ``action_space`` is ``Discrete(N)``.
``action_masks()`` (the name sb3-contrib's MaskablePPO looks for) is the learner's AEC mask as
bool; it is never empty while the learner is to act, and all False once the episode is over.

``reset`` returns the learner's first observation after the bots before it have played.
``step(action)`` plays the learner's action, then the bots, until the learner acts again or the
episode ends. The reward is the learner's OWN reward since its previous action (PettingZoo issue
#1147: never the opponent's), including the deal-end reward that arrives on a bot's step; so over
an ``episode="deal"`` episode the rewards sum to ``-last_deal_delta[learner] * reward_scale``.
``terminated`` / ``truncated`` are the learner's (``max_turns`` truncates). At the end the
observation is the learner's view of the final position. ``info`` always has the same numeric
keys (:data:`INFO_KEYS`): ``deal_penalty``, ``score``, ``place``, ``won`` (zeros until the
episode ends) and ``seat`` (the learner's seat). At the end of a finished deal: ``deal_penalty``
is the learner's score change of the deal (penalty points), ``score`` / ``place`` its game total
and standing, and ``won`` is 1.0 if its deal penalty is the lowest (ties win); with
``episode="game"``, ``won`` is 1.0 if its game total is the lowest (place 1). An episode cut by
``max_turns`` or by an illegal-action penalty has ``deal_penalty = won = 0``, except with
``score_truncated=True`` (the default): then a deal cut off by ``max_turns`` scores the learner's
hand as if the deal ended there (reward ``-penalty * reward_scale``, ``deal_penalty`` that
penalty, ``won`` if it is the lowest hand), so a learner gains nothing by dragging a deal out to
the cap, which uniform-random opponents often reach. In the rare deal
that ends before the learner's first decision (the bots before it go out), ``reset`` deals again.

:class:`SelfPlayEnv` — the same single-seat view whose opponents are frozen snapshots of the
learner::

    env = SelfPlayEnv("contract_rummy", snapshot_pool=None, seat="rotate", seed=0)
    env.add_snapshot(bot)     # e.g. a bot wrapping a copy of the current policy

Each reset draws every opponent uniformly from the pool (``RandomBot`` while the pool is empty);
``add_snapshot(bot)`` appends a bot (dropping the oldest beyond ``max_pool``, if set) and
``set_opponents(bots)`` replaces the pool (``"random"`` or ``None`` empties it). A snapshot bot
may be drawn for several seats of one episode, so it should act from its view alone.

``delegate=(bot, kinds)`` (a bot or its name, and action kinds such as ``["meld", "lay_off",
"done"]``): the learner's decisions whose legal actions are all of those kinds are played by
that bot inside ``reset``/``step`` (their rewards are the learner's), so the learner decides the
rest only. A policy trained so carries ``delegate`` in its header and plays the same way as a
bot (:class:`~rummy_env.bots.policy.PolicyBot`).

Vectorising: both envs pickle (``pickle.dumps(env)`` works mid-episode, the bots' generators
included, so a lambda ``factory`` is the only thing that needs cloudpickle), and
``SubprocVecEnv.env_method("set_opponents", bots)`` / ``("add_snapshot", bot)`` send pickled
bots to the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import rummy_env
from rummy_env.bots.base import RandomBot, only_kinds, seat_view

#: The info keys of every ``reset`` and ``step`` (all numeric).
INFO_KEYS = ("deal_penalty", "score", "place", "won", "seat")
SEAT_MODES = ("rotate", "random")
_MAX_REDEALS = 32


def _bot_from_name(name: str) -> Any:
    if name == "random":
        return RandomBot()
    from rummy_env import bots  # lazily: make_bot may be added after this module

    make_bot = getattr(bots, "make_bot", None)
    if make_bot is None:
        raise ValueError(f"opponents={name!r} needs rummy_env.bots.make_bot, which is missing; "
                         "use 'random', bot objects or a factory")
    return make_bot(name, None)


def _check_bot(bot: Any, where: str) -> Any:
    if not callable(getattr(bot, "act", None)):
        raise TypeError(f"{where}: {bot!r} is not a bot (it needs act(view) -> action id)")
    return bot


class SingleSeatEnv(gym.Env):
    """One learning seat of a rummy_env AEC game against bots; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        variant: str = "contract_rummy",
        opponents: str | Sequence[Any] | Callable[[int, np.random.Generator], Any] = "random",
        seat: int | str = "rotate",
        seed: int | None = None,
        score_truncated: bool = True,
        delegate: tuple[Any, Sequence[str]] | None = None,
        **env_options: Any,
    ) -> None:
        self.score_truncated = bool(score_truncated)
        self._delegate: Any = None
        self._delegate_kinds: frozenset[str] = frozenset()
        if delegate is not None:
            if (not isinstance(delegate, (tuple, list)) or len(delegate) != 2
                    or isinstance(delegate[1], str)):
                raise ValueError(f"delegate={delegate!r} is invalid; allowed: (bot, kinds), "
                                 "e.g. ('greedy', ['meld', 'lay_off', 'done'])")
            bot, kinds = delegate
            if isinstance(bot, str):
                bot = _bot_from_name(bot)
            self._delegate = _check_bot(bot, "delegate")
            self._delegate_kinds = frozenset(str(k) for k in kinds)
        render_mode = env_options.pop("render_mode", None)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r} is invalid; allowed: None, "
                             + ", ".join(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.variant = variant
        self.env_options = dict(env_options)
        self.aec = rummy_env.make(variant, **env_options)
        self.num_players = self.aec.num_players
        first = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(first)["observation"]
        self.action_space = self.aec.action_space(first)
        if isinstance(seat, str):
            if seat not in SEAT_MODES:
                raise ValueError(f"seat={seat!r} is invalid; allowed: an int, 'rotate', 'random'")
        elif (not isinstance(seat, (int, np.integer)) or isinstance(seat, bool)
              or not 0 <= seat < self.num_players):
            raise ValueError(f"seat={seat!r} is invalid; allowed: 0..{self.num_players - 1}, "
                             "'rotate', 'random'")
        self.seat_mode = seat if isinstance(seat, str) else int(seat)
        self._init_seed = seed
        self._rotation = 0  # seat of the next "rotate" episode
        self._learner_seat = 0 if isinstance(seat, str) else int(seat)
        self._active = False  # an episode is in progress (the learner is to act)
        self._done = False
        self._bots: dict[int, Any] = {}
        self._opp_spec: Any = None
        self.set_opponents(opponents)

    # ------------------------------------------------------------------ properties
    @property
    def learner_seat(self) -> int:
        """The learner's seat in the current episode."""
        return self._learner_seat

    @property
    def learner(self) -> str:
        """The learner's AEC agent name (``player_<seat>``)."""
        return self.aec.possible_agents[self._learner_seat]

    @property
    def opponents(self) -> dict[int, Any]:
        """The bot of each opponent seat in the current episode."""
        return dict(self._bots)

    # ------------------------------------------------------------------ opponents
    def set_opponents(self, opponents: Any) -> None:
        """Replace the opponents (``"random"``, a bot name, a sequence of bots or a factory).
        During an episode the new bots take over at once (their ``reset`` is called)."""
        n_opp = self.num_players - 1
        if isinstance(opponents, str):
            spec: Any = ("bots", [_bot_from_name(opponents) for _ in range(n_opp)])
        elif callable(opponents) and not callable(getattr(opponents, "act", None)):
            spec = ("factory", opponents)
        elif isinstance(opponents, Sequence):
            bots = list(opponents)
            if len(bots) != n_opp:
                raise ValueError(f"opponents: {len(bots)} bots given, {n_opp} needed (one per "
                                 f"other seat of {self.num_players} players)")
            spec = ("bots", [_check_bot(b, "opponents") for b in bots])
        else:
            raise TypeError(f"opponents={opponents!r} is invalid; allowed: 'random', 'greedy', a "
                            "sequence of bots, or factory(seat_index, rng) -> bot")
        self._opp_spec = spec
        if self._active:
            self._build_bots()

    def _opponent_seats(self) -> list[int]:
        n, me = self.num_players, self._learner_seat
        return [(me + 1 + k) % n for k in range(n - 1)]

    def _make_bots(self) -> list[Any]:
        """One bot per opponent seat (in seat order after the learner)."""
        kind, value = self._opp_spec
        if kind == "bots":
            return list(value)
        return [_check_bot(value(s, self.np_random), "opponent factory")
                for s in self._opponent_seats()]

    def _build_bots(self) -> None:
        bots = self._make_bots()
        self._bots = dict(zip(self._opponent_seats(), bots))
        if self._delegate is not None:
            bots = [*bots, self._delegate]
        for b in bots:
            reset = getattr(b, "reset", None)
            seed = int(self.np_random.integers(2**31 - 1))
            if callable(reset):
                reset(seed)

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, float]]:
        if seed is None and self._init_seed is not None:
            seed, self._init_seed = self._init_seed, None
        elif seed is not None:
            self._init_seed = None
        super().reset(seed=seed)
        n = self.num_players
        if self.seat_mode == "rotate":
            if seed is not None:
                self._rotation = int(seed) % n
            self._learner_seat = self._rotation
            self._rotation = (self._rotation + 1) % n
        elif self.seat_mode == "random":
            self._learner_seat = int(self.np_random.integers(n))
        else:
            self._learner_seat = int(self.seat_mode)
        self._active = True
        for _ in range(_MAX_REDEALS):
            self.aec.reset(seed=int(self.np_random.integers(2**31 - 1)), options=options)
            self._build_bots()
            self._done = False
            self._play_bots()
            if not self._done:
                break
        else:
            self._active = False
            raise RuntimeError(f"the episode ended before the learner (seat {self._learner_seat}) "
                               f"could act, {_MAX_REDEALS} times in a row (options={options!r})")
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info(False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, float]]:
        if not self._active:
            raise RuntimeError("step() called " + ("after the episode ended" if self._done
                                                    else "before reset()") + "; call reset()")
        aec, me = self.aec, self.learner
        aec.step(int(action))
        reward = float(aec.rewards[me])
        reward += self._play_bots()
        terminated = bool(aec.terminations[me])
        truncated = bool(aec.truncations[me])
        if truncated and not terminated and self.score_truncated:
            # A deal cut off by max_turns scores the learner's hand as if it ended now, so a
            # learner gains nothing by dragging a deal out to the cap.
            reward -= self.aec.state_obj.penalty(self._learner_seat) * self.aec.reward_scale
        if terminated or truncated:
            self._active = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info(terminated or truncated)

    def _play_bots(self) -> float:
        """Let the bots act until the learner must act or the episode ends; returns the learner's
        reward collected on their steps (the AEC ``rewards`` are per step)."""
        aec, me = self.aec, self.learner
        total = 0.0
        while True:
            if aec.terminations[me] or aec.truncations[me]:
                self._done = True
                return total
            agent = aec.agent_selection
            if agent == me:
                if self._delegate is None:
                    return total
                view = seat_view(aec, agent)
                if not only_kinds(view, self._delegate_kinds):
                    return total
                aec.step(int(self._delegate.act(view)))  # a delegated decision of the learner
            else:
                bot = self._bots[aec.agent_name_mapping[agent]]
                aec.step(int(bot.act(seat_view(aec, agent))))
            total += float(aec.rewards[me])

    def _obs(self) -> np.ndarray:
        return np.array(self.aec.observe(self.learner)["observation"], dtype=np.float32)

    def _info(self, over: bool) -> dict[str, float]:
        info = dict.fromkeys(INFO_KEYS, 0.0)
        seat = self._learner_seat
        info["seat"] = float(seat)
        if not over:
            return info
        st = self.aec.state_obj
        info["score"] = float(st.scores[seat])
        info["place"] = float(st.standings()[seat])
        if self.score_truncated and self.aec.truncations[self.learner] and not st.is_deal_over:
            hands = [st.penalty(p) for p in range(self.num_players)]
            info["deal_penalty"] = float(hands[seat])
            info["won"] = float(hands[seat] <= min(hands))
        elif st.is_deal_over and not self.aec.truncations[self.learner]:
            delta = st.last_deal_delta
            info["deal_penalty"] = float(delta[seat])
            if self.aec.episode == "game":
                info["won"] = float(st.scores[seat] <= min(st.scores))
            else:
                info["won"] = float(delta[seat] <= min(delta))
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array (all False once the episode is over)."""
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.render_mode == "rgb_array":
            return self.aec.render_rgb(self._learner_seat)
        text = self.aec.render_text(self._learner_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.aec.close()

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.variant!r}, num_players={self.num_players}, "
                f"seat={self.seat_mode!r})")


class SelfPlayEnv(SingleSeatEnv):
    """:class:`SingleSeatEnv` whose opponents are drawn from a pool of frozen snapshot bots at
    every reset (``RandomBot`` while the pool is empty); see the module docstring."""

    def __init__(self, variant: str = "contract_rummy", snapshot_pool: Sequence[Any] | None = None,
                 max_pool: int | None = None, **kw: Any) -> None:
        if "opponents" in kw:
            raise TypeError("SelfPlayEnv draws its opponents from snapshot_pool; use "
                            "SingleSeatEnv for fixed opponents")
        if max_pool is not None and (not isinstance(max_pool, int) or max_pool < 1):
            raise ValueError(f"max_pool={max_pool!r} is invalid; allowed: None or an int >= 1")
        self.max_pool = max_pool
        self.snapshot_pool: list[Any] = []
        super().__init__(variant, opponents=snapshot_pool, **kw)

    def add_snapshot(self, bot: Any) -> None:
        """Append a frozen policy bot to the pool (used from the next reset on)."""
        self.snapshot_pool.append(_check_bot(bot, "add_snapshot"))
        if self.max_pool is not None:
            del self.snapshot_pool[:-self.max_pool]

    def set_opponents(self, opponents: Any) -> None:
        """Replace the snapshot pool: a sequence of bots, one bot, or ``None``/``"random"``
        (empty pool: random opponents). Used from the next reset on."""
        if opponents is None or (isinstance(opponents, str) and opponents == "random"):
            pool: list[Any] = []
        elif callable(getattr(opponents, "act", None)):
            pool = [opponents]
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
            pool = [_check_bot(b, "snapshot_pool") for b in opponents]
        else:
            raise TypeError(f"snapshot pool {opponents!r} is invalid; allowed: None, 'random', a "
                            "bot or a sequence of bots")
        self.snapshot_pool = pool
        if self.max_pool is not None:
            del self.snapshot_pool[:-self.max_pool]
        self._opp_spec = ("pool", None)

    def _make_bots(self) -> list[Any]:
        pool = self.snapshot_pool
        if not pool:
            return [RandomBot() for _ in self._opponent_seats()]
        return [pool[int(self.np_random.integers(len(pool)))] for _ in self._opponent_seats()]


__all__ = ["INFO_KEYS", "SelfPlayEnv", "SingleSeatEnv"]
