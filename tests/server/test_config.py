"""Settings: the embedded defaults, the secret key kept in DATA_DIR, environment variables, refused weak hashing."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.accounts.levels import level_for_xp, xp_for_level
from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]
NOT_OURS = {"FORWARDED_ALLOW_IPS"}  # read by uvicorn itself; the README lists it beside ours
CONFIG_VARIABLES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DATA_DIR", "START_BALANCE", "ALLOWED_ORIGINS",
                    "PAYOUTS", "TURN_TIMER_SECONDS", "ARGON2_MEMORY_KIB")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for name in CONFIG_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def test_with_nothing_set_the_app_runs_embedded_in_dot_data(env, tmp_path: Path):
    settings = Settings()
    assert settings.data_dir == Path("data")
    assert settings.database_url == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'tablestakes.db'}"
    assert settings.redis_url == "memory://"
    assert settings.start_balance == 1000
    assert settings.allowed_origins == []
    # platform.md defaults
    assert settings.payouts[4] == [100, 60, 40, 20] and settings.payouts[5] == [120, 80, 50, 30, 20]
    assert settings.xp_by_place == [30, 20, 15, 10, 10] and settings.xp_for_finishing == 10
    assert settings.league_points == [12, 8, 4, 2, 1] and settings.league_prizes == [500, 300, 150]
    assert (settings.booster_price, settings.booster_multiplier, settings.booster_seconds) == (300, 2.0, 3600)
    assert (settings.vip_price, settings.vip_multiplier, settings.vip_days) == (2000, 1.5, 30)
    assert (settings.online_fill_seconds, settings.staked_fill_seconds) == (20, 60)
    assert (settings.turn_timer_seconds, settings.disconnect_grace_seconds) == (30, 15)
    assert settings.stakes == [100, 250, 500, 1000]


def test_the_secret_key_is_generated_once_and_kept_readable_by_the_owner_only(env, tmp_path: Path):
    first = Settings().resolved_secret_key()
    path = tmp_path / "data" / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 40
    assert Settings().resolved_secret_key() == first
    env.setenv("SECRET_KEY", "from-the-environment")
    assert Settings().resolved_secret_key() == "from-the-environment"


def test_environment_variables_configure_everything(env, tmp_path: Path):
    env.setenv("DATA_DIR", str(tmp_path / "elsewhere"))
    env.setenv("REDIS_URL", "redis://cache:6379/0")
    env.setenv("START_BALANCE", "250")
    env.setenv("ALLOWED_ORIGINS", "https://a.example, https://b.example/")
    env.setenv("PAYOUTS", '{"2": [10, 5]}')
    env.setenv("TURN_TIMER_SECONDS", "45")
    settings = Settings()
    assert settings.database_url == f"sqlite+aiosqlite:///{tmp_path / 'elsewhere' / 'tablestakes.db'}"
    assert settings.redis_url == "redis://cache:6379/0"
    assert settings.start_balance == 250
    assert settings.allowed_origins == ["https://a.example", "https://b.example"]
    assert settings.payouts == {2: [10, 5]}
    assert settings.turn_timer_seconds == 45
    env.setenv("DATABASE_URL", "postgresql+asyncpg://u:p@db:5432/tablestakes")
    assert Settings().database_url == "postgresql+asyncpg://u:p@db:5432/tablestakes"


def test_hashing_below_the_owasp_minimum_is_refused(env):
    env.setenv("ARGON2_MEMORY_KIB", "8192")
    with pytest.raises(ValidationError, match="OWASP"):
        Settings()


@pytest.mark.parametrize("xp, level", [(0, 1), (99, 1), (100, 2), (299, 2), (300, 3), (599, 3), (600, 4),
                                       (50 * 20 * 19, 20), (50 * 20 * 19 - 1, 19)])
def test_levels_follow_platform_md(xp: int, level: int):
    assert level_for_xp(xp) == level
    assert xp_for_level(level) <= xp < xp_for_level(level + 1)


def test_empty_values_from_docker_compose_mean_unset(env, tmp_path: Path):
    env.setenv("SECRET_KEY", "")
    env.setenv("ALLOWED_ORIGINS", "")
    settings = Settings()
    assert settings.allowed_origins == []
    assert settings.resolved_secret_key() == (tmp_path / "data" / "secret_key").read_text().strip()


def test_every_setting_is_documented_in_the_readme_and_read_by_the_app():
    """A setting nobody reads (as PIKA_ALERT_SECONDS was once) or one the README does not tell of fails here."""
    rows = [line.split("|")[1] for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row)} - NOT_OURS
    fields = {name.upper() for name in Settings.model_fields}
    assert documented == fields, (sorted(documented - fields), sorted(fields - documented))
    source = "\n".join(path.read_text() for path in (ROOT / "app").rglob("*.py"))
    unread = [name for name in Settings.model_fields if not re.search(rf"\.{name}\b", source)]
    assert unread == []
