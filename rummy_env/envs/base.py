"""The shared PettingZoo AEC base of every rummy_env environment.

A family (contract, Indian, manipulation, gin) plugs in through four hooks: ``_make_game``,
``_new_state``, ``_state_from_dict`` and ``_make_encoder``/``_make_layout``. Everything else is
here, once:

* PettingZoo's usual guarantees, built in rather than stacked as wrappers (the wrapper stack
  alone caps a do-nothing 4-player env near 26,000 steps/s): calls before ``reset`` raise a clear
  error (order enforcement), anything but an integer id of ``Discrete(N)`` raises (bounds),
  and an illegal action follows ``illegal_action``: by default (``"penalize"``, PettingZoo
  classic's ``TerminateIllegalWrapper`` convention) it ends the episode with ``illegal_reward``
  to the offender and 0 to the others, with PettingZoo's illegal-move warning; ``"raise"``
  raises :class:`~rummy_env.errors.IllegalActionError` and changes nothing (for debugging).
* Observations ``{"observation": float32, "action_mask": int8}``: the acting agent's mask is
  exactly the legal set (never empty); every other agent's is all zeros.
* Rewards are the deal's score changes (negative penalty points for the contract family) times
  ``reward_scale``, given when a deal ends; ``episode="deal"`` ends the episode there,
  ``episode="game"`` plays every deal. ``max_turns`` maps to ``truncations``.
* ``infos[agent]`` always holds the same numeric keys (``score``, ``place``, ``deals_played``),
  so TorchRL can build a fixed spec; the final standings are there when the game ends.
* ``get_state()`` / ``reset(options={"scenario": ...})``, ``copy.deepcopy`` and ``pickle`` keep the
  position (no EzPickle: it would rebuild an empty env).
* Cheap steps (``benchmarks/throughput.py``): ``observe(agent)`` is built once per position and
  agent and cached until the next change; the reward dicts are cleared and accumulated only
  around the end of a deal, the only time rewards are non-zero; ``reset(seed=int)`` seeds its
  generator directly (the same stream as ``gymnasium.utils.seeding.np_random``).
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from rummy_env.codec import as_action_id
from rummy_env.envs.options import check_overrides
from rummy_env.errors import IllegalActionError, RuleConfigError, ScenarioError

EPISODES = ("deal", "game")
#: ``render_mode`` values of every variant: text returned, text printed, a picture
#: (:mod:`rummy_env.render`, drawn with Pillow, imported only when a picture is drawn).
RENDER_MODES = ("ansi", "human", "rgb_array")
ILLEGAL = ("raise", "penalize")


def _np_random(seed: int | None) -> np.random.Generator:
    """``gymnasium.utils.seeding.np_random(seed)[0]``: the same generator (PCG64 seeded through
    a SeedSequence of ``seed``), built directly for a plain non-negative int seed, the common
    case of every reset, without gymnasium's wrapper cost; gymnasium handles the rest (None:
    fresh entropy; bad seeds: its error)."""
    if type(seed) is int and seed >= 0:
        return np.random.Generator(np.random.PCG64(seed))
    return seeding.np_random(seed)[0]


#: Float32 boxes already built, by their bounds (see ``_float_box``).
_BOXES: dict[tuple[tuple[int, ...], bytes, bytes], spaces.Box] = {}


def _float_box(low: np.ndarray, high: np.ndarray) -> spaces.Box:
    """``spaces.Box(low, high, dtype=np.float32)``, a fresh copy per call: gymnasium formats
    both bounds as text when a box is built (``array_short_repr``), which took most of a
    ``make`` (about 3 ms per box of a few hundred bounds), so each distinct pair of bounds
    is built once per process and deep-copied (each env keeps its own space and generator)."""
    lo = np.asarray(low, np.float32)
    hi = np.asarray(high, np.float32)
    key = (lo.shape, lo.tobytes(), hi.tobytes())
    box = _BOXES.get(key)
    if box is None:
        if len(_BOXES) >= 256:  # a bound, not a policy: configurations are few
            _BOXES.clear()
        box = _BOXES[key] = spaces.Box(lo, hi, dtype=np.float32)
    return copy.deepcopy(box)


class RummyAECEnv(AECEnv):
    """Base class; see the module docstring. Subclasses set ``metadata``, ``preset`` and the
    hooks."""

    metadata: dict[str, Any] = {"name": "rummy_base", "render_modes": list(RENDER_MODES),
                                "is_parallelizable": False, "render_fps": 1}
    preset: Any = None

    def __init__(
        self,
        num_players: int | None = None,
        episode: str = "deal",
        render_mode: str | None = None,
        max_turns: int | None = None,
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        reward_scale: float = 0.01,
        deal: int | str = 1,
        **rule_options: Any,
    ) -> None:
        """:param num_players: players, in the variant's range (default: the variant's own).
        :param episode: ``"deal"`` (one deal per episode) or ``"game"`` (every deal).
        :param render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"``
            (prints it) or ``"rgb_array"`` (returns a picture of the table, a fixed-size
            ``(720, 1280, 3)`` uint8 array; see :mod:`rummy_env.render`).
        :param max_turns: turns (a player's draw to discard) before the episode is truncated;
            default 300 per deal. Random play can cycle through reshuffles for very long, like
            OpenSpiel's gin cap, so a generous cap keeps episodes finite.
        :param illegal_action: what an action id in range that the rules do not allow does:
            ``"penalize"`` (default, PettingZoo classic's convention, which tools sampling
            unmasked actions rely on: the episode ends, the offender gets ``illegal_reward``
            and the others 0, and PettingZoo's ``EnvLogger`` warns) or ``"raise"``
            (IllegalActionError naming the action and phase, nothing changed; for debugging
            a policy or bot that should never play one).
        :param illegal_reward: the offender's reward under ``"penalize"`` (default -1, not
            scaled by ``reward_scale``).
        :param reward_scale: reward = score change of a deal times this (penalty points are
            negative rewards).
        :param deal: which deal an ``episode="deal"`` episode plays: 1-based number, or
            ``"random"`` (drawn from the seeded generator at each reset).
        :param rule_options: rule fields by name (see the variant's rules class).
        """
        super().__init__()
        self.rules = self._rules_with(rule_options)
        if num_players is None:
            num_players = self.default_players()
        # Checked in this order, so that of several bad options the same one is named.
        self._check_players(num_players)
        self._check_modes(episode, render_mode, illegal_action)
        max_turns = self._checked_deal_and_turns(episode, deal, max_turns)
        self._check_rewards(reward_scale, illegal_reward)
        self.num_players = int(num_players)
        self.episode = episode
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.reward_scale = float(reward_scale)
        self.deal_option = deal
        self.viewer: int | None = None  # seat whose hand render() shows (None: the actor)
        self.game = self._make_game()
        self.layout = self._make_layout()
        self.encoder = self._make_encoder()
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._build_spaces(max_turns)
        self._has_reset = False
        self.np_random, _ = seeding.np_random(None)

    # ----------------------------------------------------------------- constructor steps
    def _rules_with(self, rule_options: dict[str, Any]) -> Any:
        """The preset, or a copy with the named rule fields changed (checked first, so that a
        bad type or a broken pair of fields is named before any rules object is built)."""
        preset = self.preset
        if not rule_options:
            return preset
        check_overrides(preset, rule_options)
        return preset.with_overrides(**rule_options)

    def _check_players(self, num_players: Any) -> None:
        """RuleConfigError unless ``num_players`` is an int in the rules' range."""
        if (not isinstance(num_players, (int, np.integer)) or isinstance(num_players, bool)
                or not self.rules.min_players <= num_players <= self.rules.max_players):
            raise RuleConfigError(
                f"num_players={num_players!r} is invalid for {self.metadata['name']}; "
                f"allowed: {self.rules.min_players}..{self.rules.max_players}"
            )

    def _check_modes(self, episode: str, render_mode: str | None, illegal_action: str) -> None:
        """RuleConfigError for an ``episode``, ``render_mode`` or ``illegal_action`` that is
        not one of the names allowed."""
        if episode not in EPISODES:
            raise RuleConfigError(f"episode={episode!r} is invalid; allowed: {', '.join(EPISODES)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise RuleConfigError(f"render_mode={render_mode!r} is invalid; allowed: None, "
                                  + ", ".join(self.metadata["render_modes"]))
        if illegal_action not in ILLEGAL:
            raise RuleConfigError(
                f"illegal_action={illegal_action!r} is invalid; allowed: {', '.join(ILLEGAL)}")

    def _checked_deal_and_turns(self, episode: str, deal: int | str,
                                max_turns: int | None) -> int:
        """``max_turns`` (its default scales with the deals an episode plays), after checking
        it and ``deal`` against the rules' number of deals."""
        num_deals = self.rules.num_deals
        if not (deal == "random" or (isinstance(deal, int) and not isinstance(deal, bool)
                                     and 1 <= deal <= num_deals)):
            raise RuleConfigError(f"deal={deal!r} is invalid; allowed: 1..{num_deals} or 'random'")
        if episode == "game" and deal != 1:
            raise RuleConfigError("deal must be 1 when episode='game' (a game plays every deal)")
        deals_per_episode = num_deals if episode == "game" else 1
        if max_turns is None:
            max_turns = 300 * deals_per_episode
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise RuleConfigError(f"max_turns={max_turns!r} is invalid; allowed: an int >= 1")
        return max_turns

    @staticmethod
    def _check_rewards(reward_scale: float, illegal_reward: float) -> None:
        """RuleConfigError unless both are finite numbers (not bools)."""
        for name, v in (("reward_scale", reward_scale), ("illegal_reward", illegal_reward)):
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not np.isfinite(v):
                raise RuleConfigError(f"{name}={v!r} is invalid; allowed: a finite number")

    def _build_spaces(self, max_turns: int) -> None:
        """The observation, action and state spaces of every agent, with true bounds."""
        # SuperSuit's normalize_obs and state_test need finite bounds: a scenario starts at
        # most max_turns turns into a deal and the episode is cut max_turns turns after its
        # reset, so the turn number stays under 2 * max_turns.
        turn_cap = 2 * max_turns
        low, high = self.encoder.bounds(turn_cap)
        obs_space = spaces.Dict({
            "observation": _float_box(low, high),
            "action_mask": spaces.Box(0, 1, (self.layout.n,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.n) for a in self.possible_agents}
        low, high = self.encoder.state_bounds(turn_cap)
        self.state_space = _float_box(low, high)

    # ----------------------------------------------------------------- family hooks
    def default_players(self) -> int:
        rules = self.rules
        return 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players

    def _make_game(self) -> Any:
        raise NotImplementedError

    def _make_layout(self) -> Any:
        raise NotImplementedError

    def _make_encoder(self) -> Any:
        raise NotImplementedError

    def _new_state(self, deal: int, rng: np.random.Generator) -> Any:
        raise NotImplementedError

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> Any:
        raise NotImplementedError

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> gymnasium.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space:
        return self.action_spaces[agent]

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes that do not exist yet: explain the usual cause.
        if name in ("rewards", "terminations", "truncations", "infos", "agent_selection",
                    "agents", "_cumulative_rewards", "state_obj"):
            raise AttributeError(f"{name} cannot be accessed before reset()")
        raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")

    def _require_reset(self, what: str) -> None:
        if not self._has_reset:
            raise RuntimeError(f"{what}() called before reset(); call env.reset() first")

    # ----------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. ``options={"scenario": {...}}`` sets up a position (see
        ``get_state``); cards it places nowhere are shuffled into the stock from ``seed``.
        A refused scenario raises ScenarioError and changes nothing (position, generator);
        ``options`` that are not a dict (or None) raise RuleConfigError."""
        if options is not None and not isinstance(options, dict):
            raise RuleConfigError(f"reset options must be a dict such as {{'scenario': {{...}}}} "
                                  f"or None, got {type(options).__name__} {options!r:.40}")
        scenario = options.get("scenario") if options else None
        if seed is not None or not self._has_reset:
            rng = _np_random(seed)
        elif scenario is not None:
            # A scenario is built with a copy of the generator, kept only if the scenario is
            # valid: a rejected one leaves the env exactly as it was, generator included.
            rng = copy.deepcopy(self.np_random)
        else:
            # A new deal cannot be rejected, so it draws from the generator itself (a deep
            # copy of a Generator costs more than the rest of a reset).
            rng = self.np_random
        if scenario is not None:
            st = self._state_from_dict(scenario, rng)
            self._check_in_bounds(st)
        else:
            deal = self.deal_option
            if deal == "random":
                deal = int(rng.integers(self.rules.num_deals)) + 1
            st = self._new_state(deal, rng)
        self.np_random = rng
        self.state_obj = st
        self._has_reset = True
        self._version = 0  # bumped by every change of the position: keys the observe() cache
        self._obs_cache: dict[str, Any] = {}
        # True while some entry of ``rewards`` may be non-zero (a deal just ended, or a
        # penalty): step() clears and accumulates the dicts only then, since rewards arrive
        # only at the end of a deal and every other step would add zeros.
        self._rewards_live = False
        self._turns_start = st.turn_number
        self._turns_done = 0
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self._update_infos()
        self._skip_agent_selection = None
        if st.is_deal_over:
            self._finish_deal()
        self._select()

    def _check_in_bounds(self, st: Any) -> None:
        """A scenario's position must be one whose play stays inside the declared spaces:
        ScenarioError (nothing changed yet) for a turn number beyond ``max_turns`` or any
        observation or state entry out of bounds (huge scores, counts, claims ...)."""
        if st.turn_number > self.max_turns:
            raise ScenarioError(f"turn_number={st.turn_number} is beyond max_turns="
                                f"{self.max_turns}; allowed: 0..{self.max_turns}")
        space = self.observation_spaces[self.possible_agents[0]]["observation"]
        checks = [(f"observation of seat {seat}", self.encoder.layout, space,
                   lambda seat=seat: self.encoder.observe(st, seat))
                  for seat in range(self.num_players)]
        checks.append(("state", self.encoder.state_layout, self.state_space,
                       lambda: self.encoder.state(st)))
        for what, layout, box, build in checks:
            try:
                vec = build()
            except OverflowError:
                raise ScenarioError(f"the scenario's numbers overflow the {what}") from None
            bad = np.flatnonzero((vec < box.low) | (vec > box.high) | ~np.isfinite(vec))
            if bad.size:
                i = int(bad[0])
                piece = next(p for p in layout.pieces.values() if p.start <= i < p.stop)
                raise ScenarioError(
                    f"the scenario puts {what} piece {piece.name!r} (entry {i - piece.start}) "
                    f"at {float(vec[i])}, outside what play can reach "
                    f"[{float(box.low[i])}, {float(box.high[i])}]: a count, score or total "
                    "out of range")

    def _select(self) -> None:
        cur = self.state_obj.current_player
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def _update_infos(self) -> None:
        st = self.state_obj
        places = st.standings()
        for a in self.agents:
            i = self.agent_name_mapping[a]
            self.infos[a] = {"score": st.scores[i], "place": places[i],
                             "deals_played": st.deals_played}

    # ----------------------------------------------------------------- dead steps
    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's ``AECEnv._was_dead_step``, with the same effects in the same order: the
        dead agent leaves ``agents`` and every dict; the next dead agent is selected, or, when
        none is left, the live agent they stood in for; rewards are cleared (to 0). Without its
        list of every dead agent and its ``getattr`` calls: it runs once per agent at the end
        of every episode."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terms, truncs = self.terminations, self.truncations
        del terms[agent], truncs[agent], self.rewards[agent], self._cumulative_rewards[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        for a in self.agents:
            if terms[a] or truncs[a]:
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = a
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0

    # ----------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        """Apply the acting agent's action: an int id of ``Discrete(N)`` (a Python or numpy
        integer, not a bool; see ``rummy_env.codec.as_action_id``). Anything else, or an id
        outside ``0..N-1``, raises :class:`IllegalActionError` whatever ``illegal_action``
        says (as PettingZoo's ``AssertOutOfBoundsWrapper`` refuses it), and changes nothing;
        an id in range that the rules do not allow follows ``illegal_action``. A dead agent's
        step takes ``None``. Once every agent has left, ``step`` warns and does nothing, as
        PettingZoo's ``OrderEnforcingWrapper`` does (call ``reset()``)."""
        if not self._has_reset:
            self._require_reset("step")
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        layout = self.layout
        if type(action) is int and 0 <= action < layout.n:  # the common case, checked inline
            a = action
        elif action is None:
            raise IllegalActionError(f"{agent} is alive and must act; None is only for dead agents")
        else:
            a = as_action_id(action, layout.n)
        st = self.state_obj
        typed = layout._decode[a]
        before = st.turn_number
        # The engine's apply() checks the action against its own legal list first and leaves
        # the position unchanged when it is not there (not the mask handed out, which a caller
        # may have changed in place), so nothing here has changed yet either.
        try:
            st.apply(typed, self.np_random)
        except IllegalActionError:
            self._refused(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_live:
            self._clear_rewards()
            self._rewards_live = False
        self._version += 1
        if st.is_deal_over:
            self._finish_deal()
        elif st.turn_number != before:
            self._turns_done += 1
            if self._turns_done >= self.max_turns:
                for x in self.agents:
                    self.truncations[x] = True
        cur = st.current_player
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]
        else:
            self._select()
        if self._rewards_live:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``AECEnv.last``; once every agent has left (the episode is over and
        each took its ``None`` step) a RuntimeError that says to ``reset()``, instead of a
        KeyError of the departed agent."""
        agent = self.agent_selection
        try:
            return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                    self.terminations[agent], self.truncations[agent], self.infos[agent])
        except KeyError:
            if self._has_reset and not self.agents:
                raise RuntimeError("last() called after every agent has left the episode; "
                                   "call env.reset() first") from None
            raise

    def _refused(self, agent: str, a: int) -> None:
        """An id in range that the rules refused (the position unchanged): ``"penalize"`` ends
        the episode; ``"raise"`` raises IllegalActionError naming the action, the phase and
        the legal actions, without the engine's own error chained (it says less)."""
        if self.illegal_action == "penalize":
            self._penalize(agent, a)
            return
        raise IllegalActionError(
            f"{agent} played {a} ({self.layout.to_string(a)!r}), not legal in phase "
            f"{self.state_obj.phase!r}; legal: {self.legal_action_strings()[:12]}"
        ) from None

    def _finish_deal(self) -> None:
        st = self.state_obj
        self._rewards_live = True
        for x in self.agents:
            self.rewards[x] = -st.last_deal_delta[self.agent_name_mapping[x]] * self.reward_scale
        if self.episode == "game" and not st.is_terminal:
            st.next_deal(self.np_random)
            self._update_infos()
            return
        self._update_infos()
        for x in self.agents:
            self.terminations[x] = True

    def _penalize(self, agent: str, a: int) -> None:
        """PettingZoo's ``TerminateIllegalWrapper``: the episode ends (terminations; the
        wrapper sets truncations too, which would tell learners to bootstrap a value past an
        end that is final), the offender gets ``illegal_reward`` and the others 0."""
        EnvLogger._generic_warning(
            "[WARNING]: Illegal move made, game terminating with current player losing. "
            f"({agent} played {a} {self.layout.to_string(a)!r} in phase "
            f"{self.state_obj.phase!r}; obs['action_mask'] holds the legal moves)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.rewards[agent] = self.illegal_reward
        self._rewards_live = True
        for x in self.agents:
            self.terminations[x] = True
        self._version += 1
        self._accumulate_rewards()

    # ----------------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``agent`` (its mask is zero unless it acts)."""
        if not self._has_reset:
            self._require_reset("observe")
        version = self._version
        cached = self._obs_cache.get(agent)
        if cached is not None and cached[0] == version:
            return cached[1]
        seat = self.agent_name_mapping[agent]
        st = self.state_obj
        obs = self.encoder.observe(st, seat)
        if (st.current_player == seat and not self.terminations[agent]
                and not self.truncations[agent]):
            mask = self.layout.mask(st.legal_actions())
        else:
            mask = np.zeros(self.layout.n, dtype=np.int8)
        out = {"observation": obs, "action_mask": mask}
        self._obs_cache[agent] = (version, out)
        return out

    def state(self) -> np.ndarray:
        """Full information (every hand and the stock's contents) for centralised critics."""
        self._require_reset("state")
        return self.encoder.state(self.state_obj)

    def action_mask(self) -> np.ndarray:
        """The acting agent's mask (int8)."""
        return self.observe(self.agent_selection)["action_mask"]

    # ----------------------------------------------------------------- actions as text
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the acting agent; ``[]`` when it is dead or every agent
        has left."""
        self._require_reset("legal_actions")
        if not self.agents:
            return []
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return []
        enc = self.layout.encode
        return sorted(enc(a) for a in self.state_obj.legal_actions())

    def legal_action_strings(self) -> list[str]:
        return [self.layout.to_string(a) for a in self.legal_actions()]

    def action_to_string(self, action: int) -> str:
        """Text of an action id (``draw stock``, ``meld run H 4-7``, ``discard QS`` ...);
        IllegalActionError (a ValueError) for anything ``step`` would refuse as not an id
        (``3.5``, ``inf``, ``None``, ``"3"``, out of range)."""
        return self.layout.to_string(action)

    def string_to_action(self, text: str) -> int:
        """Action id of a text (case and ``T``/``10`` spelling free); IllegalActionError (a
        ValueError) if it reads no action or is not a str."""
        return self.layout.from_string(text)

    # ----------------------------------------------------------------- positions
    def get_state(self) -> dict[str, Any]:
        """The full position as JSON-serialisable data with ``zones`` (each card once)."""
        self._require_reset("get_state")
        return self.state_obj.to_dict()

    def information(self, agent: str) -> Any:
        """What ``agent`` knows of the position (:func:`rummy_env.worlds.information`): the
        public record and its own hand, nothing hidden."""
        self._require_reset("information")
        from rummy_env.worlds import information

        return information(self.state_obj, self.agent_name_mapping[agent])

    def sample_world(self, agent: str, rng: np.random.Generator | int | None = None
                     ) -> dict[str, Any]:
        """A scenario dict for ``reset(options={"scenario": ...})``: this position with the
        cards ``agent`` cannot see (other hands, stock order, face-down cards) dealt uniformly
        among the arrangements consistent with its information (:mod:`rummy_env.worlds`).
        ``rng``: a Generator or a seed (not the env's own generator, which it leaves alone)."""
        from rummy_env.worlds import sample_scenario

        return sample_scenario(self.information(agent), np.random.default_rng(rng))

    def render_text(self, viewer: int | None = None) -> str:
        """The table as text, showing the hand of ``viewer`` (None: every hand)."""
        self._require_reset("render")
        return self.state_obj.render_text(viewer)

    def render_rgb(self, viewer: int | None = None, reveal: bool = False) -> np.ndarray:
        """A picture of the table from seat ``viewer`` (its hand face up, the others as
        backs), or from above with ``reveal`` (every hand, marked so on the picture); a
        ``(720, 1280, 3)`` uint8 array (:mod:`rummy_env.render`)."""
        self._require_reset("render")
        from rummy_env.render import render_rgb

        return render_rgb(self, viewer, reveal)

    def render(self) -> str | np.ndarray | None:
        """The table from ``self.viewer`` (None: the seat to act; when nobody acts, as at the
        end of a deal, every hand): text (``ansi``), printed (``human``) or a picture
        (``rgb_array``, from above when nobody acts)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        self._require_reset("render")
        viewer = self.viewer
        if viewer is None:
            cur = self.state_obj.current_player
            viewer = cur if cur >= 0 else None
        if self.render_mode == "rgb_array":
            return self.render_rgb(viewer, reveal=viewer is None)
        text = self.state_obj.render_text(viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"{self.metadata['name']}(num_players={self.num_players}, episode={self.episode!r})"

