"""The random-legal-action player: a baseline opponent and the engine's fuzzer.

It chooses uniformly among the *kinds* of legal action (pass, fire, move, ...), then uniformly
among the actions of that kind, so passing is not drowned out by the many ways to fire or move.
It has its own seeded stream and never touches the battle's dice.
"""

from __future__ import annotations

import random

from game import Action


class RandomPlayer:
    """Plays any side of any ruleset with random legal actions, deterministically per seed."""

    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, battle) -> Action:
        """One legal action for the side to act. Raises ValueError if there is none."""
        acts = battle.legal_actions()
        if not acts:
            raise ValueError("no legal action: the battle is over")
        kinds = sorted({a.kind for a in acts})
        kind = self.rng.choice(kinds)
        return self.rng.choice([a for a in acts if a.kind == kind])
