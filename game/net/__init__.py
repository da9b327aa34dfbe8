"""Network play: two machines, each with its own engine, play one battle; only actions
and the protocol's messages cross the wire. ``fairplay`` is the protocol (hash-chain dice,
hidden plots, state hashes) with no sockets in it; ``transport`` carries its messages over
websockets beside the frame loop; ``relay`` pairs players behind routers; ``verify``
re-derives every die of a network battle's log; ``headless`` plays AI against AI for tests
and outside checks."""

PORT = 8765
"""The port hulldown hosts and relays on unless told another (loaded before the engine, so
``hulldown --help`` and the command line's parser start quickly)."""
