"""Which node plays which table (design.md, "Ownership and fencing").

Every start of a server process is a node incarnation: a `cluster_nodes` row whose heartbeat, on the database's
clock, it refreshes every third of the lease. A live table names its owner and an `owner_epoch`. A node adopts a
table only when the owner is gone (stopped cleanly, its heartbeat older than the lease, or a dead process on this very
host), with one conditional UPDATE that bumps the epoch: of two nodes racing, one wins. Every later write for the
table is conditional on the epoch (app/tables/store.py), so an owner that was paused past its lease and wakes up
cannot write, pay or refund anything for a table it lost.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, exists, literal_column, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.tables.models import ClusterNode, LiveTable

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)


def db_now(session: AsyncSession) -> Any:
    """The database's clock as seconds since the epoch, as an SQL expression (one clock for every node)."""
    return _db_now(session.get_bind().dialect.name)


def _db_now(dialect: str) -> Any:
    if dialect == "postgresql":
        return literal_column("extract(epoch from clock_timestamp())")
    return literal_column("((julianday('now') - 2440587.5) * 86400.0)")


@functools.lru_cache(maxsize=2)
def _heartbeat_statement(dialect: str) -> Any:
    """A node's heartbeat, built once per dialect (a statement costs more to build than to run, and it runs while
    SQLite's write lock is held)."""
    nodes = ClusterNode.__table__
    return (update(nodes).where(nodes.c.id == bindparam("node_id"), nodes.c.stopped.is_(False))
            .values(heartbeat=_db_now(dialect), tables=bindparam("tables")))


@dataclass(frozen=True)
class NodeIdentity:
    name: str  # NODE_NAME, stable across restarts
    id: str  # this incarnation
    host: str
    pid: int

    @classmethod
    def new(cls, name: str | None = None) -> NodeIdentity:
        host = socket.gethostname()
        name = (name or host)[:40]
        return cls(name=name, id=f"{name}-{uuid.uuid4().hex[:12]}", host=host[:255], pid=os.getpid())


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Ownership:
    """This node's incarnation row, its heartbeat, and the adoption of tables whose owner is gone."""

    def __init__(self, runtime: Runtime, identity: NodeIdentity, lease_seconds: float, key_fingerprint: str = ""):
        self.runtime = runtime
        self.identity = identity
        self.lease_seconds = lease_seconds
        self.key_fingerprint = key_fingerprint

    @property
    def node_id(self) -> str:
        return self.identity.id

    async def register(self) -> None:
        """Insert this incarnation (alive from now) and mark earlier incarnations on this host whose process is
        gone as stopped, so a restart adopts their tables at once instead of after the lease."""
        identity = self.identity
        async with self.runtime.transaction() as session:
            session.add(ClusterNode(id=identity.id, name=identity.name, host=identity.host, pid=identity.pid,
                                    started_at=self.runtime.clock.now(), heartbeat=0.0, stopped=False,
                                    key_fingerprint=self.key_fingerprint, tables=0))
            await session.flush()
            await session.execute(update(ClusterNode).where(ClusterNode.id == identity.id)
                                  .values(heartbeat=db_now(session)))
            rows = await session.execute(select(ClusterNode.id, ClusterNode.pid).where(
                ClusterNode.host == identity.host, ClusterNode.id != identity.id, ClusterNode.stopped.is_(False)))
            dead = [node for node, pid in rows.all() if pid == identity.pid or not _pid_alive(pid)]
            if dead:
                await session.execute(update(ClusterNode).where(ClusterNode.id.in_(dead)).values(stopped=True))
                log.info("earlier incarnations on this host are gone: %s", ", ".join(dead))

    async def heartbeat(self, tables: int = 0) -> bool:
        """Refresh this node's heartbeat and load (its row is written again if it went missing). False if another
        process marked this incarnation stopped: its tables may be adopted elsewhere, and fencing stops its
        writes."""
        async def beat(session: AsyncSession) -> bool | None:
            result = await session.execute(_heartbeat_statement(session.get_bind().dialect.name),
                                           {"node_id": self.node_id, "tables": tables})
            if result.rowcount == 1:
                return True
            return False if await session.get(ClusterNode, self.node_id) is not None else None

        # One trip on SQLite (Runtime.write): every move's append waits while a writer holds the turn.
        beaten = await self.runtime.write(beat)
        if beaten is None:
            await self.register()
            return True
        return beaten

    async def stop(self) -> None:
        """A clean shutdown: this incarnation is gone, its tables (already released) are free for anyone."""
        async with self.runtime.transaction() as session:
            await session.execute(update(ClusterNode).where(ClusterNode.id == self.node_id).values(stopped=True))

    def _owner_gone(self, session: AsyncSession) -> Any:
        """SQL: the live table's owner is not a live incarnation (none, stopped, or silent past the lease); a node
        never takes a table from itself."""
        alive = exists().where(ClusterNode.id == LiveTable.owner, ClusterNode.stopped.is_(False),
                               ClusterNode.heartbeat >= db_now(session) - self.lease_seconds)
        return or_(LiveTable.owner.is_(None), and_(LiveTable.owner != self.node_id, ~alive))

    async def adoptable(self) -> list[tuple[str, int]]:
        """Live tables whose owner is gone: (table id, epoch seen)."""
        async with self.runtime.reader() as session:
            rows = await session.execute(select(LiveTable.id, LiveTable.owner_epoch)
                                         .where(LiveTable.status == "playing", self._owner_gone(session))
                                         .order_by(LiveTable.created_at))
            return [(table_id, epoch) for table_id, epoch in rows.all()]

    async def owner_of(self, table_id: str) -> tuple[str | None, str, bool] | None:
        """Who plays a table now: (owner incarnation or None, the table's status, whether that owner is alive);
        None if there is no such live table."""
        async with self.runtime.reader() as session:
            alive = exists().where(ClusterNode.id == LiveTable.owner, ClusterNode.stopped.is_(False),
                                   ClusterNode.heartbeat >= db_now(session) - self.lease_seconds)
            row = (await session.execute(select(LiveTable.owner, LiveTable.status, alive)
                                         .where(LiveTable.id == table_id))).first()
        return None if row is None else (row[0], row[1], bool(row[2]))

    async def alive_nodes(self, node_ids: list[str]) -> set[str]:
        """Of these incarnations, the ones alive now (heartbeat within the lease, not stopped)."""
        if not node_ids:
            return set()
        async with self.runtime.reader() as session:
            rows = await session.scalars(select(ClusterNode.id).where(
                ClusterNode.id.in_(node_ids), ClusterNode.stopped.is_(False),
                ClusterNode.heartbeat >= db_now(session) - self.lease_seconds))
            return set(rows)

    async def least_loaded(self) -> str | None:
        """The live incarnation playing the fewest tables (as of the heartbeats)."""
        async with self.runtime.reader() as session:
            return await session.scalar(select(ClusterNode.id).where(
                ClusterNode.stopped.is_(False), ClusterNode.heartbeat >= db_now(session) - self.lease_seconds)
                .order_by(ClusterNode.tables, ClusterNode.id).limit(1))

    async def others_alive(self) -> list[ClusterNode]:
        """The other live incarnations (for the start-up checks of a cluster)."""
        async with self.runtime.reader() as session:
            rows = await session.scalars(select(ClusterNode).where(
                ClusterNode.id != self.node_id, ClusterNode.stopped.is_(False),
                ClusterNode.heartbeat >= db_now(session) - self.lease_seconds))
            return list(rows)

    async def adopt(self, session: AsyncSession, table_id: str, seen_epoch: int) -> int | None:
        """Take the table if its owner is still gone and nobody took it since `seen_epoch`: the new epoch, or None
        when another node won (or the owner came back in time). In the caller's transaction."""
        result = await session.execute(
            update(LiveTable)
            .where(and_(LiveTable.id == table_id, LiveTable.owner_epoch == seen_epoch,
                        LiveTable.status == "playing", self._owner_gone(session)))
            .values(owner=self.node_id, owner_epoch=seen_epoch + 1)
            .execution_options(synchronize_session=False)
        )
        return seen_epoch + 1 if result.rowcount == 1 else None

    async def release(self, session: AsyncSession, table_id: str, epoch: int) -> bool:
        """Give a table up (a drain or a clean stop): any node may adopt it at once. Fenced like every write, and it
        bumps the epoch, so nothing more can be written under the old one."""
        result = await session.execute(update(LiveTable).where(LiveTable.id == table_id,
                                                               LiveTable.owner_epoch == epoch)
                                       .values(owner=None, owner_epoch=epoch + 1)
                                       .execution_options(synchronize_session=False))
        return result.rowcount == 1
