"""Worlds sampled from a seat's information (rummy_env.worlds, env.sample_world), every family.

* Every sampled world loads through ``reset(options={"scenario": ...})``, conserves the cards
  and gives the seat exactly the observation and mask it has in the real game.
* The information reads nothing hidden: re-dealing every card the seat cannot see (other hands
  but their face-up takes, the stock, Indian cards out of play) gives the same information and,
  for the same generator state, the same sampled worlds.
* Dealing is uniform: over many samples every unseen card lands in every hidden zone at the
  rate uniform dealing gives (a chi-square test, fixed seed).
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import GreedyBot, RandomBot, seat_view
from rummy_env.errors import ScenarioError
from rummy_env.worlds import information, sample_scenario

#: Every variant, at each player count the families' sampling differs by.
CASES = [(v, None) for v in rummy_env.VARIANTS if v not in ("indian_rummy", "manipulation_rummy")]
CASES += [("indian_rummy", 2), ("indian_rummy", 4), ("manipulation_rummy", 2),
          ("manipulation_rummy", 3)]


def _make(variant: str, players: int | None) -> Any:
    return rummy_env.make(variant, num_players=players) if players else rummy_env.make(variant)


def _positions(variant: str, players: int | None, deals: int, every: int,
               bot: type = GreedyBot) -> list[tuple[Any, str]]:
    """(env copy, acting agent) at every ``every``-th decision of seeded play by ``bot``s."""
    env = _make(variant, players)
    bots = [bot(i) for i in range(env.num_players)]
    out = []
    for seed in range(deals):
        env.reset(seed=seed)
        for k, agent in enumerate(env.agent_iter()):
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                env.step(None)
                continue
            if k % every == 0:
                out.append((copy.deepcopy(env), agent))
            env.step(bots[env.agent_name_mapping[agent]].act(seat_view(env, agent)))
    return out


def _budget(variant: str) -> tuple[int, int]:
    """(deals, every) of positions per variant: manipulation's masks are slow, single-pack
    deals long."""
    return {"manipulation_rummy": (1, 9), "contract_rummy_single_pack": (1, 12),
            "gin_rummy": (3, 3), "indian_rummy": (3, 3)}.get(variant, (1, 6))


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", CASES)
def test_sampled_worlds_load_and_look_the_same_to_the_seat(variant: str,
                                                           players: int | None) -> None:
    checked = 0
    for env, agent in _positions(variant, players, *_budget(variant)):
        real = env.observe(agent)
        world = _make(variant, env.num_players)
        for k in range(2):
            scenario = env.sample_world(agent, np.random.default_rng(k))
            world.reset(options={"scenario": scenario})
            got = world.observe(agent)
            assert np.array_equal(got["observation"], real["observation"])
            assert np.array_equal(got["action_mask"], real["action_mask"])
            assert world.state_obj.zone_counts() == list(world.game.deck)
            checked += 1
    assert checked >= 8


def _redeal(d: dict[str, Any], seat: int, rng: np.random.Generator) -> dict[str, Any]:
    """The same position with every card ``seat`` cannot see dealt anew: the other hands less
    their face-up takes, the stock and the face-down cards out of play (Indian Rummy), written
    independently of rummy_env.worlds."""
    d = copy.deepcopy(d)
    d.pop("zones")
    hidden: list[str] = []
    sizes: list[tuple[int, int]] = []
    known = d.get("known", [[] for _ in d["hands"]])  # manipulation: nothing taken face up
    for s, hand in enumerate(d["hands"]):
        if s == seat:
            continue
        hand = list(hand)
        for c in known[s]:
            hand.remove(c)
        sizes.append((s, len(hand)))
        d["hands"][s] = list(known[s])
        hidden += hand
    piles = [k for k in ("stock", "out_of_play") if k in d]
    for k in piles:
        hidden += d[k]
    cards = [hidden[i] for i in rng.permutation(len(hidden))]
    for s, k in sizes:
        d["hands"][s] += cards[:k]
        cards = cards[k:]
    for k in piles:
        size = len(d[k])
        d[k], cards = cards[:size], cards[size:]
    return d


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", CASES)
def test_redealing_hidden_cards_changes_no_sampled_world(variant: str,
                                                         players: int | None) -> None:
    rng = np.random.default_rng(5)
    compared = 0
    for env, agent in _positions(variant, players, *_budget(variant)):
        st = env.state_obj
        seat = env.agent_name_mapping[agent]
        if getattr(st, "knocker", -1) >= 0:
            continue  # gin after a knock: the knocker's hand is face up, not re-dealt here
        other = _make(variant, env.num_players)
        try:
            other.reset(options={"scenario": _redeal(st.to_dict(), seat, rng)})
        except ScenarioError:
            continue  # a re-deal the rules refuse (e.g. a scenario check on a hidden hand)
        a, b = information(st, seat), information(other.state_obj, seat)
        assert (a.public, a.hidden, a.pool) == (b.public, b.hidden, b.pool)
        for k in (1, 2):
            assert (sample_scenario(a, np.random.default_rng(k))
                    == sample_scenario(b, np.random.default_rng(k)))
            assert env.sample_world(agent, k) == other.sample_world(agent, k)
        compared += 1
    assert compared >= 5


def _zone_counts(scenario: dict[str, Any], zones: tuple[tuple[str, int], ...],
                 info_public: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Cards per hidden zone of a sampled world (the known cards of a hand left out)."""
    out: dict[str, dict[str, int]] = {}
    for name, _ in zones:
        if name.startswith("hand:"):
            s = int(name[5:])
            cards = list(scenario["hands"][s])
            for c in info_public["hands"][s]:
                cards.remove(c)
        else:
            cards = scenario[name]
        counts: dict[str, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        out[name] = counts
    return out


def _chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom > ``x``), by the Wilson-Hilferty normal
    approximation (close for the hundreds of degrees of freedom here; no scipy needed)."""
    v = 2.0 / (9 * dof)
    z = ((x / dof) ** (1 / 3) - (1 - v)) / math.sqrt(v)
    return 0.5 * math.erfc(z / math.sqrt(2))


def _indian_with_cards_out_of_play() -> tuple[Any, str]:
    """A 4-player Indian position where a later packer's cards lie face down (IR-7)."""
    for env, agent in _positions("indian_rummy", 4, 40, 1, bot=RandomBot):
        if env.state_obj.out_of_play and len(env.state_obj.stock) > 10:
            return env, agent
    raise AssertionError("no position with cards out of play")  # pragma: no cover


def _uniformity_positions() -> list[tuple[Any, str]]:
    contract = _positions("contract_rummy", None, 1, 13)[3]
    gin = _positions("gin_rummy", None, 1, 7)[2]
    return [contract, gin, _indian_with_cards_out_of_play()]


@pytest.mark.parametrize("which", range(3), ids=["contract_rummy", "gin_rummy", "indian_rummy"])
def test_each_unseen_card_lands_in_each_hidden_zone_uniformly(which: int) -> None:
    env, agent = _uniformity_positions()[which]
    info = env.information(agent)
    zones = tuple((name, k) for name, k in info.hidden if k)  # a packed seat holds none
    total = sum(k for _, k in zones)
    assert len(zones) >= 2 and total == len(info.pool)
    copies: dict[str, int] = {}
    for t in info.pool:
        c = rummy_env.cards.card_str(t)
        copies[c] = copies.get(c, 0) + 1
    rng = np.random.default_rng(2024)
    N = 1500
    observed = {name: {c: 0 for c in copies} for name, _ in zones}
    for _ in range(N):
        got = _zone_counts(sample_scenario(info, rng), zones, info.public)
        for name, counts in got.items():
            assert sum(counts.values()) == dict(zones)[name]
            for c, k in counts.items():
                observed[name][c] += k
    # Uniform dealing: a copy of a card lies in zone z with probability size(z) / total.
    obs, exp = [], []
    for name, size in zones:
        for c, k in copies.items():
            obs.append(observed[name][c])
            exp.append(N * k * size / total)
    obs_a, exp_a = np.array(obs, float), np.array(exp, float)
    chi2 = float(((obs_a - exp_a) ** 2 / exp_a).sum())
    dof = (len(zones) - 1) * (len(copies) - 1)
    p = _chi2_sf(chi2, dof)
    assert p > 1e-3, f"chi2={chi2:.1f} on {dof} degrees of freedom (p={p:.2g})"
    # And the test can fail: a sampler that dealt the pool in its sorted order is caught.
    biased = {name: {c: 0 for c in copies} for name, _ in zones}
    ordered = [rummy_env.cards.card_str(t) for t in info.pool]
    i = 0
    for name, size in zones:
        for c in ordered[i:i + size]:
            biased[name][c] += N
        i += size
    obs_b = np.array([biased[name][c] for name, _ in zones for c in copies], float)
    assert float(((obs_b - exp_a) ** 2 / exp_a).sum()) > chi2 * 10


def test_information_keeps_the_seats_hand_and_hides_the_rest() -> None:
    env = rummy_env.make("contract_rummy")
    env.reset(seed=3)
    agent = env.agent_selection
    seat = env.agent_name_mapping[agent]
    info = env.information(agent)
    real = env.get_state()
    assert info.public["hands"][seat] == real["hands"][seat]
    assert info.public["stock"] == [] and "zones" not in info.public
    for s in range(env.num_players):
        if s != seat:
            assert info.public["hands"][s] == real["known"][s]
            assert dict(info.hidden)[f"hand:{s}"] == len(real["hands"][s]) - len(real["known"][s])
    assert dict(info.hidden)["stock"] == len(real["stock"])
    # sample_world leaves the env's own generator alone.
    before = env.np_random.bit_generator.state
    env.sample_world(agent, 1)
    assert env.np_random.bit_generator.state == before
