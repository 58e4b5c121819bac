"""Seat tokens: which node plays a table, for a given user's seat, signed with SECRET_KEY (HMAC-SHA256).

A table's owner hands each seated player a token with its full messages: table, user, seat, the owner node
incarnation, the owner epoch, and an expiry. A client sends it back when it joins again (after a reconnection,
perhaps through another node): any node that shares SECRET_KEY can check it and relay the join straight to the owner
it names, without asking the database. The session cookie stays the authentication; a token only routes, and a
token whose owner has moved on (a stale epoch, a node that is gone) is simply not used.

The format is `<base64url JSON>.<base64url HMAC>`: readable by anyone (it names no secret), forged by nobody.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

TOKEN_SECONDS = 6 * 3600  # a day's session of play; a stale token only costs a database look-up


@dataclass(frozen=True)
class SeatToken:
    table: str
    user: int
    seat: int
    node: str  # the owner's node incarnation when the token was made
    epoch: int
    expires: float


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(key: str, payload: str) -> str:
    return _encode(hmac.new(key.encode(), b"seat-token:" + payload.encode(), hashlib.sha256).digest())


def sign(key: str, *, table: str, user: int, seat: int, node: str, epoch: int,
         seconds: float = TOKEN_SECONDS, now: float | None = None) -> str:
    expires = round((now if now is not None else time.time()) + seconds)
    body = {"t": table, "u": user, "s": seat, "n": node, "e": epoch, "x": expires}
    payload = _encode(json.dumps(body, separators=(",", ":"), sort_keys=True).encode())
    return f"{payload}.{_mac(key, payload)}"


def verify(key: str, token: Any, *, now: float | None = None) -> SeatToken | None:
    """The token's contents if it is ours (the HMAC matches) and not expired; None otherwise, never an error."""
    if not isinstance(token, str) or len(token) > 1024 or token.count(".") != 1:
        return None
    payload, mac = token.split(".")
    if not hmac.compare_digest(mac, _mac(key, payload)):
        return None
    try:
        body = json.loads(_decode(payload))
        found = SeatToken(table=str(body["t"]), user=int(body["u"]), seat=int(body["s"]), node=str(body["n"]),
                          epoch=int(body["e"]), expires=float(body["x"]))
    except (ValueError, KeyError, TypeError):
        return None
    if found.expires < (now if now is not None else time.time()):
        return None
    return found


def key_fingerprint(key: str) -> str:
    """A short public digest of SECRET_KEY, so nodes can tell whether they share it without showing it."""
    return _mac(key, "fingerprint")[:16]
