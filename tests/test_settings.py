"""Settings: the shipped file and the built-in defaults agree, so the file documents the truth; every setting
keeps its flat name (environment, flat TOML) next to its place in a group."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sleuth.agent.settings import GROUPS, Settings, SettingsError, load_settings

REPO = Path(__file__).resolve().parents[1]


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Path) else value


def test_shipped_config_equals_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("SLEUTH_"):
            monkeypatch.delenv(key)
    shipped = tomllib.loads((REPO / "configs" / "sleuth.toml").read_text())
    defaults = Settings().model_dump()
    for key, value in shipped.items():
        if key in GROUPS:
            assert set(value) <= set(defaults[key]), key
            assert {k: _plain(defaults[key][k]) for k in value} == value, key
        else:
            assert _plain(defaults[key]) == value, key


def test_flags_override_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text("max_tokens = 100\noverlap_tokens = 5\n")
    monkeypatch.setenv("SLEUTH_MAX_TOKENS", "50")
    settings = load_settings(config, overlap_tokens=7)
    assert (settings.index.max_tokens, settings.index.overlap_tokens) == (50, 7)


def test_grouped_file_and_flat_environment_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[web]\ntimeout = 3.0\n[research]\ndepth = 1\n[convert]\ntimeout = 9\n")
    monkeypatch.setenv("SLEUTH_WEB_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("SLEUTH_API_CORS_ORIGINS", '["http://127.0.0.1:9"]')
    settings = load_settings(config)
    assert settings.web.timeout == 3.0 and settings.web.allow_private
    assert settings.research.depth == 1 and settings.convert.timeout == 9
    assert settings.api.cors_origins == ["http://127.0.0.1:9"]
    assert settings.flat()["web_timeout"] == 3.0 and settings.flat()["research_depth"] == 1


def test_bad_values_name_the_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEUTH_WEB_TIMEOUT", "-1")
    with pytest.raises(SettingsError, match="invalid setting web_timeout"):
        load_settings()
    monkeypatch.delenv("SLEUTH_WEB_TIMEOUT")
    monkeypatch.setenv("SLEUTH_API_CORS_ORIGINS", "http://a, http://b")
    with pytest.raises(SettingsError, match="SLEUTH_API_CORS_ORIGINS must be a JSON list"):
        load_settings()
    monkeypatch.delenv("SLEUTH_API_CORS_ORIGINS")
    config = tmp_path / "c.toml"
    config.write_text("[web]\nno_such = 1\n")
    with pytest.raises(SettingsError, match=r"unknown setting 'web\.no_such'"):
        load_settings(config)


def test_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="no such file"):
        load_settings(tmp_path / "absent.toml")
