"""Measure the relay under a flood from one address, on loopback only.

A relay runs in this process; one client floods it from 127.0.0.2 (connections to /host and
to /host/CODE with chosen codes, as fast as they go, at most ``--count`` of them and for at
most ``--seconds``), while real players, each host and joiner from an address of its own
(127.0.0.10 and up), meet through it. Prints connections a second tried and refused, codes
the flooder got, and the real pairs served with their median time to meet (seconds).

    python tools/checks/relay_flood.py --count 3000 --seconds 10 --players 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from game.net.relay import Relay, run_relay  # noqa: E402

KEY = "ab" * 16


def start_relay() -> tuple[int, Relay]:
    """A relay on a free loopback port in a daemon thread: (port, its tables)."""
    tables, got, ready = Relay(), [], threading.Event()

    def run() -> None:
        asyncio.run(
            run_relay(0, "127.0.0.1", ready=lambda p: (got.append(p), ready.set()), relay=tables)
        )

    threading.Thread(target=run, daemon=True).start()
    ready.wait(10)
    return got[0], tables


async def knock(uri: str, source: str, words: list, hold_s: float) -> str:
    """One connection from ``source``: "ok" (its first word put in ``words``, the connection
    held ``hold_s`` s), or why it was refused."""
    try:
        async with connect(uri, open_timeout=5, local_addr=(source, 0)) as ws:
            words.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            await asyncio.sleep(hold_s)
            return "ok"
    except InvalidStatus as err:
        return f"http {err.response.status_code}"
    except ConnectionClosed as err:
        return (err.rcvd.reason if err.rcvd else "") or "closed"
    except (OSError, TimeoutError) as err:
        return f"error {type(err).__name__}"


async def player(base: str, n: int, met: list) -> None:
    """A real host and its joiner, from addresses of their own; appends seconds to meet."""
    start = time.monotonic()
    host_src, join_src = f"127.0.0.{10 + 2 * n}", f"127.0.0.{11 + 2 * n}"
    try:
        async with connect(f"{base}/host?key={KEY}", open_timeout=5, local_addr=(host_src, 0)) as h:
            code = json.loads(await asyncio.wait_for(h.recv(), 5))["code"]
            async with connect(
                f"{base}/join/{code}", open_timeout=5, local_addr=(join_src, 0)
            ) as j:
                await asyncio.wait_for(j.recv(), 5)  # its code
                paired = json.loads(await asyncio.wait_for(j.recv(), 5))
                if paired.get("paired"):
                    met.append(time.monotonic() - start)
    except (OSError, TimeoutError, InvalidStatus, ConnectionClosed, KeyError):
        pass


async def flood(port: int, count: int, seconds: float, players: int) -> dict:
    base = f"ws://127.0.0.1:{port}"
    tasks, words, met = [], [], []
    start = time.monotonic()
    real = []
    for i in range(count):
        if time.monotonic() - start > seconds:
            break
        path = "/host" if i % 2 else f"/host/ABCDEFG{'ABCDEFGHJK'[i % 10]}"
        tasks.append(asyncio.create_task(knock(f"{base}{path}?key={KEY}", "127.0.0.2", words, 2)))
        if i % 20 == 0:
            await asyncio.sleep(0)
        if i % max(1, count // players) == 0 and len(real) < players:
            real.append(asyncio.create_task(player(base, len(real), met)))
    sent_s = time.monotonic() - start
    results = await asyncio.gather(*tasks)
    await asyncio.gather(*real)
    refused = sum(1 for r in results if r != "ok")
    return {
        "tried": len(tasks),
        "seconds": round(sent_s, 2),
        "tried_per_s": round(len(tasks) / sent_s),
        "refused": refused,
        "refused_per_s": round(refused / sent_s),
        "flooder_accepted": len(tasks) - refused,
        "flooder_codes_over_the_run": len({w.get("code") for w in words}),
        "real_pairs": f"{len(met)} of {len(real)}",
        "median_meet_s": round(statistics.median(met), 3) if met else None,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=3000, help="most flood connections")
    ap.add_argument("--seconds", type=float, default=10.0, help="longest flood (s)")
    ap.add_argument("--players", type=int, default=10, help="real pairs during the flood")
    args = ap.parse_args()
    port, tables = start_relay()
    out = asyncio.run(flood(port, args.count, args.seconds, args.players))
    out["codes_in_table_after"] = len(tables.pairs)
    for k, v in out.items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
