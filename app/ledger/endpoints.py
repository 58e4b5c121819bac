"""/api/wallet: my balance and my history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.core.errors import AppError
from app.core.openapi import errors
from app.core.params import INT64_MAX
from app.deps import CurrentUser, DbSession, RuntimeDep
from app.ledger.schemas import HistoryItemOut, HistoryOut, WalletOut

router = APIRouter(prefix="/api/wallet", tags=["wallet"])


class InvalidCursor(AppError):
    code = "invalid_cursor"
    message = "This cursor was not given by the history endpoint."


@router.get("", response_model=WalletOut)
async def wallet(auth: CurrentUser, session: DbSession, runtime: RuntimeDep) -> WalletOut:
    account_id = await runtime.ledger.wallet_id(session, auth.user.id)
    return WalletOut(balance=await runtime.ledger.balance(session, account_id))


@router.get("/history", response_model=HistoryOut, responses=errors((400, "invalid_cursor")))
async def history(auth: CurrentUser, session: DbSession, runtime: RuntimeDep,
                  cursor: Annotated[str | None, Query(max_length=20)] = None,
                  limit: Annotated[int, Query(ge=1, le=200)] = 50) -> HistoryOut:
    before = None
    if cursor:
        # ASCII digits only ("²".isdigit() is true), and an entry id: 64 bits at most.
        if not (cursor.isascii() and cursor.isdigit()) or int(cursor) > INT64_MAX:
            raise InvalidCursor()
        before = int(cursor)
    account_id = await runtime.ledger.wallet_id(session, auth.user.id)
    page = await runtime.ledger.history(session, account_id, before=before, limit=limit)
    return HistoryOut(items=[HistoryItemOut(id=i.id, delta=i.delta, balance_after=i.balance_after, reason=i.reason,
                                            created_at=i.created_at) for i in page.items],
                      next_cursor=str(page.next_cursor) if page.next_cursor is not None else None)
