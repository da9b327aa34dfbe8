"""The scripted AI's choice, as the side with the initiative, of who acts first in a phase
(000 05.00, 001 5.0)."""

from __future__ import annotations

from game import ChooseFirst
from game.ai.values import Option


class InitiativeChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: who acts first in a fire or movement
    phase whose sides choose it. Needs nothing of the other parts."""

    def choose_first(self, battle, side, kind) -> list[Option]:
        """``side``'s options for who acts first in a phase of ``kind`` ("fire" or
        "movement", 000 05.00, 001 5.0): us in a fire phase, the enemy in a movement phase."""
        # shoot first (fewer enemy guns survive to answer); move second (the enemy shows its
        # hand and walks into our opportunity fire)
        me_first = kind == "fire"
        enemy = battle.other(side)
        return [
            Option("we act first", 1.0 if me_first else 0.0, ChooseFirst(side, side)),
            Option("the enemy acts first", 0.0 if me_first else 1.0, ChooseFirst(side, enemy)),
        ]
