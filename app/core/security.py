"""Passwords (argon2id, always in a worker thread) and session tokens (opaque, only their SHA-256 is stored)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

SESSION_COOKIE = "ts_session"


class PasswordHashing:
    """argon2id at the configured cost (never below OWASP's m=19 MiB, t=2, p=1: Settings refuses less).

    Hashing runs on its own small thread pool, one thread per core: a burst of logins then costs at most
    cores x 19 MiB at once and cannot crowd out the default pool that bots and other blocking work use.
    """

    _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="argon2")

    def __init__(self, memory_kib: int, time_cost: int, parallelism: int):
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism,
                                      hash_len=32, salt_len=16, type=Type.ID)
        self._decoy: str | None = None

    async def _in_pool(self, function, *args):
        return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)

    async def hash(self, password: str) -> str:
        return await self._in_pool(self._hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """True if `password` matches. With no hash (unknown username) a decoy is verified, so a miss costs as much
        time as a wrong password and response times do not tell which names exist."""
        if password_hash is None:
            if self._decoy is None:
                self._decoy = await self.hash(secrets.token_urlsafe(16))
            await self._in_pool(self._verify, self._decoy, password)
            return False
        return await self._in_pool(self._verify, password_hash, password)

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self._hasher.check_needs_rehash(password_hash)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def hash_session_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
