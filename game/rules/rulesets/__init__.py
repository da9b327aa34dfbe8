"""The rulesets: each is one frozen :class:`~game.rules.rulesets.base.Ruleset` object in a
module of its own (its turn beside its fire and movement policies, its close-assault and
support cards, and the set of features it plays), so "where does Wehrmacht '47 differ?" has
one answer: ``game/rules/rulesets/wwii47.py``.

This package's top is light on purpose: the scenario schema reads :data:`RULESET_IDS` while
the rulesets' own modules import the phases, which read scenarios; the ruleset objects are
built when first asked for (:func:`ruleset`, :func:`all_rulesets`).

To add a ruleset: write its module (a ``RULESET`` built from the base's policies, or new
ones) and name it in :data:`MODULES`.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.rules.rulesets.base import Ruleset

MODULES = {
    "modern": "modern",
    "wwii": "wwii",
    "modern-full": "modern_full",
    "wwii-47": "wwii47",
}
"""Ruleset id (as a scenario names it, rules-decisions "the ruleset ids") -> its module here."""

RULESET_IDS: tuple[str, ...] = tuple(MODULES)
"""Every ruleset id, in the order menus list them."""


@cache
def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset called ``ruleset_id``. Raises KeyError for an id that is not built."""
    module = importlib.import_module(f"{__name__}.{MODULES[ruleset_id]}")
    rules = module.RULESET
    if rules.id != ruleset_id:
        raise KeyError(f"{module.__name__} builds {rules.id!r}, not {ruleset_id!r}")
    return rules


def all_rulesets() -> dict[str, Ruleset]:
    """Every ruleset by id, in :data:`RULESET_IDS` order."""
    return {i: ruleset(i) for i in RULESET_IDS}


def phase_titles() -> dict[str, str]:
    """Every phase's battle-log name -> its name in words, over every ruleset (and the end)."""
    titles = {p.name: p.title or p.name for r in all_rulesets().values() for p in r.phases()}
    return {**titles, "end": "end"}


@cache
def phase_order() -> tuple[str, ...]:
    """Every phase a log line may name, in the order a turn's lines take them: set-up, each
    ruleset's turn merged in order, then the end (event-log.md). Raises ValueError when two
    rulesets order two phases differently."""
    order: list[str] = ["setup"]
    for rules in all_rulesets().values():
        at = 1
        for p in rules.turn:
            if p.name in order:
                k = order.index(p.name)
                if k < at:
                    raise ValueError(f"{rules.id} puts {p.name} after {order[at - 1]}")
                at = k + 1
            else:
                order.insert(at, p.name)
                at += 1
    return (*order, "end")


@cache
def phase_names() -> frozenset[str]:
    """The phase names a log line may carry (:func:`phase_order` as a set, made once)."""
    return frozenset(phase_order())
