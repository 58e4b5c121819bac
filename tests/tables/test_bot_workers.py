"""Hard bots think in worker processes that run below the server's priority (app/tables/thinking.py)."""

from __future__ import annotations

import os

from app.tables.thinking import WORKER_NICENESS, BotThinking


def test_a_bot_worker_runs_below_the_server_priority():
    thinking = BotThinking(workers=1)
    try:
        worker_niceness = thinking._executor().submit(os.nice, 0).result(timeout=60)
    finally:
        thinking.close()
    assert worker_niceness == min(19, os.nice(0) + WORKER_NICENESS)
