"""Fair dice and hidden plots between two machines that do not trust each other.

A network battle's dice are not seeded once: each action's dice come from a stream seeded by
both players' next elements of their hash chains and the action's index, so neither can
foresee a roll (the other's element is unknown until the action is sent) nor choose one (both
chains were fixed before turn 1). The same functions are used by the engine as it plays, by
the network session that draws the elements, and by ``hulldown verify``, which re-derives
every die of a network battle's log.

A hash chain: a secret ``s0`` (32 random bytes) hashed ``n`` times; its end ``H^n(s0)`` is sent
before play. The element of action ``i`` (from 0) is ``H^(n-1-i)(s0)``; it is checked by hashing
it once, which must give the element before it (the end, for action 0). ``H`` is SHA-256 over
the element's bytes; elements travel as 64 hex digits.

A hidden plot (an indirect fire mission or an air strike) travels as a commitment: the
SHA-256 of the plot (its action as a canonical JSON object) and a salt; the plot and the salt
are revealed when it lands, and anybody can check them against the commitment.
"""

from __future__ import annotations

import hashlib
import json
import secrets

CHAIN_LENGTH = 20_000
"""Elements in each side's hash chain: the most actions a network battle may take (the
longest AI battles of the corpus take under 2,000). A house value of hulldown's, not GHQ's."""

HEX_DIGITS = 64
"""An element, a commitment: SHA-256, as 64 lowercase hex digits."""


def is_hex_digest(value) -> bool:
    """Whether ``value`` is 64 lowercase hex digits (an element or a commitment)."""
    return (
        isinstance(value, str)
        and len(value) == HEX_DIGITS
        and all(c in "0123456789abcdef" for c in value)
    )


def chain_step(element: str) -> str:
    """``H(element)``: SHA-256 of the element's 32 bytes, as hex. Raises ValueError when
    ``element`` is not 64 hex digits."""
    if not is_hex_digest(element):
        raise ValueError("a chain element is 64 lowercase hex digits")
    return hashlib.sha256(bytes.fromhex(element)).hexdigest()


def follows(element: str, previous: str) -> bool:
    """Whether ``element`` is the chain element that comes before ``previous`` in play (its
    hash is ``previous``); False for anything that is not 64 hex digits."""
    return is_hex_digest(element) and chain_step(element) == previous


def action_seed(actor_element: str, other_element: str, index: int) -> int:
    """The seed of action ``index``'s dice (from 0): SHA-256 of the acting side's element, the
    other side's element and the index, as a 256-bit integer for ``random.Random``."""
    text = f"hulldown-dice/1:{actor_element}:{other_element}:{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def plot_commitment(plot: dict, salt: str) -> str:
    """The commitment to a hidden plot: SHA-256 of the plot (an action's ``to_dict()``, as
    canonical JSON: sorted keys, no spaces) and the salt (hex text)."""
    text = json.dumps({"plot": plot, "salt": salt}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_salt() -> str:
    """A fresh salt for a commitment: 16 random bytes from the operating system, as hex."""
    return secrets.token_hex(16)


class HashChain:
    """One side's secret hash chain (kept by its own machine only).

    ``HashChain()`` draws a fresh secret; ``HashChain(secret)`` rebuilds one (resuming). The
    elements are worked out once (``length`` hashes, about 20 ms for 20,000) and kept.
    ``end`` is what is sent before play; ``element(i)`` the element for action ``i``.
    Raises ValueError for a secret that is not 64 hex digits, or an index past the chain.
    """

    def __init__(self, secret: str | None = None, length: int = CHAIN_LENGTH):
        self.secret = secret if secret is not None else secrets.token_hex(32)
        if not is_hex_digest(self.secret):
            raise ValueError("a chain's secret is 64 lowercase hex digits")
        self.length = int(length)
        chain = [self.secret]
        h = bytes.fromhex(self.secret)
        for _ in range(self.length):
            h = hashlib.sha256(h).digest()
            chain.append(h.hex())
        self._chain = chain  # chain[k] = H^k(secret)

    @property
    def end(self) -> str:
        """``H^length(secret)``: the commitment to the whole chain, sent before play."""
        return self._chain[self.length]

    def element(self, index: int) -> str:
        """The element for action ``index`` (0-based): ``H^(length-1-index)(secret)``."""
        if not 0 <= index < self.length:
            raise ValueError(f"the hash chain has {self.length} elements, not {index + 1}")
        return self._chain[self.length - 1 - index]
