"""SH-1 with SH-4: the final three-runs deal offers every contract meld the rules allow (issue 16,
point 5), checked against the brute-force reference (tests/reference_contract.py).

In Shanghai deal 7 and Tahelia Powe deal 8 (CR-13's final deal) the player must empty the hand on
the meld turn with no discard, and SH-4 lets it lay off on that turn: so the three runs need not
hold the whole hand, only leave cards that can all be laid off then, on the new runs or on the
melds already on the table. Random positions built for that (three runs, some extra cards that
extend them or fit the table, jokers, other players' melds) are followed through the whole turn,
the engine's legal set compared with the reference's at every step.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from rummy_env.cards import JOKER, card_str, parse_card
from rummy_env.contract.rules import PRESETS
from rummy_env.contract.state import ContractGame
from rummy_env.errors import ScenarioError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_contract as ref  # noqa: E402
from test_masks_bruteforce import (  # noqa: E402
    _layoff_cards, _pick, _random_table_meld, _ref_meld_of, _take, check_env, diff_msg, load,
)

FINAL = {"shanghai_rummy": 7, "shanghai_tahelia_powe": 8,
         # the Deb Kolsov version has no final deal (DK); with CR-13 on its deal 10 it has one
         "shanghai_deb_kolsov+final": 10}
OPTIONS = {"shanghai_rummy": {}, "shanghai_tahelia_powe": {},
           "shanghai_deb_kolsov+final": {"whole_hand_deals": (10,)}}


def final_scenario(rng, variant: str, deal: int):
    """A play-phase position of the final deal: seat 0 to move, not melded, holding three runs
    (4-6 cards, sometimes a joker) and 0-4 more cards; other seats melded now and then."""
    rules = PRESETS[variant]
    n = int(rng.choice([3, 4]))
    game = ContractGame(rules, n)
    pool = list(game.deck)
    table, shapes = [], []
    for s in range(1, n):
        if rng.random() < 0.5:
            for _ in range(int(rng.integers(1, 3))):
                m = _random_table_meld(rng, rules, pool, 4)
                if m is not None:
                    table.append({"owner": s, "cards": m[0], "wilds": m[1]})
                    got = _ref_meld_of(rules, [parse_card(x) for x in m[0]],
                                       [parse_card(x) for x in m[1]])
                    shapes.append(got[:4])
    hand: list[int] = []
    suits = [int(x) for x in rng.permutation(4)[:3]]
    if rng.random() < 0.3:
        suits[2] = suits[0]  # two runs of one suit (CR-9 / SH-2, TP-4)
    runs = []
    for suit in suits:
        k = int(rng.integers(4, 6))  # 12-15 cards: hands grow past 12 only by claims (SH-5)
        lo = int(rng.integers(2, 16 - k))
        got = []
        for p in range(lo, lo + k):
            t = ref.pos_type(suit, p)
            if _take(pool, t):
                got.append(t)
        if got and rng.random() < 0.25 and _take(pool, JOKER):
            i = int(rng.integers(len(got)))
            pool[got[i]] += 1
            got[i] = JOKER
        hand += got
        runs.append(("run", suit, lo, lo + k - 1))
    extra = int(rng.integers(0, 4))
    hand += _layoff_cards(rng, shapes + runs, pool, extra)
    if rng.random() < 0.2 and _take(pool, JOKER):
        hand.append(JOKER)
    if rng.random() < 0.3:
        nat = [t for t in range(52) for _ in range(pool[t])]
        t = int(rng.choice(nat))
        if _take(pool, t):
            hand.append(t)
    hands = [[card_str(t) for t in hand]]
    for _ in range(1, n):  # one card each: the other seats only wait
        t = int(rng.choice(np.flatnonzero(pool[:52])))
        pool[t] -= 1
        hands.append([card_str(t)])
    melded = sorted({m["owner"] for m in table})
    melded_turn = [-1] * n
    for s in melded:
        melded_turn[s] = 1
    return n, {"deal": deal, "dealer": n - 1, "to_move": 0, "phase": "play", "hands": hands,
               "table": table, "melded": melded,
               "turn": {"number": 3, "melded_turn": melded_turn}}


N = 150


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FINAL))
def test_final_deal_positions_match_reference(case):
    """SH-1, SH-4, CR-13 (and TP-3, TP-4, SH-2, SH-3 inside them): every step of the meld turn of
    >= 150 random final-deal positions, engine legal set == reference legal set; after the
    contract, only lay-offs that keep the hand emptiable, and the turn always ends with the hand
    empty."""
    variant = case.split("+")[0]
    deal, options = FINAL[case], OPTIONS[case]
    rng = np.random.default_rng(77 + list(FINAL).index(case))
    compared = short = emptied = 0
    for k in range(N):
        n, scen = final_scenario(rng, variant, deal)
        try:
            env = load(variant, scen, num_players=n, seed=k, illegal_action="raise", **options)
        except ScenarioError:
            continue  # a generated table the loader refuses (e.g. two of a player's melds)
        st = env.state_obj
        laid_off_after = False  # the contract left cards, laid off on the same turn
        for step in range(20):
            if st.current_player != 0 or st.phase != "play":
                break
            want = ref.reference_legal(st)
            got = set(st.legal_actions())
            compared += 1
            assert got == want, diff_msg(st, want, got) + f"\nscenario: {scen}"
            if step == 0 and k % 10 == 0:
                check_env(env)
            melds = sorted(a for a in want if a[0] == "meld")
            # a contract meld whenever one is offered, to reach the lay-offs after it
            a = melds[int(rng.integers(len(melds)))] if melds else _pick(rng, want)
            env.step(env.layout.encode(a))
            st = env.state_obj
            if st.melded[0] and st.phase == "play":
                laid_off_after = True
                legal = st.legal_actions()
                assert legal and all(x[0] == "lay_off" for x in legal)  # SH-1: no discard
        if st.melded[0]:
            assert st.went_out == 0 and st.hand_size(0) == 0  # the meld turn emptied the hand
            emptied += 1
            short += laid_off_after
    assert compared >= N
    print(f"{case}: {compared} positions compared, {emptied} emptied the hand, {short} of them by "
          "lay-offs after a shorter contract")
    assert emptied >= 5 and short >= 3, (emptied, short)
