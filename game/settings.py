"""The player's settings, kept between sessions in the user data folder (platformdirs, or
``HULLDOWN_DATA_DIR``): the size of the table's labels and overlay text, the sight-line
palette, how fast the AI's moves are shown, the table's and the stands' styles, and the
main menu's choices of the last battle
started from it. A missing or broken file gives the defaults (and says why); a file
whose menu choices alone are broken or outdated keeps the rest. Written atomically."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game import JsonFileError, read_json_file, write_atomic
from game.ai.levels import DEFAULT_LEVEL, PLAYABLE
from game.saves import data_dir, exists

UI_SCALES = (1.0, 1.25, 1.5, 2.0)
PALETTES = {
    # the colours of a sight line: may fire / sees but may not / blocked
    "standard": {"clear": (40, 170, 60), "sees": (230, 150, 20), "blocked": (215, 45, 45)},
    # Okabe-Ito: told apart with any colour vision
    "colour-blind safe": {"clear": (0, 114, 178), "sees": (240, 228, 66), "blocked": (213, 94, 0)},
}


YOU_COMMAND = ("both", "first", "second")
"""Who the player commands in a battle from the menu: both forces (hotseat), or the first or
the second force of the scenario against the AI."""


class MenuChoice(BaseModel):
    """The main menu's choices for the last battle started from it: the ``scenario``
    file (its path as text; "" for none), whom ``you_command`` (:data:`YOU_COMMAND`) and the
    AI's level. The AI's speed is :attr:`Settings.ai_speed`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    scenario: str = Field(default="", max_length=4096, strict=True)
    you_command: Literal["both", "first", "second"] = "both"
    ai_level: Literal[PLAYABLE] = DEFAULT_LEVEL  # type: ignore[valid-type]


class Settings(BaseModel):
    """``ui_scale``: labels and overlay text on the table, times their size at 1 (1 to 2);
    ``palette``: the sight lines' colours; ``ai_speed``: inches a second the AI's moves are
    shown at (0: not shown); ``menu``: the main menu's last choices (:class:`MenuChoice`);
    ``table_style``: the table painted or plain (flat colours);
    ``stand_style``: stands drawn as models or as NATO symbols; ``enemy_attacks``:
    the battle screen stops on each enemy attack on the player's stands with a Continue
    ("pause") or lets them run, told under "Last attack" ("run"); ``ai_thinking``: "AI
    thinking time", how long the elite AI may look ahead each turn (quick 0.4, normal 1,
    long 2.5 times its budget: ``game.ai.search.THINKING``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ui_scale: float = Field(default=1.25, ge=1.0, le=2.0, strict=True, allow_inf_nan=False)
    palette: Literal["standard", "colour-blind safe"] = "standard"
    ai_speed: float = Field(default=12.0, ge=0.0, le=1000.0, strict=True, allow_inf_nan=False)
    menu: MenuChoice = MenuChoice()
    table_style: Literal["painted", "plain"] = "painted"
    stand_style: Literal["models", "symbols"] = "models"
    ai_thinking: Literal["quick", "normal", "long"] = "normal"
    enemy_attacks: Literal["pause", "run"] = "pause"


def settings_path():
    """Where the settings are kept."""
    return data_dir() / "settings.json"


def load_settings() -> tuple[Settings, str]:
    """The saved settings and "", or the defaults and why the file was not used (a missing
    file is no problem). When only the menu's last choices are broken or outdated (a value
    an older or newer version wrote), the other settings are kept and the line says the
    menu's choices were forgotten."""
    path = settings_path()
    if not exists(path):
        return Settings(), ""
    try:
        raw = read_json_file(path)
        return Settings.model_validate(raw), ""
    except JsonFileError as err:
        return Settings(), f"{err}; the defaults are used"
    except ValidationError as err:
        first = err.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        where = f"${where}"  # a JSON path, as every other file's errors give it
        if all(e["loc"][:1] == ("menu",) for e in err.errors()):
            try:
                rest = Settings.model_validate({k: v for k, v in raw.items() if k != "menu"})
            except ValidationError:
                pass
            else:
                return (
                    rest,
                    f"{path}: {where}: {first['msg']}; the menu's last choices are forgotten",
                )
        return Settings(), f"{path}: {where}: {first['msg']}; the defaults are used"


def save_settings(settings: Settings) -> None:
    """Write the settings atomically. Raises OSError when the folder cannot be written."""
    write_atomic(settings_path(), settings.model_dump_json(indent=1) + "\n")
