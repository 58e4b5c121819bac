"""What the gateway does with each validated message: joining, leaving and acting at tables."""

from __future__ import annotations

import logging
import time
from typing import Any

from app.realtime import protocol
from app.realtime.hub import Hub
from app.tables.actor import TableError
from app.tables.manager import TableManager

log = logging.getLogger(__name__)


class Realtime:
    def __init__(self, hub: Hub, tables: TableManager, online: Any = None):
        self.hub = hub
        self.tables = tables
        self.online = online  # app.online.service.OnlinePlay: matchmaking

    def _table(self, table_id: str, user_id: int) -> Any:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", "There is no live table with that id.")
        if table.seat_of(user_id) is None:
            raise TableError("not_seated", "You have no seat at this table.")
        return table

    async def handle(self, connection: Any, message: Any) -> dict[str, Any] | None:
        if isinstance(message, protocol.Ping):
            return {"type": "pong", "server_time": time.time()}
        if isinstance(message, protocol.Join):
            table = self._table(message.table, connection.user_id)
            seat = await table.connect(connection, connection.user_id, message.since)
            connection.tables.add(table.id)
            return {"type": "ack", "table": table.id, "version": table.version, "seat": seat}
        if isinstance(message, protocol.Leave):
            table = self._table(message.table, connection.user_id)
            await table.disconnect(connection)
            connection.tables.discard(table.id)
            return {"type": "ack", "table": table.id}
        if isinstance(message, protocol.Act):
            table = self._table(message.table, connection.user_id)
            if table.id not in connection.tables:
                raise TableError("not_joined", "Join the table on this connection before acting.")
            version = await table.act(connection.user_id, message.action, message.seat)
            return {"type": "ack", "table": table.id, "version": version}
        if isinstance(message, protocol.Queue) and self.online is not None:
            matchmaking = self.online.matchmaking
            queue = matchmaking.queue_for(message.game, message.seats, message.mode, message.stake)
            data = await matchmaking.queue(connection.user_id, queue, connection=connection.id,
                                           rejoin_only=message.rejoin)
            return {"type": "ack", "matchmaking": data}
        if isinstance(message, protocol.Unqueue) and self.online is not None:
            return {"type": "ack", "matchmaking": await self.online.matchmaking.unqueue(connection.user_id)}
        raise TableError("unknown_message", "That message type is not handled.")

    def close_sessions(self, user_id: int, session_id: int | None) -> None:
        """A logout: that session's sockets (or all of the user's) on this node close now (4401)."""
        for connection in self.hub.connections_of(user_id):
            if session_id is None or connection.session_id == session_id:
                connection.deliver({"type": "error", "code": "unauthorized", "message": "You logged out."})
                connection._request_close(protocol.CLOSE_UNAUTHORIZED, "logged out")

    async def disconnect(self, connection: Any) -> None:
        if self.online is not None:
            # Closing the socket that holds a queued seat gives the seat up after a grace time (a staked seat's
            # stake comes back), unless the player comes back for it.
            try:
                await self.online.matchmaking.leave_later(connection.user_id, connection.id)
            except Exception:
                log.exception("could not take user %s out of the queue", connection.user_id)
        for table_id in list(connection.tables):
            table = self.tables.get(table_id)
            if table is not None and table.running:
                await table.disconnect(connection)
        connection.tables.clear()
