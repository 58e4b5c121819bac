"""Structured logs: one JSON object per line, carrying the request id of the request being served."""

from __future__ import annotations

import json
import logging
import logging.config
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)

# Attributes every LogRecord has; anything else on a record came from `extra=` and goes into the JSON.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName",
                                                                          "color_message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class ClientFaultFilter(logging.Filter):
    """uvicorn logs a client's invalid UTF-8 text frame at error level with a traceback, although it is the client's
    fault and handled (the socket is closed with 1007): a hostile client could fill the error log and page whoever
    watches it. Such records become one warning line without the traceback."""

    CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.msg in self.CLIENT_FAULTS:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def configure_logging(level: str = "INFO") -> None:
    """Route the app's, uvicorn's and SQLAlchemy's loggers to stderr as JSON lines. Called by the CLI only."""
    logging.config.dictConfig({
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "filters": {"client_faults": {"()": ClientFaultFilter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": sys.stderr}},
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.error": {"handlers": [], "propagate": True, "filters": ["client_faults"]},
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"},  # we log requests ourselves
            "alembic": {"level": "WARNING"},
        },
    })
