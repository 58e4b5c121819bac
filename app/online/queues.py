"""Matchmaking queues in Redis (design.md, "Coordination"): every step one atomic Lua script.

A queue is a game, a number of seats, a mode and a stake (`pika:4:online:0`, `stakes:3:staked:250`). Players who
queue sit at one of the queue's *forming tables*, which has its id from its first player on (a staked pot is named
after it). When its seats are taken the table *forms*: its players leave the queue and are marked seated, and the
caller creates the live table. At the fill deadline (the forming table's first player's arrival plus the fill time)
an online table forms with whoever is there (simulated players take the other seats) and a staked one is cancelled.

Matchmaking by rating (docs/ratings.md): a player with a rating sits at the forming table whose players' mean rating
is closest to theirs, among those whose *window* takes them: the window is `base` rating points at the table's start
and widens by `per_second` while it waits, taking anyone once the table is `open_ms` old (a fraction of the fill
time). When no table takes them they start a new one. `merge` (on the tick) then pulls the players of a younger
forming table into an older one as soon as the older one's window reaches the younger one's mean, so two tables of
far ratings never both wait out their fill time: everybody is together again at `open_ms` at the latest. A staked
player moved that way is *staking* at the new table until their stake has moved from the old pot to the new one
(the caller refunds the old ticket and stakes the new one in one transaction, then `confirm`s). A player without a
rating (and a table without a window) matches anyone: the oldest forming table first, as without ratings.

Staked seats are taken in two steps, because the stake moves through the database: `join` takes the seat as
*staking*, the caller moves the coins, then `confirm`. A table never forms while a seat is staking. A ticket (the
seat's sequence number at its table) names each sitting-down, so a stake that arrives after its seat was given up
(left, cancelled) is recognised by `confirm` and refunded, even if the same player sat down again meanwhile.

Keys, all under the `{mm}` hash tag (one cluster slot):
  {mm}:forming:<queue>  zset table id -> start (ms): the queue's forming tables that have a free seat
  {mm}:queues           set of the queues that have such tables (what `merge` looks at)
  {mm}:table:<id>       hash: queue, game, seats, mode, stake, state (open|full), created and deadline (ms), seq,
                        and the rating window (wbase, wrate, wopen; absent: anyone)
  {mm}:members:<id>     zset user -> ticket: the seat order
  {mm}:ratings:<id>     hash user -> rating of the players who have one
  {mm}:conn:<id>        hash user -> the socket that holds the seat (the one that queued, or came back for it)
  {mm}:staking:<id>     set of users whose stake is not confirmed yet
  {mm}:user:<user>      the table the user waits at: nobody waits at two
  {mm}:seated:<user>    the formed table the user plays at (until it finishes; TTL as a safety net)
  {mm}:due              zset table id -> fill deadline (ms)
  {mm}:departing        zset "user:socket" -> when (ms) that player's seat is given up: the socket that queued
                        closed, and the seat waits a grace time for the player to come back (`rejoin`)

Times are milliseconds of the app's injectable clock, passed in by the caller: tests move them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

PREFIX = "{mm}:"
DEPARTING_KEY = f"{PREFIX}departing"
SEATED_TTL_SECONDS = 6 * 3600  # longer than any game; the finished table clears it first

_COMMON = r"""
local P = '{mm}:'
local DUE = P .. 'due'
local function tkey(T) return P .. 'table:' .. T end
local function mkey(T) return P .. 'members:' .. T end
local function ckey(T) return P .. 'conn:' .. T end
local function skey(T) return P .. 'staking:' .. T end
local function ukey(U) return P .. 'user:' .. U end
local function seatkey(U) return P .. 'seated:' .. U end
local function fkey(Q) return P .. 'forming:' .. Q end
local function rkey(T) return P .. 'ratings:' .. T end
local QUEUES = P .. 'queues'

local function info(T)
  local flat = redis.call('HGETALL', tkey(T))
  if #flat == 0 then return nil end
  local t = {}
  for i = 1, #flat, 2 do t[flat[i]] = flat[i + 1] end
  return t
end

-- {{user, ticket}, ...} in seat order
local function members(T)
  local flat = redis.call('ZRANGE', mkey(T), 0, -1, 'WITHSCORES')
  local out = {}
  for i = 1, #flat, 2 do out[#out + 1] = {flat[i], flat[i + 1]} end
  return out
end

local function describe(T, t, status)
  return {status = status, table = T, queue = t.queue, game = t.game, seats = t.seats, mode = t.mode,
          stake = t.stake, deadline = t.deadline}
end

-- the table takes players (it has a free seat) / no longer does
local function open(T, t)
  redis.call('ZADD', fkey(t.queue), tonumber(t.created or 0), T)
  redis.call('SADD', QUEUES, t.queue)
end
local function close(T, t)
  redis.call('ZREM', fkey(t.queue), T)
  if redis.call('ZCARD', fkey(t.queue)) == 0 then redis.call('SREM', QUEUES, t.queue) end
end

-- forget a table: it formed, was cancelled or emptied
local function drop(T, t)
  close(T, t)
  redis.call('DEL', tkey(T), mkey(T), ckey(T), skey(T), rkey(T))
  redis.call('ZREM', DUE, T)
end

-- the rating points a table takes players within, `now` ms after it started (math.huge: anyone)
local function window(t, now)
  if not t.wopen then return math.huge end
  local age = now - tonumber(t.created)
  if age >= tonumber(t.wopen) then return math.huge end
  return tonumber(t.wbase) + tonumber(t.wrate) * age / 1000
end

-- the mean rating of a table's players who have one (nil: none has)
local function center(T)
  local values = redis.call('HVALS', rkey(T))
  if #values == 0 then return nil end
  local sum = 0
  for _, v in ipairs(values) do sum = sum + tonumber(v) end
  return sum / #values
end

local function distance(T, rating)
  if rating == nil then return 0 end
  local c = center(T)
  if c == nil then return 0 end
  return math.abs(rating - c)
end

-- the table forms: its players leave the queue and are seated
local function form(T, t, ttl)
  local ms = members(T)
  for _, m in ipairs(ms) do
    redis.call('DEL', ukey(m[1]))
    redis.call('SET', seatkey(m[1]), T, 'EX', ttl)
  end
  drop(T, t)
  local out = describe(T, t, 'formed')
  out.members = ms
  return out
end

-- after a seat is taken or confirmed: form if every seat is taken and staked, else report the wait
local function settle(T, ticket, ttl)
  local t = info(T)
  local out
  if t.state == 'full' and redis.call('SCARD', skey(T)) == 0 then
    out = form(T, t, ttl)
  else
    out = describe(T, t, 'waiting')
    out.members = members(T)
  end
  out.ticket = ticket
  return out
end
"""

JOIN = _COMMON + r"""
-- ARGV: queue, user, connection, candidate table id, now, fill ms, seats, mode, stake, game, seated ttl, staking,
-- rating ('' = none), window base, window per second, window open ms ('' = no window: anyone)
local Q, U, conn, candidate = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now, fill, seats, ttl = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[11])
local rating = tonumber(ARGV[13])
local waiting = redis.call('GET', ukey(U))
if waiting then return cjson.encode({status = 'already_queued', table = waiting}) end
local seated = redis.call('GET', seatkey(U))
if seated then return cjson.encode({status = 'already_seated', table = seated}) end
-- the closest forming table whose window takes this rating (the oldest of equals)
local T, best = nil, nil
for _, candidate_id in ipairs(redis.call('ZRANGE', fkey(Q), 0, -1)) do
  local t = info(candidate_id)
  if not t then
    redis.call('ZREM', fkey(Q), candidate_id)
  else
    local d = distance(candidate_id, rating)
    if d <= window(t, now) and (best == nil or d < best) then T, best = candidate_id, d end
  end
end
if not T then
  T = candidate
  redis.call('HSET', tkey(T), 'queue', Q, 'game', ARGV[10], 'seats', seats, 'mode', ARGV[8], 'stake', ARGV[9],
             'state', 'open', 'created', now, 'deadline', now + fill, 'seq', 0)
  if ARGV[16] ~= '' then
    redis.call('HSET', tkey(T), 'wbase', ARGV[14], 'wrate', ARGV[15], 'wopen', ARGV[16])
  end
  open(T, info(T))
  redis.call('ZADD', DUE, now + fill, T)
end
local ticket = redis.call('HINCRBY', tkey(T), 'seq', 1)
redis.call('ZADD', mkey(T), ticket, U)
redis.call('HSET', ckey(T), U, conn)
if rating then redis.call('HSET', rkey(T), U, rating) end
redis.call('SET', ukey(U), T)
if ARGV[12] == '1' then redis.call('SADD', skey(T), U) end
if redis.call('ZCARD', mkey(T)) >= seats then
  close(T, info(T))  -- every seat taken: it takes nobody else
  redis.call('HSET', tkey(T), 'state', 'full')
end
return cjson.encode(settle(T, tostring(ticket), ttl))
"""

CONFIRM = _COMMON + r"""
-- ARGV: table, user, ticket, seated ttl. The stake of this ticket is in the pot.
local T, U, ticket, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local t = info(T)
local score = redis.call('ZSCORE', mkey(T), U)
if not t or not score or tonumber(score) ~= tonumber(ticket) then
  return cjson.encode({status = 'refund', table = T, ticket = ticket})  -- the seat was given up meanwhile
end
redis.call('SREM', skey(T), U)
return cjson.encode(settle(T, ticket, ttl))
"""

LEAVE = _COMMON + r"""
-- ARGV: user, connection ('' = any), ticket ('' = any)
local U, conn, ticket = ARGV[1], ARGV[2], ARGV[3]
local T = redis.call('GET', ukey(U))
if not T then return cjson.encode({status = 'not_queued'}) end
local t = info(T)
if not t then
  redis.call('DEL', ukey(U))
  return cjson.encode({status = 'not_queued'})
end
if conn ~= '' and redis.call('HGET', ckey(T), U) ~= conn then
  return cjson.encode({status = 'other_connection', table = T})
end
local score = redis.call('ZSCORE', mkey(T), U)
if ticket ~= '' and (not score or tonumber(score) ~= tonumber(ticket)) then
  return cjson.encode({status = 'other_ticket', table = T})
end
redis.call('ZREM', mkey(T), U)
redis.call('HDEL', ckey(T), U)
redis.call('HDEL', rkey(T), U)
local pending = redis.call('SREM', skey(T), U) == 1
redis.call('DEL', ukey(U))
local out = describe(T, t, 'left')
out.ticket = score
out.pending = pending
if redis.call('ZCARD', mkey(T)) == 0 then
  drop(T, t)
  out.members = {}
else
  if t.state == 'full' then
    redis.call('HSET', tkey(T), 'state', 'open')
    open(T, t)
  end
  out.members = members(T)
end
return cjson.encode(out)
"""

REJOIN = _COMMON + r"""
-- ARGV: queue, user, connection. A player already waiting in this queue (back after a reload, or from another
-- tab) keeps the seat, now held by this socket; nothing else changes.
local Q, U, conn = ARGV[1], ARGV[2], ARGV[3]
local T = redis.call('GET', ukey(U))
if not T then return cjson.encode({status = 'not_queued'}) end
local t = info(T)
if not t or t.queue ~= Q then return cjson.encode({status = 'other_queue', table = T}) end
redis.call('HSET', ckey(T), U, conn)
local out = describe(T, t, 'waiting')
out.members = members(T)
out.ticket = redis.call('ZSCORE', mkey(T), U)
return cjson.encode(out)
"""

TAKE_DEPARTURES = r"""
-- ARGV: now, limit. The departures due, each taken by exactly one caller.
local key = '{mm}:departing'
local due = redis.call('ZRANGEBYSCORE', key, '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', key, unpack(due)) end
return due
"""

DUE = _COMMON + r"""
-- ARGV: now, limit, seated ttl. Online tables past their fill time form with whoever is there; staked ones end.
local now, limit, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for _, T in ipairs(redis.call('ZRANGEBYSCORE', DUE, '-inf', now, 'LIMIT', 0, limit)) do
  local t = info(T)
  if not t then
    redis.call('ZREM', DUE, T)
  elseif t.mode == 'online' then
    out[#out + 1] = form(T, t, ttl)
  else
    local entry = describe(T, t, 'cancelled')
    entry.members = members(T)
    for _, m in ipairs(entry.members) do redis.call('DEL', ukey(m[1])) end
    drop(T, t)
    out[#out + 1] = entry
  end
end
return cjson.encode(out)
"""

MERGE = _COMMON + r"""
-- ARGV: now, seated ttl. In each queue, an older forming table whose window reaches a younger one's mean rating
-- takes its players (the closest first) while it has seats; a table whose stakes are still moving is left alone.
local now, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
for _, Q in ipairs(redis.call('SMEMBERS', QUEUES)) do
  local ids = redis.call('ZRANGE', fkey(Q), 0, -1)  -- oldest first
  if #ids == 0 then redis.call('SREM', QUEUES, Q) end
  for i = 1, #ids do
    local A = ids[i]
    for j = i + 1, #ids do
      local a, b = info(A), info(ids[j])
      local B = ids[j]
      if a and b and a.state == 'open' and b.state == 'open' and redis.call('SCARD', skey(B)) == 0 then
        local ca, cb = center(A), center(B)
        local gap = 0
        if ca and cb then gap = math.abs(ca - cb) end
        if gap <= window(a, now) then
          -- B's players, closest to A's mean first (then by seat order)
          local players = {}
          for k, m in ipairs(members(B)) do
            local r = tonumber(redis.call('HGET', rkey(B), m[1]))
            local d = 0
            if r and ca then d = math.abs(r - ca) end
            players[#players + 1] = {m[1], m[2], d, k}
          end
          table.sort(players, function(x, y) if x[3] ~= y[3] then return x[3] < y[3] end return x[4] < y[4] end)
          local moves = {}
          local free = tonumber(a.seats) - redis.call('ZCARD', mkey(A))
          for _, p in ipairs(players) do
            if free <= 0 then break end
            local U, old = p[1], p[2]
            local conn = redis.call('HGET', ckey(B), U)
            local r = redis.call('HGET', rkey(B), U)
            redis.call('ZREM', mkey(B), U)
            redis.call('HDEL', ckey(B), U)
            redis.call('HDEL', rkey(B), U)
            local ticket = redis.call('HINCRBY', tkey(A), 'seq', 1)
            redis.call('ZADD', mkey(A), ticket, U)
            if conn then redis.call('HSET', ckey(A), U, conn) end
            if r then redis.call('HSET', rkey(A), U, r) end
            redis.call('SET', ukey(U), A)
            if a.mode == 'staked' then redis.call('SADD', skey(A), U) end  -- its stake moves to A's pot next
            moves[#moves + 1] = {U, old, ticket}
            free = free - 1
          end
          if #moves > 0 then
            if free <= 0 then
              close(A, a)
              redis.call('HSET', tkey(A), 'state', 'full')
            end
            local entry = describe(A, a, 'moved')
            entry.source = B
            entry.moves = moves
            entry.members = members(A)
            entry.left_behind = members(B)
            if #entry.left_behind == 0 then drop(B, b) end
            out[#out + 1] = entry
            if a.mode ~= 'staked' then
              local settled = settle(A, '', ttl)
              if settled.status == 'formed' then out[#out + 1] = settled end
            end
          end
        end
      end
    end
  end
end
return cjson.encode(out)
"""

UNSEAT = r"""
-- ARGV: table, users...: they no longer play at that table (it finished, or never started)
local n = 0
for i = 2, #ARGV do
  local key = '{mm}:seated:' .. ARGV[i]
  if redis.call('GET', key) == ARGV[1] then
    redis.call('DEL', key)
    n = n + 1
  end
end
return n
"""


@dataclass(frozen=True)
class Queue:
    game: str
    seats: int
    mode: str  # "online" or "staked"
    stake: int = 0

    @property
    def key(self) -> str:
        return f"{self.game}:{self.seats}:{self.mode}:{self.stake}"

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "mode": self.mode, "stake": self.stake or None}


@dataclass(frozen=True)
class RatingWindow:
    """How far from a forming table's mean rating it takes players: `base` points at its start, `per_second` more
    each second it waits, anyone once it is `open_ms` old."""

    base: float
    per_second: float
    open_ms: int


@dataclass(frozen=True)
class Step:
    """What one script did. `status`: waiting, formed, cancelled, left, refund, moved (merge: `moves` went from the
    `source` table to this one; `left_behind` still sit there), already_queued, already_seated, not_queued,
    other_connection, other_ticket, other_queue."""

    status: str
    table: str | None = None
    queue: Queue | None = None
    deadline_ms: int | None = None
    ticket: int | None = None
    pending: bool = False
    members: list[tuple[int, int]] = field(default_factory=list)  # (user id, ticket) in seat order
    source: str | None = None
    moves: list[tuple[int, int, int]] = field(default_factory=list)  # (user id, old ticket, new ticket)
    left_behind: list[tuple[int, int]] = field(default_factory=list)

    @property
    def user_ids(self) -> list[int]:
        return [user for user, _ in self.members]


def _pairs(value: Any) -> list[tuple[int, ...]]:
    # cjson writes an empty list as {}
    return [tuple(int(part) for part in item) for item in value] if isinstance(value, list) else []


def _step(data: dict[str, Any]) -> Step:
    queue = None
    if data.get("game"):
        queue = Queue(data["game"], int(data["seats"]), data["mode"], int(data.get("stake") or 0))
    return Step(
        status=data["status"],
        table=data.get("table"),
        queue=queue,
        deadline_ms=int(data["deadline"]) if data.get("deadline") else None,
        ticket=int(data["ticket"]) if data.get("ticket") not in (None, False, "") else None,
        pending=bool(data.get("pending")),
        members=_pairs(data.get("members")),  # type: ignore[arg-type]
        source=data.get("source"),
        moves=_pairs(data.get("moves")),  # type: ignore[arg-type]
        left_behind=_pairs(data.get("left_behind")),  # type: ignore[arg-type]
    )


class Matchmaker:
    """The Redis side of matchmaking. Knows nothing of coins or tables: the caller acts on each `Step`."""

    def __init__(self, redis: Any):
        self.redis = redis
        self._join = redis.register_script(JOIN)
        self._confirm = redis.register_script(CONFIRM)
        self._leave = redis.register_script(LEAVE)
        self._due = redis.register_script(DUE)
        self._rejoin = redis.register_script(REJOIN)
        self._take_departures = redis.register_script(TAKE_DEPARTURES)
        self._unseat = redis.register_script(UNSEAT)
        self._merge = redis.register_script(MERGE)

    async def join(self, queue: Queue, user_id: int, *, connection: str, candidate: str, now_ms: int,
                   fill_ms: int, staking: bool, rating: int | None = None, window: RatingWindow | None = None
                   ) -> Step:
        """Sit at the forming table of `queue` that suits `rating` best (`window`: how a table this player starts
        takes others; None: anyone), or start one named `candidate`."""
        raw = await self._join(args=[queue.key, user_id, connection, candidate, now_ms, fill_ms, queue.seats,
                                     queue.mode, queue.stake, queue.game, SEATED_TTL_SECONDS, int(staking),
                                     "" if rating is None else rating,
                                     window.base if window else 0, window.per_second if window else 0,
                                     window.open_ms if window else ""])
        return _step(json.loads(raw))

    async def work_due(self, now_ms: int) -> tuple[bool, bool, bool]:
        """Whether a tick has anything to do: (a departure is due, some queue has forming tables to merge, a
        forming table is past its fill time). One round trip of plain reads, where the three scripts are three
        (and on the in-process stand-in each script costs a Lua compilation): most ticks find nothing."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(DEPARTING_KEY, "-inf", now_ms, start=0, num=1)
            pipe.scard(PREFIX + "queues")
            pipe.zrangebyscore(PREFIX + "due", "-inf", now_ms, start=0, num=1)
            departing, queues, due = await pipe.execute()
        return bool(departing), int(queues) > 0, bool(due)

    async def merge(self, now_ms: int) -> list[Step]:
        """Older forming tables take the players of younger ones their widened window reaches: `moved` steps (and
        `formed` for an online table that is full now)."""
        data = json.loads(await self._merge(args=[now_ms, SEATED_TTL_SECONDS]))
        return [_step(item) for item in data] if isinstance(data, list) else []

    async def confirm(self, table_id: str, user_id: int, ticket: int) -> Step:
        raw = await self._confirm(args=[table_id, user_id, ticket, SEATED_TTL_SECONDS])
        return _step(json.loads(raw))

    async def leave(self, user_id: int, *, connection: str = "", ticket: int | None = None) -> Step:
        raw = await self._leave(args=[user_id, connection, "" if ticket is None else ticket])
        return _step(json.loads(raw))

    async def rejoin(self, queue: Queue, user_id: int, *, connection: str) -> Step:
        """`waiting` (this socket now holds the seat) if the user already waits in `queue`; else not_queued or
        other_queue, and nothing changes."""
        raw = await self._rejoin(args=[queue.key, user_id, connection])
        return _step(json.loads(raw))

    async def depart_later(self, user_id: int, connection: str, at_ms: int, *, keep_earlier: bool = False) -> None:
        """Give up the seat `connection` holds at `at_ms`, unless another socket of the user took it over. With
        `keep_earlier`, a departure already planned for that socket keeps its time."""
        await self.redis.zadd(DEPARTING_KEY, {f"{user_id}:{connection}": at_ms}, nx=keep_earlier)

    async def held_seats(self, limit: int = 2000) -> list[tuple[int, str]]:
        """(user id, socket) of each seat at the forming tables, by the socket that holds it."""
        table_ids = await self.redis.zrange(f"{PREFIX}due", 0, limit - 1)
        if not table_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hgetall(f"{PREFIX}conn:{table_id}")
            held = await pipe.execute()
        return [(int(user), connection) for seats in held for user, connection in seats.items()]

    async def departures_due(self, now_ms: int, limit: int = 100) -> list[tuple[int, str]]:
        """(user id, socket) of each departure due by `now_ms`, removed from the schedule."""
        taken = await self._take_departures(args=[now_ms, limit])
        return [(int(user), connection) for user, connection in (entry.split(":", 1) for entry in taken)]

    async def due(self, now_ms: int, limit: int = 100) -> list[Step]:
        raw = await self._due(args=[now_ms, limit, SEATED_TTL_SECONDS])
        data = json.loads(raw)
        return [_step(item) for item in data] if isinstance(data, list) else []

    async def unseat(self, table_id: str, user_ids: list[int]) -> int:
        if not user_ids:
            return 0
        return int(await self._unseat(args=[table_id, *user_ids]))

    async def seat(self, table_id: str, user_ids: list[int]) -> None:
        """Mark players seated at a table this node runs (a table resumed after a restart)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            for user_id in user_ids:
                pipe.set(f"{PREFIX}seated:{user_id}", table_id, ex=SEATED_TTL_SECONDS)
            await pipe.execute()

    async def where(self, user_id: int) -> tuple[str | None, str | None]:
        """(the forming table the user waits at, the formed table they play at)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(f"{PREFIX}user:{user_id}")
            pipe.get(f"{PREFIX}seated:{user_id}")
            waiting, seated = await pipe.execute()
        return waiting, seated

    async def waiting_counts(self, queues: list[Queue]) -> list[int]:
        """How many players sit at each queue's forming tables with a free seat now (0: nobody waits there)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for queue in queues:
                pipe.zrange(f"{PREFIX}forming:{queue.key}", 0, -1)
            tables = await pipe.execute()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_ids in tables:
                for table_id in table_ids:
                    pipe.zcard(f"{PREFIX}members:{table_id}")
            counts = iter(await pipe.execute())
        return [sum(int(next(counts)) for _ in table_ids) for table_ids in tables]

    async def forming(self, table_id: str) -> dict[str, Any] | None:
        """A forming table: its queue, deadline and players (None once it formed, was cancelled or emptied)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(f"{PREFIX}table:{table_id}")
            pipe.zrange(f"{PREFIX}members:{table_id}", 0, -1)
            info, members = await pipe.execute()
        if not info:
            return None
        return {
            "queue": Queue(info["game"], int(info["seats"]), info["mode"], int(info.get("stake") or 0)),
            "deadline_ms": int(info["deadline"]),
            "members": [int(user) for user in members],
        }
