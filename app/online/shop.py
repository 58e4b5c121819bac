"""The shop: the gold booster and the VIP pass (platform.md, "Boosters"), bought with coins or granted by an operator.

- Gold booster: prizes x2 for one hour from the purchase. While one runs another cannot be bought (it would start
  now too and waste the hour already paid for); an operator's grant then extends the running one instead.
- VIP pass: prizes x1.5 for 30 days; bought (or granted) again, it is extended from where it ends.
- Both at once multiply (x3). They apply to online and friends prizes only, never to a pot or to XP: TableStore asks
  `multipliers` for each seat and rewards.py applies them to prizes alone.

A purchase is one ledger debit and one `boosts` row sharing one key, in the caller's transaction: a retried purchase
(same `request_id`) finds the key and changes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.core.clock import Clock
from app.core.errors import AppError, Conflict
from app.ledger.service import LedgerService
from app.online.models import Boost

if TYPE_CHECKING:
    from app.config import Settings

TITLES = {"booster": "Gold booster", "vip": "VIP pass"}


class UnknownItem(AppError):
    status = 422
    code = "unknown_item"
    message = "The shop sells `booster` (the gold booster) and `vip` (the VIP pass)."


class BoosterActive(Conflict):
    code = "booster_active"
    message = "Your gold booster is still running; buy another when it ends."


@dataclass(frozen=True)
class Item:
    name: str
    title: str
    price: int
    multiplier: float
    duration: timedelta
    extends: bool  # bought again while running: extended from its end (VIP) or refused (booster)

    def as_dict(self) -> dict[str, Any]:
        return {"item": self.name, "title": self.title, "price": self.price, "multiplier": self.multiplier,
                "duration_seconds": int(self.duration.total_seconds())}


def shop_items(settings: Settings) -> dict[str, Item]:
    return {
        "booster": Item("booster", TITLES["booster"], settings.booster_price, settings.booster_multiplier,
                        timedelta(seconds=settings.booster_seconds), extends=False),
        "vip": Item("vip", TITLES["vip"], settings.vip_price, settings.vip_multiplier,
                    timedelta(days=settings.vip_days), extends=True),
    }


# The items running for some players now (each settlement asks), built once: building costs more than running it.
_boosts = Boost.__table__
# Core columns, not the ORM's: it runs in every settlement, while SQLite's write lock is held (app/core/db.py,
# _DirectStatements, runs plain Core statements without the Session).
_RUNNING_ITEMS = select(_boosts.c.user_id, _boosts.c.kind).distinct().where(
    _boosts.c.user_id.in_(bindparam("users", expanding=True)), _boosts.c.starts_at <= bindparam("now"),
    _boosts.c.ends_at > bindparam("now"))


def boost_out(boost: Boost, item: Item) -> dict[str, Any]:
    return {"item": boost.kind, "title": item.title, "multiplier": item.multiplier,
            "starts_at": boost.starts_at.isoformat(), "ends_at": boost.ends_at.isoformat()}


class ShopService:
    def __init__(self, settings: Settings, clock: Clock, ledger: LedgerService):
        self.settings = settings
        self.clock = clock
        self.ledger = ledger

    @property
    def items(self) -> dict[str, Item]:
        return shop_items(self.settings)

    def item(self, name: str) -> Item:
        try:
            return self.items[name]
        except KeyError:
            raise UnknownItem() from None

    async def buy(self, session: AsyncSession, user_id: int, name: str, request_id: str | None = None) -> Boost:
        """Debit the price and start (or extend) the item. Refused: `insufficient_funds`, `booster_active`."""
        item = self.item(name)
        key = f"shop:{user_id}:{request_id or uuid.uuid4().hex}"
        await self._lock_user(session, user_id)
        existing = await self._by_key(session, key)
        if existing is not None:
            if existing.kind != item.name:
                raise Conflict("This request id was already used to buy something else.",
                               code="idempotency_key_reused")
            return existing  # a retried purchase: already bought, nothing more to do
        now = self.clock.now()
        latest = await self._latest(session, user_id, item.name)
        running = latest is not None and latest.ends_at > now
        if running and not item.extends:
            raise BoosterActive(f"Your gold booster runs until {latest.ends_at.isoformat()}; buy another then.",
                                details={"ends_at": latest.ends_at.isoformat()})
        wallet = await self.ledger.wallet_id(session, user_id)
        await self.ledger.debit(session, wallet, item.price, key=key, reason=f"shop: {item.title}")
        starts_at = latest.ends_at if running and latest is not None else now
        return await self._add(session, user_id, item, starts_at, "shop", key, f"bought: {item.title}")

    async def grant(self, session: AsyncSession, user_id: int, name: str, reason: str) -> Boost:
        """An operator's gift: no coins move. A running booster or pass is extended from its end."""
        item = self.item(name)
        await self._lock_user(session, user_id)
        now = self.clock.now()
        latest = await self._latest(session, user_id, item.name)
        starts_at = latest.ends_at if latest is not None and latest.ends_at > now else now
        return await self._add(session, user_id, item, starts_at, "grant", f"grant:{uuid.uuid4().hex}",
                               f"grant: {reason}"[:200])

    async def active(self, session: AsyncSession, user_id: int, at: datetime | None = None) -> list[Boost]:
        """The boosts running at `at` (now by default), at most one per kind."""
        at = at or self.clock.now()
        rows = await session.scalars(select(Boost).where(Boost.user_id == user_id, Boost.starts_at <= at,
                                                         Boost.ends_at > at).order_by(Boost.kind, Boost.ends_at))
        running: dict[str, Boost] = {}
        for boost in rows:
            running.setdefault(boost.kind, boost)
        return list(running.values())

    async def running_until(self, session: AsyncSession, user_id: int) -> list[dict[str, Any]]:
        """What /api/me and /api/shop show: each running item with the end of its last (back-to-back) period."""
        now = self.clock.now()
        out = []
        for boost in await self.active(session, user_id, now):
            latest = await self._latest(session, user_id, boost.kind)
            item = self.items[boost.kind]
            out.append({**boost_out(boost, item), "ends_at": (latest or boost).ends_at.isoformat()})
        return out

    async def multipliers(self, session: AsyncSession, user_ids: list[int | None]) -> list[float]:
        """TableStore's multiplier source: per seat, the product of the running items (1.0 for bots)."""
        wanted = [user_id for user_id in user_ids if user_id is not None]
        factors: dict[int, float] = {user_id: 1.0 for user_id in wanted}
        if wanted:
            now = self.clock.now()
            rows = await session.execute(_RUNNING_ITEMS, {"users": wanted, "now": now})
            items = self.items
            for user_id, kind in rows.all():
                factors[user_id] *= items[kind].multiplier
        return [factors.get(user_id, 1.0) if user_id is not None else 1.0 for user_id in user_ids]

    # --- internals -----------------------------------------------------------------------------------------

    async def _lock_user(self, session: AsyncSession, user_id: int) -> None:
        # One purchase at a time per player (Postgres; SQLite's BEGIN IMMEDIATE already serialises writers).
        await session.execute(select(User.id).where(User.id == user_id).with_for_update())

    async def _latest(self, session: AsyncSession, user_id: int, kind: str) -> Boost | None:
        return (await session.scalars(select(Boost).where(Boost.user_id == user_id, Boost.kind == kind)
                                      .order_by(Boost.ends_at.desc()).limit(1))).first()

    async def _by_key(self, session: AsyncSession, key: str) -> Boost | None:
        return (await session.scalars(select(Boost).where(Boost.key == key))).first()

    async def _add(self, session: AsyncSession, user_id: int, item: Item, starts_at: datetime, source: str,
                   key: str, reason: str) -> Boost:
        boost = Boost(user_id=user_id, kind=item.name, starts_at=starts_at, ends_at=starts_at + item.duration,
                      source=source, key=key, reason=reason, created_at=self.clock.now())
        session.add(boost)
        await session.flush()
        return boost
