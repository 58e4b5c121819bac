"""What the accounts endpoints take and give."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

# platform.md: 3-20 characters, letters, digits, `_` and `-`, compared case-insensitively.
# ASCII letters only: case-folding and look-alike characters make "the same name" ambiguous beyond ASCII.
# The anchors are for the JSON schema (ECMA regex, where `$` is the very end); Python's `$` also matches before a final
# "\n", so the name is checked with `fullmatch`.
USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
USERNAME_RULE = "a username is 3 to 20 characters: letters (a-z, A-Z), digits, _ and -"
PASSWORD_MIN = 8
PASSWORD_MAX = 256  # argon2 takes any length; this only bounds the work a request can ask for


def username_key(username: str) -> str:
    return username.lower()


def check_username(value: str) -> str:
    if not USERNAME_PATTERN.fullmatch(value):
        raise ValueError(USERNAME_RULE)
    return value


# Guests are named Guest-<digits> (app/accounts/service.py): a person's new name may not pass for one.
GUEST_NAME_PREFIX = "Guest-"


def check_new_username(value: str) -> str:
    """A name for a new account: the username rule, and not one that reads as a guest's."""
    check_username(value)
    if value.lower().startswith(GUEST_NAME_PREFIX.lower()):
        raise ValueError(f"names starting with {GUEST_NAME_PREFIX} are for guests; choose another")
    return value


def check_password(value: str) -> str:
    """A new password (logging in takes whatever was set)."""
    if len(value) < PASSWORD_MIN:
        raise ValueError(f"a password is at least {PASSWORD_MIN} characters")
    if len(value) > PASSWORD_MAX:
        raise ValueError(f"a password is at most {PASSWORD_MAX} characters")
    if not value.strip():
        raise ValueError("a password needs more than spaces")
    try:
        value.encode()
    except UnicodeEncodeError:  # a lone surrogate (JSON's "\ud800") has no UTF-8 bytes for argon2 to hash
        raise ValueError("a password is text UTF-8 can encode: no lone surrogates such as \\ud800") from None
    return value


# A username wherever one is sent (registering, logging in, naming a friend or an invitee): no name outside the rule
# can have an account, so such a name is refused before any lookup (PostgreSQL, for one, fails on a NUL byte).
Username = Annotated[str, AfterValidator(check_username),
                     WithJsonSchema({"type": "string", "pattern": USERNAME_PATTERN.pattern, "minLength": 3,
                                     "maxLength": 20, "description": USERNAME_RULE + " (any case)"})]


NewUsername = Annotated[str, AfterValidator(check_new_username),
                        WithJsonSchema({"type": "string", "pattern": USERNAME_PATTERN.pattern, "minLength": 3,
                                        "maxLength": 20,
                                        "description": USERNAME_RULE + "; not starting with Guest-"})]


class RegisterIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: NewUsername = Field(examples=["Ada_99"])
    password: str = Field(examples=["correct horse"])

    @field_validator("password")
    @classmethod
    def _password_rule(cls, value: str) -> str:
        return check_password(value)


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Username = Field(examples=["ada_99"])
    password: str = Field(max_length=PASSWORD_MAX)


class RunningItem(BaseModel):
    item: str
    title: str
    multiplier: float
    starts_at: str
    ends_at: str  # the end of its last back-to-back period


class MeOut(BaseModel):
    id: int
    username: str
    coins: int
    xp: int
    level: int
    level_xp: int  # the XP at which the current level began (the client's XP bar starts here)
    next_level_xp: int  # the XP that reaches the next level
    active: list[RunningItem] = []  # the shop's items running now (the header shows them)
    guest: bool = False  # a guest plays vs bots only, with no coins, until it signs up (POST /api/auth/upgrade)
    allow_watching: bool = True  # others (not only friends) may watch my online and staked games (PUT /api/me/settings)


class SettingsIn(BaseModel):
    """My settings; a field left out keeps its value."""

    model_config = ConfigDict(extra="forbid")

    allow_watching: bool | None = Field(
        default=None, description="let others watch my online games: anyone with the link may watch (and replay) my "
                                  "online and staked tables; friends may always watch")


class LogoutAllOut(BaseModel):
    sessions_revoked: int
