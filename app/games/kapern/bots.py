"""Bots for Piraten Kapern. They read only their own seat's view and the legal actions, and remember nothing.

- easy: stops as soon as stopping scores 300 or more; otherwise rerolls the dice that score nothing.
- medium: card-aware thresholds (skulls, Pirate, Treasure Island, Guardian, sea battles, Peace, Shipwreck).
- hard: expected value. It compares stopping now with every sensible reroll (keep whole kinds of faces, reroll the
  rest, with or without the Guardian's skull) by exact enumeration of the rerolled dice, scoring every outcome with
  the engine's own `score_turn`: skull risk, the chest (kept dice lie on it before a reroll), the card, and the
  scoreboard (on a last turn, or after the last turns, it plays to reach the score that wins, not for points).
  Its budget is fixed: each outcome is valued by looking `depth` rerolls ahead in all (this one and the best two
  after it), again by exact enumeration. Those values are pure functions of the card and the dice, memoised in
  this module (a few thousand dice states per card), so a decision repeats no work another one already did.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from math import factorial

from app.games.base import Action, Bot, View
from app.games.kapern.cards import (
    ANIMALS,
    CARD_LIST,
    CARDS,
    COIN,
    DIAMOND,
    DICE,
    DISQUALIFYING_SKULLS,
    FACES,
    MONKEY,
    PARROT,
    PEACE,
    PIRATE,
    SABER,
    SHIPWRECK,
    SHIPWRECK_ROLLS,
    SKULL,
    SMALLEST_REROLL,
    TREASURE_ISLAND,
    ZOMBIE_ATTACK,
)
from app.games.kapern.scoring import DISQUALIFIED, SKULL_ISLAND, STOPPED, score_turn


# ------------------------------------------------------------------------------------------- reading a view


class _Turn:
    """The bot's reading of its view: the card, the dice and what the rules allow now."""

    def __init__(self, view: View):
        turn = view["turn"]
        self.card: str = turn["card"]["id"]
        self.phase: str = turn["phase"]
        self.faces: list[str] = [d["face"] for d in turn["dice"]]
        self.on_chest: list[bool] = [d["state"] == "chest" for d in turn["dice"]]
        self.skulls: int = turn["skulls"]["total"]
        self.card_skulls: int = turn["skulls"]["card"]
        self.guardian_ready: bool = bool(turn["guardian"] and turn["guardian"]["available"])
        self.rolls: int = turn["rolls"]
        self.stop_now: int | None = turn["stop_now"]["points"] if turn["stop_now"] else None
        self.opponents: int = view["players"] - 1

    @property
    def skull_dice(self) -> list[int]:
        return [i for i, face in enumerate(self.faces) if face == SKULL]

    @property
    def non_skull(self) -> list[int]:
        return [i for i, face in enumerate(self.faces) if face != SKULL]

    @property
    def free(self) -> list[int]:
        return [i for i, face in enumerate(self.faces) if face != SKULL and not self.on_chest[i]]


def _roll(dice: Sequence[int]) -> Action:
    return {"type": "roll", "dice": sorted(dice)}


_STOP: Action = {"type": "stop"}


def _pick(wanted: Action, legal: list[Action]) -> Action | None:
    return wanted if wanted in legal else None


def _largest_roll(legal: list[Action]) -> Action | None:
    rolls = [a for a in legal if a["type"] == "roll"]
    return max(rolls, key=lambda a: len(a["dice"])) if rolls else None


def _kept(card: str, faces: Sequence[str]) -> list[bool]:
    """Dice worth keeping by a simple eye: coins, diamonds, sets of three, sabers in a sea battle."""
    info = CARDS[card]
    if card == SHIPWRECK:
        return [face in (COIN, DIAMOND) for face in faces]
    if card == ZOMBIE_ATTACK:
        return [face in (SKULL, SABER) for face in faces]

    def kind(face: str) -> str:
        return "animals" if card == ANIMALS and face in (MONKEY, PARROT) else face

    counts: dict[str, int] = {}
    for face in faces:
        counts[kind(face)] = counts.get(kind(face), 0) + 1
    if info.extra_face:
        counts[info.extra_face] = counts.get(info.extra_face, 0) + 1
    keep = []
    for face in faces:
        if face == SKULL:
            keep.append(True)
        elif face == SABER and card == PEACE:
            keep.append(False)
        elif face == SABER and info.sea_battle:
            keep.append(True)
        else:
            keep.append(face in (COIN, DIAMOND) or counts[kind(face)] >= 3)
    return keep


def _skull_island_roll(turn: _Turn, legal: list[Action]) -> Action:
    """On Skull Island every extra skull costs the opponents: roll every die that may roll."""
    return _largest_roll(legal) or _STOP


def _guardian_rescue(turn: _Turn, legal: list[Action]) -> Action:
    """Three skulls with the Guardian: reroll one skull and the dice that score nothing."""
    keep = _kept(turn.card, turn.faces)
    junk = [i for i in turn.free if not keep[i]]
    return _pick(_roll([turn.skull_dice[0], *junk]), legal) or _pick(_roll([turn.skull_dice[0]]), legal) or _STOP


# ------------------------------------------------------------------------------------------------- easy


class EasyBot(Bot):
    """Stops at a low fixed score (300); rerolls whatever scores nothing, whatever the risk."""

    level = "easy"
    stop_at = 300

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if len(legal) == 1:
            return legal[0]
        turn = _Turn(view)
        if turn.phase == "skull_island":
            return _skull_island_roll(turn, legal)
        if turn.phase == "guardian_rescue":
            return _guardian_rescue(turn, legal)
        if turn.stop_now is not None and turn.stop_now >= self.stop_at:
            return _STOP
        keep = _kept(turn.card, turn.faces)
        junk = [i for i in turn.free if not keep[i]]
        if len(junk) >= SMALLEST_REROLL:
            return _pick(_roll(junk), legal) or _STOP
        if turn.stop_now is not None and turn.stop_now > 0:
            return _STOP
        return _largest_roll(legal) or _STOP


# ----------------------------------------------------------------------------------------------- medium


class MediumBot(Bot):
    """Card-aware thresholds: how much to risk depends on the skulls, the card and the Guardian."""

    level = "medium"
    # Stop once stopping scores this much, by skulls showing (dice and card).
    thresholds = {0: 900, 1: 600, 2: 300}

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if len(legal) == 1:
            return legal[0]
        turn = _Turn(view)
        if turn.phase == "skull_island":
            if turn.card == PEACE and SABER not in turn.faces:
                return _STOP  # kapern.md: a saber showing when the island turn ends costs 500
            return _skull_island_roll(turn, legal)
        if turn.phase == "guardian_rescue":
            return _guardian_rescue(turn, legal)
        card = CARDS[turn.card]
        keep = _kept(turn.card, turn.faces)
        if turn.card == SHIPWRECK:
            junk = [i for i in turn.free if not keep[i]]
            return _pick(_roll(junk), legal) or _STOP
        sabers = turn.faces.count(SABER)
        if card.sea_battle and sabers < card.sabers_needed:
            chase = [i for i in turn.free if turn.faces[i] != SABER]
            return _pick(_roll(chase), legal) or _STOP
        skulls = turn.skulls - (1 if turn.guardian_ready else 0)
        threshold = self.thresholds.get(skulls, 0)
        if turn.card in (PIRATE, PEACE):
            threshold *= 2
        if turn.card == TREASURE_ISLAND:
            # The chest keeps what lies on it: only what is not on it is at risk.
            safe = score_turn(turn.card, turn.faces, DISQUALIFIED, on_chest=_keep_chest(keep, turn)).points
            threshold += safe
        if turn.card == PEACE and sabers:
            threshold = 10**9  # kapern.md: never stop in Peace with a saber showing
        stop_now = turn.stop_now if turn.stop_now is not None else 0
        if stop_now >= threshold and stop_now > 0:
            return _STOP
        # Chase the biggest group besides coins and diamonds.
        groups: dict[str, list[int]] = {}
        for i in turn.non_skull:
            groups.setdefault(turn.faces[i], []).append(i)
        best = max(
            (f for f in groups if f not in (COIN, DIAMOND) and not (f == SABER and turn.card == PEACE)),
            key=lambda f: (len(groups[f]), f),
            default=None,
        )
        reroll = [i for i in turn.non_skull if not keep[i] and turn.faces[i] != best]
        if len(reroll) < SMALLEST_REROLL:
            reroll = [i for i in turn.non_skull if not keep[i]]
        if turn.guardian_ready and turn.skulls == DISQUALIFYING_SKULLS - 1 and reroll:
            reroll = [turn.skull_dice[0], *reroll]
        if len(reroll) < SMALLEST_REROLL and not (reroll and turn.guardian_ready):
            return _STOP
        return _arrange_chest_then(turn, reroll, legal)


def _keep_chest(keep: list[bool], turn: _Turn) -> list[bool]:
    return [keep[i] and turn.faces[i] != SKULL for i in range(DICE)]


def _arrange_chest_then(turn: _Turn, reroll: Sequence[int], legal: list[Action]) -> Action:
    """Under Treasure Island, first lay every kept die on the chest and take back the dice to reroll; then roll."""
    if turn.card == TREASURE_ISLAND:
        for i in reroll:
            if turn.on_chest[i]:
                return {"type": "take_from_chest", "die": i}
        for i in turn.non_skull:
            if i not in reroll and not turn.on_chest[i]:
                return {"type": "put_on_chest", "die": i}
    return _pick(_roll(reroll), legal) or _STOP


# ------------------------------------------------------------------------------------------------- hard


# A multiset of faces is coded as one integer, a base-9 digit per face (skulls lowest): no face shows more than
# eight times, so adding two codes adds the multisets.
_BASE = 9
_PLACE = tuple(_BASE**f for f in range(len(FACES)))


def _code(counts: Sequence[int]) -> int:
    return sum(c * place for c, place in zip(counts, _PLACE))


def _counts(code: int) -> list[int]:
    counts = []
    for _ in FACES:
        code, c = divmod(code, _BASE)
        counts.append(c)
    return counts


def _faces_of(counts: Sequence[int]) -> list[str]:
    return [FACES[f] for f in range(len(FACES)) for _ in range(counts[f])]


def _counts_of(faces: Sequence[str]) -> list[int]:
    counts = [0] * len(FACES)
    for face in faces:
        counts[FACES.index(face)] += 1
    return counts


@lru_cache(maxsize=None)
def _outcomes(k: int) -> tuple[tuple[int, float], ...]:
    """Every multiset of faces k dice can show (coded), with its probability (a constant table, built once)."""
    result = []

    def spread(left: int, index: int, counts: list[int]) -> None:
        if index == len(FACES) - 1:
            counts.append(left)
            ways = factorial(k)
            for c in counts:
                ways //= factorial(c)
            result.append((_code(counts), ways / 6**k))
            counts.pop()
            return
        for c in range(left + 1):
            counts.append(c)
            spread(left - c, index + 1, counts)
            counts.pop()

    spread(k, 0, [])
    return tuple(result)


# The values below are pure functions of the dice (score_turn and the dice's odds). Their memos only save
# recomputing them, hold no facts about any game, and are bounded by the few thousand ways eight dice can fall.
_CODES = _BASE ** len(FACES)
_CARD_INDEX = {card.id: index for index, card in enumerate(CARD_LIST)}
_stop_memo: dict[int, int] = {}
_bust_memo: dict[int, int] = {}
_live_memo: dict[int, float] = {}
_roll_memo: dict[int, float] = {}


def _stop_points(card: str, code: int) -> int:
    """Points for stopping with these dice (never a Zombie attack: its prize depends on the table)."""
    key = _CARD_INDEX[card] * _CODES + code
    points = _stop_memo.get(key)
    if points is None:
        points = _stop_memo[key] = score_turn(card, _faces_of(_counts(code)), STOPPED).points
    return points


def _bust_points(card: str, code: int, chest_code: int) -> int:
    """Points for being disqualified with these dice, `chest_code` of them lying on Treasure Island."""
    key = (_CARD_INDEX[card] * _CODES + code) * _CODES + chest_code
    points = _bust_memo.get(key)
    if points is None:
        chest = _faces_of(_counts(chest_code))
        rest = _faces_of([a - b for a, b in zip(_counts(code), _counts(chest_code))])
        on_chest = [True] * len(chest) + [False] * len(rest)
        points = _bust_memo[key] = score_turn(card, chest + rest, DISQUALIFIED, on_chest=on_chest).points
    return points


def _rerolls(code: int, guardian: bool, rescue: bool) -> list[tuple[int, int, bool]]:
    """The sensible rerolls from these dice: keep whole kinds of faces and reroll the rest (two dice or more), and
    with the Guardian the same plus one skull. Each as (kept dice, number rolled, Guardian still unused after)."""
    counts = _counts(code)
    present = [f for f in range(1, len(FACES)) if counts[f]]
    result = []
    for size in range(len(present) + 1):
        for rolled in combinations(present, size):
            k = sum(counts[f] for f in rolled)
            kept = code - sum(counts[f] * _PLACE[f] for f in rolled)
            if k >= SMALLEST_REROLL and not rescue:
                result.append((kept, k, guardian))
            if guardian and counts[0]:
                result.append((kept - 1, k + 1, False))  # kapern.md: the Guardian rerolls one skull
    return result


def _live_value(card: str, code: int, guardian: bool, depth: int) -> float:
    """Expected points of a turn still alive with these dice, looking `depth` rerolls ahead (then stopping)."""
    key = ((depth * 2 + guardian) * len(CARD_LIST) + _CARD_INDEX[card]) * _CODES + code
    value = _live_memo.get(key)
    if value is None:
        value = _live_memo[key] = _live_value_of(card, code, guardian, depth)
    return value


def _live_value_of(card: str, code: int, guardian: bool, depth: int) -> float:
    rescue = code % _BASE + CARDS[card].skulls >= DISQUALIFYING_SKULLS  # three skulls, the Guardian unused
    if rescue:
        if depth == 0:
            # Five times in six the Guardian's skull comes up something else.
            return 5 * _stop_points(card, code - 1) / 6
        best = float(_bust_points(card, code, 0))
    else:
        best = float(_stop_points(card, code))
        if depth == 0 or card == SHIPWRECK:
            return best
    for kept, k, guardian_after in _rerolls(code, guardian, rescue):
        value = _roll_value(card, kept, k, guardian_after, depth - 1)
        if value > best:
            best = value
    return best


def _roll_value(card: str, kept: int, k: int, guardian: bool, depth: int) -> float:
    """Expected points of rolling k dice with `kept` set aside (under Treasure Island: on the chest)."""
    # k is implied by kept (eight dice in all), so the key leaves it out.
    key = ((depth * 2 + guardian) * len(CARD_LIST) + _CARD_INDEX[card]) * _CODES + kept
    value = _roll_memo.get(key)
    if value is not None:
        return value
    card_skulls = CARDS[card].skulls
    chest = kept - kept % _BASE if card == TREASURE_ISLAND else 0
    total = 0.0
    for code, probability in _outcomes(k):
        final = kept + code
        skulls = final % _BASE + card_skulls
        if card == SHIPWRECK:
            value = _stop_points(card, final)  # kapern.md: the second Shipwreck roll ends the turn
        elif skulls < DISQUALIFYING_SKULLS or (skulls == DISQUALIFYING_SKULLS and guardian):
            value = _live_value(card, final, guardian, depth)
        else:
            value = _bust_points(card, final, chest)
        total += probability * value
    _roll_memo[key] = total
    return total


def _reach_value(card: str, kept: int, k: int, guardian: bool, depth: int, need: int, weight: float) -> float:
    """Like _roll_value, plus `weight` times the chance that stopping after this roll scores `need` or more."""
    card_skulls = CARDS[card].skulls
    chest = kept - kept % _BASE if card == TREASURE_ISLAND else 0
    total = 0.0
    for code, probability in _outcomes(k):
        final = kept + code
        skulls = final % _BASE + card_skulls
        if card == SHIPWRECK or skulls < DISQUALIFYING_SKULLS:
            stop = _stop_points(card, final)
            value = stop if card == SHIPWRECK else _live_value(card, final, guardian, depth)
        elif skulls == DISQUALIFYING_SKULLS and guardian:
            stop = -(10**9)  # the Guardian must reroll first
            value = _live_value(card, final, guardian, depth)
        else:
            stop = value = _bust_points(card, final, chest)
        total += probability * (value + weight * (stop >= need))
    return total


class HardBot(Bot):
    """Expected value by exact enumeration of each sensible reroll, `depth` rerolls deep, against stopping now."""

    level = "hard"
    depth = 3  # rerolls looked at: this one and the best two after it
    win_weight = 20000.0  # on a last turn a win outweighs any number of points

    def choose(self, view: View | None, legal: list[Action]) -> Action | None:
        if len(legal) == 1:
            return legal[0]
        turn = _Turn(view)
        if turn.phase == "skull_island":
            return self._skull_island(turn, legal)
        need, last_turn = self._need(view)
        stop = turn.stop_now if turn.stop_now is not None else None
        if stop is None:
            best_value = float("-inf")
        elif need is None:
            best_value = float(stop)
        elif last_turn and stop < need:
            best_value = float("-inf")  # stopping short on a last turn loses for sure
        else:
            best_value = stop + self.win_weight * (stop >= need)
        best_reroll: list[int] | None = None
        for reroll in self._candidates(turn):
            rerolled = set(reroll)
            kept = _code(_counts_of([turn.faces[i] for i in range(DICE) if i not in rerolled]))
            guardian_after = turn.guardian_ready and not any(turn.faces[i] == SKULL for i in reroll)
            if need is None:
                value = _roll_value(turn.card, kept, len(reroll), guardian_after, self.depth - 1)
            else:
                value = _reach_value(turn.card, kept, len(reroll), guardian_after, self.depth - 1, need,
                                     self.win_weight)
            if value > best_value + 1e-9:
                best_value, best_reroll = value, reroll
        if best_reroll is None:
            return _STOP if _STOP in legal else legal[0]
        action = _arrange_chest_then(turn, best_reroll, legal)
        return action if action in legal else (_STOP if _STOP in legal else legal[0])

    @staticmethod
    def _need(view: View) -> tuple[int | None, bool]:
        """The scoreboard: the points this turn must make to win at once or to lead after a last turn, if any."""
        me = view["seat"]
        scores = view["scores"]
        end = view["end"]
        if end["overtime"]:
            # kapern.md: after the last turns the next to end a turn at the target wins at once.
            return view["target"] - scores[me], False
        if end["final_round"]:
            # kapern.md: every turn now is a last turn; equal scores share first place.
            best_other = max(score for seat, score in enumerate(scores) if seat != me)
            return best_other - scores[me], True
        return None, False

    def _candidates(self, turn: _Turn) -> list[list[int]]:
        """Keep whole kinds of faces and reroll the rest; with the Guardian also add one skull."""
        non_skull = turn.non_skull
        present = sorted({turn.faces[i] for i in non_skull})
        candidates = []
        rescue = turn.phase == "guardian_rescue"
        shipwreck_done = turn.card == SHIPWRECK and turn.rolls >= SHIPWRECK_ROLLS
        for size in range(len(present) + 1):
            for keep in combinations(present, size):
                reroll = [i for i in non_skull if turn.faces[i] not in keep]
                if len(reroll) >= SMALLEST_REROLL and not rescue and not shipwreck_done:
                    candidates.append(reroll)
                if turn.guardian_ready and turn.skull_dice:
                    candidates.append([turn.skull_dice[0], *reroll])
        return candidates

    def _skull_island(self, turn: _Turn, legal: list[Action]) -> Action:
        roll = _largest_roll(legal)
        if roll is None or turn.card != PEACE:
            return roll or _STOP  # every extra skull costs every opponent
        # Peace on Skull Island: a roll that adds no skull ends the turn with whatever sabers show.
        def worth(faces: list[str]) -> int:
            result = score_turn(turn.card, faces, SKULL_ISLAND, opponents=turn.opponents)
            return result.points - result.opponents_each

        kept = _code(_counts_of([turn.faces[i] for i in range(DICE) if i not in set(roll["dice"])]))
        value = 0.0
        for code, probability in _outcomes(len(roll["dice"])):
            value += probability * worth(_faces_of(_counts(kept + code)))
        return roll if value > worth(turn.faces) else _STOP
