"""The fast observation encoders against the plain references of tests/reference_encoders.py
(issue 21, point 3), bit for bit, at every step of seeded games of every variant at every
supported player count: the observation of every seat, the acting seat's mask (the legal
actions, every other seat's all zeros) and the full-information state vector.

The games are played by ``play_checked`` (tests/checkers.py: its per-step invariants come
with them) with a policy that prefers the moves that change the table (melds, lay-offs,
claims, knocks ...), so that short games reach the pieces uniform play seldom fills; the
position a deal ends in is compared too. The quick test plays one deal per variant and player
count, four of gin (about 9,000 steps in all); the slow one four more
(a minute and a quarter here).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from checkers import play_checked
from reference_encoders import REFERENCE, first_difference

import rummy_env

PLAYERS = {name: range(rummy_env.make(name).rules.min_players,
                       rummy_env.make(name).rules.max_players + 1)
           for name in rummy_env.VARIANTS}
CASES = [(v, n) for v in rummy_env.VARIANTS for n in PLAYERS[v]]

#: Text prefixes of the moves that change the table or end the deal, which the policy prefers.
_PROGRESS = ("meld", "lay off", "swap", "claim", "call", "buy", "dig", "knock", "declare",
             "play", "joker", "free", "finish", "done", "take")


def _eager(env: Any, legal: list[int], rng: np.random.Generator) -> int:
    """Mostly a random progress move when there is one, else uniform."""
    progress = [a for a in legal if env.action_to_string(a).startswith(_PROGRESS)]
    if progress and rng.random() < 0.8:
        return int(progress[rng.integers(len(progress))])
    return int(legal[rng.integers(len(legal))])


def check_position(env: Any, where: str) -> int:
    """Every seat's fast observation (and, for the seat that acts, its mask) and the state
    vector against the reference at ``env``'s position; returns the number of comparisons."""
    st = env.state_obj
    observe_ref, state_ref = REFERENCE[env.family]
    layout = env.encoder.layout
    live = bool(env.agents)  # after the last agent's final step, only the encoder is asked
    for seat, agent in enumerate(env.possible_agents):
        ref = observe_ref(st, layout, seat)
        fast = env.observe(agent)["observation"] if live else env.encoder.observe(st, seat)
        diff = first_difference(layout, fast, ref)
        assert diff is None, f"{where}, {agent} (phase {st.phase}): {diff}"
        if live:
            mask = env.observe(agent)["action_mask"]
            expected = np.zeros(env.layout.n, dtype=np.int8)
            if st.current_player == seat and not (env.terminations[agent]
                                                  or env.truncations[agent]):
                for a in st.legal_actions():
                    expected[env.layout.encode(a)] = 1
            bad = np.flatnonzero(mask != expected)
            assert not bad.size, (f"{where}, {agent}: mask differs at ids {bad[:5].tolist()} "
                                  f"({[env.action_to_string(int(i)) for i in bad[:5]]})")
    full = env.encoder.state(st)
    diff = first_difference(env.encoder.state_layout, full,
                            state_ref(st, env.encoder.state_layout, observe_ref(st, layout, 0)))
    assert diff is None, f"{where}, state vector (phase {st.phase}): {diff}"
    return len(env.possible_agents) + 1


def play_compared(name: str, players: int, seed: int, **options: Any) -> int:
    """One seeded episode of ``name``, compared at every step; returns the steps played."""
    env = rummy_env.make(name, num_players=players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = [0]

    def on_step(env: Any, agent: str, obs: dict, step: int) -> None:
        check_position(env, f"{name} {players}p seed {seed} step {step}")
        steps[0] = step + 1

    play_checked(env, rng, policy=_eager, on_step=on_step, max_steps=20000)
    check_position(env, f"{name} {players}p seed {seed}, end of the episode")
    return steps[0]


@pytest.mark.parametrize("name,players", CASES)
def test_fast_encoder_matches_reference(name: str, players: int) -> None:
    """One deal per variant and player count (a later deal for most: other contracts and hand
    sizes), four of Gin Rummy (two players only, and a knock needs a few deals), each capped at
    150 turns, which about a third of the contract deals reach."""
    deal = 1 + players % rummy_env.make(name).rules.num_deals
    for seed in range(4) if name == "gin_rummy" else [players]:
        assert play_compared(name, players, seed=seed, deal=deal, max_turns=150) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CASES)
def test_fast_encoder_matches_reference_soak(name: str, players: int) -> None:
    """Four more episodes per variant and player count: three deals of random numbers and one
    whole game (every deal, the scores carried over), each capped at 300 turns."""
    for seed in range(100, 104):
        options: dict[str, Any] = {"deal": "random"}
        if seed == 103:
            options = {"episode": "game"}
        play_compared(name, players, seed=seed, max_turns=300, **options)
