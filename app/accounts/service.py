"""Accounts: register, log in, sessions, the current user.

Sessions are opaque random tokens; only their SHA-256 is stored, so a database leak gives no usable cookie.
`authenticate(session, token)` is the one check of a token, used by the HTTP dependency and the WebSocket gateway.
Password hashing (argon2id, ~30 ms) always runs in a worker thread and never while a database transaction is open:
on SQLite every transaction holds the write lock (BEGIN IMMEDIATE), so a hash inside one would stall every writer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts import repository as repo
from app.accounts.levels import level_for_xp
from app.accounts.models import User
from app.accounts.schemas import check_password, check_username, username_key
from app.config import Settings
from app.core.clock import Clock
from app.core.errors import AppError, Conflict, NotFound, TooManyRequests, Unauthorized
from app.core.ratelimit import RateLimiter
from app.core.security import PasswordHashing, hash_session_token, new_session_token
from app.ledger.service import LedgerService


class UsernameTaken(Conflict):
    code = "username_taken"
    message = "That username is taken (names are compared without regard to case)."


class InvalidCredentials(Unauthorized):
    code = "invalid_credentials"
    message = "Wrong username or password."


class InvalidSession(Unauthorized):
    code = "invalid_session"
    message = "This session is not valid; log in again."


class SessionRevoked(Unauthorized):
    code = "session_revoked"
    message = "This session was logged out; log in again."


class SessionExpired(Unauthorized):
    code = "session_expired"
    message = "This session has expired; log in again."


class UnknownUser(NotFound):
    code = "unknown_user"
    message = "No user has that name."


class InvalidAccountInput(AppError):
    status = 422
    code = "validation_error"


@dataclass(frozen=True)
class Authenticated:
    user: User
    session_id: int


@dataclass(frozen=True)
class Profile:
    id: int
    username: str
    coins: int
    xp: int
    level: int


class AccountService:
    def __init__(self, settings: Settings, clock: Clock, ledger: LedgerService, passwords: PasswordHashing,
                 limiter: RateLimiter, sessionmaker: async_sessionmaker[AsyncSession]):
        self.settings = settings
        self.clock = clock
        self.ledger = ledger
        self.passwords = passwords
        self.limiter = limiter
        self.sessionmaker = sessionmaker
        # Told (user id, session id or None for all of the user's) when sessions end, to close their sockets at once.
        self.session_end_listeners: list[Callable[[int, int | None], None]] = []

    # --- registering ---------------------------------------------------------------------------------------

    async def register(self, session: AsyncSession, username: str, password: str) -> tuple[User, str]:
        """A new user with their wallet and welcome coins, logged in: returns the user and a session token."""
        try:
            check_username(username)
            check_password(password)
        except ValueError as error:
            raise InvalidAccountInput(str(error)) from None
        password_hash = await self.passwords.hash(password)  # before any transaction opens
        user = await self.create_user(session, username, password_hash)
        return user, await self.start_session(session, user.id)

    async def create_user(self, session: AsyncSession, username: str, password_hash: str) -> User:
        """The user row, their wallet and the welcome coins (an entry like any other). No hashing here: tests, the
        bench and seeding scripts may pass a hash made once."""
        key = username_key(username)
        if await repo.user_by_key(session, key) is not None:
            raise UsernameTaken(details={"username": username})
        try:
            async with session.begin_nested():
                user = await repo.add_user(session, username=username, key=key, password_hash=password_hash,
                                           now=self.clock.now())
        except IntegrityError:
            raise UsernameTaken(details={"username": username}) from None  # lost a race for the same name
        wallet = await self.ledger.open_wallet(session, user.id)
        if self.settings.start_balance > 0:
            await self.ledger.credit(session, wallet, self.settings.start_balance, key=f"welcome:{user.id}",
                                     reason="welcome")
        return user

    # --- logging in and out --------------------------------------------------------------------------------

    async def login(self, session: AsyncSession, username: str, password: str, client_address: str | None
                    ) -> tuple[User, str]:
        key = username_key(username)
        window = self.settings.login_rate_window_seconds
        address_hits = await self.limiter.hit(f"login:addr:{client_address or 'unknown'}", window)
        if address_hits.count > self.settings.login_rate_per_address:
            raise TooManyRequests(address_hits.retry_after, "Too many login attempts from this address; wait.")
        failures = await self.limiter.peek(f"login:user:{key}")
        if failures.count >= self.settings.login_rate_per_username:
            raise TooManyRequests(failures.retry_after, "Too many failed logins for this username; wait.")

        async with self.sessionmaker() as lookup:  # a short read, closed before the slow verify
            user = await repo.user_by_key(lookup, key)
            stored_hash = user.password_hash if user is not None else None
        matches = await self.passwords.verify(stored_hash, password)  # verifies a decoy when the name is unknown
        if user is None or not matches:
            await self.limiter.hit(f"login:user:{key}", window)
            raise InvalidCredentials()
        await self.limiter.reset(f"login:user:{key}")
        if stored_hash and self.passwords.needs_rehash(stored_hash):
            await repo.set_password_hash(session, user.id, await self.passwords.hash(password))
        return user, await self.start_session(session, user.id)

    async def start_session(self, session: AsyncSession, user_id: int) -> str:
        token = new_session_token()
        now = self.clock.now()
        await repo.add_session(session, user_id=user_id, token_hash=hash_session_token(token), now=now,
                               expires_at=now + timedelta(days=self.settings.session_days))
        return token

    async def authenticate(self, session: AsyncSession, token: str | None) -> Authenticated:
        """The user behind a raw session token, or a 401 error saying why not."""
        if not token:
            raise Unauthorized()
        row = await repo.session_by_token_hash(session, hash_session_token(token))
        if row is None:
            raise InvalidSession()
        if row.revoked_at is not None:
            raise SessionRevoked()
        if row.expires_at <= self.clock.now():
            raise SessionExpired()
        user = await repo.user_by_id(session, row.user_id)
        if user is None:
            raise InvalidSession()
        return Authenticated(user, row.id)

    async def logout(self, session: AsyncSession, auth: Authenticated) -> None:
        await repo.revoke_session(session, auth.session_id, self.clock.now())
        self._sessions_ended(auth.user.id, auth.session_id)

    async def logout_everywhere(self, session: AsyncSession, user_id: int) -> int:
        revoked = await repo.revoke_all_sessions(session, user_id, self.clock.now())
        self._sessions_ended(user_id, None)
        return revoked

    def _sessions_ended(self, user_id: int, session_id: int | None) -> None:
        for listener in self.session_end_listeners:
            listener(user_id, session_id)

    async def ended_sessions(self, session_ids: list[int]) -> set[int]:
        """Of these sessions, the ones no longer valid: revoked, expired or gone (their sockets must close)."""
        async with self.sessionmaker() as session:
            valid = await repo.valid_session_ids(session, session_ids, self.clock.now())
        return set(session_ids) - valid

    # --- reading -------------------------------------------------------------------------------------------

    async def user_by_username(self, session: AsyncSession, username: str) -> User:
        user = await repo.user_by_key(session, username_key(username))
        if user is None:
            raise UnknownUser(details={"username": username})
        return user

    async def profile(self, session: AsyncSession, user: User) -> Profile:
        coins = await self.ledger.balance(session, await self.ledger.wallet_id(session, user.id))
        return Profile(user.id, user.username, coins, user.xp, level_for_xp(user.xp, self.settings.level_xp_step))
