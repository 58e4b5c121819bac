"""The one timer's session re-check (app/realtime/hub.py): sockets whose sessions ended behind this node's back (no
logout notice reached it) close with 4401, across every chunk of session ids, and the others stay open."""

from __future__ import annotations

from typing import Any

import fakeredis

from app.realtime import protocol
from app.realtime import hub as hub_module
from app.realtime.hub import Hub


class Socket:
    def __init__(self, number: int, session_id: int):
        self.id = f"socket-{number}"
        self.user_id = number
        self.session_id = session_id
        self.received: list[dict[str, Any]] = []
        self.closed: int | None = None

    def deliver(self, message: dict[str, Any]) -> None:
        self.received.append(message)

    async def close(self, code: int, reason: str) -> None:
        self.closed = code


async def test_sockets_of_ended_sessions_close_in_every_chunk_and_the_others_stay_open(monkeypatch):
    monkeypatch.setattr(hub_module, "SESSION_CHECK_CHUNK", 4)  # a few sockets span three chunks
    chunk = hub_module.SESSION_CHECK_CHUNK
    hub = Hub(fakeredis.FakeAsyncRedis(decode_responses=True), "node-a")
    count = 2 * chunk + 3
    sockets = [Socket(number, session_id=1000 + number) for number in range(count)]
    for socket in sockets:
        await hub.register(socket)
    ended = {1000, 1000 + chunk + 3, 1000 + count - 1}  # the first, one mid-way, the last
    asked: list[list[int]] = []

    async def ended_sessions(session_ids: list[int]) -> set[int]:
        asked.append(session_ids)
        return ended & set(session_ids)

    assert await hub.close_ended_sessions(ended_sessions) == len(ended)
    assert sorted(id_ for ids in asked for id_ in ids) == [s.session_id for s in sockets]
    assert len(asked) == 3 and all(len(ids) <= chunk for ids in asked)
    for socket in sockets:
        if socket.session_id in ended:
            assert socket.closed == protocol.CLOSE_UNAUTHORIZED
            assert socket.received[-1]["code"] == "unauthorized"
        else:
            assert socket.closed is None and socket.received == []
