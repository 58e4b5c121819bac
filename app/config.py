"""Settings: one object, read from environment variables (no prefix), every default documented in README.md.

With nothing set the app runs embedded: a SQLite file and the secret key in DATA_DIR (default ./data) and the
in-process Redis stand-in (`memory://`). The defaults of rules/platform.md (payouts, XP, league, boosters, timers)
live here too, so an operator can change them without touching code.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# OWASP's minimum for argon2id (m=19 MiB, t=2, p=1); settings may raise these, never lower them.
ARGON2_MIN_MEMORY_KIB = 19456
ARGON2_MIN_TIME_COST = 2

SECRET_KEY_FILE = "secret_key"
REPO_ROOT = Path(__file__).resolve().parent.parent


def _default_payouts() -> dict[int, list[int]]:
    # platform.md "Coin payouts": online tables pay every place, by number of seats.
    return {2: [60, 20], 3: [80, 40, 20], 4: [100, 60, 40, 20], 5: [120, 80, 50, 30, 20]}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore", case_sensitive=False)

    # --- where things live -----------------------------------------------------------------------------------
    data_dir: Path = Path("./data")
    database_url: str = ""  # empty: sqlite+aiosqlite:///<DATA_DIR>/tablestakes.db
    redis_url: str = "memory://"
    secret_key: SecretStr | None = None  # unset: generated once and kept in <DATA_DIR>/secret_key (mode 0600)
    static_dir: Path = REPO_ROOT / "static"

    # --- serving -------------------------------------------------------------------------------------------
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    log_level: str = "INFO"
    max_body_bytes: int = 64 * 1024
    db_pool_size: int = 10
    db_max_overflow: int = 20
    sqlite_busy_timeout_ms: int = 30_000
    # GET /metrics (Prometheus) answers only a request carrying `Authorization: Bearer <METRICS_TOKEN>`; unset, it
    # answers 404 to everyone: the numbers say how busy the site is and which routes fail, not for the public.
    metrics_token: SecretStr | None = None

    # --- accounts ------------------------------------------------------------------------------------------
    session_days: int = 30
    argon2_memory_kib: int = ARGON2_MIN_MEMORY_KIB
    argon2_time_cost: int = ARGON2_MIN_TIME_COST
    argon2_parallelism: int = 1
    # Login throttling (OWASP): failures are counted per username and client address, so an attacker elsewhere
    # never locks the owner out; per address, against one address trying many names; and per username from
    # everywhere, past which only addresses that logged in to that account before may still try.
    login_rate_window_seconds: int = 300
    login_failures_per_username_and_address: int = 5
    login_failures_per_address: int = 50
    login_failures_per_username: int = 100
    login_known_address_days: int = 30  # an address that logged in to an account is known to it this long
    # Sign-ups (each mints START_BALANCE coins): per client address and for the whole site, per window.
    signup_rate_window_seconds: int = 3600
    signup_rate_per_address: int = 5
    signup_rate_overall: int = 200
    # Guests ("Play now" on the front page, vs bots only, no coins), in the same window: they mint nothing, so more
    # than sign-ups (a guest's own sign-up counts as one). A guest that has not signed up is deleted this many days
    # after it was made (its session ends then too).
    guest_rate_per_address: int = 30
    guest_rate_overall: int = 2000
    # A friends room nobody changed (seats, invitations) for this long is closed with its pending invitations.
    room_idle_hours: float = Field(default=24.0, gt=0)
    # What one person may have going at once: practice tables being played (each plays on with bots until it
    # ends or idles out) and open friends rooms (each can send invitations).
    practice_tables_per_user: int = Field(default=10, ge=1)
    open_rooms_per_user: int = Field(default=10, ge=1)
    guest_ttl_days: int = Field(default=7, ge=1)

    # --- coins, XP, league (platform.md defaults) ------------------------------------------------------------
    start_balance: int = 1000
    payouts: dict[int, list[int]] = Field(default_factory=_default_payouts)
    friends_prize_ratio: float = 0.5  # friends tables pay the winner half the online first prize
    stakes: list[int] = Field(default_factory=lambda: [100, 250, 500, 1000])
    staked_min_level: int = 2  # staked tables move coins between players: not for accounts that never played
    xp_by_place: list[int] = Field(default_factory=lambda: [30, 20, 15, 10, 10])
    xp_for_finishing: int = 10
    level_xp_step: int = 50  # level L is reached at step * L * (L - 1) XP
    league_points: list[int] = Field(default_factory=lambda: [12, 8, 4, 2, 1])
    league_prizes: list[int] = Field(default_factory=lambda: [500, 300, 150])
    booster_price: int = 300
    booster_multiplier: float = 2.0
    booster_seconds: int = 3600
    vip_price: int = 2000
    vip_multiplier: float = 1.5
    vip_days: int = 30

    # --- tables and time ---------------------------------------------------------------------------------------
    online_fill_seconds: float = 20.0
    staked_fill_seconds: float = 60.0
    queue_grace_seconds: float = 10.0  # a queued player whose socket closed keeps the seat this long (a reload)
    simulated_player_level: str = "medium"  # the bot level of the simulated players that fill online tables
    matchmaking_tick_seconds: float = 0.5  # how often forming tables are checked against their fill time
    # Matchmaking by rating (docs/ratings.md): a forming table takes players within this many rating points of its
    # players' mean, the window widening by the second as the table waits, and anyone once it has waited this
    # fraction of its fill time.
    matchmaking_rating_window: float = Field(default=100.0, ge=0)
    matchmaking_rating_widen_per_second: float = Field(default=25.0, ge=0)
    matchmaking_rating_open_fraction: float = Field(default=0.5, ge=0, le=1)
    league_check_seconds: float = 60.0  # how often ended league weeks are closed (and stranded pots refunded)
    rematch_wait_seconds: float = 30.0  # how long a rematch waits for everyone's answer before starting anyway
    turn_timer_seconds: float = 30.0
    disconnect_grace_seconds: float = 15.0
    practice_idle_seconds: float = 600.0  # a vs-bots table with no person connected this long ends (0: never)
    bot_delay_min_seconds: float = 0.6  # bots "think" for a human-like moment before they move
    bot_delay_max_seconds: float = 1.4
    snapshot_seconds: float = 30.0  # a live table's snapshot (a shortcut: its log has every move) at least this often
    node_name: str = ""  # this node's stable name (default: the host name); each start adds a random suffix
    owner_lease_seconds: float = 10.0  # a node silent this long loses its tables to a node that is alive
    ws_messages_per_second: float = 20.0  # per user (all their sockets), sustained; bursts up to twice that
    ws_refusals_before_close: int = 60  # refused messages within 10 s (gateway.REFUSAL_WINDOW_SECONDS) close the socket
    ws_max_sockets_per_user: int = 8  # more live sockets of one user close the oldest (tabs, devices)
    spectators_per_table: int = Field(default=50, ge=0)  # spectator sockets one table accepts (0: none)
    spectator_joins_per_user: int = Field(default=4, ge=0)  # tables a user watches at once (per node, per socket)

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        # ALLOWED_ORIGINS="https://a.example,https://b.example" (a JSON list works too)
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                import json

                return json.loads(text)
            return [part.strip().rstrip("/") for part in text.split(",") if part.strip()]
        return value

    @field_validator("argon2_memory_kib")
    @classmethod
    def _argon2_memory(cls, value: int) -> int:
        if value < ARGON2_MIN_MEMORY_KIB:
            raise ValueError(f"argon2 memory must be at least {ARGON2_MIN_MEMORY_KIB} KiB (OWASP minimum)")
        return value

    @field_validator("argon2_time_cost")
    @classmethod
    def _argon2_time(cls, value: int) -> int:
        if value < ARGON2_MIN_TIME_COST:
            raise ValueError(f"argon2 time cost must be at least {ARGON2_MIN_TIME_COST} (OWASP minimum)")
        return value

    @field_validator("start_balance", "max_body_bytes", "session_days")
    @classmethod
    def _not_negative(cls, value: int) -> int:
        if value < 0:
            raise ValueError("must not be negative")
        return value

    @model_validator(mode="after")
    def _embedded_defaults(self) -> Settings:
        if not self.database_url:
            db_path = (self.data_dir / "tablestakes.db").resolve()
            self.database_url = f"sqlite+aiosqlite:///{db_path}"
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def redis_in_process(self) -> bool:
        """REDIS_URL is the in-process stand-in (`memory://`): this process is the only node, and what it keeps
        there goes with it. Tables, rematches, the cluster channel and restart refunds all decide by this."""
        return self.redis_url.startswith("memory://")

    def resolved_secret_key(self) -> str:
        """SECRET_KEY if set; otherwise the key kept in DATA_DIR, created on first use (readable by owner only)."""
        if self.secret_key is not None and self.secret_key.get_secret_value():
            return self.secret_key.get_secret_value()
        return load_or_create_secret(self.data_dir)


def load_or_create_secret(data_dir: Path) -> str:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / SECRET_KEY_FILE
    try:
        # O_EXCL: two processes starting at once agree on one key; 0600 from the first byte.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if not key:
            raise RuntimeError(f"{path} is empty: delete it to generate a new secret key") from None
        return key
    key = secrets.token_urlsafe(48)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key
