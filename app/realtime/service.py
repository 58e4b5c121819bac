"""What the gateway does with each validated message: joining, leaving and acting at tables, on this node or, relayed
through the cluster (app/realtime/cluster.py), on the node that owns the table. The protocol is the same either way:
same messages, same versions, same errors."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from app import metrics
from app.accounts.models import User
from app.accounts.service import GuestAccount
from app.core import strict_json
from app.games.base import IllegalAction
from app.realtime import protocol
from app.realtime.cluster import Cluster, ClusterError, RemoteListener
from app.realtime.hub import Hub
from app.tables import tokens
from app.tables.actor import Answer, Seat, TableError
from app.tables.manager import TableManager
from app.tables.spectators import check_watcher

if TYPE_CHECKING:
    from app.online.service import OnlinePlay
    from app.tables.rematch import RematchService

log = logging.getLogger(__name__)

ADOPTION_POLL_SECONDS = 0.25


@dataclass(frozen=True)
class MadeElsewhere:
    """A matchmade table made by another node (which seats and watches its players)."""

    id: str
    node: str


NOT_WATCHABLE_PREFIX = '{"type":"error","code":"not_watchable"'  # a spectator sent off (watchers_changed)


def table_moved_text(table_id: str) -> str:
    return strict_json.dumps({"type": "error", "code": "table_moved", "table": table_id,
                              "message": "This table moved to another server; joining it again."})


class Realtime:
    def __init__(self, hub: Hub, tables: TableManager, online: OnlinePlay, cluster: Cluster | None = None,
                 secret_key: str = ""):
        self.hub = hub
        self.tables = tables
        self.online = online  # matchmaking
        self.cluster = cluster
        self.secret_key = secret_key
        self.draining = False
        self.rematch: RematchService | None = None  # set once made (it needs this Realtime)
        self._remotes: dict[tuple[str, str], RemoteListener] = {}  # (node, socket) -> listener, with its tables
        self._remote_tables: dict[tuple[str, str], set[str]] = {}
        tables.listeners.append(self._adopted_here)
        if cluster is not None:
            cluster.on_deliver = self._deliver_local
            cluster.handlers.update({
                "join": self._remote_join, "act": self._remote_act, "resign": self._remote_resign, "leave": self._remote_leave,
                "gone": self._remote_gone, "moved": self._moved, "released": self._released,
                "user": self._user_notice, "sessions_ended": self._sessions_ended,
                "create_table": self._create_table_here, "history": self._remote_history,
                "banned": self._banned, "void": self._void_here, "watchers_changed": self._watchers_changed,
            })

    @property
    def node_id(self) -> str:
        return self.tables.node_id

    @property
    def node_name(self) -> str | None:
        ownership = self.tables.ownership
        return ownership.identity.name if ownership is not None else None

    # ------------------------------------------------------------------------------------------- requests

    async def handle(self, connection: Any, message: Any) -> dict[str, Any] | None:
        if isinstance(message, protocol.Ping):
            return {"type": "pong", "server_time": time.time()}
        if isinstance(message, protocol.Join):
            return await self._join(connection, message)
        if isinstance(message, protocol.Leave):
            owner = connection.remote.pop(message.table, None)
            if owner is not None:
                await self._ask(owner, "leave", connection, table=message.table)
            else:
                table = (self._local(message.table) if message.table in connection.watching else None
                         ) or self._seated_local(message.table, connection.user_id)
                await table.disconnect(connection)
            connection.tables.discard(message.table)
            connection.watching.discard(message.table)
            return {"type": "ack", "table": message.table}
        if isinstance(message, (protocol.Act, protocol.Resign)) and message.table in connection.watching:
            raise TableError("spectators_cannot_act", "You are watching this table: spectators cannot play, "
                                                      "resign or take a seat.")
        if isinstance(message, protocol.Act):
            if message.table not in connection.tables:
                await self._refuse_unjoined(message.table, connection.user_id)
            owner = connection.remote.get(message.table)
            if owner is not None:
                done = await self._ask(owner, "act", connection, table=message.table, action=message.action,
                                       seat=message.seat)
                return {"type": "ack", "table": message.table, "version": done["version"]}
            table = self._seated_local(message.table, connection.user_id)
            started = time.perf_counter()
            # A request with an id is answered inside this socket's update of the move when it can (Answer).
            answer = Answer(connection, message.id) if message.id is not None else None
            version = await table.act(connection.user_id, message.action, message.seat, answer=answer)
            # The move is answered after it was logged and every seat was sent the change (actor._commit).
            metrics.BROADCAST[table.game_name].observe(time.perf_counter() - started)
            if answer is not None and answer.carried:
                return None
            return {"type": "ack", "table": table.id, "version": version}
        if isinstance(message, protocol.Resign):
            if message.table not in connection.tables:
                await self._refuse_unjoined(message.table, connection.user_id)
            owner = connection.remote.get(message.table)
            if owner is not None:
                done = await self._ask(owner, "resign", connection, table=message.table)
                return {"type": "ack", "table": message.table, "version": done["version"]}
            table = self._seated_local(message.table, connection.user_id)
            return {"type": "ack", "table": table.id, "version": await table.resign(connection.user_id)}
        if isinstance(message, protocol.History):
            if message.table not in connection.tables:
                await self._refuse_unjoined(message.table, connection.user_id)
            owner = connection.remote.get(message.table)
            watching = message.table in connection.watching
            if owner is not None:
                done = await self._ask(owner, "history", connection, table=message.table, watch=watching)
                version, events = done["version"], done["events"]
            else:
                table = self._watched_local(message.table) if watching else self._seated_local(
                    message.table, connection.user_id)
                version, events = await table.history(connection.user_id)
            return {"type": "ack", "table": message.table, "version": version, "events": events}
        if isinstance(message, protocol.Rematch) and self.rematch is not None:
            if message.agree is None:
                data = await self.rematch.status(message.table, connection.user_id)
            else:
                data = await self.rematch.answer(message.table, connection.user_id, message.agree)
            return {"type": "ack", "table": message.table, "rematch": data}
        if isinstance(message, protocol.Queue) and self.online is not None:
            if connection.guest and await self._still_a_guest(connection):
                raise TableError(GuestAccount.code, GuestAccount.message)
            matchmaking = self.online.matchmaking
            queue = matchmaking.queue_for(message.game, message.seats, message.mode, message.stake)
            data = await matchmaking.queue(connection.user_id, queue, connection=connection.id,
                                           rejoin_only=message.rejoin)
            return {"type": "ack", "matchmaking": data}
        if isinstance(message, protocol.Unqueue) and self.online is not None:
            return {"type": "ack", "matchmaking": await self.online.matchmaking.unqueue(connection.user_id)}
        raise TableError("unknown_message", "That message type is not handled.")

    async def _still_a_guest(self, connection: Any) -> bool:
        """A guest socket may have signed up since it opened (same user, same socket): ask the database."""
        async with self.online.runtime.reader() as session:
            user = await session.get(User, connection.user_id)
        connection.guest = user is not None and user.guest
        return connection.guest

    async def _refuse_unjoined(self, table_id: str, user_id: int) -> None:
        """The error for a move at a table this socket has not joined: no such table, not seated, or not joined."""
        if self._local(table_id) is not None:
            self._seated_local(table_id, user_id)
        elif self.tables.ownership is None or await self.tables.ownership.owner_of(table_id) is None:
            raise TableError("no_such_table", "There is no live table with that id.")
        raise TableError("not_joined", "Join the table on this connection before acting.")

    def _local(self, table_id: str) -> Any:
        table = self.tables.get(table_id)
        return table if table is not None and table.running and table.status != "lost" else None

    def _seated_local(self, table_id: str, user_id: int, *, missing: tuple[str, str] = (
            "no_such_table", "There is no live table with that id.")) -> Any:
        """The table this process plays, where `user_id` sits; `missing` is the refusal when it plays no such table."""
        table = self._local(table_id)
        if table is None:
            raise TableError(*missing)
        if table.seat_of(user_id) is None:
            raise TableError("not_seated", "You have no seat at this table.")
        return table

    async def _join(self, connection: Any, message: protocol.Join) -> dict[str, Any]:
        table_id = message.table
        connection.remote.pop(table_id, None)
        owner = None if self._local(table_id) is not None else await self._owner(table_id, connection.user_id,
                                                                                message.token)
        if owner is None or owner == self.node_id:
            table = self._local(table_id)
            watch = table is not None and table.seat_of(connection.user_id) is None
            if watch:
                await self._check_watcher(connection, table_id, table.mode, [s.user_id for s in table.seats])
            else:
                table = self._seated_local(table_id, connection.user_id)
            seat = await table.connect(connection, connection.user_id, message.since, message.history)
            self._followed(connection, table_id, watch)
            return {"type": "ack", "table": table_id, "version": table.version, "seat": seat}
        watch = False
        if not self._seat_token_for(table_id, connection.user_id, message.token):  # a seat token says "seated"
            row = await self.tables.store.row(table_id)
            seated = [s.get("user_id") for s in row.table.get("seats", [])] if row is not None else []
            watch = row is not None and connection.user_id not in seated
            if watch:
                await self._check_watcher(connection, table_id, row.mode, seated)
        done = await self._ask(owner, "join", connection, table=table_id, since=message.since, watch=watch,
                               history=message.history)
        connection.remote[table_id] = owner
        self._followed(connection, table_id, watch)
        return {"type": "ack", "table": table_id, "version": done["version"], "seat": done["seat"]}

    def _seat_token_for(self, table_id: str, user_id: int, token: str | None) -> bool:
        found = tokens.verify(self.secret_key, token) if token and self.secret_key else None
        return found is not None and found.table == table_id and found.user == user_id

    @staticmethod
    def _followed(connection: Any, table_id: str, watch: bool) -> None:
        connection.tables.add(table_id)
        if watch:
            connection.watching.add(table_id)
        else:
            connection.watching.discard(table_id)

    async def _check_watcher(self, connection: Any, table_id: str, mode: str, seated: list[int | None]) -> None:
        """A join by someone without a seat: may they watch (app/tables/spectators.py), and may they watch one
        more (SPECTATOR_JOINS_PER_USER: a table followed by one of their sockets on this node counts once per
        socket)? The table's own limit (SPECTATORS_PER_TABLE) is the actor's."""
        runtime = self.tables.runtime
        async with runtime.reader() as session:
            await check_watcher(session, runtime.friends, connection.user_id, mode, seated)
        limit = runtime.settings.spectator_joins_per_user
        watched = {(c.id, t) for c in self.hub.connections_of(connection.user_id)
                   for t in getattr(c, "watching", ())} - {(connection.id, table_id)}
        if len(watched) >= limit:
            raise TableError("too_many_watched", f"You watch {len(watched)} tables already, the most at once; "
                                                 "leave one first.")

    def _watched_local(self, table_id: str, *, missing: tuple[str, str] = (
            "no_such_table", "There is no live table with that id.")) -> Any:
        """The table this process plays, for a spectator (whose right to watch was checked when it joined)."""
        table = self._local(table_id)
        if table is None:
            raise TableError(*missing)
        return table

    async def _owner(self, table_id: str, user_id: int, token: str | None) -> str | None:
        """The node playing the table (None: this node, or nobody can play it). A valid seat token names it
        without a database look-up; otherwise the database says, and a table whose owner is gone is waited for
        while a live node adopts it."""
        found = tokens.verify(self.secret_key, token) if token and self.secret_key else None
        if found is not None and found.table == table_id and found.user == user_id and found.node != self.node_id:
            if self.cluster is not None and found.node in await self.tables.alive_nodes([found.node]):
                return found.node
        ownership = self.tables.ownership
        if ownership is None or self.cluster is None:
            return None
        deadline = time.monotonic() + ownership.lease_seconds + 3
        while True:
            row = await ownership.owner_of(table_id)
            if row is None:
                return None  # no such live table: the local path says so
            owner, status, alive = row
            if owner == self.node_id or self._local(table_id) is not None:
                return None
            if owner is not None and alive:
                return owner
            if status != "playing":
                return None
            if time.monotonic() >= deadline:
                raise TableError("table_unavailable", "This table's server is gone and no server has taken it "
                                                      "over yet; try again in a moment.")
            await asyncio.sleep(ADOPTION_POLL_SECONDS)  # its owner is gone: a live node adopts it within the lease

    async def _ask(self, owner: str, kind: str, connection: Any, **data: Any) -> Any:
        assert self.cluster is not None
        try:
            return await self.cluster.request(owner, kind, socket=connection.id, user=connection.user_id, **data)
        except ClusterError as error:
            table_id = data.get("table")
            if error.code in ("table_unavailable", "not_owner") and connection.remote.pop(table_id, None) is not None \
                    and kind in ("act", "resign", "history"):
                # The socket no longer follows the table through that owner, and the next owner's "moved" only
                # reaches sockets that still name the old one: told now, the client joins again (the join waits for
                # the adoption) instead of sending moves here and hearing nothing more of the table.
                connection.tables.discard(table_id)
                connection.watching.discard(table_id)
                connection.send_text(table_moved_text(table_id))
            raise TableError(error.code, error.message) from None

    # --------------------------------------------------------------------------- the owner's side of a relay

    def _remote(self, message: dict[str, Any]) -> RemoteListener:
        key = (message["from"], message["socket"])
        listener = self._remotes.get(key)
        if listener is None:
            assert self.cluster is not None
            listener = self._remotes[key] = RemoteListener(self.cluster, message["from"], message["socket"],
                                                           message["user"])
            self._remote_tables[key] = set()
        return listener

    def _owned(self, table_id: str, user_id: int) -> Any:
        """For a request relayed from another node: the asker believed this node owns the table."""
        return self._seated_local(table_id, user_id,
                                  missing=("not_owner", "This server does not play that table (any more)."))

    def _owned_watched(self, table_id: str) -> Any:
        return self._watched_local(table_id, missing=("not_owner", "This server does not play that table (any more)."))

    async def _remote_join(self, message: dict[str, Any]) -> dict[str, Any]:
        # A spectator's join: the asking node checked that they may watch (it has the same database).
        table = self._owned_watched(message["table"]) if message.get("watch") else self._owned(
            message["table"], message["user"])
        listener = self._remote(message)
        seat = await table.connect(listener, message["user"], message.get("since"), bool(message.get("history")))
        self._remote_tables[(listener.node, listener.socket)].add(table.id)
        return {"seat": seat, "version": table.version}

    async def _remote_act(self, message: dict[str, Any]) -> dict[str, Any]:
        table = self._owned(message["table"], message["user"])
        started = time.perf_counter()
        try:
            version = await table.act(message["user"], message["action"], message.get("seat"))
        except IllegalAction as refused:
            raise TableError(refused.code, refused.message) from None
        metrics.BROADCAST[table.game_name].observe(time.perf_counter() - started)
        return {"version": version}

    async def _remote_resign(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"version": await self._owned(message["table"], message["user"]).resign(message["user"])}

    async def _remote_history(self, message: dict[str, Any]) -> dict[str, Any]:
        table = self._owned_watched(message["table"]) if message.get("watch") else self._owned(
            message["table"], message["user"])
        version, events = await table.history(message["user"])
        return {"version": version, "events": events}

    async def _remote_leave(self, message: dict[str, Any]) -> dict[str, Any]:
        key = (message["from"], message["socket"])
        listener = self._remotes.get(key)
        table = self._local(message["table"])
        if listener is not None and table is not None:
            await table.disconnect(listener)
            self._remote_tables[key].discard(table.id)
        return {}

    async def _remote_gone(self, message: dict[str, Any]) -> None:
        await self._drop_remote((message["from"], message["socket"]))

    async def _drop_remote(self, key: tuple[str, str]) -> None:
        listener = self._remotes.pop(key, None)
        for table_id in self._remote_tables.pop(key, set()):
            table = self._local(table_id)
            if listener is not None and table is not None:
                await table.disconnect(listener)

    async def prune_remote_listeners(self) -> int:
        """Sockets of nodes that died never say goodbye: drop their listeners (their players' grace time starts).
        Returns how many were dropped."""
        nodes = sorted({node for node, _ in self._remotes})
        if not nodes:
            return 0
        alive = await self.tables.alive_nodes(nodes)
        gone = [key for key in self._remotes if key[0] not in alive]
        for key in gone:
            await self._drop_remote(key)
        return len(gone)

    # ------------------------------------------------------------------------------- the socket's side of it

    def _deliver_local(self, socket_id: str, text: str) -> None:
        connection = self.hub.connection(socket_id)
        if connection is None:
            return
        if text.startswith('{"type":"error","code":"table_moved"'):
            table_id = strict_json.loads(text).get("table")
            connection.remote.pop(table_id, None)
        elif text.startswith(NOT_WATCHABLE_PREFIX):
            self._stop_following(connection, strict_json.loads(text).get("table"))
        connection.send_text(text)

    @staticmethod
    def _stop_following(connection: Any, table_id: str | None) -> None:
        connection.remote.pop(table_id, None)
        connection.tables.discard(table_id)
        connection.watching.discard(table_id)

    async def _moved(self, message: dict[str, Any]) -> None:
        """A table changed owner: sockets here that followed it through its old owner join it again."""
        table_id = message["table"]
        for connection in self.hub.connections():
            if connection.remote.get(table_id) not in (None, message.get("to")):
                connection.remote.pop(table_id, None)
                connection.send_text(table_moved_text(table_id))

    async def _adopted_here(self, table: Any, adopted: bool) -> None:
        """This node took a table over: sockets anywhere that followed it through its old owner join it again."""
        if not adopted:
            return
        await self._moved({"table": table.id, "to": self.node_id})
        if self.cluster is not None:
            await self.cluster.broadcast("moved", table=table.id, to=self.node_id)

    async def drain(self) -> int:
        """Leave the cluster cleanly (SIGTERM): not ready any more (the balancer stops sending sockets here), every
        table handed off to a live node, then every socket closed with 1012 so its client reconnects through the
        balancer and joins its tables again, from its last version. Returns how many tables were handed off."""
        self.draining = True
        released = await self.tables.hand_off()
        if self.cluster is not None and released:
            await self.cluster.broadcast("released", count=released)
        await self.hub.close_all(protocol.CLOSE_SERVICE_RESTART, "server restarting: reconnect")
        log.info("drained: %s tables handed off, sockets closed", released)
        return released

    async def create_table(self, *, game: str, seats: list[Any], mode: str, meta: dict[str, Any], table_id: str
                           ) -> Any:
        """Matchmaking's table factory: the table is made on the node holding most of its players' sockets (else
        the least loaded), so that their moves are not relayed. Exactly once: if the node asked does not answer,
        this node makes it, and if that finds the table made after all (the answer was lost), it is left to its
        maker: nothing is cancelled or refunded."""
        home = await self._home_for([seat.user_id for seat in seats if seat.user_id is not None])
        if home != self.node_id and self.cluster is not None:
            try:
                await self.cluster.request(home, "create_table", game=game, seats=[asdict(s) for s in seats],
                                           mode=mode, meta=meta, table_id=table_id)
                return MadeElsewhere(table_id, home)
            except ClusterError as failure:
                log.warning("node %s did not make table %s (%s); making it here", home, table_id, failure.code)
        try:
            return await self.tables.create(game=game, seats=seats, mode=mode, meta=meta, table_id=table_id)
        except IntegrityError:
            log.info("table %s was made by node %s after all", table_id, home)
            return MadeElsewhere(table_id, home)

    async def _create_table_here(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.draining:
            raise TableError("table_unavailable", "This server is leaving.")
        table = await self.tables.create(game=message["game"], seats=[Seat(**s) for s in message["seats"]],
                                         mode=message["mode"], meta=message["meta"], table_id=message["table_id"])
        return {"table_id": table.id}

    async def _home_for(self, user_ids: list[int]) -> str:
        by_node = await self.hub.sockets_by_node(user_ids)
        alive = await self.tables.alive_nodes(sorted(by_node)) if by_node else set()
        ranked = sorted(((count, node == self.node_id, node) for node, count in by_node.items() if node in alive),
                        reverse=True)
        if ranked:
            return ranked[0][2]
        ownership = self.tables.ownership
        least = await ownership.least_loaded() if ownership is not None else None
        return least or self.node_id

    async def _released(self, message: dict[str, Any]) -> None:
        if not self.draining:
            await self.tables.adopt_orphans()

    async def _user_notice(self, message: dict[str, Any]) -> None:
        self.hub.send_to_user(message["user"], message["message"], everywhere=False)

    async def _sessions_ended(self, message: dict[str, Any]) -> None:
        self._close_sessions_here(message["user"], message.get("session"))

    # ----------------------------------------------------------------------------------------- sessions

    def close_sessions(self, user_id: int, session_id: int | None) -> None:
        """A logout: that session's sockets (or all of the user's) close now (4401), on every node."""
        self._close_sessions_here(user_id, session_id)
        if self.cluster is not None:
            self._spawn(self.cluster.broadcast("sessions_ended", user=user_id, session=session_id))

    def _close_sessions_here(self, user_id: int, session_id: int | None, why: str = "You logged out.") -> None:
        for connection in self.hub.connections_of(user_id):
            if session_id is None or connection.session_id == session_id:
                connection.deliver({"type": "error", "code": "unauthorized", "message": why})
                connection._request_close(protocol.CLOSE_UNAUTHORIZED, "logged out")

    # ------------------------------------------------------------------------------------ operators (moderation)

    async def watchers_changed(self, user_id: int) -> None:
        """`user_id` may have taken away someone's right to watch (a block, a friend removed, "let others watch my
        online games" turned off): the tables where they sit, on every node, send off the spectators who may not
        watch any more (docs/protocol.md, "Spectators"), instead of only refusing their next join. Run it once the
        change is committed (an endpoint's background task)."""
        if self.cluster is not None:
            self._spawn(self.cluster.broadcast("watchers_changed", user=user_id))
        await self._send_off_watchers(user_id)

    async def _watchers_changed(self, message: dict[str, Any]) -> None:
        await self._send_off_watchers(message["user"])

    async def _send_off_watchers(self, user_id: int) -> None:
        runtime = self.tables.runtime
        for table in self.tables.tables_of(user_id):
            if not table.running:
                continue
            seated = [seat.user_id for seat in table.seats]
            for listener in table.spectator_listeners():
                viewer = getattr(listener, "user_id", None)
                if viewer is None:
                    continue
                try:
                    async with runtime.reader() as session:
                        await check_watcher(session, runtime.friends, viewer, table.mode, seated)
                except TableError as refused:
                    await table.disconnect(listener)
                    # A socket on another node stops following the table when this reaches it (_deliver_local).
                    listener.send_text(strict_json.dumps({"type": "error", "code": refused.code, "table": table.id,
                                                          "message": refused.message}))
                    if not isinstance(listener, RemoteListener):
                        self._stop_following(listener, table.id)

    async def _banned(self, message: dict[str, Any]) -> None:
        await self.banned(message["user"])

    async def banned(self, user_id: int) -> None:
        """A user was banned (app/moderation.py broadcasts it to every node): their sockets here close, a bot covers
        their seats at the tables played here at once (platform.md, "Leaving"), and a queued seat is given up (a
        staked one's stake back; whichever node gets there first, the others find nothing to do)."""
        self._close_sessions_here(user_id, None, "This account is banned.")
        for table in self.tables.tables_of(user_id):
            if table.running and table.status == "playing":
                try:
                    await table.cover(user_id)
                except TableError:
                    pass  # it ended meanwhile
        if self.online is not None:
            await self.online.matchmaking.unqueue(user_id)

    async def _void_here(self, message: dict[str, Any]) -> dict[str, Any]:
        """An operator's `tablestakes void` for a table this node plays: its actor cancels it, refunding every
        stake with the reason, and its players are told (`table_cancelled`, code `voided`)."""
        table = self._local(message["table"])
        if table is None:
            raise TableError("not_owner", "This server does not play that table (any more).")
        await table.void(message["reason"])
        if table.status != "cancelled":
            raise TableError("void_failed", f"The table could not be cancelled (it is {table.status}); its owner "
                                            "keeps trying to cancel it and refund its stakes.")
        return {"version": table.version}

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.hub.keep(task)

    async def disconnect(self, connection: Any) -> None:
        if self.online is not None:
            # Closing the socket that holds a queued seat gives the seat up after a grace time (a staked seat's
            # stake comes back), unless the player comes back for it.
            try:
                await self.online.matchmaking.leave_later(connection.user_id, connection.id)
            except Exception:
                log.exception("could not take user %s out of the queue", connection.user_id)
        owners = set(connection.remote.values())
        for table_id in list(connection.tables):
            if table_id in connection.remote:
                continue
            table = self.tables.get(table_id)
            if table is not None and table.running:
                await table.disconnect(connection)
        if self.cluster is not None:
            for owner in owners:
                self.cluster.tell(owner, "gone", socket=connection.id)
        connection.remote.clear()
        connection.tables.clear()
        connection.watching.clear()
