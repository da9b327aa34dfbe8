"""Record the regression corpus (tests/corpus/): play every case of game.check.corpus, write each
battle's save and a manifest of log digests and state hashes. Run it only when play is meant to
change (a rules fix), and say so in the commit; tests/files/test_corpus.py checks the corpus.

    python tools/checks/make_corpus.py            # record all cases
    python tools/checks/make_corpus.py --check    # play them and compare with the manifest
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.check.corpus import MANIFEST, cases, load_manifest, record  # noqa: E402


def main(argv=None) -> int:
    """Record or check the corpus; exit status 1 when a check finds a difference."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of recording")
    args = ap.parse_args(argv)
    old = load_manifest() if args.check else {}
    entries, bad = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HULLDOWN_DATA_DIR"] = tmp
        for case in cases():
            t0 = time.perf_counter()
            if args.check:
                from game.check.corpus import digest, play

                log = Path(tmp) / f"{case.name}.jsonl"
                battle = play(case, log)
                want = old[case.name]
                same = (
                    digest(log) == want["log_sha256"] and battle.state_hash() == want["state_hash"]
                )
                bad += not same
                print(
                    f"{'same' if same else 'DIFFERENT'}  {case.name}  {time.perf_counter() - t0:.1f} s"
                )
                continue
            entry = record(case, Path(tmp))
            entries.append(entry)
            print(
                f"{case.name}: {entry['actions']} actions, {entry['turns']} turns, "
                f"winner {entry['winner']}, {time.perf_counter() - t0:.1f} s"
            )
    if not args.check:
        MANIFEST.write_text(
            json.dumps({"format": "hulldown-corpus/1", "battles": entries}, indent=1) + "\n"
        )
        print(f"wrote {MANIFEST} ({len(entries)} battles)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
