"""The shared engine machinery: randomness, ranking, the simulate driver (with a toy game)."""

import json
from collections import Counter

import pytest

from app.games.base import IllegalAction, competition_ranking
from app.games.rng import HashRandom, ScriptedRandom, ScriptExhausted, random_from_state
from app.games.simulate import lineup, play_game
from tests.support.toy_game import Race, seeded_bots


def test_hash_random_is_deterministic_per_seed_and_differs_between_seeds():
    first = [HashRandom(b"seed-a").randbelow(1000) for _ in range(3)]
    again = HashRandom(b"seed-a")
    assert [again.randbelow(1000) for _ in range(1)] == first[:1]
    a, b = HashRandom(b"seed-a"), HashRandom(b"seed-b")
    assert [a.randbelow(10**9) for _ in range(20)] != [b.randbelow(10**9) for _ in range(20)]


def test_hash_random_resumes_mid_block_with_the_identical_future():
    rng = HashRandom()
    for _ in range(13):  # stop inside the second 8-word block
        rng.randbelow(97)
    saved = json.loads(json.dumps(rng.to_state()))
    future = [rng.roll(6) for _ in range(40)]
    resumed = random_from_state(saved)
    assert [resumed.roll(6) for _ in range(40)] == future


def test_hash_random_rolls_cover_every_face_roughly_evenly():
    rng = HashRandom(b"fairness")
    counts = Counter(rng.roll(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_000 < n < 11_000 for n in counts.values())


def test_hash_random_shuffle_is_a_permutation():
    items = list(range(108))
    HashRandom(b"x").shuffle(items)
    assert sorted(items) == list(range(108)) and items != list(range(108))


def test_hash_random_shuffle_is_fisher_yates_over_its_own_randbelow():
    # shuffle reads the word stream inline for speed; it must draw exactly what randbelow would, so a stored seed
    # replays the same deals whichever of the two an engine used.
    for size in (2, 41, 108, 300):
        shuffled, reference = list(range(size)), list(range(size))
        fast, slow = HashRandom(b"same-seed"), HashRandom(b"same-seed")
        fast.randbelow(7)  # start mid-block
        slow.randbelow(7)
        fast.shuffle(shuffled)
        for i in range(size - 1, 0, -1):
            j = slow.randbelow(i + 1)
            reference[i], reference[j] = reference[j], reference[i]
        assert shuffled == reference
        assert fast.to_state() == slow.to_state()


def test_hash_random_shuffle_follows_randbelow_through_rejections_too(monkeypatch):
    # Real rejections are about 1 in 10**17; lower the limits so that half the words are rejected, in shuffle and
    # randbelow alike, and the two must still agree word for word (block boundaries included).
    import app.games.rng as rng_module

    half = [0] + [((1 << 63) // n) * n for n in range(1, 257)]
    monkeypatch.setattr(rng_module, "_SMALL_LIMITS", half)
    shuffle_limits = [tuple(half[n] for n in ranges) for ranges in rng_module._SHUFFLE_RANGES]
    monkeypatch.setattr(rng_module, "_SHUFFLE_LIMITS", shuffle_limits)  # the bulk draw's copy of the limits
    monkeypatch.setattr(rng_module, "_REJECTABLE", b"")  # its quick test of the digests holds for the real limits only
    for size in (2, 9, 41, 108):
        shuffled, reference = list(range(size)), list(range(size))
        fast, slow = HashRandom(b"rejections"), HashRandom(b"rejections")
        fast.randbelow(5)
        slow.randbelow(5)
        fast.shuffle(shuffled)
        for i in range(size - 1, 0, -1):
            j = slow.randbelow(i + 1)
            reference[i], reference[j] = reference[j], reference[i]
        assert shuffled == reference
        assert fast.to_state() == slow.to_state()
        assert fast.randbelow(1000) == slow.randbelow(1000)


def test_hash_random_refuses_ranges_one_word_cannot_cover():
    rng = HashRandom(b"bounds")
    assert 0 <= rng.randbelow(2**64) < 2**64
    for bad in (0, -3, 2**64 + 1):
        with pytest.raises(ValueError):
            rng.randbelow(bad)


def test_new_games_get_distinct_secret_seeds():
    assert HashRandom().seed != HashRandom().seed


def test_scripted_random_puts_named_items_first_and_keeps_the_rest_in_order():
    rng = ScriptedRandom(shuffles=[["d", "a"]], rolls=[6, 1], ints=[2])
    items = list("abcde")
    rng.shuffle(items)
    assert items == ["d", "a", "b", "c", "e"]
    assert [rng.roll(), rng.roll(), rng.randbelow(3)] == [6, 1, 2]


def test_scripted_random_refuses_impossible_scripts():
    with pytest.raises(ValueError):
        ScriptedRandom(shuffles=[["z"]]).shuffle(["a", "b"])
    with pytest.raises(ValueError):
        ScriptedRandom(rolls=[7]).roll(6)
    with pytest.raises(ScriptExhausted):
        ScriptedRandom(strict=True).roll(6)


def test_scripted_random_serialises_its_remaining_script():
    rng = ScriptedRandom(rolls=[3, 4, 5])
    rng.roll()
    resumed = random_from_state(json.loads(json.dumps(rng.to_state())))
    assert [resumed.roll(), resumed.roll(), resumed.roll()] == [4, 5, rng.fallback.roll()]


@pytest.mark.parametrize(
    ("keys", "higher", "placings"),
    [
        ([10, 30, 30, 5], True, [3, 1, 1, 4]),
        ([0, 2, 2, 7], False, [1, 2, 2, 4]),
        ([1, 1], True, [1, 1]),
    ],
)
def test_competition_ranking(keys, higher, placings):
    assert competition_ranking(keys, higher_is_better=higher) == placings


def test_check_options_fills_defaults_and_refuses_unknown_or_mistyped_options():
    assert Race.check_options(2, {"target": 20}) == {"target": 20, "bell_seconds": 2.0}
    with pytest.raises(IllegalAction) as refused:
        Race.check_options(2, {"speed": 1})
    assert refused.value.code == "unknown_option"
    with pytest.raises(IllegalAction) as refused:
        Race.check_options(2, {"target": "far"})
    assert refused.value.code == "bad_option"
    with pytest.raises(IllegalAction) as refused:
        Race.check_options(2, {"bell_seconds": True})
    assert refused.value.code == "bad_option"
    assert Race.check_options(2, {"bell_seconds": 3})["bell_seconds"] == 3
    with pytest.raises(IllegalAction) as refused:
        Race.check_options(5, None)
    assert refused.value.code == "bad_seat_count"


def test_driver_plays_to_the_end_and_lets_deadlines_expire():
    game = Race.create(3, {"target": 40}, HashRandom(b"driver"))
    played = play_game(game, seeded_bots(["easy", "easy", "easy"]), check=True)
    assert played.violations == []
    assert game.outcome() is not None and sorted(game.outcome().placings) == [1, 2, 2]
    assert game.state["bells"] > 0


def test_driver_reports_a_bot_that_chooses_an_illegal_action():
    class Cheater(Race.bots["easy"]):
        def choose(self, view, legal):
            return {"type": "add", "amount": 3}

    game = Race.create(2, None, HashRandom(b"cheat"))
    played = play_game(game, [Cheater(0), Cheater(1)])
    assert played.violations and "illegal" in played.violations[0]


def test_lineup_rotates_so_no_level_keeps_the_first_seat():
    firsts = {lineup(["hard", "easy", "easy", "easy"], 4, g)[0] for g in range(4)}
    assert firsts == {"hard", "easy"}
    assert all(lineup(["hard", "easy", "easy", "easy"], 4, g).count("hard") == 1 for g in range(8))
    assert {level for g in range(3) for level in lineup(["hard", "medium", "easy"], 2, g)} == {"hard", "medium", "easy"}
