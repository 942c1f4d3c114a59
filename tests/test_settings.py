"""Settings: the shipped file and the built-in defaults agree, so the file documents the truth."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sleuth.agent.settings import Settings, SettingsError, load_settings

REPO = Path(__file__).resolve().parents[1]


def test_shipped_config_equals_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(__import__("os").environ):
        if key.startswith("SLEUTH_"):
            monkeypatch.delenv(key)
    shipped = tomllib.loads((REPO / "configs" / "sleuth.toml").read_text())
    defaults = Settings.model_construct().model_dump()
    builtin = {k: v for k, v in Settings().model_dump().items() if k in shipped}
    assert set(shipped) <= set(defaults)
    assert {k: str(v) if isinstance(v, Path) else v for k, v in builtin.items()} == shipped


def test_flags_override_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text("max_tokens = 100\noverlap_tokens = 5\n")
    monkeypatch.setenv("SLEUTH_MAX_TOKENS", "50")
    settings = load_settings(config, overlap_tokens=7)
    assert (settings.max_tokens, settings.overlap_tokens) == (50, 7)


def test_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="no such file"):
        load_settings(tmp_path / "absent.toml")
