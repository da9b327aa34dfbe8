"""The shape of the program, checked (docs/architecture.md): the layers' arrows point down,
nothing reaches into another package's private names, no function grows past 60 lines, no
class of the screens is made of more than two bases, no module runs away (900 lines), and
the cohesion roll and the decision dispatch each exist once."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted((ROOT / "game").rglob("*.py")) + sorted((ROOT / "tools").rglob("*.py"))
MAX_LINES = 900
"""A module's lines, a stop for runaway files only: functions (MAX_FUNCTION_LINES) and a
class's bases (MAX_BASES) are capped instead, so that a class that does one job stays whole
in its file rather than being sliced into mixins to meet a file cap."""


def _package(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts[:2]) if rel.parts[0] == "game" else "tools"


def _imports(path: Path) -> list[tuple[str, str, int]]:
    """(module imported from, name, line) for every import in a file, lazy ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.module, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names]
    return out


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_module_runs_away(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines"


def test_the_rules_import_nothing_from_above_them_and_never_pygame():
    bad = []
    for path in (ROOT / "game" / "rules").rglob("*.py"):
        for module, _, line in _imports(path):
            above = module.startswith(("game.ai", "game.ui", "game.editor", "game.check"))
            if above or module.split(".")[0] == "pygame" or module == "game":
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []


RULES = ROOT / "game" / "rules"
LAZY_RULES_IMPORTS_ALLOWED: set[str] = set()
"""``path:line`` of imports of a ``game.rules`` module made inside a function in the rules,
each kept for a reason written beside it. None is: a function-level import there was only
ever a dodged import circle (docs/architecture.md)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _rules_imports(folder: Path = RULES) -> tuple[dict[str, set[str]], list[str]]:
    """The import graph of the modules under ``folder`` (module -> the modules there it
    imports, at module level or inside a function, with the packages that importing them
    loads), and the ``path:line`` of every such import made inside a function."""
    modules = {_module_name(p): p for p in folder.rglob("*.py")}
    graph, lazy = {}, []
    for name, path in modules.items():
        deps = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_function = {
            id(node)
            for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(fn)
        }
        typing_only = {  # ``if TYPE_CHECKING:`` imports load nothing when the game runs
            id(node)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for node in ast.walk(block)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [
                    f"{node.module}.{a.name}"
                    if f"{node.module}.{a.name}" in modules
                    else node.module
                    for a in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            targets = [t for t in targets if t in modules]
            if targets and id(node) in in_function:
                lazy.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            for t in targets:  # the module and every package above it that it loads
                parts = t.split(".")
                deps |= {".".join(parts[:i]) for i in range(3, len(parts) + 1)}
        # a module's own packages have run before it (Python loads a package first), so
        # importing a sibling, which loads them too, is no circle
        own = {name.rsplit(".", k)[0] for k in range(1, name.count("."))}
        graph[name] = deps - {name} - own
    return graph, lazy


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (its modules in order, the first again at the end), or
    [] when there is none."""
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                return path[path.index(d) :] + [d]
            if d not in state and (found := walk(d)):
                return found
        state[m] = 2
        path.pop()
        return []

    for m in sorted(graph):
        if m not in state and (found := walk(m)):
            return found
    return []


def test_the_rules_import_one_another_without_a_circle():
    """No import circle among the modules of ``game.rules``, imports inside functions
    counted (docs/architecture.md, "Inside the rules")."""
    graph, _ = _rules_imports()
    assert len(graph) > 40 and "game.rules.procedures.combat" in graph["game.rules.battle"]
    assert _cycle(graph) == []


def test_no_module_of_the_game_imports_itself_round_a_circle():
    """No import circle anywhere in ``game/``, imports inside functions counted: screens reach
    one another by name (``game.ui.navigation``), the elite's workers are handed the AI that
    plays their continuations."""
    graph, lazy = _rules_imports(ROOT / "game")
    assert len(graph) > 150
    assert _cycle(graph) == []


def test_the_rules_import_their_modules_at_module_level():
    """No module of ``game.rules`` imports another inside a function (the way an import
    circle was dodged) but those allowed above for a written reason."""
    _, lazy = _rules_imports()
    assert sorted(set(lazy) - LAZY_RULES_IMPORTS_ALLOWED) == []


def test_the_circle_check_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_the_editor_model_never_imports_pygame():
    bad = [
        f"{p.relative_to(ROOT)}:{line}"
        for p in (ROOT / "game" / "editor").rglob("*.py")
        for module, _, line in _imports(p)
        if module.split(".")[0] == "pygame" or module.startswith("game.ui")
    ]
    assert bad == []


def test_above_the_rules_the_engine_is_reached_only_through_game():
    """The AI, the screens, the editor, the checks and the tools import the engine's names
    from ``game`` (its public face), never from inside ``game.rules``."""
    bad = []
    for path in MODULES:
        rel = path.relative_to(ROOT)
        if rel.parts[:2] == ("game", "rules") or rel == Path("game/__init__.py"):
            continue
        bad += [
            f"{rel}:{line} imports {module}"
            for module, _, line in _imports(path)
            if module.startswith("game.rules")
        ]
    assert bad == []


def test_no_private_name_is_imported_across_packages():
    bad = []
    for path in MODULES:
        here = _package(path)
        for module, name, line in _imports(path):
            if not module.startswith("game") or not name.startswith("_") or name == "__future__":
                continue
            there = ".".join(module.split(".")[:2])
            if there != here:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}.{name}")
    assert bad == []


def _bodies_matching(pattern: str) -> list[str]:
    rx = re.compile(pattern)
    return [
        f"{p.relative_to(ROOT)}:{i}"
        for p in MODULES
        for i, text in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if rx.search(text)
    ]


def test_the_cohesion_roll_is_written_once():
    """A D20 is drawn for a cohesion roll in one function (combat.cohesion_roll); the only
    other draw of a D20 is none (initiative and orders roll D6s)."""
    assert _bodies_matching(r"dice\.d20\(\)") == [
        "game/rules/procedures/combat.py:" + str(_line_of_d20())
    ]


def _line_of_d20() -> int:
    path = ROOT / "game" / "rules" / "procedures" / "combat.py"
    text = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, t in enumerate(text, start=1) if "dice.d20()" in t)


def _dispatchers() -> list[str]:
    """Functions that choose what comes next from the battle's state: an if-chain that tests
    two or more of its covering, pending and moving parts in separate ``if`` statements."""
    found = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            tested = set()
            for node in ast.walk(fn):
                if isinstance(node, ast.If):
                    names = {
                        a.attr
                        for a in ast.walk(node.test)
                        if isinstance(a, ast.Attribute)
                        and a.attr in ("covering", "pending", "moving")
                    }
                    if len(names) == 1:
                        tested |= names
            if len(tested) >= 2:
                found.append(f"{path.relative_to(ROOT)}:{fn.name}")
    return found


def test_the_decision_dispatch_is_written_once():
    """What the battle waits for is worked out once: the movement phase's ``decide`` (behind
    ``game.rules.decision.decide``); the screen and the AI map its kind to a mode or a
    chooser through one table each."""
    assert _dispatchers() == ["game/rules/phases/movement.py:decide"]
    screen = (ROOT / "game" / "ui" / "battle" / "screen.py").read_text(encoding="utf-8")
    ai = (ROOT / "game" / "ai" / "scripted.py").read_text(encoding="utf-8")
    assert "self.battle.decision()" in screen and "battle.decision()" in ai


def test_every_kind_of_decision_has_a_screen_mode_and_an_ai_chooser():
    from game.rules.decision import KINDS
    from game.ui.battle.screen import MODES

    assert set(MODES) == set(KINDS) - {"end"}
    ai = (ROOT / "game" / "ai" / "scripted.py").read_text(encoding="utf-8")
    assert all(f'"{k}"' in ai for k in set(KINDS) - {"end"})


def test_a_new_phase_touches_only_the_ruleset_and_its_module(monkeypatch):
    """docs/architecture.md, "Adding a phase": a phase made of what the engine already has (here
    an automatic one, as a reconnaissance roll would be) goes into a ruleset's turn, and whole
    battles play through it with the random player and the scripted AI, nothing else changed."""
    from game.ai.random_player import RandomPlayer
    from game.ai.scripted import ScriptedAI
    from game.rules import battle as battle_module
    from game.rules.battle import Battle
    from game.rules.files.scenario import load_scenario
    from game.rules.phases import Phase
    from game.rules.rulesets import ruleset

    begun = []
    recon = Phase("recon", auto=True, on_begin=lambda ctx: begun.append(ctx.state.turn))
    modern = ruleset("modern")
    recon_rules = dataclasses.replace(modern, turn=(modern.turn[0], recon, *modern.turn[1:]))
    monkeypatch.setattr(
        battle_module, "ruleset", lambda i: recon_rules if i == "modern" else ruleset(i)
    )
    b = Battle(load_scenario(ROOT / "maps" / "modern-skirmish.json"), 3)
    players = {"A": RandomPlayer(7), "B": ScriptedAI(8, "recruit")}
    while not b.finished:
        b.apply(players[b.to_act].choose(b))
    assert begun == list(range(1, b.state.turn + 1))


RULESET_ID_COMPARISON = re.compile(
    r"""(ruleset\b[^=\n]{0,30}[!=]=\s*["'])|(["'](modern|wwii|modern-full|wwii-47)["']\s*[!=]=\s*\w*ruleset)"""
)


def test_rulesets_are_asked_not_named():
    """Where a ruleset differs is said in ``game/rules/rulesets/`` alone: nothing else in
    ``game/`` reads a ``full_game`` flag or compares a ruleset id (the UI and the AI ask
    ``battle.rules.has(feature)``, the procedures ask the ruleset's policies and cards)."""
    found = []
    for path in (ROOT / "game").rglob("*.py"):
        if (ROOT / "game" / "rules" / "rulesets") in path.parents:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "full_game" in line or RULESET_ID_COMPARISON.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def test_the_ruleset_check_finds_a_comparison():
    """The pattern above catches the comparisons it is meant to."""
    assert RULESET_ID_COMPARISON.search('if ctx.scenario.ruleset == "wwii-47":')
    assert RULESET_ID_COMPARISON.search("card = 1 if start.get('ruleset') != 'modern' else 2")
    assert not RULESET_ID_COMPARISON.search('ruleset = ruleset_of("modern")')


def test_each_ruleset_is_one_frozen_object_with_known_features():
    """Every ruleset id names one frozen ruleset whose features are all known, and the log's
    phase names are the rulesets' own."""
    import dataclasses

    from game.rules.rulesets import RULESET_IDS, all_rulesets, phase_order
    from game.rules.rulesets.base import FEATURES

    rules = all_rulesets()
    assert tuple(rules) == RULESET_IDS
    for r in rules.values():
        assert r.features <= FEATURES
        try:
            r.id = "x"  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError(f"{r.id} is not frozen")
    names = {p.name for r in rules.values() for p in r.phases()}
    assert set(phase_order()) == names | {"end"}


def test_the_ai_levels_are_named_once():
    """The AI's levels are named in ``game/ai/levels.py`` alone; everything else reads
    ``LEVELS``, ``PLAYABLE``, ``DEFAULT_LEVEL`` from it (the corpus's fixed cases, data of the
    recorded battles, aside): no other string in ``game/`` is a level's name."""
    from game.ai.levels import LEVELS

    named = []
    for path in (ROOT / "game").rglob("*.py"):
        if path.name in ("levels.py", "corpus.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in LEVELS:
                named.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value}")
    assert named == []


def test_every_log_line_is_one_record_with_its_words():
    """Each kind of log line is defined once (``game.rules.events.EVENTS``): the log's checker
    and the replay's field checks read it, and the log panel has words for every kind a player
    reads (the network battles' chain lines are not shown)."""
    from game.rules.events import EVENTS
    from game.rules.files import log
    from game.ui.logwords import WORDS

    assert set(log.REQUIRED) == set(EVENTS)
    assert all(log.REQUIRED[n] == set(e.fields) for n, e in EVENTS.items())
    assert set(WORDS) == set(EVENTS) - {"network", "action"}
    text = (ROOT / "game" / "rules" / "files" / "logfields.py").read_text(encoding="utf-8")
    assert "FIELDS" not in text and "OPTIONAL" not in text  # no second list of the fields


def test_every_module_is_named_in_the_architecture():
    """docs/architecture.md's "Every module" names each module of ``game/`` under its package,
    so the map of the code is redrawn with the code."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    index = doc[doc.index("## Every module") :]
    sections = {}
    for block in index.split("\n`game")[1:]:
        package, _, rest = block.partition("`")
        sections["game" + package] = set(re.findall(r"^- `([\w.]+\.py)`", rest, re.M))
    for path in (ROOT / "game").rglob("*.py"):
        package = str(path.parent.relative_to(ROOT)) + "/"
        assert path.name in sections.get(package, set()), f"{path.relative_to(ROOT)}"


def test_the_architecture_names_every_kind_of_decision():
    """docs/architecture.md lists every kind of decision the battle waits for."""
    from game.rules.decision import KINDS

    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert [k for k in KINDS if f"`{k}`" not in doc] == []


def test_the_battle_screen_reads_its_modes_through_their_protocol():
    """What the battle screen reads of a mode is declared on ``game.ui.modes.Mode`` (with its
    default), never probed with ``getattr``."""
    probes = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "game" / "ui" / "battle").glob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"getattr\((self\.)?mode\b", line)
    ]
    assert probes == []


MAX_BASES = 2
"""A class of ``game/ai`` derives from at most this many bases: the scripted AI is made of
parts held as attributes (``game.ai.scripted.ScriptedAI``), not of mixins."""
AI = ROOT / "game" / "ai"


def _fan_out(sources: dict[str, str]) -> dict[str, int]:
    """{"file::Class": its number of bases} for each class of ``sources`` (name -> text)
    with more than MAX_BASES bases."""
    return {
        f"{name}::{node.name}": len(node.bases)
        for name, text in sources.items()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ClassDef) and len(node.bases) > MAX_BASES
    }


def _private_calls_across_parts(sources: dict[str, str]) -> list[str]:
    """Each ``self.<part>._<name>`` reached in ``sources`` (name -> text): a part asking
    another for something that other keeps private, which no signature shows."""
    found = []
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Attribute)
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "self"
            ):
                found.append(f"{name}:{node.lineno} self.{node.value.attr}.{node.attr}")
    return found


def _ai_sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(AI.glob("*.py"))}


def test_no_class_of_the_ai_has_more_than_two_bases():
    """The scripted AI's choosers and helpers are objects it holds, each built with what it
    needs, not bases it inherits (docs/architecture.md, "The scripted AI")."""
    assert _fan_out(_ai_sources()) == {}


def test_the_fan_out_check_finds_a_mixin_web():
    planted = "class A(B, C, D):\n    pass\n\nclass E(F, G):\n    pass\n"
    assert _fan_out({"x.py": planted}) == {"x.py::A": 3}


def test_no_part_of_the_ai_reaches_into_another_s_private_names():
    """A part of the scripted AI asks another only through its public methods, on a named
    attribute (``self.posture.gain(...)``), so every call across parts shows."""
    assert _private_calls_across_parts(_ai_sources()) == []


def test_the_private_call_check_finds_one():
    planted = (
        "class M:\n"
        "    def moves(self, battle):\n"
        "        self._own(battle)\n"
        "        self.posture.gain(battle)\n"
        "        return self.posture._gain(battle)\n"
    )
    assert _private_calls_across_parts({"m.py": planted}) == ["m.py:5 self.posture._gain"]


MAX_FUNCTION_LINES = 60
"""A function's body (its docstring aside) stays within this many lines: a part with its own
job gets its own function, rather than a file being sliced to meet a cap."""
LONG_FUNCTIONS: dict[str, int] = {}
"""Functions allowed past the cap, each held to its length: empty since every one of the 43
that were longer when the cap came in was split into steps with jobs of their own. A new
entry needs a reason a reviewer accepts."""


def _function_lengths() -> dict[str, int]:
    def body_lines(fn) -> int:
        first = fn.body[0]
        doc = isinstance(first, ast.Expr) and isinstance(
            getattr(first, "value", None), ast.Constant
        )
        start = first.end_lineno + 1 if doc and isinstance(first.value.value, str) else first.lineno
        return fn.end_lineno - start + 1

    out = {}
    for path in sorted((ROOT / "game").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()

        def walk(node, prefix: str, rel: str = rel) -> None:
            for c in ast.iter_child_nodes(node):
                if isinstance(c, ast.FunctionDef | ast.AsyncFunctionDef):
                    out[f"{rel}::{prefix}{c.name}"] = body_lines(c)
                    walk(c, f"{prefix}{c.name}.")
                elif isinstance(c, ast.ClassDef):
                    walk(c, f"{prefix}{c.name}.")

        walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_no_function_passes_its_line_cap():
    """Every function of ``game/`` is at most MAX_FUNCTION_LINES long, but those listed in
    LONG_FUNCTIONS, which may not grow."""
    over = {
        name: n
        for name, n in _function_lengths().items()
        if n > LONG_FUNCTIONS.get(name, MAX_FUNCTION_LINES)
    }
    assert over == {}


MAX_BASES = 2
"""Bases of a class in ``game/ui``: a screen holds its parts (``self.news``, ``self.saving``,
``self.files``, ...) and reaches them by name, rather than inheriting a web of mixins."""
WIDE_CLASSES: dict[str, int] = {}
"""Classes of ``game/ui`` that had more bases when the cap came in, each held to its count
then: they may shrink (and leave this list) but not grow."""


def _class_bases(path: Path, source: str | None = None) -> dict[str, int]:
    """``path::Class`` -> its number of bases, for every class of a module (``source`` read
    in place of the file when given)."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT).as_posix()
    return {f"{rel}::{c.name}": len(c.bases) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}


def _too_wide(bases: dict[str, int]) -> dict[str, int]:
    return {n: k for n, k in bases.items() if k > WIDE_CLASSES.get(n, MAX_BASES)}


def test_no_screen_class_is_a_web_of_mixins():
    """Every class of ``game/ui`` has at most MAX_BASES bases (those in WIDE_CLASSES no more
    than they had): the battle screen and the map editor are made of parts they hold."""
    bases = {}
    for path in sorted((ROOT / "game" / "ui").rglob("*.py")):
        bases |= _class_bases(path)
    assert bases["game/ui/battle/screen.py::BattleScreen"] <= MAX_BASES
    assert bases["game/ui/editor/screen.py::EditorScreen"] <= MAX_BASES
    assert _too_wide(bases) == {}


def test_the_fan_out_check_finds_a_wide_class():
    """The check above catches a class of three mixins, and lets a class of two bases by."""
    planted = "class A(B, C, D):\n    pass\n\n\nclass E(F, G):\n    pass\n"
    bases = _class_bases(ROOT / "game" / "ui" / "planted.py", planted)
    assert _too_wide(bases) == {"game/ui/planted.py::A": 3}


def test_no_test_imports_another_test_module():
    """What tests share lives in tests/helpers.py and tests/conftest.py, by subject folders
    (rules, files, ai, check, editor, ui, net, hostile); a test module never imports another."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "tests").rglob("test_*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"\s*from tests\.(\w+\.)*test_\w+ import", line)
    ]
    assert found == []
    root_tests = [p.name for p in (ROOT / "tests").glob("test_*.py")]
    assert root_tests == ["test_structure.py"]  # the rest live in their subject's folder


def test_the_code_speaks_of_the_game_not_its_history():
    """No issue number in ``game/``: the commits keep the history; a docstring says what the
    code does and why, in the rules' terms."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "game").rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"#\d{2}\b|\bissue \d{2}\b", line)
    ]
    assert found == []


def _unexplained_lazy_imports(source: str) -> list[int]:
    """Lines of the imports inside functions of ``source`` that do not say why they are there:
    neither the import's own line nor the comment line just above its block of imports
    contains ``lazy:`` (nor does any import line above it in that block)."""
    lines = source.splitlines()
    out = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if "lazy:" in lines[node.lineno - 1]:
                continue
            above = node.lineno - 2
            while above >= 0 and "lazy:" not in lines[above] and re.match(
                r"\s*(from \S+ )?import |\s*$|\s+\w+,$|\s*\)$", lines[above]
            ):
                above -= 1  # up the block of imports this one belongs to
            if above < 0 or "lazy:" not in lines[above]:
                out.append(node.lineno)
    return sorted(set(out))


def test_every_import_inside_a_function_says_why():
    """An import inside a function is there for start-up time (``hulldown --help`` loads
    ``game.cli`` and the modules that add its subcommands; the window opens before the
    engine loads) or for a heavy or optional library only one command needs: each says so
    with a ``# lazy:`` comment on its line or on the comment line above its block. Anything
    else is imported at the top of its module, where a reader looks for it."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "game").rglob("*.py"))
        for n in _unexplained_lazy_imports(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_lazy_import_check_finds_an_unexplained_import():
    source = (
        "def f():\n    # lazy: the engine only when the command runs\n"
        "    import game\n    from game import (\n        Battle,\n    )\n    return game\n"
        "def g():\n    x = 1\n    import json  # lazy: rarely needed\n    y = 2\n    import os\n"
        "    return x + y\n"
    )
    assert _unexplained_lazy_imports(source) == [12]


def test_the_help_loads_no_engine():
    """``hulldown --help`` loads the command line and the modules that add its subcommands,
    never the engine, numpy, Shapely or pygame (0.08 s against 0.02 s for a bare Python on a
    quiet machine; docs/performance.md)."""
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\nfrom game.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    heavy = [m for m in out if m.split(".")[0] in {"numpy", "shapely", "pygame", "pydantic"}
             or m in {"game.rules.battle", "game.rules.procedures"}]
    assert "game.cli" in out and heavy == []
