"""What the network costs a battle (#45): the same AI-against-AI battle (fixed chain secrets,
so the same dice and actions) played once with the two sides' protocol objects handing each
other their messages in one process, and once over websockets on localhost (two sessions
polled in one thread, as tests/net/test_network_play.py does). Prints the battle's actions, both
wall times (median of repeats) and the cost per action of the wire.

    .venv/bin/python tools/bench/bench_network.py [SCENARIO] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import game
from game.ai.scripted import ScriptedAI
from game.net import transport
from game.net.fairplay import FairPlay, Secrets
from game.net.headless import Driver
from game.net.session import NetSession

ROOT = Path(__file__).resolve().parents[2]
SECRETS = {"host": f"{11:064x}", "join": f"{12:064x}"}


def direct(sc, level: str) -> tuple[float, int]:
    """Both sides' FairPlay objects, messages handed over in memory."""
    a, b = [s.id for s in sc.spec.sides]
    host = FairPlay(Secrets(a, SECRETS["host"], 20_000))
    join = FairPlay(Secrets("?", SECRETS["join"], 20_000))
    t = time.perf_counter()
    hh = host.hello(sc, 5, {"host": a, "join": b})
    jh = join.hello()
    host.start(hh, jh, "host")
    join.start(hh, jh, "join")
    ai = {a: ScriptedAI(seed=1, level=level), b: ScriptedAI(seed=2, level=level)}
    sides = {a: (host, join), b: (join, host)}
    while not host.battle.finished:
        me, other = sides[host.battle.to_act]
        action = me.auto_action() or ai[me.me].choose(me.battle)
        for reply in other.receive(me.propose(action)):
            me.receive(reply)
    return time.perf_counter() - t, len(host.battle.actions)


def wired(sc, level: str) -> tuple[float, int]:
    """Two sessions over a websocket on localhost, stepped in one thread."""
    a, b = [s.id for s in sc.spec.sides]
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        hl = transport.host(0, bind="127.0.0.1")
        jl = transport.join(f"ws://127.0.0.1:{hl.port}")
        host = NetSession(
            hl,
            "host",
            a,
            scenario=sc,
            seed=5,
            sides={"host": a, "join": b},
            secrets=Secrets(a, SECRETS["host"], 20_000),
        )
        join = NetSession(jl, "join", "?", secrets=Secrets("?", SECRETS["join"], 20_000))
        drivers = [
            Driver(host, ScriptedAI(seed=1, level=level), say=lambda _t: None),
            Driver(join, ScriptedAI(seed=2, level=level), say=lambda _t: None),
        ]
        done: set[int] = set()
        while len(done) < 2:
            for k, d in enumerate(drivers):
                if k not in done and d.step(0.0005) is not None:
                    done.add(k)
        spent = time.perf_counter() - t
        n = len(host.battle.actions)
        hl.close()
        jl.close()
        del tmp
    return spent, n


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("scenario", nargs="?", default=str(ROOT / "maps" / "modern-skirmish.json"))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--level", default="recruit")
    args = p.parse_args()
    sc = game.load_scenario(args.scenario)
    d, w = [], []
    for _ in range(args.repeats):  # alternated, so a busy moment hits both
        t, n1 = direct(sc, args.level)
        d.append(t)
        t, n2 = wired(sc, args.level)
        w.append(t)
        assert n1 == n2, f"the two battles differ: {n1} and {n2} actions"
    md, mw = statistics.median(d), statistics.median(w)
    print(
        f"{Path(args.scenario).name}: {n1} actions; in memory {md:.2f} s, over localhost "
        f"{mw:.2f} s (median of {args.repeats}); the wire adds {(mw - md) / n1 * 1000:.1f} ms "
        f"an action ({mw / md:.2f}x)"
    )


if __name__ == "__main__":
    main()
