"""The battle's dice: the only source of randomness in a battle.

A :class:`Dice` is seeded once per battle and lives in the battle, so the same scenario, seed and
actions give the same battle, roll for roll (000 03.04: one D20 and two D6). Tests use
:class:`FixedDice`, which hands out given numbers in order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable


class Dice:
    """Seeded dice. ``d6()`` and ``d20()`` roll one die; ``roll(n, sides)`` several.

    Uses its own ``random.Random`` (Mersenne Twister), never the module-level generator.
    """

    def __init__(self, seed: int):
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self.rolled = 0

    def die(self, sides: int) -> int:
        """One die of ``sides`` faces (1..sides)."""
        self.rolled += 1
        return self._rng.randint(1, sides)

    def d6(self) -> int:
        """One six-sided die."""
        return self.die(6)

    def d20(self) -> int:
        """One twenty-sided die."""
        return self.die(20)

    def roll(self, n: int, sides: int) -> list[int]:
        """``n`` dice of ``sides`` faces, in the order rolled."""
        return [self.die(sides) for _ in range(n)]

    def reseed(self, seed: int) -> None:
        """Start a new stream of rolls from ``seed`` (a network battle reseeds before each
        action from both players' hash-chain elements:
        :func:`game.rules.fair.action_seed`); the count of dice rolled goes on."""
        self._rng = random.Random(int(seed))
        self._digest: tuple[int, str] | None = None

    def digest(self) -> str:
        """A short digest of the generator's state, for the battle's state hash; kept until
        the next die is rolled (the state moves only then), so hashing the state after each
        of a long journal's actions does not repeat it (a third of loading the autosave).
        """
        kept = getattr(self, "_digest", None)
        if kept is not None and kept[0] == self.rolled:
            return kept[1]
        value = hashlib.sha256(repr(self._rng.getstate()).encode()).hexdigest()[:16]
        self._digest = (self.rolled, value)
        return value


class FixedDice(Dice):
    """Dice that roll the given numbers in order (tests): ``FixedDice([6, 1, 4])``.

    Raises AssertionError when asked for more dice than it was given, or for a number that
    the die cannot show.
    """

    def __init__(self, values: Iterable[int]):
        super().__init__(0)
        self._values = list(values)
        self._next = 0

    def die(self, sides: int) -> int:
        """The next given number; it must fit on a die of ``sides`` faces."""
        assert self._next < len(self._values), f"FixedDice ran out after {len(self._values)} rolls"
        v = self._values[self._next]
        self._next += 1
        self.rolled += 1
        assert 1 <= v <= sides, f"roll {v} does not fit a d{sides}"
        return v

    @property
    def left(self) -> int:
        """How many given numbers are still unused."""
        return len(self._values) - self._next

    def digest(self) -> str:
        """The position in the given numbers."""
        return f"fixed:{self._next}"
