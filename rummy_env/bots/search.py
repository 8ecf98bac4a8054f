"""A determinized Monte Carlo search bot for every rules family.

:class:`SearchBot` samples worlds consistent with its seat's information (its view only),
tries every legal action in each with rollouts of the family's greedy bot (or another rollout
policy) to the end of the deal or a horizon, and plays the action with the best mean value only
when it beats the rollout policy's own choice with confidence (paired differences over the
worlds); otherwise the policy's choice. ``time_budget`` bounds the time per decision; without
it the bot is deterministic under its seed. How it decides, and why the confidence test, is in
``docs/solvers.md`` (section "Search bot").
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from rummy_env.bots.base import SeatView
from rummy_env.bots.contract_model import ContractOpponentModel
from rummy_env.bots.gin_model import GinOpponentModel
from rummy_env.errors import ScenarioError
from rummy_env.worlds import Information, build_state, sample_scenario

#: The encoder class of each family's codec module (``rummy_env.<family>.codec``).
_ENCODERS = {"contract": "ContractEncoder", "gin": "GinEncoder", "indian": "IndianEncoder",
             "manipulation": "ManipulationEncoder"}


class RolloutPolicy(Protocol):
    """Plays every seat of a rollout: a typed legal action of ``state.current_player``."""

    def act(self, state: Any, rng: np.random.Generator) -> Any: ...


class RandomRollout:
    """Uniform over the engine's legal actions."""

    def __init__(self, game: Any, family: str) -> None:
        pass

    def act(self, state: Any, rng: np.random.Generator) -> Any:
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))] if len(legal) > 1 else legal[0]


class _RolloutView:
    """What :class:`BotRollout` hands its bot: the attributes of a
    :class:`~rummy_env.bots.base.SeatView`, with the observation built by the engine's
    encoder only when the bot first reads it (a piece or the whole vector): the manipulation
    greedy bot reads none, so its rollouts build no observation at all."""

    __slots__ = ("seat", "legal_actions", "action_layout", "obs_layout", "family",
                 "_state", "_encoder", "_pieces", "_obs")
    information = None

    def __init__(self, state: Any, seat: int, legal: tuple[int, ...], policy: BotRollout
                 ) -> None:
        self.seat = seat
        self.legal_actions = legal
        self.action_layout = policy.layout
        self.obs_layout = policy.encoder.layout
        self.family = policy.family
        self._state = state
        self._encoder = policy.encoder
        self._pieces = policy.pieces
        self._obs: np.ndarray | None = None

    @property
    def observation(self) -> np.ndarray:
        if self._obs is None:
            self._obs = self._encoder.observe(self._state, self.seat)
        return self._obs

    def piece(self, name: str) -> np.ndarray:
        sl, shape = self._pieces[name]
        return self.observation[sl].reshape(shape)


class BotRollout:
    """A :class:`~rummy_env.bots.base.Bot` (the family's greedy bot by default) as a rollout
    policy on engine states. A forced move (one legal action) asks the bot nothing; otherwise
    the bot gets the acting seat's view, whose observation the family's encoder builds from
    the state if the bot reads it (numpy only; no env, no mask)."""

    def __init__(self, game: Any, family: str, bot: Any = None) -> None:
        codec = importlib.import_module(f"rummy_env.{family}.codec")
        self.layout = codec.build_action_layout(game)
        self.encoder = getattr(codec, _ENCODERS[family])(game)
        self.pieces = {name: (slice(p.start, p.stop), p.shape)
                       for name, p in self.encoder.layout.pieces.items()}
        self.family = family
        if bot is None:
            from rummy_env.bots.family import GREEDY_BY_FAMILY

            bot = GREEDY_BY_FAMILY[family](0)
        self.bot = bot

    def act(self, state: Any, rng: np.random.Generator) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        enc = self.layout._encode
        ids = tuple(sorted(enc[a] for a in legal))
        view = _RolloutView(state, state.current_player, ids, self)
        return self.layout._decode[self.bot.act(view)]


#: Rollout policies by name: each is built as ``cls(game, family)``.
ROLLOUTS: dict[str, Callable[[Any, str], RolloutPolicy]] = {
    "greedy": BotRollout, "random": RandomRollout,
}


#: What ``"auto"`` picks in each family, ``(worlds, horizon, confidence)``
#: (``make_bot("search")`` plays these): measured in README, "Search bot".
BUDGETS: dict[str, tuple[int, int | None, float]] = {
    "contract": (8, 24, 2.0), "gin": (16, None, 1.5), "indian": (8, None, 2.0),
    "manipulation": (4, 6, 2.0),
}
AUTO = "auto"


#: Opponent models by family (:class:`GinOpponentModel`, :class:`ContractOpponentModel`).
OPPONENT_MODELS: dict[str, Callable[[], Any]] = {"gin": GinOpponentModel,
                                                 "contract": ContractOpponentModel}
#: Where ``opponent_model="auto"`` uses the family's model: the variants where it was measured
#: to pay (README, "Search bot"; None: every variant of the family). The contract model is
#: opt-in (``opponent_model=True``): measured in May I?, it made the search bot worse than
#: uniform worlds did (+6.6 points per deal against greedy over 1,000 deals, against +3.6).
AUTO_MODEL_VARIANTS: dict[str, frozenset[str] | None] = {"gin": None,
                                                         "contract": frozenset()}


def estimate(state: Any) -> list[float]:
    """Each seat's points if the deal were counted now, lower is better: CR-12 penalty points
    (contract), IR-9 points or the pack cost (Indian), deadwood (gin), minus the MR-9 hand
    score (manipulation). The cheap evaluation at the end of a cut rollout."""
    if hasattr(state, "hand_deadwood"):  # gin
        return [float(state.hand_deadwood(s)) for s in (0, 1)]
    return [float(state.penalty(s)) for s in range(state.n)]


def relative(values: Sequence[float], seat: int) -> float:
    """Minus (``seat``'s value minus the mean of the others'): higher is better for ``seat``."""
    others = [v for s, v in enumerate(values) if s != seat]
    return -(values[seat] - sum(others) / len(others))


class SearchBot:
    """Determinized Monte Carlo search over the legal actions (see the module docstring).

    :param seed: seeds the bot's generator (worlds and rollouts' chance events).
    :param worlds: K, the most worlds sampled per decision; ``"auto"``: the family's
        (:data:`BUDGETS`).
    :param horizon: H, steps played after the action before the cheap evaluation; None plays
        to the end of the deal (at most ``max_steps`` steps, then the evaluation); ``"auto"``:
        the family's (:data:`BUDGETS`).
    :param rollout: the rollout policy of every seat: ``"greedy"`` (default), ``"random"``, or
        a callable ``(game, family) -> RolloutPolicy``.
    :param time_budget: seconds per decision after which no further world is sampled (None:
        exactly ``worlds`` worlds, deterministic).
    :param margin: how many points (per deal, relative to the others) another action must gain
        over the rollout policy's own choice to be played instead.
    :param confidence: how many standard errors of the paired differences the gain must clear
        (0: the best mean beyond ``margin``); ``"auto"``: the family's (:data:`BUDGETS`).
    :param max_steps: the cap of a rollout played to the end of the deal.
    :param opponent_model: sample the worlds that the opponents' play makes likely with the
        family's model (:data:`OPPONENT_MODELS`): ``True`` in every variant of a family that
        has one, ``False`` never, ``"auto"`` where it was measured to pay
        (:data:`AUTO_MODEL_VARIANTS`: Gin Rummy). Gin Rummy
        (:mod:`rummy_env.bots.gin_model`): with the greedy rollout policy, a Metropolis chain
        over the opponent's last turns (uniform worlds where the chain finds no start); with
        another policy, rejection sampling that tries up to ``tries`` uniform worlds for each
        consistent one (the last one tried is kept if none is). Contract family
        (:mod:`rummy_env.bots.contract_model`, greedy rollouts only): a Metropolis chain over
        every hidden card, weighted by the checks the opponents' face-up cards and discards
        pass.
    """

    name = "search"

    def __init__(self, seed: int | None = None, worlds: int | str = AUTO,
                 horizon: int | None | str = AUTO,
                 rollout: str | Callable[[Any, str], RolloutPolicy] = "greedy",
                 time_budget: float | None = None, margin: float = 0.0,
                 confidence: float | str = AUTO, max_steps: int = 400,
                 opponent_model: bool | str = AUTO, tries: int = 40) -> None:
        if worlds != AUTO and (not isinstance(worlds, int) or worlds < 1):
            raise ValueError(f"worlds={worlds!r} must be 'auto' or an int >= 1")
        if horizon not in (None, AUTO) and (not isinstance(horizon, int) or horizon < 0):
            raise ValueError(f"horizon={horizon!r} must be 'auto', None or an int >= 0")
        if isinstance(rollout, str) and rollout not in ROLLOUTS:
            raise ValueError(f"rollout={rollout!r}; allowed: {', '.join(ROLLOUTS)} or a callable")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget={time_budget!r} must be None or seconds > 0")
        self.worlds = worlds
        self.horizon = horizon
        self.rollout = rollout
        self.time_budget = time_budget
        self.margin = float(margin)
        self.confidence = confidence if confidence == AUTO else float(confidence)
        self.max_steps = max_steps
        if opponent_model not in (True, False, AUTO):
            raise ValueError(f"opponent_model={opponent_model!r} must be 'auto', True or False")
        self.opponent_model = opponent_model if opponent_model == AUTO else bool(opponent_model)
        self.tries = max(1, int(tries))
        self._models: dict[str, Any] = {}
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self._policies: dict[int, tuple[Any, RolloutPolicy]] = {}
        #: Statistics of the last decision: worlds sampled, rollouts played, seconds.
        self.last: dict[str, float] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self.rng = np.random.default_rng(seed)
        self._models = {}

    def budget(self, family: str) -> tuple[int, int | None, float]:
        """``(worlds, horizon, confidence)`` in ``family``, ``"auto"`` resolved from
        :data:`BUDGETS`."""
        worlds, horizon, confidence = BUDGETS[family]
        if self.horizon != AUTO:
            horizon = None if self.horizon is None else int(self.horizon)
        return (worlds if self.worlds == AUTO else int(self.worlds), horizon,
                confidence if self.confidence == AUTO else float(self.confidence))

    def policy(self, game: Any, family: str) -> RolloutPolicy:
        """The rollout policy for ``game`` (built once per game object)."""
        got = self._policies.get(id(game))
        if got is None or got[0] is not game:
            make = ROLLOUTS[self.rollout] if isinstance(self.rollout, str) else self.rollout
            got = self._policies[id(game)] = (game, make(game, family))
        return got[1]

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        if len(legal) == 1:
            self.last = {"worlds": 0, "rollouts": 0, "seconds": 0.0}
            return int(legal[0])
        if view.information is None:
            raise ValueError("SearchBot needs the seat's information: a view built by "
                             "rummy_env.bots.seat_view from an env of this package")
        info = view.information()
        decode = view.action_layout.decode
        actions = [decode(i) for i in legal]
        policy = self.policy(info.game, info.family)
        prior = self._prior(policy, view, actions)
        model = self._model(info.family) if self.uses_model(info) else None
        check = given = None
        worlds, _, z = self.budget(info.family)
        if model is not None:
            ev = model.evidence(info)
            if ev is not None:
                given, check = model.propose(info, ev, policy, worlds, self.rng)
        try:
            best = self.choose(self.values(info, actions, check, given), prior, z)
        except ScenarioError:
            # A position whose scenario dict its own loader refuses (an engine/loader
            # disagreement): no world can be built, so the rollout policy's choice is played.
            best = 0 if prior is None else prior
            self.last = {"worlds": 0, "rollouts": 0, "seconds": 0.0, "fallback": 1}
        if model is not None:
            model.remember(info, actions[best])
        return int(legal[best])

    def uses_model(self, info: Information) -> bool:
        """Does this bot sample ``info``'s worlds with the family's opponent model? (See the
        ``opponent_model`` parameter.)"""
        if self.opponent_model is False or info.family not in OPPONENT_MODELS:
            return False
        where = AUTO_MODEL_VARIANTS.get(info.family)
        return (self.opponent_model is True or where is None
                or info.public.get("variant") in where)

    def _model(self, family: str) -> Any:
        """This deal's opponent model of ``family`` (None without one)."""
        if family not in OPPONENT_MODELS:
            return None
        model = self._models.get(family)
        if model is None:
            model = self._models[family] = OPPONENT_MODELS[family]()
        return model

    def choose(self, values: np.ndarray, prior: int | None, confidence: float) -> int:
        """The index played, from ``values`` (worlds x actions) and the rollout policy's own
        choice ``prior``, with ``confidence`` standard errors (the module docstring, step 3)."""
        means = values.mean(axis=0)
        if prior is None:
            return int(np.argmax(means))
        k = values.shape[0]
        if k < 2:
            return prior
        diff = values - values[:, prior:prior + 1]
        gain = diff.mean(axis=0)
        se = diff.std(axis=0, ddof=1) / np.sqrt(k)
        ok = gain - confidence * se > self.margin
        ok[prior] = False
        if not ok.any():
            return prior
        return int(np.flatnonzero(ok)[np.argmax(gain[ok])])

    def _prior(self, policy: RolloutPolicy, view: SeatView, actions: list[Any]) -> int | None:
        """Index of the rollout policy's own choice at the real view (a bot policy), else None."""
        bot = getattr(policy, "bot", None)
        if bot is None:
            return None
        return list(view.legal_actions).index(bot.act(view))

    def values(self, info: Information, actions: Sequence[Any],
               check: Callable[[dict[str, Any]], bool] | None = None,
               given: Sequence[dict[str, Any]] | None = None) -> np.ndarray:
        """The value of each action in each sampled world (worlds x actions; see the module
        docstring); ``check`` keeps only the worlds it accepts (up to ``tries`` each);
        ``given`` worlds (an opponent model's) are played first, uniform ones after them."""
        t0 = time.perf_counter()
        policy = self.policy(info.game, info.family)
        rows: list[list[float]] = []
        seat = info.seat
        worlds, horizon, _ = self.budget(info.family)
        done = rollouts = tried = 0
        for w in range(worlds):
            if given is not None and w < len(given):
                d = given[w]
            else:
                d = sample_scenario(info, self.rng)
            tried += 1
            if check is not None:
                for _ in range(self.tries - 1):
                    if check(d):
                        break
                    d = sample_scenario(info, self.rng)
                    tried += 1
            world = build_state(info, d, self.rng)
            chance = int(self.rng.integers(2**63))
            row = []
            for a in actions:
                st = world.clone()
                rng = np.random.default_rng(chance)
                st.apply(a, rng)
                row.append(self.play_out(st, seat, policy, rng, horizon))
                rollouts += 1
            rows.append(row)
            done += 1
            if self.time_budget is not None and time.perf_counter() - t0 >= self.time_budget:
                break
        self.last = {"worlds": done, "rollouts": rollouts, "tried": tried,
                     "seconds": time.perf_counter() - t0}
        return np.array(rows, dtype=np.float64)

    def play_out(self, st: Any, seat: int, policy: RolloutPolicy, rng: np.random.Generator,
                 horizon: int | None) -> float:
        """Play ``st`` on with ``policy`` to the end of the deal or for ``horizon`` steps;
        ``seat``'s value (:func:`relative` of the deal's score changes, or of
        :func:`estimate`)."""
        steps = self.max_steps if horizon is None else horizon
        for _ in range(steps):
            if st.is_deal_over:
                return relative(st.last_deal_delta, seat)
            st.apply(policy.act(st, rng), rng)
        if st.is_deal_over:
            return relative(st.last_deal_delta, seat)
        return relative(estimate(st), seat)


__all__ = ["AUTO", "AUTO_MODEL_VARIANTS", "BUDGETS", "BotRollout", "ContractOpponentModel",
           "GinOpponentModel", "OPPONENT_MODELS", "ROLLOUTS",
           "RandomRollout", "RolloutPolicy", "SearchBot", "estimate", "relative"]
