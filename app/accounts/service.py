"""Accounts: register, log in, sessions, the current user.

Sessions are opaque random tokens; only their SHA-256 is stored, so a database leak gives no usable cookie.
`authenticate(session, token)` is the one check of a token, used by the HTTP dependency and the WebSocket gateway.
Password hashing (argon2id, ~30 ms) always runs in a worker thread and never while a database transaction is open:
on SQLite every transaction holds the write lock (BEGIN IMMEDIATE), so a hash inside one would stall every writer.

Guests ("Play now" on the front page): a user row flagged `guest`, named Guest-<digits>, with no password (nobody can
log in to it: only its session cookie reaches it), a wallet that stays at 0 and vs-bots play only (`GuestAccount`
refuses the rest, app/deps.py `FullAccount`), counted against the guest limits below. `upgrade` turns the same row
into a full account (name, password, welcome coins once, key `welcome:<id>`), so its game history stays, and counts
as a sign-up; `remove_stale_guests` deletes guests older than GUEST_TTL_DAYS (the online housekeeping loop calls it,
and `tablestakes guests clean-up` does by hand).

Limits (Redis fixed windows, counted by client address: app/core/ratelimit.py `address_key`):
- Sign-ups (a guest's included), each of which mints START_BALANCE coins: SIGNUP_RATE_PER_ADDRESS per address and
  SIGNUP_RATE_OVERALL for the whole site per SIGNUP_RATE_WINDOW_SECONDS. A sign-up that fails (a taken name) gives its
  slot back. Guests: GUEST_RATE_PER_ADDRESS and GUEST_RATE_OVERALL in the same window.
- Logins, as OWASP advises against brute force without handing attackers a lockout weapon: failures are counted per
  username *and* address (the attacker's address waits; the owner's does not), per address (one address trying
  many names), and per username from everywhere: past that, only addresses that logged in to the account within
  LOGIN_KNOWN_ADDRESS_DAYS may still try, so a guess spread over many addresses stops while the owner at a known
  address still gets in. Every attempt is counted before its password is checked (atomically, so a burst of
  parallel guesses cannot all slip under a limit) and a successful one is taken back.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts import repository as repo
from app.accounts.levels import level_for_xp
from app.accounts.models import User
from app.accounts.schemas import GUEST_NAME_PREFIX, check_new_username, check_password, username_key
from app.config import Settings
from app.core.clock import Clock
from app.core.errors import AppError, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized
from app.core.ratelimit import RateLimiter, address_key
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


class AccountBanned(Forbidden):
    code = "account_banned"
    message = "This account is banned."


class UnknownUser(NotFound):
    code = "unknown_user"
    message = "No user has that name."


class GuestAccount(Forbidden):
    code = "guest_account"
    message = "Guests play against bots only; sign up to play online, with friends, for coins or in the league."


class NotAGuest(Conflict):
    code = "not_a_guest"
    message = "This account has already signed up."


def guest_name(digits: int) -> str:
    return f"{GUEST_NAME_PREFIX}{secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)}"


class InvalidAccountInput(AppError):
    status = 422
    code = "validation_error"


def _known_address(key: str, address: str) -> str:
    return f"login:known:{key}:{address}"


@dataclass(frozen=True)
class Authenticated:
    user: User
    session_id: int


@dataclass(frozen=True)
class SocketAuth:
    """Who opened a socket: what the socket keeps of the user, and its session."""
    user_id: int
    username: str
    guest: bool
    session_id: int


@dataclass(frozen=True)
class Profile:
    id: int
    username: str
    coins: int
    xp: int
    level: int
    guest: bool = False
    allow_watching: bool = True


class AccountService:
    def __init__(self, settings: Settings, clock: Clock, ledger: LedgerService, passwords: PasswordHashing,
                 limiter: RateLimiter, sessionmaker: async_sessionmaker[AsyncSession],
                 reader: async_sessionmaker[AsyncSession] | None = None):
        self.settings = settings
        self.clock = clock
        self.ledger = ledger
        self.passwords = passwords
        self.limiter = limiter
        self.sessionmaker = sessionmaker
        self.reader = reader or sessionmaker
        # Told (user id, session id or None for all of the user's) when sessions end, to close their sockets at once.
        self.session_end_listeners: list[Callable[[int, int | None], None]] = []

    # --- registering ---------------------------------------------------------------------------------------

    async def register(self, session: AsyncSession, username: str, password: str,
                       client_address: str | None = None) -> tuple[User, str]:
        """A new user with their wallet and welcome coins, logged in: returns the user and a session token."""
        try:
            check_new_username(username)
            check_password(password)
        except ValueError as error:
            raise InvalidAccountInput(str(error)) from None
        counted = await self._count_signup(client_address)
        try:
            password_hash = await self.passwords.hash(password)  # before any transaction opens
            user = await self.create_user(session, username, password_hash)
        except BaseException:
            for name in counted:  # a sign-up that made no account does not count
                await self.limiter.undo(name)
            raise
        await self._remember_address(user, client_address)
        return user, await self.start_session(session, user.id)

    async def _count_signup(self, client_address: str | None) -> list[str]:
        """Counts one new account (welcome coins minted) against the address's and the site's limits (429 past
        either); returns the counters, to give back if no account is made."""
        return await self._count_new("signup", client_address, self.settings.signup_rate_per_address,
                                     self.settings.signup_rate_overall, "new accounts")

    async def _count_guest(self, client_address: str | None) -> list[str]:
        """Counts one guest against its own, higher limits: a guest mints no coins (its sign-up is counted as one),
        and a household or school behind one address may well start several practice games an hour."""
        return await self._count_new("guest", client_address, self.settings.guest_rate_per_address,
                                     self.settings.guest_rate_overall, "guest games started")

    async def _count_new(self, kind: str, client_address: str | None, per_address: int, overall_limit: int,
                         what: str) -> list[str]:
        window = self.settings.signup_rate_window_seconds
        by_address, everywhere = f"{kind}:addr:{address_key(client_address)}", f"{kind}:all"
        hits = await self.limiter.hit(by_address, window)
        if hits.count > per_address:
            await self.limiter.undo(by_address)
            raise TooManyRequests(hits.retry_after, f"Too many {what} from this address.")
        overall = await self.limiter.hit(everywhere, window)
        if overall.count > overall_limit:
            await self.limiter.undo(everywhere)
            await self.limiter.undo(by_address)
            raise TooManyRequests(overall.retry_after, f"Too many {what} right now.")
        return [by_address, everywhere]

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

    # --- guests ---------------------------------------------------------------------------------------------

    async def create_guest(self, session: AsyncSession, client_address: str | None = None) -> tuple[User, str]:
        """A guest user (no password, an empty wallet), logged in for GUEST_TTL_DAYS: returns it and a session
        token. Counted against the guest limits: a guest costs no coins, but rows and sessions are not free either."""
        counted = await self._count_guest(client_address)
        try:
            user = await self._add_guest(session)
            await self.ledger.open_wallet(session, user.id)  # no welcome coins: a guest moves no coins
        except BaseException:
            for name in counted:
                await self.limiter.undo(name)
            raise
        return user, await self.start_session(session, user.id, days=self.settings.guest_ttl_days)

    async def _add_guest(self, session: AsyncSession) -> User:
        # Four digits while they are plenty; a taken name (a guest's or a person's) draws again, longer each time.
        for digits in (4, 4, 5, 6, 7, 8, 9, 10):
            name = guest_name(digits)
            if await repo.user_by_key(session, username_key(name)) is not None:
                continue
            try:
                async with session.begin_nested():
                    return await repo.add_user(session, username=name, key=username_key(name), password_hash="",
                                               now=self.clock.now(), guest=True)
            except IntegrityError:
                continue  # lost a race for the same name
        raise Conflict("No guest name was free; try again.", code="guest_name_taken")

    async def upgrade(self, session: AsyncSession, auth: Authenticated, username: str, password: str,
                      client_address: str | None = None) -> User:
        """The guest behind `auth` becomes a full account with this name and password, keeping its id (so its game
        history) and getting the welcome coins, exactly once (the ledger key `welcome:<id>`, as at sign-up). It is
        counted as a sign-up here, where the coins are minted (a guest was counted only against the guest limits)."""
        try:
            check_new_username(username)
            check_password(password)
        except ValueError as error:
            raise InvalidAccountInput(str(error)) from None
        if not auth.user.guest:
            raise NotAGuest()
        counted = await self._count_signup(client_address)
        try:
            await self._make_guest_a_person(session, auth, username, password)
        except BaseException:
            for name in counted:  # a sign-up that made no account does not count
                await self.limiter.undo(name)
            raise
        if self.settings.start_balance > 0:
            wallet = await self.ledger.wallet_id(session, auth.user.id)
            await self.ledger.credit(session, wallet, self.settings.start_balance, key=f"welcome:{auth.user.id}",
                                     reason="welcome")
        # The guest session ends with the guest's time; the account's lasts as long as any other.
        await repo.extend_session(session, auth.session_id,
                                  self.clock.now() + timedelta(days=self.settings.session_days))
        user = await repo.user_by_id(session, auth.user.id)
        assert user is not None
        await session.refresh(user)
        await self._remember_address(user, client_address)
        return user

    async def _make_guest_a_person(self, session: AsyncSession, auth: Authenticated, username: str,
                                   password: str) -> None:
        password_hash = await self.passwords.hash(password)  # before any transaction opens
        key = username_key(username)
        if await repo.user_by_key(session, key) is not None:
            raise UsernameTaken(details={"username": username})
        try:
            async with session.begin_nested():
                # Conditional on still being a guest: of two sign-ups at once, one wins and the other is told.
                if not await repo.sign_up_guest(session, auth.user.id, username=username, key=key,
                                                password_hash=password_hash):
                    raise NotAGuest()
        except IntegrityError:
            raise UsernameTaken(details={"username": username}) from None

    async def remove_stale_guests(self, session: AsyncSession, limit: int = 500) -> int:
        """Deletes guests made more than GUEST_TTL_DAYS ago that never signed up, with their sessions, empty
        wallets and rows that cascade (past-game entries; a finished game's record keeps its seats for replay).
        A guest seated at a live table, or whose wallet has entries (none should), is left for a later run."""
        cutoff = self.clock.now() - timedelta(days=self.settings.guest_ttl_days)
        return await repo.delete_stale_guests(session, cutoff, limit)

    # --- logging in and out --------------------------------------------------------------------------------

    async def login(self, session: AsyncSession, username: str, password: str, client_address: str | None
                    ) -> tuple[User, str]:
        key = username_key(username)
        address = address_key(client_address)
        settings = self.settings
        window = settings.login_rate_window_seconds
        by_pair, by_address, by_username = f"login:pair:{key}:{address}", f"login:addr:{address}", f"login:user:{key}"
        known = _known_address(key, address)

        pair = await self.limiter.hit(by_pair, window)
        if pair.count > settings.login_failures_per_username_and_address:
            raise TooManyRequests(pair.retry_after, "Too many failed logins for this username from here.")
        from_address = await self.limiter.hit(by_address, window)
        if from_address.count > settings.login_failures_per_address:
            await self.limiter.undo(by_pair)
            raise TooManyRequests(from_address.retry_after, "Too many failed logins from this address.")
        everywhere = await self.limiter.peek(by_username)
        if everywhere.count >= settings.login_failures_per_username and not await self.limiter.remembers(known):
            await self.limiter.undo(by_pair)
            await self.limiter.undo(by_address)
            raise TooManyRequests(everywhere.retry_after, "This account has had too many failed logins; log in from "
                                  "a device you have used before, or wait.")
        await self.limiter.hit(by_username, window)

        async with self.reader() as lookup:  # a short read, closed before the slow verify
            user = await repo.user_by_key(lookup, key)
            stored_hash = user.password_hash if user is not None and not user.guest else None
        # Verifies a decoy when the name is unknown or a guest's (a guest has no password: only its cookie gets in).
        matches = await self.passwords.verify(stored_hash, password)
        if user is None or user.guest or not matches:
            raise InvalidCredentials()  # the attempt stays counted: a failure
        if user.banned_at is not None:
            # Told only with the right password: a ban is nobody else's business. The reason is written for the player.
            raise AccountBanned(f"This account is banned: {user.ban_reason.rstrip('.')}." if user.ban_reason else None,
                                details={"banned_at": user.banned_at.isoformat()})
        await self.limiter.reset(by_pair)
        await self.limiter.undo(by_address)
        await self.limiter.undo(by_username)
        await self._remember_address(user, client_address)
        if stored_hash and self.passwords.needs_rehash(stored_hash):
            await repo.set_password_hash(session, user.id, await self.passwords.hash(password))
        return user, await self.start_session(session, user.id)

    async def _remember_address(self, user: User, client_address: str | None) -> None:
        """This address got into this account: it may keep trying when the account is under attack from elsewhere."""
        await self.limiter.remember(_known_address(user.username_key, address_key(client_address)),
                                    self.settings.login_known_address_days * 86400)

    async def start_session(self, session: AsyncSession, user_id: int, *, days: int | None = None) -> str:
        token = new_session_token()
        now = self.clock.now()
        await repo.add_session(session, user_id=user_id, token_hash=hash_session_token(token), now=now,
                               expires_at=now + timedelta(days=self.settings.session_days if days is None else days))
        return token

    async def authenticate(self, session: AsyncSession, token: str | None) -> Authenticated:
        """The user behind a raw session token, or a 401 error saying why not."""
        if not token:
            raise Unauthorized()
        found = await repo.session_and_user(session, hash_session_token(token))  # one query: every socket asks
        if found is None:
            raise InvalidSession()
        row, user = found
        if row.revoked_at is not None:
            raise SessionRevoked()
        if row.expires_at <= self.clock.now():
            raise SessionExpired()
        if user.banned_at is not None:
            raise SessionRevoked()  # a ban revokes every session; this one was made while the ban went in
        return Authenticated(user, row.id)

    async def authenticate_socket(self, token: str | None) -> SocketAuth:
        """`authenticate` for a socket opening, with the same checks and errors: the session and only what the socket
        keeps of its user, read without the ORM (repository.socket_session), since every socket of a restarted node
        opens again at once."""
        if not token:
            raise Unauthorized()
        found = await repo.socket_session(self.reader.kw["bind"], hash_session_token(token))
        if found is None:
            raise InvalidSession()
        if found.revoked:
            raise SessionRevoked()
        if found.expires_at <= self.clock.now():
            raise SessionExpired()
        if found.banned:
            raise SessionRevoked()  # a ban revokes every session; this one was made while the ban went in
        return SocketAuth(found.user_id, found.username, found.guest, found.session_id)

    async def logout(self, session: AsyncSession, auth: Authenticated) -> None:
        await repo.revoke_session(session, auth.session_id, self.clock.now())
        self._sessions_ended(auth.user.id, auth.session_id)

    async def logout_everywhere(self, session: AsyncSession, user_id: int) -> int:
        revoked = await repo.revoke_all_sessions(session, user_id, self.clock.now())
        self._sessions_ended(user_id, None)
        return revoked

    async def ban(self, session: AsyncSession, user_id: int, reason: str) -> int:
        """Moderation (`tablestakes ban`): the account cannot log in any more and every session of it ends (its
        sockets on this node close at once; app/moderation.py tells the other nodes). Returns how many sessions
        were revoked. Banning again replaces the reason."""
        now = self.clock.now()
        await repo.set_ban(session, user_id, now, reason)
        revoked = await repo.revoke_all_sessions(session, user_id, now)
        self._sessions_ended(user_id, None)
        return revoked

    async def unban(self, session: AsyncSession, user_id: int) -> bool:
        """The account may log in again (its old sessions stay revoked). False if it was not banned."""
        return await repo.set_ban(session, user_id, None, None)

    def _sessions_ended(self, user_id: int, session_id: int | None) -> None:
        for listener in self.session_end_listeners:
            listener(user_id, session_id)

    async def ended_sessions(self, session_ids: list[int]) -> set[int]:
        """Of these sessions, the ones no longer valid: revoked, expired or gone (their sockets must close)."""
        valid = await repo.valid_session_ids(self.reader.kw["bind"], session_ids, self.clock.now())
        return set(session_ids) - valid

    # --- reading -------------------------------------------------------------------------------------------

    async def user_by_username(self, session: AsyncSession, username: str) -> User:
        """The account by this name, for friends, invitations and operators: a guest is nobody to them (it cannot
        be befriended, invited or paid), so its name is unknown here."""
        user = await repo.user_by_key(session, username_key(username))
        if user is None or user.guest:
            raise UnknownUser(details={"username": username})
        return user

    async def award_xp(self, session: AsyncSession, amounts: dict[int, int]) -> dict[int, int | None]:
        """A game's XP for its players (user id -> XP), in one statement. For each, the level it took them to when
        it crossed one (platform.md: the results say so), else None."""
        totals = await repo.add_xp_many(session, amounts)
        step = self.settings.level_xp_step
        return {user_id: level if (level := level_for_xp(xp, step)) > level_for_xp(xp - amounts[user_id], step)
                else None for user_id, xp in totals.items()}

    async def profile(self, session: AsyncSession, user: User) -> Profile:
        coins = await self.ledger.balance(session, await self.ledger.wallet_id(session, user.id))
        return Profile(user.id, user.username, coins, user.xp, level_for_xp(user.xp, self.settings.level_xp_step),
                       user.guest, user.allow_watching is not False)
