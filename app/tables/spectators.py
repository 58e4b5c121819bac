"""Who may watch a table without sitting at it, live or as a replay once finished (docs/protocol.md, "Spectators").

platform.md makes friends' presence visible to each other, keeps friends rooms to the people invited and practice
(vs bots) to its player, and forms online and staked tables by matchmaking with players anywhere. So:
- a friend of a person seated at the table may watch it, whatever its mode (friends see each other's presence; a
  friends or practice table is watched by friends only);
- anyone else may watch an online or staked table by its link, unless one of its people turned off "let others watch
  my online games" (`users.allow_watching`);
- nobody a seated person blocked may watch it.
A spectator sees the spectator view only (`Game.view(None)`), never a hand or a secret choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.tables.actor import TableError

PUBLIC_MODES = frozenset({"online", "staked"})  # watchable by anyone with the link (unless a player says no)


async def check_watcher(session: AsyncSession, friends: object, viewer_id: int, mode: str,
                        seated: Iterable[int | None]) -> None:
    """Refuse (TableError `not_watchable`) a viewer who may not watch a table of `mode` where `seated` sit."""
    people = sorted({user_id for user_id in seated if user_id is not None})
    for person in people:
        if await friends.has_blocked(session, person, viewer_id):  # type: ignore[attr-defined]
            raise TableError("not_watchable", "You cannot watch this table.")
    if set(people) & set(await friends.friend_ids(session, viewer_id)):  # type: ignore[attr-defined]
        return
    if mode not in PUBLIC_MODES:
        raise TableError("not_watchable", "Only friends of its players may watch a friends or practice table.")
    private = (await session.execute(select(User.id).where(User.id.in_(people), User.allow_watching.is_(False))
                                     .limit(1))).first()
    if private is not None:
        raise TableError("not_watchable", "A player at this table does not let others watch their games; only "
                                          "their friends may.")
