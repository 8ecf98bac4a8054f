"""The single-agent Gymnasium views (rummy_env.wrappers): SingleSeatEnv and SelfPlayEnv.

The learner's reward is its own (CR-12 penalty points, PettingZoo issue #1147), the learner acts at
every returned step (also in out-of-turn May I? windows, CR-7 / C-8), the mask is its legal set
(CR-5), seats rotate (C-5), deals are seeded (C-6), and the env works under check_env, pickle,
SubprocVecEnv and sb3-contrib MaskablePPO.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummy_env
import rummy_env.bots
from rummy_env.bots import RandomBot, SeatView
from rummy_env.wrappers import INFO_KEYS, SelfPlayEnv, SingleSeatEnv

try:  # the SB3 tests below (the "train" extra); the rest need no torch
    import torch
except ImportError:
    pass
else:
    torch.set_num_threads(1)


class RecordingBot(RandomBot):
    """Records the seats it played and its resets. Melds, lays off, swaps and claims whenever it
    can, else random: its claims drain the stock and its melds empty hands, so deals end quickly
    where uniform random play often runs into the max_turns cap."""

    name = "recording"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seats: list[int] = []
        self.resets = 0

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.resets += 1

    def act(self, view: SeatView) -> int:
        self.seats.append(view.seat)
        texts = {a: view.action_layout.to_string(a) for a in view.legal_actions}
        for prefix in ("meld", "lay off", "swap", "claim", "draw stock"):
            hits = [a for a, t in texts.items() if t.startswith(prefix)]
            if hits:
                return int(hits[self.rng.integers(len(hits))])
        return super().act(view)


class ScriptBot(RandomBot):
    """Melds whenever it can, discards 2C when it can, draws from the stock, never claims."""

    name = "script"

    def act(self, view: SeatView) -> int:
        texts = {a: view.action_layout.to_string(a) for a in view.legal_actions}
        for want in ("meld", "discard 2C", "draw stock", "pass"):
            hits = [a for a, t in texts.items() if t.startswith(want)]
            if hits:
                return int(hits[0])
        return super().act(view)


def pick(env: SingleSeatEnv, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(env.action_masks())
    return int(legal[rng.integers(len(legal))])


def play(env: SingleSeatEnv, seed: int, act_seed: int = 0) -> list[tuple]:
    """One episode with random legal actions; the trajectory as comparable tuples."""
    rng = np.random.default_rng(act_seed)
    obs, info = env.reset(seed=seed)
    traj = [(obs.tobytes(), 0.0, False, False, tuple(sorted(info.items())))]
    while True:
        obs, r, te, tr, info = env.step(pick(env, rng))
        traj.append((obs.tobytes(), r, te, tr, tuple(sorted(info.items()))))
        if te or tr:
            return traj


# ---------------------------------------------------------------------------- Gymnasium API
@pytest.mark.parametrize("variant", ["contract_rummy", "may_i"])
def test_c6_check_env_passes(variant):
    """check_env (reset-seed determinism (C-6), spaces, step types) passes without errors.
    check_env samples unmasked actions, so illegal ones end the episode (illegal_action="penalize")."""
    env = SingleSeatEnv(variant, num_players=3, illegal_action="penalize", seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    first = env.aec.possible_agents[0]
    assert env.observation_space is env.aec.observation_space(first)["observation"]
    assert env.action_space == env.aec.action_space(first)


def test_c5_spaces_and_info_keys_fixed():
    """The spaces are the AEC's flat observation Box and Discrete(N); info keys never change."""
    env = SingleSeatEnv("contract_rummy", num_players=4, seed=3)
    obs, info = env.reset()
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert tuple(info) == INFO_KEYS and info["deal_penalty"] == 0 and info["won"] == 0
    assert all(isinstance(v, float) for v in info.values())
    rng = np.random.default_rng(0)
    while True:
        obs, r, te, tr, info = env.step(pick(env, rng))
        assert tuple(info) == INFO_KEYS and isinstance(r, float)
        assert env.observation_space.contains(obs)
        if te or tr:
            break
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


# ---------------------------------------------------------------------------- learner's reward
@pytest.mark.parametrize("variant,n", [("contract_rummy", 3), ("contract_rummy", 4), ("may_i", 4),
                                       ("liverpool_rummy", 3)])
def test_cr12_reward_is_the_learners_own_and_learner_acts_at_every_step(variant, n):
    """Over an episode the learner's rewards sum to -last_deal_delta[learner] * reward_scale
    (CR-12), even when the deal ends on an opponent's step; every returned step is the learner's
    decision (also its out-of-turn May I? decisions, CR-7 / C-8) with its exact mask (CR-5)."""
    scale = 0.5
    ended_on_bot = ended_on_learner = claims = truncated = 0
    for seed in range(8):
        bots = [RecordingBot() for _ in range(n - 1)]
        env = SingleSeatEnv(variant, opponents=bots, seat="rotate", num_players=n,
                            reward_scale=scale, score_truncated=False)
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        me, aec = env.learner, env.aec
        total, steps = 0.0, 0
        while True:
            assert aec.agent_selection == me
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            assert np.array_equal(mask, aec.observe(me)["action_mask"].astype(bool))
            assert np.array_equal(obs, aec.observe(me)["observation"])
            claims += aec.state_obj.phase == "claim"
            acted_before = sum(len(b.seats) for b in bots)
            obs, r, te, tr, info = env.step(pick(env, rng))
            total += r
            steps += 1
            if te or tr:
                break
        seat = env.learner_seat
        if tr:  # the max_turns cap: no deal result, no reward
            assert not te and total == 0.0 and info["deal_penalty"] == 0.0
            truncated += 1
            continue
        if sum(len(b.seats) for b in bots) > acted_before:
            ended_on_bot += 1
        else:
            ended_on_learner += 1
        delta = aec.state_obj.last_deal_delta
        assert total == pytest.approx(-delta[seat] * scale)
        assert info["deal_penalty"] == delta[seat]
        assert info["won"] == float(delta[seat] == min(delta))
        assert info["score"] == aec.state_obj.scores[seat]
        assert info["place"] == aec.state_obj.standings()[seat]
        assert info["seat"] == seat
        assert not env.action_masks().any()
        for k, b in enumerate(bots):  # bot k plays seat (learner + 1 + k) % n
            assert set(b.seats) <= {(seat + 1 + k) % n}
    assert truncated <= 5, "most deals must end (CR-12 scoring checked on them)"
    assert ended_on_bot >= 1, "some deal should end on an opponent's step"
    if variant != "liverpool_rummy":
        assert claims >= 1, "the learner should meet a May I? window (CR-7)"


def test_cr12_deal_end_reward_arriving_on_opponent_step():
    """The learner discards; the next seat draws, melds two sets (CR-3) and goes out: the
    learner's reward is minus its own hand (QS + 5D = 15 points, CR-12), not the winner's 0."""
    scenario = {"deal": 1, "to_move": 0, "phase": "play",
                "hands": [["KS", "QS", "5D"], ["7H", "7C", "7D", "9S", "9H", "9D"], ["4H", "5H"]],
                "stock": ["2C"]}
    env = SingleSeatEnv("contract_rummy", opponents=[ScriptBot(), ScriptBot()], seat=0,
                        num_players=3, reward_scale=0.01)
    obs, info = env.reset(seed=0, options={"scenario": scenario})
    obs, r, te, tr, info = env.step(env.aec.string_to_action("discard KS"))
    assert te and not tr
    assert env.aec.state_obj.went_out == 1
    assert r == pytest.approx(-0.15)
    assert info == {"deal_penalty": 15.0, "score": 15.0, "place": 3.0, "won": 0.0, "seat": 0.0}


def test_c6_cr12_game_episode_rewards_sum_to_the_learners_total():
    """episode="game": the deal rewards, given at each deal end (C-6), sum to minus the learner's
    game total; won is 1.0 when that total is the lowest (CR-12, ties: C-9)."""
    for seed in range(2):
        env = SingleSeatEnv("may_i", opponents=[RecordingBot() for _ in range(3)],
                            num_players=4, episode="game")
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        total = 0.0
        while True:
            obs, r, te, tr, info = env.step(pick(env, rng))
            total += r
            if te or tr:
                break
        st, seat = env.aec.state_obj, env.learner_seat
        assert te and st.deals_played == st.rules.num_deals
        assert total == pytest.approx(-st.scores[seat] * 0.01)
        assert info["score"] == st.scores[seat]
        assert info["deal_penalty"] == st.last_deal_delta[seat]
        assert info["won"] == float(st.scores[seat] == min(st.scores)) == float(info["place"] == 1)


def test_cr11_truncation_is_the_learners_and_has_no_deal_result():
    """A max_turns cap truncates the learner's episode; with score_truncated=False no deal
    result is reported."""
    env = SingleSeatEnv("contract_rummy", num_players=3, max_turns=2, seed=0,
                        score_truncated=False)
    rng = np.random.default_rng(0)
    env.reset()
    while True:
        obs, r, te, tr, info = env.step(pick(env, rng))
        if te or tr:
            break
    assert tr and not te and r == 0.0
    assert info["deal_penalty"] == 0.0 and info["won"] == 0.0


def test_truncated_deal_scores_the_learners_hand_by_default():
    """score_truncated=True: a deal cut off by max_turns pays the learner minus its hand's
    penalty points (CR-12) times reward_scale, and reports it in info."""
    env = SingleSeatEnv("contract_rummy", num_players=3, max_turns=2, seed=0, reward_scale=0.5)
    rng = np.random.default_rng(0)
    env.reset()
    while True:
        obs, r, te, tr, info = env.step(pick(env, rng))
        if te or tr:
            break
    st = env.aec.state_obj
    hands = [st.penalty(p) for p in range(3)]
    me = env.learner_seat
    assert tr and not te and hands[me] > 0
    assert r == pytest.approx(-hands[me] * 0.5)
    assert info["deal_penalty"] == hands[me]
    assert info["won"] == float(hands[me] == min(hands))


# ---------------------------------------------------------------------------- seats
def test_c5_seat_rotate_cycles_and_other_seat_modes():
    """seat="rotate" cycles the learner 0, 1, 2, 0 ... (C-5); an explicit seed starts at
    seed % n; seat="random" draws from the seeded generator; an int fixes the seat."""
    env = SingleSeatEnv("contract_rummy", num_players=3)
    seats = []
    for _ in range(5):
        env.reset()
        seats.append(env.learner_seat)
        assert env.aec.agent_selection == env.learner
    assert seats == [0, 1, 2, 0, 1]
    env.reset(seed=7)
    assert env.learner_seat == 7 % 3
    env.reset()
    assert env.learner_seat == (7 + 1) % 3

    env = SingleSeatEnv("contract_rummy", num_players=4, seat="random", seed=1)
    drawn = []
    for _ in range(12):
        env.reset()
        drawn.append(env.learner_seat)
    assert len(set(drawn)) > 1
    env2 = SingleSeatEnv("contract_rummy", num_players=4, seat="random", seed=1)
    drawn2 = []
    for _ in range(12):
        env2.reset()
        drawn2.append(env2.learner_seat)
    assert drawn2 == drawn

    env = SingleSeatEnv("contract_rummy", num_players=4, seat=2)
    for s in range(3):
        env.reset(seed=s)
        assert env.learner_seat == 2 and env.learner == "player_2"
    with pytest.raises(ValueError):
        SingleSeatEnv("contract_rummy", num_players=3, seat=3)
    with pytest.raises(ValueError):
        SingleSeatEnv("contract_rummy", seat="left")


# ---------------------------------------------------------------------------- determinism, pickle
def test_c6_determinism_same_seed_same_actions():
    """Two envs, same seed and actions: same observations, rewards and infos (C-6); another seed
    gives another deal."""
    for seed in (0, 5):
        a = SingleSeatEnv("contract_rummy", num_players=4, seat="random")
        b = SingleSeatEnv("contract_rummy", num_players=4, seat="random")
        assert play(a, seed) == play(b, seed)
        assert play(a, seed + 1) == play(b, seed + 1)
    c = SingleSeatEnv("contract_rummy", num_players=4, seat=0)
    assert play(c, 0)[0][0] != play(c, 1)[0][0]
    d1 = SingleSeatEnv("may_i", seed=11)
    d2 = SingleSeatEnv("may_i", seed=11)
    assert d1.reset()[0].tobytes() == d2.reset()[0].tobytes()


def test_c6_pickle_round_trip_mid_episode():
    """pickle keeps the position, the bots' generators and the seat cycle: the copy continues
    exactly like the original."""
    env = SingleSeatEnv("contract_rummy", num_players=4, seed=2)
    rng = np.random.default_rng(0)
    env.reset()
    for _ in range(15):
        _, _, te, tr, _ = env.step(pick(env, rng))
        assert not (te or tr)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.learner_seat == env.learner_seat
    assert np.array_equal(clone.action_masks(), env.action_masks())
    for _ in range(2):  # the rest of this episode and the whole next one
        r1, r2 = np.random.default_rng(1), np.random.default_rng(1)
        while True:
            out1 = env.step(pick(env, r1))
            out2 = clone.step(pick(clone, r2))
            assert out1[0].tobytes() == out2[0].tobytes() and out1[1:] == out2[1:]
            if out1[2] or out1[3]:
                break
        o1, i1 = env.reset()
        o2, i2 = clone.reset()
        assert o1.tobytes() == o2.tobytes() and i1 == i2


# ---------------------------------------------------------------------------- opponents
def test_c5_opponent_forms():
    """Opponents as a name, a sequence (bot k plays seat learner+1+k, C-5) or a factory
    (seat_index, rng); set_opponents swaps them; wrong forms are rejected."""
    calls = []

    def factory(seat, rng):
        assert isinstance(rng, np.random.Generator)
        calls.append(seat)
        return RecordingBot()

    env = SingleSeatEnv("contract_rummy", opponents=factory, seat=1, num_players=4, seed=0)
    env.reset()
    assert calls == [2, 3, 0]
    assert sorted(env.opponents) == [0, 2, 3]
    env.reset()
    assert calls == [2, 3, 0] * 2  # a factory is asked at every reset

    bots = [RecordingBot(), RecordingBot(), RecordingBot()]
    env.set_opponents(bots)  # mid-episode: the new bots take over at once
    assert [b.resets for b in bots] == [1, 1, 1]
    assert env.opponents == {2: bots[0], 3: bots[1], 0: bots[2]}
    play(env, seed=4)
    assert {s for b in bots for s in b.seats} <= {0, 2, 3}
    assert all(set(b.seats) <= {s} for b, s in zip(bots, (2, 3, 0)))

    env.set_opponents("random")
    assert all(isinstance(b, RandomBot) for b in env.opponents.values())
    with pytest.raises(ValueError):
        env.set_opponents([RandomBot()])
    with pytest.raises(TypeError):
        env.set_opponents([RandomBot(), RandomBot(), object()])
    with pytest.raises(TypeError):
        env.set_opponents(3)


def test_c5_greedy_opponents_when_available():
    """opponents="greedy" uses rummy_env.bots.make_bot("greedy", seed) (once it exists)."""
    if not hasattr(rummy_env.bots, "make_bot"):
        with pytest.raises(ValueError, match="make_bot"):
            SingleSeatEnv("contract_rummy", opponents="greedy")
        return
    env = SingleSeatEnv("contract_rummy", opponents="greedy", num_players=3, seed=0)
    env.reset()
    assert all(type(b) is type(rummy_env.bots.make_bot("greedy", 0))
               for b in env.opponents.values())
    assert play(pickle.loads(pickle.dumps(env)), seed=3) == play(env, seed=3)
    traj = play(env, seed=0)
    assert traj[-1][2] or traj[-1][3]
    assert play(SingleSeatEnv("contract_rummy", opponents="greedy", num_players=3), 0) == traj


def test_c5_self_play_env_draws_opponents_from_the_pool():
    """SelfPlayEnv: random opponents while the pool is empty, then snapshots drawn per reset."""
    env = SelfPlayEnv("contract_rummy", num_players=3, seed=0)
    env.reset()
    assert all(type(b) is RandomBot for b in env.opponents.values())
    snaps = [RecordingBot(), RecordingBot()]
    for s in snaps:
        env.add_snapshot(s)
    seen = set()
    for seed in range(6):
        play(env, seed)
        seen |= {id(b) for b in env.opponents.values()}
    assert seen <= {id(s) for s in snaps} and len(seen) == 2
    assert sum(len(s.seats) for s in snaps) > 0
    clone = pickle.loads(pickle.dumps(env))
    assert len(clone.snapshot_pool) == 2 and play(clone, 9) == play(env, 9)
    env.set_opponents(None)
    env.reset()
    assert env.snapshot_pool == [] and all(type(b) is RandomBot for b in env.opponents.values())
    capped = SelfPlayEnv("may_i", snapshot_pool=[RandomBot()], max_pool=2)
    for _ in range(3):
        capped.add_snapshot(RecordingBot())
    assert len(capped.snapshot_pool) == 2
    with pytest.raises(TypeError):
        SelfPlayEnv("may_i", opponents="random")


def test_c5_wrappers_do_not_import_torch_or_sb3():
    """Layering (DESIGN): rummy_env.wrappers depends on gymnasium and rummy_env only."""
    code = ("import sys, rummy_env.wrappers; bad = [m for m in ('torch', 'stable_baselines3', "
            "'sb3_contrib') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------------------- SB3
def test_cr5_subproc_vec_env_masked_steps():
    """SubprocVecEnv with 2 envs: env_method("action_masks") gives each learner's legal set
    (CR-5), masked random steps run, and set_opponents goes through env_method."""
    pytest.importorskip("stable_baselines3")  # the "train" extra
    from stable_baselines3.common.vec_env import SubprocVecEnv

    fns = [lambda i=i: SingleSeatEnv("contract_rummy", num_players=3, seed=i) for i in range(2)]
    venv = SubprocVecEnv(fns)
    try:
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(20):
            masks = np.stack(venv.env_method("action_masks"))
            assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, dones, infos = venv.step(acts)
            assert obs.shape == (2, *venv.observation_space.shape)
            assert all(set(INFO_KEYS) <= set(i) for i in infos)
        venv.env_method("set_opponents", [RecordingBot(), RecordingBot()])
        venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all()
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        if hasattr(rummy_env.bots, "make_bot"):
            venv.env_method("set_opponents", "greedy")
        venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all()
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    finally:
        venv.close()


def test_cr5_maskable_ppo_smoke_without_illegal_actions():
    """MaskablePPO learns 128 steps; illegal_action="raise" would raise on any illegal one (CR-5)."""
    pytest.importorskip("sb3_contrib")  # the "train" extra
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([lambda: SingleSeatEnv("contract_rummy", num_players=3,
                                              illegal_action="raise", seed=0)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=32, seed=0)
    model.learn(128)
    assert model.num_timesteps >= 128
    env = SingleSeatEnv("contract_rummy", num_players=3, seed=1)
    obs, _ = env.reset()
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
