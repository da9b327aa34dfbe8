"""``hulldown verify LOG`` (#45): replay a network battle's log from its ``network`` line and
check it line by line, so a die, a hash-chain element or a revealed plot changed anywhere is
found and named."""

from __future__ import annotations

import os

from game import Battle, NetworkLogError, first_difference


def verify_log(path: str | os.PathLike) -> str | None:
    """None when every line of the network battle's log at ``path`` is what its actions and
    both players' chain elements give, byte for byte: each element hashes to the one
    before (down to the ends committed before turn 1), each die is drawn from its action's
    seed, each revealed plot matches the commitment sent when it was plotted. Otherwise one
    line, ``FILE:LINE: what is wrong``, naming the first line that fails."""
    try:
        battle, texts = Battle.from_network_log(path)
    except NetworkLogError as err:
        return str(err)
    return first_difference(path, texts, battle.log.events)
