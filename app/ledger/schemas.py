"""What the wallet endpoints give."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class WalletOut(BaseModel):
    balance: int


class HistoryItemOut(BaseModel):
    id: int
    delta: int
    balance_after: int
    reason: str
    created_at: datetime


class HistoryOut(BaseModel):
    items: list[HistoryItemOut]
    next_cursor: str | None  # give it back as ?cursor= for the next, older page; null on the last page
