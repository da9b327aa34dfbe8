"""Proof that the level ``veteran-43`` plays exactly as the veteran did before #44: every battle
of the regression corpus with a veteran in it is played again with ``veteran-43`` in its place
and its battle log compared byte for byte with the one recorded before #44 (the corpus at the
commit this tool names, or the current manifest where no veteran battle was re-recorded).

Run: python tools/ai/check_veteran_43.py [--manifest PATH]   (exit 1 if any log differs)
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.ai.scripted import ScriptedAI  # noqa: E402
from game.check import sim  # noqa: E402
from game.check.corpus import cases, digest, load_manifest, play  # noqa: E402


def old(seed: int) -> ScriptedAI:
    """The level veteran-43, named as the veteran was (the name is never logged)."""
    ai = ScriptedAI(seed, "veteran-43")
    ai.name = "ai:veteran"
    return ai


def main() -> int:
    """Play the corpus's veteran battles with veteran-43; 0 when every log is the same."""
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--manifest", help="a manifest.json recorded before #44 (default: the corpus's)"
    )
    args = ap.parse_args()
    sim.PLAYERS["veteran"] = old
    sim.PLAYERS["ai"] = old
    if args.manifest:
        want = {b["name"]: b for b in json.loads(Path(args.manifest).read_text())["battles"]}
    else:
        want = load_manifest()
    bad = n = 0
    for c in cases():
        if not any(p in ("veteran", "ai") for p in c.players) or c.name not in want:
            continue
        n += 1
        with tempfile.TemporaryDirectory() as d:
            os.environ["HULLDOWN_DATA_DIR"] = d + "/data"
            log = Path(d) / "b.jsonl"
            play(c, log)
            ok = digest(log) == want[c.name]["log_sha256"]
        bad += not ok
        print(c.name, "same" if ok else "DIFFERENT")
    print(f"{n} veteran battles played by veteran-43, {bad} with a different log")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
