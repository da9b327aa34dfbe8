"""Hostile settings files (#26): each gives the defaults and one line naming the file, the
JSON path and the problem, never a traceback. Before the mend ``true`` was read as a scale of
1 and NaN was said to be "more than 2"."""

from __future__ import annotations

import pytest

from game.settings import Settings, load_settings, settings_path

CASES = {
    "not JSON": (b"{ui_scale: 1}", "line 1 column 2: not valid JSON"),
    "empty": (b"", "not valid JSON (the file is empty)"),
    "a list": (b"[1, 2]", "$: Input should be a valid dictionary"),
    "null": (b"null", "$: Input should be a valid dictionary"),
    "scale as text": (b'{"ui_scale": "big"}', "$.ui_scale: Input should be a valid number"),
    "scale as true": (b'{"ui_scale": true}', "$.ui_scale: Input should be a valid number"),
    "scale 5": (b'{"ui_scale": 5}', "$.ui_scale: Input should be less than or equal to 2"),
    "scale NaN": (b'{"ui_scale": NaN}', "$.ui_scale: Input should be a finite number"),
    "speed Infinity": (b'{"ai_speed": Infinity}', "$.ai_speed: Input should be a finite number"),
    "speed -1": (b'{"ai_speed": -1}', "$.ai_speed: Input should be greater than or equal to 0"),
    "unknown palette": (b'{"palette": "neon"}', "$.palette: Input should be 'standard' or"),
    "unknown key": (b'{"volume": 3}', "$.volume: Extra inputs are not permitted"),
    "duplicate key": (b'{"ui_scale": 1.5, "ui_scale": 2}', "$.ui_scale: duplicate key"),
    "UTF-16": ('{"ui_scale": 1.5}'.encode("utf-16"), "cannot be read (UTF-16 text"),
    "nested 100": (b"[" * 100 + b"]" * 100, "nested deeper than 64 levels"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_bad_settings_file_gives_the_defaults_and_says_why(data_dir, name):
    content, line = CASES[name]
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    settings, why = load_settings()
    assert settings == Settings()
    assert why.startswith(f"{path}: ")  # the file first
    assert line in why and why.endswith("; the defaults are used")


def test_a_good_settings_file_is_read(data_dir):
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"ui_scale": 2, "palette": "colour-blind safe", "ai_speed": 0}')
    assert load_settings() == (Settings(ui_scale=2.0, palette="colour-blind safe", ai_speed=0), "")
