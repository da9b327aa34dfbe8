"""Kill a battle with SIGKILL at random moments and resume it from its autosave (#26).

A child process plays a battle (two random players) with an autosave, printing the number of
actions after each ``Battle.apply`` returns, i.e. once the autosave of that action is written.
The parent kills it at a random moment, loads the autosave and checks that it loads (its
replay reaches the saved state hash) and holds at least every action the child had reported
done: only the action in flight may be lost. The next child resumes from that autosave. When a
battle ends, the next one starts on a new seed.

Usage: python tools/checks/crash_safety.py [--kills 50] [--seed 1] [--scenario maps/modern-skirmish.json]
Prints one line per kill and a summary; exits 1 if any kill lost a reported action or left an
autosave that does not load.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def child(scenario_path: str, seed: int, autosave: str) -> None:
    """Play (or resume) one battle with an autosave, printing the action count after each
    action lands. Runs until the battle ends or the parent kills it."""
    from game import Battle, load_scenario
    from game.check.sim import make_players

    if Path(autosave).exists():
        battle = Battle.load(autosave, autosave=autosave)
    else:
        battle = Battle(load_scenario(scenario_path), seed, autosave=autosave)
    players = make_players(battle, ("random", "random"))
    print(len(battle.actions), flush=True)
    while not battle.finished:
        battle.apply(players[battle.to_act].choose(battle))
        print(len(battle.actions), flush=True)
    print("finished", flush=True)


def kill_once(scenario: str, seed: int, autosave: Path, rng: random.Random) -> dict:
    """Start a child, let it play for a random 0-120 ms after its first report, SIGKILL it,
    then check the autosave. Returns the figures of this kill."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", scenario, str(seed), str(autosave)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    first = proc.stdout.readline()  # the battle is built (or resumed) and playing
    if not first.strip().isdigit():
        proc.kill()
        return {"error": f"child did not start: {first!r} {proc.stderr.read()[-500:]}"}
    resumed_at = int(first)
    time.sleep(rng.uniform(0.0, 0.12))
    os.kill(proc.pid, signal.SIGKILL)
    out, _err = proc.communicate()
    lines = [first.strip(), *out.split()]
    finished = "finished" in lines
    reported = max(int(x) for x in lines if x.isdigit())
    from game import Battle, SaveError

    had_autosave = autosave.exists()  # none until the first action lands
    try:
        saved = len(Battle.load(autosave).actions) if had_autosave else 0
    except SaveError as err:
        return {"error": f"the autosave does not load: {err}"}
    leftovers = len(list(autosave.parent.glob(f".{autosave.name}.*.tmp")))
    return {
        "resumed_at": resumed_at,
        "reported": reported,
        "saved": saved,
        "lost": max(0, reported - saved),
        "finished": finished,
        "had_autosave": had_autosave,
        "leftover_temps": leftovers,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the kills and print the figures; 1 if an action reported done was lost or an
    autosave did not load."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", default=str(ROOT / "maps" / "modern-skirmish.json"))
    ap.add_argument("--child", nargs=3, metavar=("SCENARIO", "SEED", "AUTOSAVE"))
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2])
        return 0
    rng = random.Random(args.seed)
    seed = args.seed
    bad = resumes = lost = loaded = 0
    with tempfile.TemporaryDirectory() as tmp:
        autosave = Path(tmp) / "autosave.json"
        for k in range(args.kills):
            r = kill_once(args.scenario, seed, autosave, rng)
            if "error" in r:
                bad += 1
                print(f"kill {k + 1}: {r['error']}")
                autosave.unlink(missing_ok=True)
                continue
            resumes += r["resumed_at"] > 0
            loaded += r["had_autosave"]
            lost += r["lost"]
            bad += r["lost"] > 0
            print(
                f"kill {k + 1}: resumed at action {r['resumed_at']}, {r['reported']} reported "
                f"done, {r['saved']} in the autosave, {r['lost']} lost, "
                f"{r['leftover_temps']} temporary files left"
                + (" (the battle had ended: a new one starts)" if r["finished"] else "")
            )
            if r["finished"]:
                autosave.unlink()
                seed += 1
    print(
        f"{args.kills} kills: {loaded} autosaves loaded, {resumes} resumed from an autosave, "
        f"{bad} failed, "
        f"{lost} actions reported done and lost"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
