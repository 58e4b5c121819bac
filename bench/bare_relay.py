"""The bare relay: the physical limit of this stack for bench/load.py's `--baseline`.

A FastAPI app on uvicorn, configured like `tablestakes serve`, with one WebSocket at /ws and no game, no database,
no Redis, no authentication: a socket `join`s a table name, and each `act` is relayed as it is, with the table's
next version, to every socket at that table, then acknowledged. Whatever Tablestakes spends beyond this per move is
the cost of the game, its log and its views.

    .venv/bin/python bench/bare_relay.py --port 0      # prints "serving on http://127.0.0.1:PORT"
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from collections import defaultdict
from pathlib import Path

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.commands import tune_gc, uvicorn_options  # noqa: E402  (the same WebSocket and GC settings as the server)


def create_app() -> FastAPI:
    app = FastAPI()
    tables: dict[str, set[WebSocket]] = defaultdict(set)
    versions: dict[str, int] = defaultdict(int)

    @app.websocket("/ws")
    async def relay(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text('{"type":"hello"}')
        joined: set[str] = set()
        try:
            while True:
                message = json.loads(await websocket.receive_text())
                table = message.get("table", "")
                if message["type"] == "join":
                    tables[table].add(websocket)
                    joined.add(table)
                    reply = {"type": "ack", "id": message.get("id"), "table": table, "version": versions[table]}
                elif message["type"] == "act":
                    versions[table] += 1
                    update = json.dumps({"type": "update", "table": table, "version": versions[table],
                                         "events": [message["action"]]}, separators=(",", ":"))
                    for peer in list(tables[table]):
                        await peer.send_text(update)
                    reply = {"type": "ack", "id": message.get("id"), "table": table, "version": versions[table]}
                else:
                    reply = {"type": "pong", "id": message.get("id")}
                await websocket.send_text(json.dumps(reply, separators=(",", ":")))
        except WebSocketDisconnect:
            pass
        finally:
            for table in joined:
                tables[table].discard(websocket)

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    url = f"http://{args.host}:{sock.getsockname()[1]}"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            tune_gc()
            print(f"bare relay serving on {url}", flush=True)

    config = uvicorn.Config(create_app(), log_config=None, access_log=False, lifespan="off", **uvicorn_options())
    Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
