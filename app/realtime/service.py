"""What the gateway does with each validated message: joining, leaving and acting at tables."""

from __future__ import annotations

import time
from typing import Any

from app.realtime import protocol
from app.realtime.hub import Hub
from app.tables.actor import TableError
from app.tables.manager import TableManager


class Realtime:
    def __init__(self, hub: Hub, tables: TableManager):
        self.hub = hub
        self.tables = tables

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
        raise TableError("unknown_message", "That message type is not handled.")

    async def disconnect(self, connection: Any) -> None:
        for table_id in list(connection.tables):
            table = self.tables.get(table_id)
            if table is not None and table.running:
                await table.disconnect(connection)
        connection.tables.clear()
