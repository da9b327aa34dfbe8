"""The ``hulldown`` command: start the game, check scenario files, render a map."""

from __future__ import annotations

import argparse
import os
import sys

MAPS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "maps")


def _cmd_check(args: argparse.Namespace) -> int:
    """Validate scenario files; one line per problem, exit 1 if any file has one."""
    from game import ScenarioError, load_scenario

    bad = 0
    for path in args.files:
        try:
            sc = load_scenario(path)
        except ScenarioError as err:
            bad += 1
            for line in err.problems:
                print(line, file=sys.stderr)
        else:
            n = len(sc.spec.stands)
            print(
                f'{path}: ok ({sc.ruleset}, {sc.table.width:g}"x{sc.table.depth:g}", '
                f"{len(sc.table.features)} terrain features, {n} stands)"
            )
    return 1 if bad else 0


def _cmd_render(args: argparse.Namespace) -> int:
    """Draw a scenario's table to a PNG, headless."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game import ScenarioError, load_scenario
    from game.ui.render import render_png

    try:
        sc = load_scenario(args.scenario)
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    try:
        w, h = render_png(sc, args.out, args.scale)
    except (OSError, ValueError) as err:  # pygame.error is a RuntimeError subclass
        print(f"{args.out}: cannot write the picture ({err})", file=sys.stderr)
        return 1
    except RuntimeError as err:
        print(f"{args.out}: cannot write the picture ({err})", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({w}x{h} px)")
    return 0


def _cmd_view(args: argparse.Namespace) -> int:
    """Open a window on a scenario's table (the battle screens come with the engine)."""
    from game import ScenarioError, load_scenario
    from game.ui.viewer import run_viewer

    path = args.scenario or os.path.join(MAPS_DIR, "modern-meeting.json")
    try:
        sc = load_scenario(path)
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    return run_viewer(sc, frames=args.frames)


def _cmd_simulate(args: argparse.Namespace) -> int:
    """Play battles headless and print a summary; one battle log per battle."""
    import json

    from tqdm import tqdm

    from game import ScenarioError, load_scenario
    from game.check.sim import PLAYERS, play_battle, summarise

    players = tuple(p.strip() for p in args.players.split(","))
    if len(players) == 1:
        players = players * 2
    if len(players) != 2 or any(p not in PLAYERS for p in players):
        known = ", ".join(PLAYERS)
        print(
            f"--players: give one or two of: {known} (e.g. ai,random or veteran,recruit)",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("--games: give at least 1", file=sys.stderr)
        return 2
    try:
        sc = load_scenario(args.scenario)
        from game import Battle

        Battle(sc, args.seed)  # refuses a ruleset it cannot play yet
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    log_dir = args.log_dir
    results = []
    bar = tqdm(
        range(args.games),
        desc="battles",
        unit="battle",
        file=sys.stderr,
        disable=args.games < 2 or args.quiet,
    )
    for i in bar:
        seed = args.seed + i
        log = os.path.join(log_dir, f"battle-{i + 1:04d}-seed-{seed}.jsonl") if log_dir else None
        results.append(play_battle(sc, seed, players, log))
    sides = [s.id for s in sc.spec.sides]
    summary = summarise(results, sides)
    names = {s.id: s.name for s in sc.spec.sides}
    n = summary["battles"]
    print(f"{n} battle{'' if n == 1 else 's'} of {sc.title} ({players[0]} vs {players[1]}):")
    for s in sides:
        print(
            f"  {names[s]}: {summary['wins'][s]} wins, {summary['mean_losses'][s]} stands "
            f"lost on average"
        )
    print(
        f"  draws: {summary['draws']}; mean turns {summary['mean_turns']}; "
        f"{summary['seconds_per_battle']} s per battle"
    )
    if log_dir:
        print(f"  logs in {log_dir}/")
    if summary["log_problems"]:
        print(f"  battle-log problems: {summary['log_problems']}", file=sys.stderr)
        return 1
    print(json.dumps(summary, sort_keys=True))
    return 0


def _cmd_edit(args: argparse.Namespace) -> int:
    """Open the map editor on a scenario file, or on a new table."""
    from game.editor.document import Document, EditorFileError
    from game.ui.app import start
    from game.ui.editor import editor_screen
    from game.ui.menu import MenuScreen

    doc = None
    if args.scenario:
        try:
            doc = Document.open(args.scenario)
        except EditorFileError as err:
            print(err, file=sys.stderr)
            return 1

    def screen(app):
        return editor_screen(app, doc, on_menu=lambda: app.show(MenuScreen(app)))

    return start(screen, frames=args.frames)


def _cmd_menu(args: argparse.Namespace) -> int:
    """Open the window on the main menu."""
    from game.ui.app import start
    from game.ui.menu import MenuScreen

    return start(MenuScreen, frames=getattr(args, "frames", 0))


def _cmd_play(args: argparse.Namespace) -> int:
    """Go straight to a battle: a scenario with a seed, a save, or the autosave. ``--ai``
    hands a side to the AI, in a new battle or a loaded one (kept in its saves); a side the
    battle does not have is refused before anything is written."""
    from game import Battle, SaveError, ScenarioError, load_scenario
    from game.saves import autosave_path
    from game.ui.app import start
    from game.ui.menu import battle_screen, new_battle

    def no_such_side(sides: list[str]) -> bool:
        if args.ai and args.ai not in sides:
            print(
                f"hulldown play: --ai {args.ai}: no such side (the sides are {', '.join(sides)})",
                file=sys.stderr,
            )
            return True
        return False

    try:
        if args.resume or args.load:
            path = autosave_path() if args.resume else args.load
            battle = Battle.load(path, autosave=autosave_path())
            if no_such_side(battle.sides):
                return 2
            if args.ai:
                battle.meta = {**battle.meta, "ai": {args.ai: args.level}}
                battle.meta["ai_speed"] = args.ai_speed
        elif args.scenario:
            if no_such_side([s.id for s in load_scenario(args.scenario).spec.sides]):
                return 2
            ai = {args.ai: args.level} if args.ai else {}
            battle = new_battle(args.scenario, args.seed, ai, args.ai_speed)
        else:
            print("hulldown play: give a SCENARIO, --load SAVE or --resume", file=sys.stderr)
            return 2
    except (ScenarioError, SaveError) as err:
        print(err, file=sys.stderr)
        return 1
    return start(lambda app: battle_screen(app, battle), frames=args.frames)


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``hulldown [menu] | play | edit | view | check | render | simulate``."""
    p = argparse.ArgumentParser(prog="hulldown", description="Micro Armour on a real table.")
    sub = p.add_subparsers(dest="command")
    mnu = sub.add_parser("menu", help="open the main menu (the default)")
    mnu.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    mnu.set_defaults(func=_cmd_menu)
    pl = sub.add_parser("play", help="play a battle on screen")
    pl.add_argument("scenario", nargs="?", help="scenario file")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--load", help="a save file to continue")
    pl.add_argument("--resume", action="store_true", help="continue the autosave")
    pl.add_argument(
        "--ai", help="the side the AI plays (e.g. B), also in a loaded save; none: hotseat"
    )
    pl.add_argument("--level", default="veteran", choices=["veteran", "recruit"])
    pl.add_argument(
        "--ai-speed",
        type=float,
        default=12.0,
        help="inches a second the AI's moves are shown at (0: not shown)",
    )
    pl.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    pl.set_defaults(func=_cmd_play)
    e = sub.add_parser("edit", help="open the map editor")
    e.add_argument("scenario", nargs="?", help="scenario file to edit (none: a new table)")
    e.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    e.set_defaults(func=_cmd_edit)
    v = sub.add_parser("view", help="open a window on a scenario's table")
    v.add_argument("scenario", nargs="?", help="scenario file (default maps/modern-meeting.json)")
    v.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    v.set_defaults(func=_cmd_view)
    c = sub.add_parser("check", help="validate scenario files")
    c.add_argument("files", nargs="+")
    c.set_defaults(func=_cmd_check)
    r = sub.add_parser("render", help="draw a scenario's table to a PNG")
    r.add_argument("scenario")
    r.add_argument("--out", required=True, help="PNG file to write")
    r.add_argument("--scale", type=float, default=20.0, help="pixels per inch (default 20)")
    r.set_defaults(func=_cmd_render)
    s = sub.add_parser("simulate", help="play whole battles headless")
    s.add_argument("scenario")
    s.add_argument("--games", type=int, default=1)
    s.add_argument("--seed", type=int, default=1, help="seed of the first battle (then +1 each)")
    s.add_argument("--log-dir", help="write one battle log per battle here")
    s.add_argument(
        "--players",
        default="random",
        help="who plays each side, e.g. random, ai,random, veteran,recruit",
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=_cmd_simulate)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hulldown`` console script; returns the exit status."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["menu", *(argv or [])])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
