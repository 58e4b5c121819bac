"""`tablestakes backup PATH` and `tablestakes restore PATH` (README, "Backups"), for the database DATABASE_URL names.

- SQLite (the embedded database): SQLite's online backup API (`sqlite3.Connection.backup`), never a file copy. It
  reads a consistent snapshot while the server keeps writing (a copy of the file could catch half a transaction, or
  miss what still sits in the `-wal` file), and writes one self-contained file (journal mode DELETE). Restoring goes
  the same way, page by page through SQLite, into the database file.
- PostgreSQL: `pg_dump --format=custom` and `pg_restore --single-transaction` (Debian's postgresql-client; the
  client must be at least the server's major version). The password, if the URL has one, goes through PGPASSWORD,
  not the command line.

A restore refuses a database that already holds Tablestakes tables unless `replace` is given (on SQLite it also
refuses to replace one a server still beats on). Stop the servers before restoring. A restored database runs no node:
the nodes it lists are marked stopped, so the next server adopts their tables at once instead of after the lease (a
backup of a running server lists it as alive).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from sqlalchemy.engine import make_url

HEARTBEAT_SECONDS = 30.0  # a node that beat this recently may still be running on the database


class BackupError(Exception):
    """The backup or restore cannot be done; the message says why."""


def backup(database_url: str, path: Path) -> str:
    """Write a backup of the database to `path` (which must not exist). Returns a line saying what was written."""
    path = Path(path)
    if path.exists():
        raise BackupError(f"{path} exists already: choose a new file (a backup never overwrites one)")
    if _is_sqlite(database_url):
        source = _sqlite_file(database_url)
        if not source.is_file():
            raise BackupError(f"there is no database at {source}")
        _sqlite_copy(source, path)
        return f"backed up {source} to {path} ({path.stat().st_size} bytes, SQLite online backup)"
    _pg("pg_dump", database_url, ["--format=custom", "--no-owner", f"--file={path}"])
    return f"backed up {make_url(database_url).database} to {path} ({path.stat().st_size} bytes, pg_dump custom format)"


def restore(database_url: str, path: Path, *, replace: bool = False) -> str:
    """Restore the backup at `path` into the database DATABASE_URL names."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"there is no backup at {path}")
    if _is_sqlite(database_url):
        target = _sqlite_file(database_url)
        _check_sqlite_backup(path)
        if target.exists() and _sqlite_has_tables(target):
            if not replace:
                raise BackupError(f"{target} already holds a Tablestakes database: restore into a new DATABASE_URL, "
                                  "or pass --replace to overwrite it")
            _refuse_if_served_sqlite(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(path, target)
        connection = sqlite3.connect(target)
        try:
            with connection:
                connection.execute("UPDATE cluster_nodes SET stopped = 1")
        finally:
            connection.close()
        return f"restored {path} into {target}"
    options = ["--no-owner", "--single-transaction", "--exit-on-error", f"--dbname={_libpq_url(database_url)}"]
    if replace:
        options += ["--clean", "--if-exists"]
    _pg("pg_restore", database_url, [*options, str(path)], url_as_argument=False)
    _pg("psql", database_url, ["--quiet", "--no-psqlrc", "--set=ON_ERROR_STOP=1",
                               "--command=UPDATE cluster_nodes SET stopped = true"])
    return f"restored {path} into {make_url(database_url).database}"


# ------------------------------------------------------------------------------------------------------- SQLite

def _is_sqlite(database_url: str) -> bool:
    return make_url(database_url).get_backend_name() == "sqlite"


def _sqlite_file(database_url: str) -> Path:
    database = make_url(database_url).database
    if not database or database == ":memory:":
        raise BackupError("DATABASE_URL names no SQLite file")
    return Path(database)


def _sqlite_copy(source: Path, target: Path) -> None:
    reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writing = sqlite3.connect(target)
    try:
        reading.execute("PRAGMA busy_timeout = 30000")
        writing.execute("PRAGMA busy_timeout = 30000")
        reading.backup(writing)  # the online backup API: a consistent snapshot, WAL included
        writing.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        checked = writing.execute("PRAGMA integrity_check").fetchone()[0]
        if checked != "ok":
            raise BackupError(f"{target} failed SQLite's integrity check: {checked}")
    finally:
        reading.close()
        writing.close()


def _sqlite_has_tables(path: Path) -> bool:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                                  "'alembic_version'").fetchone()[0] > 0
    finally:
        connection.close()


def _check_sqlite_backup(path: Path) -> None:
    try:
        if not _sqlite_has_tables(path):
            raise BackupError(f"{path} is an SQLite file but not a Tablestakes database (no alembic_version)")
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not an SQLite database ({error})") from None


def _refuse_if_served_sqlite(path: Path) -> None:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        exists = connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'cluster_nodes'").fetchone()[0]
        if not exists:
            return
        newest = connection.execute("SELECT max(heartbeat) FROM cluster_nodes WHERE NOT stopped").fetchone()[0]
    finally:
        connection.close()
    if newest is not None and time.time() - float(newest) < HEARTBEAT_SECONDS:
        raise BackupError(f"a server is using {path} (a node's heartbeat is {time.time() - float(newest):.0f} s "
                          "old): stop it before restoring over its database")


# --------------------------------------------------------------------------------------------------- PostgreSQL

def _libpq_url(database_url: str) -> str:
    """The URL as libpq takes it: no SQLAlchemy driver, no password (PGPASSWORD carries it)."""
    url = make_url(database_url).set(drivername="postgresql", password=None)
    return url.render_as_string(hide_password=False)


def _pg(tool: str, database_url: str, arguments: list[str], *, url_as_argument: bool = True) -> None:
    binary = shutil.which(tool)
    if binary is None:
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client)")
    env = dict(os.environ)
    password = make_url(database_url).password
    if password:
        env["PGPASSWORD"] = str(password)
    command = [binary, *arguments, *([_libpq_url(database_url)] if url_as_argument else [])]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
