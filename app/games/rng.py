"""Randomness for the engines (design.md, "Randomness").

Every game draws its shuffles and rolls from a `RandomSource`. In play that is a `HashRandom`: a deterministic
stream keyed by a secret seed from `secrets` and built on BLAKE2b, so observed rolls predict nothing and a stored
seed replays a game exactly. Tests inject a `ScriptedRandom` to set exact deals and dice.

Both kinds serialise their whole state (`to_state` / `random_from_state`), so a game serialised mid-way continues
with the identical future.

Convention shared by every engine: after `shuffle(items)`, `items[0]` is the first card to be drawn.
"""

from __future__ import annotations

import secrets
import struct
from collections import Counter
from hashlib import blake2b
from operator import lt, mod
from typing import Any, Protocol, runtime_checkable

_WORDS_PER_BLOCK = 8  # a 64-byte BLAKE2b digest gives eight 64-bit words
_WORD_BITS = 64
_WORD_RANGE = 1 << _WORD_BITS
_unpack_block = struct.Struct("<8Q").unpack  # a digest as eight little-endian 64-bit words
# Rejection-sampling limits for small ranges, precomputed: shuffles of up to a 256-card deck ask for them in a loop.
_SMALL_LIMITS = [0] + [(1 << _WORD_BITS) - ((1 << _WORD_BITS) % n) for n in range(1, 257)]
# For a shuffle of up to 256 items: the ranges it asks for, in order (len, len - 1, ..., 2), and their limits.
_SHUFFLE_RANGES = [tuple(range(size, 1, -1)) for size in range(257)]
_SHUFFLE_LIMITS = [tuple(_SMALL_LIMITS[n] for n in ranges) for ranges in _SHUFFLE_RANGES]
# Block numbers as the 8 bytes hashed for them, for the first blocks (a game's shuffles use the first few dozen).
_COUNTERS = tuple(index.to_bytes(8, "little") for index in range(1024))
# The bytes of a 64-bit word that a shuffle's rejection sampling might reject (see `shuffle`), little-endian: its
# seven high bytes.
_REJECTABLE = b"\xff" * 7
# Several digests at once as 64-bit words: a 256-card shuffle needs at most 33 blocks.
_UNPACK_BLOCKS = [struct.Struct(f"<{_WORDS_PER_BLOCK * count}Q").unpack for count in range(34)]


@runtime_checkable
class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""

    def roll(self, sides: int = 6) -> int:
        """A die roll in [1, sides]."""

    def shuffle(self, items: list) -> None:
        """Shuffle in place; items[0] is drawn first."""

    def to_state(self) -> dict[str, Any]:
        """Everything needed to continue the identical stream."""


def new_seed() -> bytes:
    """A fresh secret seed for a game (never sent to a client)."""
    return secrets.token_bytes(32)


class HashRandom:
    """BLAKE2b in counter mode, keyed by the seed: block i = BLAKE2b(key=seed, data=i)."""

    __slots__ = ("seed", "_keyed", "_block", "_words", "_next")

    def __init__(self, seed: bytes | str | None = None, *, block: int = 0, next_word: int = _WORDS_PER_BLOCK):
        if seed is None:
            seed = new_seed()
        elif isinstance(seed, str):
            seed = seed.encode()
        if not 1 <= len(seed) <= 64:
            # BLAKE2b keys are at most 64 bytes; longer text seeds are hashed down first.
            seed = blake2b(seed, digest_size=32).digest()
        self.seed: bytes = seed
        # BLAKE2b absorbs the key as a first block of its own: absorb it once here, copy that state per block.
        self._keyed = blake2b(key=seed, digest_size=64)
        self._block = block
        self._next = next_word
        self._words: list[int] = []
        if next_word < _WORDS_PER_BLOCK:
            # Resuming mid-block: regenerate the block that was in use.
            self._words = self._block_words(block - 1)

    def _block_words(self, index: int) -> list[int]:
        hasher = self._keyed.copy()
        hasher.update(_COUNTERS[index] if index < 1024 else index.to_bytes(8, "little"))
        return list(_unpack_block(hasher.digest()))

    def _blocks_bytes(self, first: int, count: int) -> bytes:
        """The digests of `count` blocks from block `first` on, one after the other."""
        copy = self._keyed.copy
        digests = []
        for index in range(first, first + count):
            hasher = copy()
            hasher.update(_COUNTERS[index] if index < 1024 else index.to_bytes(8, "little"))
            digests.append(hasher.digest())
        return b"".join(digests)

    def randbelow(self, n: int) -> int:
        if not 0 < n <= _WORD_RANGE:
            # Past 2**64 one word cannot cover the range (and the rejection limit would be 0).
            raise ValueError(f"randbelow needs 0 < n <= 2**64, not {n}")
        if n == 1:
            return 0
        # Rejection sampling keeps every value equally likely.
        limit = _SMALL_LIMITS[n] if n <= 256 else _WORD_RANGE - (_WORD_RANGE % n)
        while True:
            # The next word of the stream, inline (dice games draw one per die).
            next_word = self._next
            if next_word >= _WORDS_PER_BLOCK:
                self._words = self._block_words(self._block)
                self._block += 1
                next_word = 0
            word = self._words[next_word]
            self._next = next_word + 1
            if word < limit:
                return word % n

    def roll(self, sides: int = 6) -> int:
        return self.randbelow(sides) + 1

    def shuffle(self, items: list) -> None:
        # Fisher-Yates, drawing exactly the words randbelow(i + 1) would: dealing a deck is most of the cost of
        # starting a game. A rejected word is rare (below 2**-56 for a 256-card deck), so the words one per swap are
        # drawn in bulk and the swaps made from them; if one of them would be rejected, the step-by-step loop runs.
        size = len(items)
        if 1 < size <= 256:
            need = size - 1
            limits = _SHUFFLE_LIMITS[size]
            taken = self._words[self._next :]
            accepted = all(map(lt, taken, limits))  # the words left in the block in use
            block = self._block
            if len(taken) < need:
                count = -(-(need - len(taken)) // _WORDS_PER_BLOCK)  # blocks still needed, rounded up
                digests = self._blocks_bytes(block, count)
                taken += _UNPACK_BLOCKS[count](digests)
                block += count
                # Every limit of a range up to 256 is at least 2**64 - 255, so only a word whose seven high bytes
                # are all 0xff may be rejected: one search of the digests rules that out for all their words.
                if _REJECTABLE in digests:
                    accepted = all(map(lt, taken, limits))
            if accepted:
                for i, j in zip(range(need, 0, -1), map(mod, taken, _SHUFFLE_RANGES[size])):
                    items[i], items[j] = items[j], items[i]
                if block == self._block:  # within the block in use
                    self._next += need
                else:  # the last block drawn is the one in use, its last `len(taken) - need` words unread
                    self._block = block
                    self._words = taken[-_WORDS_PER_BLOCK:]
                    self._next = _WORDS_PER_BLOCK - (len(taken) - need)
                return
        self._shuffle_step_by_step(items)

    def _shuffle_step_by_step(self, items: list) -> None:
        words, next_word, block = self._words, self._next, self._block
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SMALL_LIMITS[n] if n <= 256 else (1 << _WORD_BITS) - ((1 << _WORD_BITS) % n)
            while True:
                if next_word >= _WORDS_PER_BLOCK:
                    words = self._block_words(block)
                    block += 1
                    next_word = 0
                word = words[next_word]
                next_word += 1
                if word < limit:
                    break
            j = word % n
            items[i], items[j] = items[j], items[i]
        self._words, self._next, self._block = words, next_word, block

    def choice(self, items: list):
        return items[self.randbelow(len(items))]

    def to_state(self) -> dict[str, Any]:
        return {"kind": "hash", "seed": self.seed.hex(), "block": self._block, "next": self._next}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> HashRandom:
        return cls(bytes.fromhex(state["seed"]), block=state["block"], next_word=state["next"])


class ScriptExhausted(LookupError):
    pass


class ScriptedRandom:
    """A random source whose outcomes a test writes down.

    - `rolls`: the next die results, in order (each must fit the sides asked for).
    - `ints`: the next `randbelow` results (e.g. the first player).
    - `shuffles`: one entry per `shuffle` call. An entry is the list of items that must come first, in that order
      (items[0] drawn first); the items it does not name follow in their previous relative order. A full
      permutation is just an entry that names everything.

    When a script runs out the source falls back to a `HashRandom` on `fallback_seed`, unless `strict` is set,
    in which case it raises `ScriptExhausted` (useful to prove a scenario used exactly what it scripted).
    """

    def __init__(
        self,
        *,
        rolls: list[int] | None = None,
        ints: list[int] | None = None,
        shuffles: list[list] | None = None,
        strict: bool = False,
        fallback_seed: bytes | str = b"scripted-fallback",
        fallback: HashRandom | None = None,
    ):
        self.rolls = list(rolls or [])
        self.ints = list(ints or [])
        self.shuffles = [list(s) for s in (shuffles or [])]
        self.strict = strict
        self.fallback = fallback or HashRandom(fallback_seed)

    def _exhausted(self, what: str) -> None:
        if self.strict:
            raise ScriptExhausted(f"the test scripted no more {what}")

    def randbelow(self, n: int) -> int:
        if self.ints:
            value = self.ints.pop(0)
            if not 0 <= value < n:
                raise ValueError(f"scripted int {value} is not below {n}")
            return value
        self._exhausted("ints")
        return self.fallback.randbelow(n)

    def roll(self, sides: int = 6) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"scripted roll {value} is not a d{sides} result")
            return value
        self._exhausted("rolls")
        return self.fallback.roll(sides)

    def shuffle(self, items: list) -> None:
        if not self.shuffles:
            self._exhausted("shuffles")
            self.fallback.shuffle(items)
            return
        head = self.shuffles.pop(0)
        rest = Counter(items)
        rest.subtract(head)
        if any(count < 0 for count in rest.values()):
            missing = [item for item, count in rest.items() if count < 0]
            raise ValueError(f"scripted shuffle names items that are not there: {missing!r}")
        tail = []
        for item in items:
            if rest[item] > 0:
                rest[item] -= 1
                tail.append(item)
        items[:] = head + tail

    def choice(self, items: list):
        return items[self.randbelow(len(items))]

    def to_state(self) -> dict[str, Any]:
        return {
            "kind": "scripted",
            "rolls": list(self.rolls),
            "ints": list(self.ints),
            "shuffles": [list(s) for s in self.shuffles],
            "strict": self.strict,
            "fallback": self.fallback.to_state(),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> ScriptedRandom:
        return cls(
            rolls=state["rolls"],
            ints=state["ints"],
            shuffles=state["shuffles"],
            strict=state["strict"],
            fallback=HashRandom.from_state(state["fallback"]),
        )


def random_from_state(state: dict[str, Any]) -> HashRandom | ScriptedRandom:
    kind = state.get("kind")
    if kind == "hash":
        return HashRandom.from_state(state)
    if kind == "scripted":
        return ScriptedRandom.from_state(state)
    raise ValueError(f"unknown random source kind {kind!r}")
