"""The players that are not people: the scripted AI (:mod:`game.ai.scripted`, its levels in
:mod:`game.ai.levels`, its choosers in the modules beside it) and the random-legal player
(:mod:`game.ai.random_player`). Each has its own random stream and never touches the battle's
dice; :func:`player_seed` seeds it from the battle's seed, the same way wherever a battle is
played (``hulldown simulate``, the battle screen, the audit), so the same seed gives the same
player everywhere."""

from __future__ import annotations


def player_seed(battle_seed: int, side_index: int) -> int:
    """The seed of the random stream of the player of the battle's side ``side_index`` (0 for
    ``battle.sides[0]``, 1 for ``battle.sides[1]``) in a battle of seed ``battle_seed``. The
    regression corpus (tests/corpus) was recorded with these seeds."""
    return battle_seed * 2 + 1 + side_index
