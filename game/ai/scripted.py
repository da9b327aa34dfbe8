"""A scripted opponent that plays like a sensible tank commander, for any side of any ruleset
the engine plays.

It sees the battle only through the engine (``legal_actions``, ``fire_options``, ``fire_setup``,
``opportunity_setups``, ``preview_move``, the table's sight matrices) and answers with the same
actions a player's clicks make. Every choice is a list of scored options; the best is taken
(a recruit adds noise and sometimes takes the second or third), and the top three of the last
decision are kept in ``last`` (its turn and phase in ``last_when``) for the explain overlay.

Values are in "stands": eliminating an enemy stand is worth about 1 (more for a GHQ or a hard
hitter), a D about 0.45 of that, an S 0.15.
"""

from __future__ import annotations

import dataclasses
import random

from game import Action, Battle, Pass
from game.ai import player_seed
from game.ai.elite import LookaheadChooser
from game.ai.fire import FireChooser
from game.ai.full import FullGameChooser
from game.ai.guns import Guns
from game.ai.initiative import InitiativeChooser
from game.ai.levels import DEFAULT_LEVEL, LEVELS, LOOKAHEAD_BASE, Level
from game.ai.memory import Memory
from game.ai.movement import MovementChooser
from game.ai.opportunity import OpportunityChooser
from game.ai.outcome import Outcome
from game.ai.paths import Paths
from game.ai.planner import MovePlanner
from game.ai.positions import Positions
from game.ai.posture import PostureChooser
from game.ai.situation import Situation
from game.ai.support import FireSupportChooser
from game.ai.values import Option


def ai_players(battle: Battle, levels: dict[str, str], thinking: str = "normal") -> dict:
    """The AI players of ``battle``'s sides named in ``levels`` (side -> level), each seeded by
    :func:`game.ai.player_seed` as ``hulldown simulate`` seeds them (the same seed, the same
    AI), with the setting "AI thinking time" (``thinking``: quick, normal or long; only the
    elite looks ahead). Sides the battle does not have are left out. Raises ValueError for an
    unknown level."""
    return {
        side: ScriptedAI(player_seed(battle.seed, battle.sides.index(side)), level, thinking)
        for side, level in sorted(levels.items())
        if side in battle.sides
    }


def veteran_fire(seed: int) -> ScriptedAI:
    """The fire of the elite's continuations: a scripted AI of the level the look-ahead builds
    on (:data:`game.ai.levels.LOOKAHEAD_BASE`) with its own stream of ``seed``."""
    return ScriptedAI(seed, LOOKAHEAD_BASE)


class Choosers:
    """The scripted AI's choosers, one per kind of decision, and ``options``: the one place
    where what the battle waits for (``battle.decision()``) picks the chooser. Built by
    :class:`ScriptedAI` from its parts; the look-ahead asks it again for the scorers'
    options after a stand chose to stay."""

    def __init__(
        self,
        initiative: InitiativeChooser,
        fire: FireChooser,
        opportunity: OpportunityChooser,
        posture: PostureChooser,
        movement: MovementChooser,
        full: FullGameChooser,
        support: FireSupportChooser,
    ) -> None:
        self.initiative = initiative
        self.fire = fire
        self.opportunity = opportunity
        self.posture = posture
        self.movement = movement
        self.full = full
        self.support = support

    @staticmethod
    def reveal() -> list[Option]:
        """A network battle's hidden plot landing now is revealed by the network session
        that holds it (``game.net``), never chosen: raises ValueError."""
        raise ValueError("a hidden plot is revealed by the network session that holds it")

    def options(self, battle: Battle) -> list[Option]:
        """Every option the AI weighs for the decision at hand, scored (stands). Raises
        ValueError for a hidden plot's reveal (``reveal``)."""
        decision = battle.decision()
        side = decision.side
        chooser = {
            "choose_first": lambda: self.initiative.choose_first(battle, side, battle.phase.kind),
            "covering_fire": lambda: self.opportunity.covering(battle, side),
            "opportunity_fire": lambda: self.opportunity.answers(battle, side),
            "posture": lambda: self.posture.groups(battle, side),
            "fire": lambda: self.fire.attacks(battle, side),
            "plot_move": lambda: self.movement.moves(battle, side),
            "move_attempt": lambda: self.movement.attempts(battle, side),
            "close_assault": lambda: self.full.close_assaults(battle, side),
            "assault_reply": lambda: self.full.assault_replies(battle, side),
            "artillery": lambda: self.support.artillery(battle, side),
            "plot": lambda: self.support.plot(battle, side),
            "reveal": lambda: self.reveal(),
        }.get(decision.kind)
        if chooser is not None:
            return chooser()
        if decision.kind == "setup":
            return [Option("keep the battle groups", 0.0, Pass(side))]
        return [Option("pass", 0.0, a) for a in decision.options[:1]]


class ScriptedAI:
    """The scripted opponent. ``choose(battle)`` returns one legal action for the side to act;
    deterministic for a seed (its own random stream; the battle's dice are never touched), the
    elite as long as its thinking budget does not cut its rounds short (game.ai.elite).
    ``thinking``: the setting "AI thinking time" (quick, normal, long). Raises ValueError for
    an unknown level.

    It is made of parts, each an object built with what it needs and calling the others through
    their public methods (docs/architecture.md, "The scripted AI is made of parts"): the judgements
    (``outcome``, ``situation``), where a stand may go and what it is worth there (``paths``,
    ``positions``, ``planner``, ``guns``), the choosers (``initiative``, ``fire``, ``opportunity``,
    ``posture``, ``movement``, ``full``, ``support``, gathered in ``choosers``) and the
    ``lookahead``; what it remembers between decisions is one :class:`game.ai.memory.Memory`
    (``memory``) that all of them share, as they share its random stream (``rng``). Setting
    ``level`` hands the new weights to every part."""

    base_policy = staticmethod(veteran_fire)
    """Makes the AI that plays the elite's continuations' fire from a seed."""

    def __init__(self, seed: int = 0, level: str = DEFAULT_LEVEL, thinking: str = "normal"):
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
        self.name = f"ai:{level}"
        self._rng = random.Random(seed)
        self.memory = Memory()
        self.last: list[Option] = []
        self.last_when: tuple[int, str] | None = None  # (turn, phase) of the last decision
        self._level = LEVELS[level]
        self._assemble(thinking)

    def _assemble(self, thinking: str) -> None:
        """Build the parts, each handed the level, the memory, the random stream and the
        parts it asks; ``thinking``: the setting "AI thinking time"."""
        level, rng, memory = self._level, self._rng, self.memory
        self.outcome = Outcome(level, memory)
        self.situation = Situation(level, memory, self.outcome)
        self.paths = Paths(level, self.situation)
        self.fire = FireChooser(level, self.situation)
        self.positions = Positions(level, memory, self.situation, self.fire, self.paths)
        self.planner = MovePlanner(level, rng, memory, self.situation, self.paths, self.positions)
        self.guns = Guns(level, self.situation, self.paths)
        self.full = FullGameChooser(level, self.situation, self.paths, self.positions, self.planner)
        self.posture = PostureChooser(level, memory, self.situation, self.planner)
        self.movement = MovementChooser(
            level, memory, self.situation, self.planner, self.posture, self.guns, self.full
        )
        self.opportunity = OpportunityChooser(level, self.fire)
        self.initiative = InitiativeChooser()
        self.support = FireSupportChooser(level)
        self.choosers = Choosers(
            self.initiative,
            self.fire,
            self.opportunity,
            self.posture,
            self.movement,
            self.full,
            self.support,
        )
        self.lookahead = LookaheadChooser(
            level,
            rng,
            memory,
            self.choosers,
            self.opportunity,
            self.outcome,
            thinking,
            self.base_policy,
        )

    @property
    def level(self) -> Level:
        """How well it plays (:class:`game.ai.levels.Level`); setting it hands the new
        weights to every part that reads them (the parts themselves are kept)."""
        return self._level

    @level.setter
    def level(self, level: Level) -> None:
        self._level = level
        for part in (
            self.outcome,
            self.situation,
            self.paths,
            self.fire,
            self.positions,
            self.planner,
            self.guns,
            self.full,
            self.posture,
            self.movement,
            self.opportunity,
            self.support,
            self.lookahead,
        ):
            part.level = level

    @property
    def rng(self) -> random.Random:
        """Its own random stream (seeded by ``seed``; never the battle's dice), shared by the
        parts that draw from it (the planner, the look-ahead) and by ``choose``; setting it
        hands the new stream to them."""
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = self.planner.rng = self.lookahead.rng = rng

    @property
    def thinking(self) -> str:
        """The setting "AI thinking time" ("quick", "normal", "long"): the elite's look-ahead
        budget (``LookaheadChooser.thinking``)."""
        return self.lookahead.thinking

    @thinking.setter
    def thinking(self, thinking: str) -> None:
        self.lookahead.thinking = thinking

    @property
    def known_plots(self) -> dict[str, dict]:
        """A network battle's own hidden plots, by commitment ({"plot": action dict, ...}),
        which the engine holds only as commitments: set by the side's session (kept in the
        memory, ``Memory.known_plots``)."""
        return self.memory.known_plots

    @known_plots.setter
    def known_plots(self, plots: dict[str, dict]) -> None:
        self.memory.known_plots = plots

    @property
    def looked(self) -> dict[str, list[int]]:
        """Per kind of decision, [searched, changed from the scorers' choice, rounds played]
        by the look-ahead (the gauntlet reports them)."""
        return self.memory.looked

    @property
    def thought(self):
        """What the last searched decision weighed (:class:`game.ai.search.Thought`), for
        the overlay, or None."""
        return self.memory.thought

    # ---------------------------------------------------------------- choosing

    def choose(self, battle: Battle) -> Action:
        """One legal action for the side to act. Raises ValueError when the battle is over."""
        if battle.finished:
            raise ValueError("the battle is over")
        snap = self.memory.snap
        if battle.state.turn not in snap:
            snap[battle.state.turn] = {
                st.id: (st.x, st.y, st.side)
                for st in battle.state.stands.values()
                if st.active and st.on_table
            }
        if battle.rules.postures and self.level.caution != self.level.posture_caution:
            # an enemy stand fires at most once a turn, and not at all while it moves
            self.level = dataclasses.replace(self.level, caution=self.level.posture_caution)
        self.memory.thought = None  # (set again by a decision the look-ahead takes)
        options = self.options(battle)
        if self.level.lookahead:
            picked = self.lookahead.look_ahead(battle, battle.decision(), options)
            if picked is not None:
                action, self.last = picked
                self.last_when = (battle.state.turn, battle.state.phase)
                return action
        if self.level.noise:
            options = [
                Option(o.label, o.score + self.rng.gauss(0, self.level.noise), o.action)
                for o in options
            ]
        options.sort(key=lambda o: -o.score)
        self.last = options[:3]
        self.last_when = (battle.state.turn, battle.state.phase)
        k = min(self.level.pick_from, len(options))
        return options[self.rng.randrange(k)].action if k > 1 else options[0].action

    def options(self, battle: Battle) -> list[Option]:
        """Every option the AI weighs for the decision at hand, scored (``Choosers.options``,
        which picks the chooser from ``battle.decision()``)."""
        return self.choosers.options(battle)

    def outlook_text(self, battle: Battle, side: str) -> str | None:
        """The explain overlay's line on how the battle stands for ``side``
        (``Outcome.outlook_text``), or None."""
        return self.outcome.outlook_text(battle, side)

    def thinking_budget(self, battle: Battle, side: str) -> tuple[float, float] | None:
        """(seconds of look-ahead ``side`` has left this turn, the turn's whole budget), or
        None for a level that does not look ahead (``LookaheadChooser.thinking_budget``)."""
        return self.lookahead.thinking_budget(battle, side)

    def thought_text(self) -> str | None:
        """The overlay's line on the last searched decision, or None."""
        return self.lookahead.thought_text()
