"""The regression corpus: a fixed set of battles whose battle logs must stay byte-identical
and whose saves must replay to the same state hash while the engine is renovated (a change
that should not change play proves it here).

Each case is a scenario, a seed and who plays: two players of :mod:`game.sim` (random,
recruit, veteran), or ``screen``: a hotseat battle on the battle screen, driven by synthetic
key presses (``screen, screen``: every decision passed) or by the random player's choices
applied through the screen (``screen, random``).
``tools/checks/make_corpus.py`` records each case's log digest, state hash and save under
``tests/corpus/``; ``tests/files/test_corpus.py`` plays them again and compares.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

from game import Battle, load_scenario
from game.ai.random_player import RandomPlayer
from game.check.sim import make_player

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = ROOT / "tests" / "corpus"
MANIFEST = CORPUS_DIR / "manifest.json"


@dataclass(frozen=True)
class Case:
    """One battle of the corpus: a shipped map's file name, the seed, and the two players
    (``("screen", "screen")`` for a hotseat battle driven through the battle screen)."""

    scenario: str
    seed: int
    players: tuple[str, str]

    @property
    def name(self) -> str:
        """A file-safe name, e.g. ``wwii-meeting-s3-veteran-random``."""
        return f"{Path(self.scenario).stem}-s{self.seed}-{self.players[0]}-{self.players[1]}"


def cases() -> list[Case]:
    """The corpus: 58 battles over six shipped maps and the four rulesets, with the random
    player, both AI levels and on-screen hotseat flows."""
    out: list[Case] = []
    for sc in ("modern-skirmish.json", "modern-meeting.json", "wwii-meeting.json"):
        out += [Case(sc, s, ("random", "random")) for s in range(1, 7)]
        out += [Case(sc, s, ("recruit", "random")) for s in (11, 12)]
        out += [Case(sc, s, ("random", "veteran")) for s in (21, 22)]
        out += [Case(sc, 31, ("veteran", "recruit")), Case(sc, 41, ("recruit", "veteran"))]
    out += [Case("modern-skirmish.json", s, ("screen", "screen")) for s in (7, 8)]
    out += [Case("modern-skirmish.json", 9, ("screen", "random"))]
    out += [Case("modern-meeting.json", 9, ("screen", "random"))]
    out += [Case("wwii-meeting.json", 9, ("screen", "random"))]
    out += [Case("wwii-meeting.json", 51, ("veteran", "veteran"))]
    out += [Case("modern-meeting.json", 51, ("veteran", "veteran"))]
    # the full Modern game: random, both AI levels, and on screen
    full = "modern-combined-arms.json"
    out += [Case(full, s, ("random", "random")) for s in (1, 2)]
    out += [Case(full, 11, ("recruit", "random")), Case(full, 31, ("veteran", "recruit"))]
    out += [Case(full, 9, ("screen", "random"))]
    # Wehrmacht '47: random, both AI levels, and on screen
    w47 = "wwii-47-breakthrough.json"
    out += [Case(w47, s, ("random", "random")) for s in (1, 2)]
    out += [Case(w47, 11, ("recruit", "random")), Case(w47, 31, ("veteran", "recruit"))]
    out += [Case(w47, 9, ("screen", "random"))]
    # artillery, smoke and air strikes: random, both AI levels, and on screen
    fs = "modern-fire-support.json"
    out += [Case(fs, s, ("random", "random")) for s in (1, 2)]
    out += [Case(fs, 11, ("recruit", "random")), Case(fs, 31, ("veteran", "recruit"))]
    out += [Case(fs, 9, ("screen", "random"))]
    return out


def events_digest(events: list[dict]) -> str:
    """:func:`digest` of a log held as its events (the lines as the log writes them)."""
    first = {k: v for k, v in events[0].items() if k != "engine"} if events else None
    lines = ([first] if events else []) + list(events[1:])
    text = "".join(json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n" for e in lines)
    return hashlib.sha256(text.encode()).hexdigest()


def digest(path: Path) -> str:
    """The sha256 of a battle log's bytes, in hex, its start line's ``engine`` stamp left
    out: the stamp says which engine wrote the log (its version changes with a release),
    the rest is the battle, which must not change unless play is meant to. The start line
    is written again as the log writes it (sorted keys, no spaces), so the digest is that
    of the bytes the log would hold without the stamp."""
    data = path.read_bytes()
    first, nl, rest = data.partition(b"\n")
    line = json.loads(first)
    if isinstance(line, dict) and line.get("event") == "start":
        line.pop("engine", None)
        first = json.dumps(line, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(first + nl + rest).hexdigest()


def play(case: Case, log_path: Path) -> Battle:
    """Play a case to its end, its battle log written to ``log_path``; returns the battle.

    Raises RuntimeError when a screen-driven battle does not end in 5,000 key presses."""
    # the path as the log names it is relative, so the bytes do not depend on the checkout
    scenario = replace(load_scenario(ROOT / "maps" / case.scenario), path=f"maps/{case.scenario}")
    if case.players[0] == "screen":
        return _play_on_screen(scenario, case.seed, log_path, case.players[1] == "random")
    battle = Battle(scenario, case.seed, log_path=log_path)
    sides = battle.sides
    by_side = {
        sides[0]: make_player(case.players[0], case.seed * 2 + 1),
        sides[1]: make_player(case.players[1], case.seed * 2 + 2),
    }
    while not battle.finished:
        battle.apply(by_side[battle.to_act].choose(battle))
    return battle


def _play_on_screen(scenario, seed: int, log_path: Path, random_actions: bool) -> Battle:
    """A hotseat battle on the battle screen: every decision passed with the P key (who goes
    first: the panel's first button; the hand-over curtain lifted with Space), or, with ``random_actions``, the random player's choice
    applied through the screen's own ``act`` (its mode changes, panels and log included)."""
    # lazy: only the screen player needs pygame and the battle screen
    import pygame
    import pygame_gui

    # lazy: only the screen player needs pygame and the battle screen
    from game.ui.app import App
    from game.ui.battle import BattleScreen, ChooseFirstMode, CurtainMode

    app = App(size=(1280, 800))
    try:
        battle = Battle(scenario, seed, log_path=log_path)
        screen = BattleScreen(app, battle)
        app.show(screen)
        chooser = RandomPlayer(seed * 2 + 1)
        for _ in range(5000):
            if battle.finished:
                return battle
            if random_actions:
                screen.act(chooser.choose(battle))
                screen.update(0.016)
                continue
            if isinstance(screen.mode, CurtainMode):  # hotseat: the other player takes over
                ev = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")
            elif isinstance(screen.mode, ChooseFirstMode):
                button = screen._buttons[0][0]
                ev = pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)
            else:
                ev = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p")
            screen.handle(ev)
            screen.update(0.016)
        raise RuntimeError(f"the screen-driven battle of seed {seed} did not end")
    finally:
        pygame.quit()


def record(case: Case, work: Path) -> dict:
    """Play a case and write its save into the corpus folder; returns its manifest entry
    (log digest and line count, state hash, actions, turns, winner)."""
    log = work / f"{case.name}.jsonl"
    battle = play(case, log)
    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    battle.save(CORPUS_DIR / f"{case.name}.save.json")
    return {
        "name": case.name,
        "scenario": case.scenario,
        "seed": case.seed,
        "players": list(case.players),
        "log_sha256": digest(log),
        "log_lines": sum(1 for _ in log.open(encoding="utf-8")),
        "state_hash": battle.state_hash(),
        "actions": len(battle.actions),
        "turns": battle.state.turn,
        "winner": battle.state.winner,
    }


def load_manifest() -> dict[str, dict]:
    """The recorded entries by case name."""
    return {e["name"]: e for e in json.loads(MANIFEST.read_text(encoding="utf-8"))["battles"]}
