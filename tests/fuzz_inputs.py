"""Inputs for the property-based suite (tests/test_fuzz.py, issue 16): positions from every
phase of seeded random play, and mutations of their ``get_state()`` dicts, driven by a
``Chooser`` so that hypothesis (or a plain ``random.Random`` when exploring) makes the choices.

Kept out of the test module so that an exploratory run (``python tests/fuzz_inputs.py``) and the
tests share one mutator.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from functools import lru_cache
from typing import Any, Callable, Protocol, Sequence

import numpy as np

import rummy_env


class Chooser(Protocol):
    """Where a mutation's choices come from."""

    def pick(self, seq: Sequence[Any]) -> Any: ...

    def integer(self, lo: int, hi: int) -> int: ...


class RandomChooser:
    """A ``Chooser`` over ``random.Random`` (exploratory runs)."""

    def __init__(self, rnd: Any) -> None:
        self.rnd = rnd

    def pick(self, seq: Sequence[Any]) -> Any:
        return seq[self.rnd.randrange(len(seq))]

    def integer(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, hi)


#: Values of the wrong type or out of range, put in place of any field.
BAD_VALUES: tuple[Any, ...] = (
    None, True, False, 1.5, float("nan"), float("inf"), -1, 0, 1, 2, 3, 10**30, -(2**63), 2**64,
    "", "x", "ZZ", "7H", "JK", "JK=7H", "10H", "0H", "1Q", "7", [], [[]], [[[[[]]]]], {}, {"a": 1},
    ["7H"], [1, 2], [None], b"7H", (), "draw",
)

#: Card texts that name no card (or are not text).
BAD_CARDS: tuple[Any, ...] = ("ZZ", "", "11H", "0S", "7X", "J", "JKK", "7H7H", "10", 7, None,
                              1.5, ["7H"], "JK=", "=7H", "JK=JK", "7H=7C", "٧H")


def playable_variants() -> tuple[str, ...]:
    return tuple(rummy_env.VARIANTS)


def player_counts(variant: str) -> tuple[int, ...]:
    rules = rummy_env.make(variant).rules
    return tuple(sorted({rules.min_players, rules.max_players}))


def _preferred(texts: list[str]) -> list[int]:
    """Indices of moves that make interesting positions (melds, lay-offs, claims, knocks)."""
    keys = ("meld", "lay off", "swap", "knock", "take", "claim", "buy", "may", "add", "call",
            "announce", "declare", "show")
    return [i for i, t in enumerate(texts) if t.startswith(keys)]


@lru_cache(maxsize=None)
def positions(variant: str, n: int, seeds: int = 3) -> tuple[str, ...]:
    """``get_state()`` of positions from every phase of ``seeds`` random deals (plus one short
    whole game), as JSON text (immutable, so the cache can be shared)."""
    out: list[str] = []
    for seed in range(seeds + 1):
        game = seed == seeds
        env = rummy_env.make(variant, num_players=n, **(
            {"episode": "game"} if game else {"deal": "random"}))
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out.append(json.dumps(env.get_state()))
        phases: Counter = Counter()
        for step in range(400 if seed == seeds else 10_000):
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                break
            legal, texts = env.legal_actions(), env.legal_action_strings()
            pref = _preferred(texts)
            i = (pref[int(rng.integers(len(pref)))] if pref and rng.random() < 0.7
                 else int(rng.integers(len(legal))))
            env.step(legal[i])
            phase = env.state_obj.phase
            if env.state_obj.turn_number > env.max_turns:
                break  # truncated: a scenario may not start beyond max_turns
            # keep every phase seen, rare ones more often
            if rng.random() < 1.0 / (1 + phases[phase]) or rng.random() < 0.05:
                phases[phase] += 1
                out.append(json.dumps(env.get_state()))
        if env.state_obj.turn_number <= env.max_turns:
            out.append(json.dumps(env.get_state()))
    return tuple(out)


# --------------------------------------------------------------------------- mutations
def _paths(d: Any, p: tuple = ()) -> list[tuple]:
    out = [p]
    if isinstance(d, dict):
        for k, v in d.items():
            out += _paths(v, p + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out += _paths(v, p + (i,))
    return out


def _parent(d: Any, p: tuple) -> Any:
    for k in p[:-1]:
        d = d[k]
    return d


def _card_lists(d: dict) -> list[tuple]:
    """Paths of every list of card strings (hands, stock, pile, melds, known ...)."""
    out = []
    for p in _paths(d):
        if not p or p[0] == "zones":
            continue
        v = _parent(d, p + (None,)) if False else _get(d, p)
        if isinstance(v, list) and v and all(isinstance(x, str) and len(x) <= 6 for x in v):
            out.append(p)
        elif isinstance(v, list) and not v and p[-1] in ("stock", "discard", "out_of_play",
                                                          "known", "cards"):
            out.append(p)
    return out


def _get(d: Any, p: tuple) -> Any:
    for k in p:
        d = d[k]
    return d


def _n(d: dict) -> int:
    """The player count (a mutation may have broken ``num_players``)."""
    n = d.get("num_players")
    return n if type(n) is int and 2 <= n <= 8 else 4


def _m_drop(d: dict, c: Chooser) -> None:
    keys = [k for k in d if k != "zones"]
    turn = d.get("turn")
    options = [("top", k) for k in keys]
    if isinstance(turn, dict):
        options += [("turn", k) for k in turn]
    where, k = c.pick(options)
    (d if where == "top" else turn).pop(k)


def _m_bad_value(d: dict, c: Chooser) -> None:
    paths = [p for p in _paths(d) if p and p[0] != "zones"]
    p = c.pick(paths)
    _parent(d, p)[p[-1]] = c.pick(BAD_VALUES)


def _m_tweak_int(d: dict, c: Chooser) -> None:
    paths = [p for p in _paths(d) if p and p[0] != "zones"
             and type(_get(d, p)) is int]
    if not paths:
        return
    p = c.pick(paths)
    delta = c.pick((-2, -1, 1, 2, 10**6, 2**40, -(10**12)))
    _parent(d, p)[p[-1]] += delta


def _m_bad_card(d: dict, c: Chooser) -> None:
    lists = [p for p in _card_lists(d) if _get(d, p)]
    if not lists:
        return
    p = c.pick(lists)
    lst = _get(d, p)
    lst[c.integer(0, len(lst) - 1)] = c.pick(BAD_CARDS)


def _m_move_card(d: dict, c: Chooser) -> None:
    """Move (or copy, or drop) one card between two card lists: the counts no longer match."""
    lists = _card_lists(d)
    src = [p for p in lists if _get(d, p)]
    if not src or not lists:
        return
    a, b = c.pick(src), c.pick(lists)
    la, lb = _get(d, a), _get(d, b)
    card = la[c.integer(0, len(la) - 1)]
    how = c.pick(("move", "copy", "drop"))
    if how != "copy":
        la.remove(card)
    if how != "drop":
        lb.insert(c.integer(0, len(lb)), card)


def _m_turn(d: dict, c: Chooser) -> None:
    """Plausible but inconsistent turn data: the kind the loaders must check by meaning."""
    turn = d.get("turn")
    if not isinstance(turn, dict):
        return
    cards = [x for p in _card_lists(d) for x in _get(d, p)] or ["7H"]
    n = _n(d)
    k = c.pick(sorted(turn) + ["contract_left", "contract_laid", "jokers_owed", "obligation",
                                "forbidden", "claim_queue", "taken", "pending", "draws"])
    v = turn.get(k)
    choices: list[Any] = [None, 0, 1, 2, -1, n, c.pick(cards), [], [c.integer(-1, n)],
                          list(range(n)), True, False]
    if k == "contract_left":
        choices += [[["set", 3]], [["run", 4]], [["set", 3], ["set", 3]], [["run", 4], ["set", 3]],
                    [["set", 7]], [["run", 0]], [["set", -3]], [["set", 2**70]], [["x", 3]],
                    [[["set"], 3]], []]
    if k == "contract_laid":
        choices += [[["set", 7, 2]], [["run", 0, 4, 3]], [["set", 7, 2], ["run", 1, 1, 4]],
                    [[["set"]]], [[[[[]]]]], [["set", 10**30, 0]]]
    if isinstance(v, list) and v:
        w = copy.deepcopy(v)
        w[c.integer(0, len(w) - 1)] = c.pick(BAD_VALUES[:16])
        choices.append(w)
        choices.append(w[:-1])
        choices.append(w + w[-1:])
    turn[k] = c.pick(choices)


def _m_phase(d: dict, c: Chooser) -> None:
    d["phase"] = c.pick(("draw", "play", "claim", "call", "deal_over", "game_over",
                         "first_upcard", "knock", "defend", "meld", None, "Draw", 3))


def _m_seat(d: dict, c: Chooser) -> None:
    n = _n(d)
    k = c.pick(("to_move", "dealer", "deal", "deals_played", "num_players", "knocker"))
    d[k] = c.pick((0, 1, n - 1, n, -1, d.get(k, 0)) if k != "deal" else (0, 1, 2, 7, 8, 99))


MUTATIONS: tuple[Callable[[dict, Chooser], None], ...] = (
    _m_drop, _m_bad_value, _m_tweak_int, _m_bad_card, _m_move_card, _m_move_card, _m_turn,
    _m_turn, _m_phase, _m_seat,
)


def mutate(state: dict, c: Chooser, max_ops: int = 3) -> dict:
    """A copy of ``state`` (without ``zones``, which is output only) with 1..``max_ops``
    mutations."""
    d = copy.deepcopy(state)
    d.pop("zones", None)
    for _ in range(c.integer(1, max_ops)):
        op = c.pick(MUTATIONS)
        try:
            op(d, c)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # the mutation did not apply to this shape (e.g. a field replaced earlier)
    return d


# --------------------------------------------------------------------------- invariants
def zone_cards(state: dict) -> Counter:
    c: Counter = Counter()
    for cards in state["zones"].values():
        c.update(cards)
    return c


def play_to_end(env: Any, seed: int, max_steps: int = 3000) -> int:
    """Random legal play to the end of the episode from the env's position, checking the soak's
    invariants at every step: the actor's mask non-empty and exactly the legal set, every other
    seat's all zeros, every card conserved, ``get_state()`` JSON. Returns the steps played."""
    rng = np.random.default_rng(seed)
    state = env.get_state()
    json.dumps(state)
    cards = zone_cards(state)
    for step in range(max_steps):
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            return step
        actor = env.agent_selection
        mask = env.observe(actor)["action_mask"]
        legal = env.legal_actions()
        assert mask.any(), f"empty mask for the actor {actor}"
        assert list(np.flatnonzero(mask)) == sorted(legal)
        for a in env.agents:
            if a != actor:
                assert not env.observe(a)["action_mask"].any(), f"{a} has a mask off turn"
        env.step(legal[int(rng.integers(len(legal)))])
        state = env.get_state()
        assert zone_cards(state) == cards, "cards not conserved"
    json.dumps(env.get_state())
    return max_steps


if __name__ == "__main__":  # exploratory run: python tests/fuzz_inputs.py VARIANT N ITERS
    import random
    import sys
    import traceback
    import warnings

    warnings.simplefilter("ignore")
    variant, n, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seed0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    pos = [json.loads(p) for p in positions(variant, n)]
    env = rummy_env.make(variant, num_players=n, illegal_action="raise")
    rnd = random.Random(seed0)
    bugs: Counter = Counter()
    examples: dict = {}
    accepted = 0
    for i in range(iters):
        scen = mutate(rnd.choice(pos), RandomChooser(rnd))
        env.reset(seed=1)
        before = env.get_state()
        try:
            env.reset(options={"scenario": scen})
        except rummy_env.ScenarioError:
            if env.get_state() != before:
                bugs["state changed after refusal"] += 1
            continue
        except Exception as e:  # noqa: BLE001 - looking for them
            tb = traceback.extract_tb(e.__traceback__)[-1]
            key = f"{type(e).__name__} at {tb.filename.split('/')[-1]}:{tb.lineno} {str(e)[:60]}"
            bugs[key] += 1
            examples.setdefault(key, scen)
            continue
        accepted += 1
        try:
            play_to_end(env, i)
        except Exception as e:  # noqa: BLE001
            tb = traceback.extract_tb(e.__traceback__)[-1]
            key = (f"PLAY {type(e).__name__} at {tb.filename.split('/')[-1]}:{tb.lineno} "
                   f"{str(e)[:60]}")
            bugs[key] += 1
            examples.setdefault(key, scen)
    print(variant, n, iters, "accepted", accepted)
    for k, v in bugs.most_common():
        print(f"  {v:4d} {k}")
    with open(f"/tmp/fz/ex_{variant}_{n}.json", "w") as f:
        json.dump({k: v for k, v in examples.items()}, f, default=repr)
