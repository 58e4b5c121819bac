"""Where a pending rematch's state lives (app/tables/rematch.py): one hash per finished table and a set of the
rematches whose wait runs out, each step atomic, so that two people agreeing at the same moment start exactly one
table.

- `RedisRematchBoard`: in Redis, every step one Lua script, for any number of nodes.
- `LocalRematchBoard`: in this process's memory, every step plain Python with no await inside it (so nothing else on
  the event loop runs in between: as atomic as the script), for the embedded set-up (`REDIS_URL=memory://`, one
  node by definition). On the in-process Redis stand-in a script costs ~300 us of the event loop, every command in it
  parsed as if it came over a socket; four of those per finished game, on the loop the moves share, were a part of
  the tail of a move's latency at game turnover (docs/tables.md).

Both keep the same fields as text, so that what the service reads does not depend on where it lives.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, Callable, Protocol

KEY = "rematch:"
DUE_KEY = "rematch:due"
DUE_BATCH = 100  # rematches one call closes at most (the rest at the next tick)

# A rematch is one hash, `rematch:<old table>`: status, deadline, humans, new_table, reason, and one field per person
# who answered, "answer:<user id>" = "yes" or "no". One hash, so that an answer is two commands of the script (read
# it all, write it back): each redis.call is a trip out of Lua and back, through the in-process stand-in's command
# parsing (alone there, an answer took ~300 us with three keys and a dozen calls, ~210 us so).
ANSWER_FIELD = "answer:"

# KEYS: state hash, due zset.
# ARGV: old table, user, agree (1/0), humans (count), deadline ms, new table id, ttl seconds.
# Returns outcome, status, decided (1/0), and the hash as it is now (flat), so that telling everyone needs no second
# read. The hash's time to live is set when the rematch opens.
ANSWER = """
local unpack = unpack or table.unpack
local flat = redis.call('HGETALL', KEYS[1])
local state = {}
for i = 1, #flat, 2 do state[flat[i]] = flat[i + 1] end
local opened = false
if not state['status'] then
  state['status'] = 'pending'
  state['deadline'] = ARGV[5]
  state['humans'] = ARGV[4]
  if not state['new_table'] then state['new_table'] = ARGV[6] end
  opened = true
end
local outcome = 'closed'
local mine = 'answer:' .. ARGV[2]
local changed = opened
if state['status'] == 'pending' then
  if ARGV[3] == '1' then
    if state[mine] == 'no' then
      outcome = 'declined_before'
    else
      outcome = 'agreed'
      changed = changed or state[mine] ~= 'yes'
      state[mine] = 'yes'
    end
  else
    if state[mine] == 'yes' then outcome = 'withdrew' else outcome = 'declined' end
    changed = changed or state[mine] ~= 'no'
    state[mine] = 'no'
  end
end
local answered, agreed = 0, 0
for field, value in pairs(state) do
  if string.sub(field, 1, 7) == 'answer:' then
    answered = answered + 1
    if value == 'yes' then agreed = agreed + 1 end
  end
end
local decided = 0
if state['status'] == 'pending' and answered >= tonumber(state['humans']) then
  if agreed > 0 then state['status'] = 'starting' else state['status'] = 'cancelled' end
  decided = 1
  changed = true
end
local now = {}
for field, value in pairs(state) do
  now[#now + 1] = field
  now[#now + 1] = value
end
if changed then redis.call('HSET', KEYS[1], unpack(now)) end
if opened then redis.call('EXPIRE', KEYS[1], ARGV[7]) end
if decided == 1 then
  if not opened then redis.call('ZREM', KEYS[2], ARGV[1]) end
elseif opened then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
end
return {outcome, state['status'], decided, now}
"""

# KEYS: due zset. ARGV: now ms, key prefix. Closes every pending rematch past its deadline; returns their old ids.
DUE = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
local closed = {}
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  local key = ARGV[2] .. id
  local flat = redis.call('HGETALL', key)
  local status, agreed = nil, false
  for i = 1, #flat, 2 do
    if flat[i] == 'status' then status = flat[i + 1] end
    if string.sub(flat[i], 1, 7) == 'answer:' and flat[i + 1] == 'yes' then agreed = true end
  end
  if status == 'pending' then
    if agreed then
      redis.call('HSET', key, 'status', 'starting')
    else
      redis.call('HSET', key, 'status', 'cancelled')
    end
    table.insert(closed, id)
  end
end
return closed
"""


@dataclass(frozen=True)
class Answered:
    """What one answer did: outcome ("agreed", "declined", "withdrew", "declined_before", "closed"), the rematch's
    status after it, whether this answer decided it (the caller starts or cancels it), and its fields now."""

    outcome: str
    status: str
    decided: bool
    fields: dict[str, str]


class RematchBoard(Protocol):
    async def fix_new_table(self, old: str, new_table: str, ttl_seconds: int) -> tuple[str, str | None]:
        """Fix the new table's id if nobody has (the first one given stays). Returns it and the status, if any."""

    async def answer(self, old: str, user_id: int, agree: bool, humans: int, deadline_ms: int, new_table: str,
                     ttl_seconds: int) -> Answered:
        """One person's answer; the first one opens the rematch with its deadline and time to live."""

    async def any_due(self, now_ms: int) -> bool:
        """Whether a rematch's deadline has passed (a cheap look before `take_due`)."""

    async def take_due(self, now_ms: int) -> list[str]:
        """Close the pending rematches past their deadline ("starting" if anyone agreed, else "cancelled"); each is
        handed to exactly one caller. Returns their old tables' ids."""

    async def fields(self, old: str) -> dict[str, str]:
        """The rematch's hash as it is now (empty: none)."""

    async def end(self, old: str, ended: dict[str, str]) -> None:
        """Write how a closed rematch ended (status, new_table, reason)."""


class RedisRematchBoard:
    def __init__(self, redis: Any):
        self._redis = redis
        self._answer = redis.register_script(ANSWER)
        self._due = redis.register_script(DUE)

    async def fix_new_table(self, old: str, new_table: str, ttl_seconds: int) -> tuple[str, str | None]:
        key = KEY + old
        if await self._redis.hsetnx(key, "new_table", new_table):
            await self._redis.expire(key, ttl_seconds)
        fixed, status = (_text(value) for value in await self._redis.hmget(key, ["new_table", "status"]))
        return fixed, status

    async def answer(self, old: str, user_id: int, agree: bool, humans: int, deadline_ms: int, new_table: str,
                     ttl_seconds: int) -> Answered:
        outcome, status, decided, flat = await self._answer(
            keys=[KEY + old, DUE_KEY], args=[old, user_id, 1 if agree else 0, humans, deadline_ms, new_table,
                                             ttl_seconds])
        flat = [_text(value) for value in flat]
        return Answered(_text(outcome), _text(status), bool(int(decided)), dict(zip(flat[::2], flat[1::2])))

    async def any_due(self, now_ms: int) -> bool:
        return bool(await self._redis.zrangebyscore(DUE_KEY, "-inf", now_ms, start=0, num=1))

    async def take_due(self, now_ms: int) -> list[str]:
        return [_text(old) for old in await self._due(keys=[DUE_KEY], args=[now_ms, KEY])]

    async def fields(self, old: str) -> dict[str, str]:
        return {_text(k): _text(v) for k, v in (await self._redis.hgetall(KEY + old)).items()}

    async def end(self, old: str, ended: dict[str, str]) -> None:
        await self._redis.hset(KEY + old, mapping=ended)


class LocalRematchBoard:
    """The same steps over dicts. Times to live are kept on `now_ms` (the service's clock) and a hash past its time
    is forgotten at the next step, as Redis would have expired it."""

    def __init__(self, now_ms: Callable[[], int]):
        self._now_ms = now_ms
        self._hashes: dict[str, dict[str, str]] = {}
        self._expires: dict[str, int] = {}  # old -> when its hash goes, ms
        self._expiry_heap: list[tuple[int, str]] = []  # (when, old); an entry whose time was moved is skipped
        self._due: dict[str, int] = {}  # old -> deadline ms
        self._due_heap: list[tuple[int, str]] = []  # (deadline, old); an entry no longer in _due is skipped

    def _expire(self) -> None:
        now = self._now_ms()
        heap = self._expiry_heap
        while heap and heap[0][0] <= now:
            when, old = heapq.heappop(heap)
            if self._expires.get(old) == when:
                del self._expires[old]
                self._hashes.pop(old, None)

    def _set_ttl(self, old: str, ttl_seconds: int) -> None:
        when = self._now_ms() + ttl_seconds * 1000
        self._expires[old] = when
        heapq.heappush(self._expiry_heap, (when, old))

    async def fix_new_table(self, old: str, new_table: str, ttl_seconds: int) -> tuple[str, str | None]:
        self._expire()
        state = self._hashes.setdefault(old, {})
        if "new_table" not in state:
            state["new_table"] = new_table
            self._set_ttl(old, ttl_seconds)
        return state["new_table"], state.get("status")

    async def answer(self, old: str, user_id: int, agree: bool, humans: int, deadline_ms: int, new_table: str,
                     ttl_seconds: int) -> Answered:
        self._expire()
        state = self._hashes.setdefault(old, {})
        opened = "status" not in state
        if opened:
            state["status"] = "pending"
            state["deadline"] = str(deadline_ms)
            state["humans"] = str(humans)
            state.setdefault("new_table", new_table)
            self._set_ttl(old, ttl_seconds)
        outcome = "closed"
        mine = ANSWER_FIELD + str(user_id)
        if state["status"] == "pending":
            if agree:
                if state.get(mine) == "no":
                    outcome = "declined_before"
                else:
                    outcome = "agreed"
                    state[mine] = "yes"
            else:
                outcome = "withdrew" if state.get(mine) == "yes" else "declined"
                state[mine] = "no"
        decided = False
        if state["status"] == "pending":
            answers = [value for field, value in state.items() if field.startswith(ANSWER_FIELD)]
            if len(answers) >= int(state["humans"]):
                state["status"] = "starting" if "yes" in answers else "cancelled"
                decided = True
        if decided:
            self._due.pop(old, None)
        elif opened:
            self._due[old] = deadline_ms
            heapq.heappush(self._due_heap, (deadline_ms, old))
        return Answered(outcome, state["status"], decided, dict(state))

    def _next_due(self, now_ms: int) -> str | None:
        heap = self._due_heap
        while heap:
            deadline, old = heap[0]
            if self._due.get(old) != deadline:
                heapq.heappop(heap)  # closed by an answer meanwhile
                continue
            return old if deadline <= now_ms else None
        return None

    async def any_due(self, now_ms: int) -> bool:
        return self._next_due(now_ms) is not None

    async def take_due(self, now_ms: int) -> list[str]:
        self._expire()
        closed: list[str] = []
        for _ in range(DUE_BATCH):
            old = self._next_due(now_ms)
            if old is None:
                break
            heapq.heappop(self._due_heap)
            del self._due[old]
            state = self._hashes.get(old)
            if state is not None and state.get("status") == "pending":
                agreed = any(value == "yes" for field, value in state.items() if field.startswith(ANSWER_FIELD))
                state["status"] = "starting" if agreed else "cancelled"
                closed.append(old)
        return closed

    async def fields(self, old: str) -> dict[str, str]:
        self._expire()
        return dict(self._hashes.get(old, {}))

    async def end(self, old: str, ended: dict[str, str]) -> None:
        self._expire()
        state = self._hashes.get(old)
        if state is not None:  # gone: its time ran out, there is nobody left to tell
            state.update(ended)


def rematch_board(redis: Any, in_process: bool, now_ms: Callable[[], int]) -> RematchBoard:
    """In memory on the embedded set-up (`in_process`: one node, nothing else could see it), in Redis otherwise."""
    if in_process:
        return LocalRematchBoard(now_ms)
    return RedisRematchBoard(redis)


def _text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value
