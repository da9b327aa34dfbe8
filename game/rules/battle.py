"""The battle engine's facade: one battle's state, rules and dice, moved on by actions.

``Battle(scenario, seed)`` starts a battle; ``decision()`` says what it waits for and
``legal_actions()`` what the side to act may do; ``apply(action)`` carries an action out
(raising :class:`IllegalAction` with the reason if it is not allowed) and returns the
battle-log events it produced. ``sight``, ``odds`` and ``preview_move`` answer the questions the
window and the AI ask, through the same functions the rules use. ``save`` writes the scenario,
seed and actions; ``Battle.load`` replays them and checks the state hash.

The rules themselves live below this facade: the context the phases share
(``context.py``), the sequence of play (``turns.py``), each phase in ``phases/``, the fire
procedure and the cohesion roll (``procedures/combat.py``), moving stands
(``procedures/moves.py``), and each ruleset as one object (``rulesets/``). See
docs/architecture.md.
"""

from __future__ import annotations

import os

from game.rules import turns
from game.rules.actions import Action, ChooseFirst, Pass
from game.rules.battle_full import FullGameQueries
from game.rules.battle_network import NetworkPlay
from game.rules.battle_saves import SavesMixin
from game.rules.battle_sight import SightQueries
from game.rules.charts.units import units_json
from game.rules.context import BattleContext, IllegalAction
from game.rules.decision import Decision, decide
from game.rules.dice import Dice
from game.rules.files.engine import engine_stamp
from game.rules.files.journal import Journal
from game.rules.files.log import FORMAT
from game.rules.files.savefile import SaveDiverged, SaveError, scenario_hash
from game.rules.files.scenario import Scenario, ScenarioError, parse_scenario
from game.rules.phases import Phase, tl1_posture
from game.rules.phases.posture import contact_chains, undeclared
from game.rules.procedures import combat, moves, transport
from game.rules.procedures.combat import FireSetup
from game.rules.rulesets import RULESET_IDS, ruleset
from game.rules.state import StandState
from game.rules.table.geometry import StandPose, Walk, edge_point

__all__ = ["Battle", "IllegalAction", "SaveDiverged", "SaveError"]


GENERIC_HANDLERS = {Pass: turns.do_pass, ChooseFirst: turns.do_choose_first}


class Battle(FullGameQueries, SightQueries, NetworkPlay, SavesMixin):
    """One battle of a scenario with a seed.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario (``game.load_scenario``).
    seed : int
        Seeds the battle's dice.
    dice : Dice, optional
        Other dice (tests pass ``FixedDice``).
    log_path : path, optional
        Where to write the battle log (``hulldown-log/1``) as the battle goes.
    autosave : path, optional
        The autosave journal (``hulldown-journal/1``): written whole once, then one line
        appended per action (game/rules/files/journal.py).
    auto_pass : bool
        The engine passes for a side with nothing to do but pass and skips a fire phase in
        which no stand of either side has a legal shot (``game.rules.turns``); kept in the
        start line and the saves. False replays a save, journal or log written before it.

    Raises
    ------
    ScenarioError
        The scenario's ruleset has no sequence of play built (none so far: Modern and WWII
        both play).
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        dice: Dice | None = None,
        log_path: str | os.PathLike | None = None,
        autosave: str | os.PathLike | None = None,
        auto_pass: bool = True,
    ):
        if scenario.ruleset not in RULESET_IDS:
            raise ScenarioError(
                [
                    f"{scenario.path}: $.ruleset: the {scenario.ruleset} sequence "
                    f"of play is not built yet (built: {', '.join(RULESET_IDS)})"
                ]
            )
        seed = int(seed)
        rules = ruleset(scenario.ruleset)
        dice = dice if dice is not None else Dice(seed)
        ctx = BattleContext(
            scenario, seed, dice, rules, log_path, bail_out=transport.bail_out, auto_pass=auto_pass
        )
        self.ctx = ctx
        # the context's parts, as the screens, the AI and the tools read them
        self.scenario = scenario
        self.seed = seed
        self.auto_pass = ctx.auto_pass
        self.dice = ctx.dice
        self.rules = rules
        self.data = ctx.data
        self.ruleset_data = ctx.ruleset_data
        self.crt = ctx.crt
        self.sides = ctx.sides
        self.side_spec = ctx.side_spec
        self.sighting_in = ctx.sighting_in
        self.totals = ctx.totals
        self.state = ctx.state
        self.log = ctx.log
        self.actions: list[Action] = []
        self.hashes: list[str] | None = [] if autosave is not None else None
        """The state hash after each action, kept by a battle that autosaves (or was loaded)
        for its saves (:meth:`save`); None in the AI's copies and replays, which need none."""
        self.autosave = autosave
        self.log_path = log_path
        self.meta: dict = {}  # kept in saves as it is (e.g. who plays each side)
        self.autosave_error: str | None = None  # why the last autosave failed, if it did
        self.load_note: str | None = None  # what load dropped from a journal's zeroed tail
        self._journal: Journal | None = None  # the autosave, open while the battle goes on
        # what the battle is never changes: digested once, not in every autosave
        self._scenario_hash = scenario_hash(scenario.raw, seed)
        self._handlers = dict(GENERIC_HANDLERS)
        for phase in rules.phases():
            self._handlers.update(phase.handlers)
        self._log_start()
        self.state.to_act = self.sides[0]
        ctx.new_events.clear()

    def _log_start(self) -> None:
        """Write the battle log's start line (event-log contract, ``start``): the format, the
        engine, ruleset, seed, scenario, table size (inches), sighting distance, turns, each
        side, the terrain as the scenario gives it and each stand as it starts (with the
        full games' defence class, carrier and unit rows); the table's painted ground when it is
        not grass. Raises nothing of its own."""
        ctx, scenario, rules = self.ctx, self.scenario, self.rules
        spec = scenario.spec
        ctx.event(
            "start",
            format=FORMAT,
            engine=engine_stamp(),  # which engine wrote the log (not in logs before it)
            ruleset=scenario.ruleset,
            seed=ctx.seed,
            scenario={"title": spec.title, "path": scenario.path},
            table={
                "width": spec.table.width,
                "depth": spec.table.depth,
                # how the open ground is painted, when not the default grass (a field added
                # after hulldown-log/1 began: a replay from the log alone paints a desert so)
                **({"ground": spec.table.ground} if spec.table.ground != "grass" else {}),
            },
            max_sighting_in=spec.max_sighting_in,
            turns=spec.turns,
            **({"auto_pass": True} if ctx.auto_pass else {}),  # absent in older logs
            sides=[
                {
                    "side": s.id,
                    "name": s.name,
                    "cohesion": s.cohesion,
                    "generation": s.generation,
                    "command_value": s.command_value,
                    "entry_edge": s.entry_edge,
                }
                for s in spec.sides
            ],
            terrain=scenario.raw["terrain"],
            stands=[
                {
                    "id": s.id,
                    "side": s.side,
                    "unit": s.unit_name,
                    "tech_level": s.tech_level,
                    "x": s.x,
                    "y": s.y,
                    "facing_deg": s.facing_deg,
                    "on_table": s.on_table,
                    "group": s.group,
                    "hq": s.hq,
                    "ghq": s.ghq,
                    **(
                        {"defense_class": s.unit.defense_class, "carried_by": s.carried_by}
                        if rules.has("full_log")
                        else {}
                    ),
                }
                for s in ctx.state.stands.values()
            ],
            **({"units": units_json(ctx.state.stands.values())} if rules.has("full_log") else {}),
        )

    # ================================================================== public queries

    @property
    def finished(self) -> bool:
        """True once the battle has ended."""
        return self.state.finished

    @property
    def to_act(self) -> str | None:
        """The side whose decision the battle waits for (None when finished)."""
        return None if self.state.finished else self.state.to_act

    @property
    def phase(self) -> Phase | None:
        """The current phase of the turn (None in set-up and at the end)."""
        return self.ctx.phase

    def decision(self) -> Decision:
        """What the battle waits for: who acts, in which phase, what kind of choice, and its
        legal options (:mod:`game.rules.decision`)."""
        return decide(self.ctx)

    def stand(self, stand_id: str) -> StandState:
        """A stand by id. Raises IllegalAction for an unknown id."""
        return self.ctx.stand(stand_id)

    def other(self, side: str) -> str:
        """The other side."""
        return self.ctx.other(side)

    def cohesion_level(self, side: str) -> int:
        """A side's force cohesion level (000 04.00)."""
        return self.ctx.cohesion_level(side)

    def poses(self, exclude: str | None = None) -> list[StandPose]:
        """Every stand on the table and every wreck, as the geometry needs them."""
        return self.ctx.poses(exclude)

    def fire_setup(self, attacker_id: str, target_id: str, *args, **kw) -> FireSetup:
        """Everything about one stand's shot before the dice, or why it may not be taken
        (:func:`game.rules.procedures.combat.fire_setup`, 000 07.04, 07.01, 07.03, 07.08)."""
        return combat.fire_setup(self.ctx, attacker_id, target_id, *args, **kw)

    def target_terrain_mods(self, firer: StandPose, tpose: StandPose) -> list[tuple[str, int]]:
        """Effects of the terrain a target stands in (:func:`game.rules.procedures.combat.target_terrain_mods`)."""
        return combat.target_terrain_mods(self.ctx, firer, tpose)

    def engaged_with(self, stand_id: str) -> set[str]:
        """Enemy stands this stand is engaged with (000 07.08.04)."""
        return combat.engaged_with(self.ctx, stand_id)

    def odds(
        self,
        attackers: list[str],
        target: str,
        weapons: list[str] | None = None,
        kind: str = "standard",
        step: int | None = None,
    ) -> dict:
        """Exact odds of an attack before rolling (see :func:`combat.attack_odds`), with each
        attacker's :class:`FireSetup` under ``"setups"``. ``weapons`` defaults to each
        attacker's cannon, or its ATGM where only that may fire. ``step``: odds of opportunity
        fire at that step of the move waiting for an answer (000 07.06.05)."""
        pose, road = None, False
        if step is not None:
            pm = self.state.pending
            if pm is None or not 0 <= step < len(pm.points):
                raise IllegalAction("there is no such step of a move to fire at")
            pose = StandPose(
                pm.stand, self.stand(pm.stand).side, *pm.points[step], pm.headings[step]
            )
            road = pm.road_rate[step - 1] if step > 0 else False
            kind = "opportunity"
        setups = [
            combat.setup_for(self.ctx, a, target, weapons[i] if weapons else None, kind, pose, road)
            for i, a in enumerate(attackers)
        ]
        t = self.stand(target)
        out = combat.attack_odds(self.crt, setups, t.S, t.D)
        out["setups"] = setups
        return out

    def movement_points(self, stand_id: str) -> float:
        """Movement points the stand has this phase (000 08.03.01, 05.00 step 4)."""
        return self.ctx.movement_points(stand_id)

    def preview_move(self, stand_id: str, path) -> Walk:
        """How far a stand would get along ``path`` (inches, its centre first): the walk the
        engine will make, for the window's live preview (000 08.03, 09.00)."""
        return moves.preview_move(self.ctx, stand_id, path)

    def preview_moves(self, stand_id: str, paths) -> list[Walk]:
        """:meth:`preview_move` for many paths of one stand at once, the same Walk for each
        (:func:`game.rules.procedures.moves.preview_moves`; 000 08.03, 09.00)."""
        return moves.preview_moves(self.ctx, stand_id, paths)

    def pass_through_at(self, stand_id: str, path) -> tuple[str, float] | None:
        """Where a move along ``path`` would stop to roll the stand's nerve, and the chance it
        passes (:func:`game.rules.procedures.moves.pass_through_at`, 001 8.3.6)."""
        return moves.pass_through_at(self.ctx, stand_id, path)

    def threat_preview(self, stand_id: str, path, facing_deg: float = 0.0) -> dict:
        """Who could opportunity-fire where along a move being plotted, before it is
        committed: the engine's own offer for that path (:func:`game.rules.procedures.moves.threats`;
        000 07.06.05). Returns ``points`` (the steps the stand would walk), ``offer`` (step ->
        [(firer, weapon)]), ``worst`` (the step with the most firers, or None) and ``odds``
        (:func:`combat.attack_odds` of all of them firing there, or None)."""
        pm = moves.threats(self.ctx, stand_id, path, facing_deg)
        if pm is None:
            return {"points": (), "offer": {}, "worst": None, "odds": None}
        worst = max(pm.offer, key=lambda k: (len(pm.offer[k]), -k), default=None)
        odds = None
        if worst is not None:
            setups = [fs for (k, _), fs in sorted(pm.setups.items()) if k == worst]
            t = self.stand(stand_id)
            odds = combat.attack_odds(self.crt, setups, t.S, t.D)
        return {"points": pm.points, "offer": dict(pm.offer), "worst": worst, "odds": odds}

    def path_problem(self, stand_id: str, path) -> str | None:
        """Why a move along ``path`` would be refused for the stand, or None
        (:func:`game.rules.procedures.moves.path_problem`)."""
        return moves.path_problem(self.ctx, stand_id, path)

    def room_at(self, x: float, y: float, facing: float, ignore: str | None = None) -> bool:
        """True when a footprint at (x, y, facing) overlaps no stand on the table but
        ``ignore`` (000 08.03.05; wrecks never count)."""
        return self.ctx.room_at(x, y, facing, ignore)

    def entry_point(self, stand_id: str, x: float, y: float) -> tuple[float, float]:
        """The point of the stand's side's entry edge nearest (x, y) inches, where a stand
        waiting to enter may start its move (RD "Entering the table")."""
        s = self.stand(stand_id)
        edge = self.side_spec[s.side].entry_edge
        return edge_point(edge, self.table.width, self.table.depth, x, y)

    def entry_due(self, side: str, attempts: list[Action] | None = None) -> list[str]:
        """Groups of ``side`` that hold stands waiting to enter and may still try to move this
        movement phase (:func:`game.rules.procedures.moves.entry_due`)."""
        return moves.entry_due(self.ctx, side, attempts)

    def opportunity_setups(self) -> dict[int, list[FireSetup]]:
        """While a move waits for the enemy: step index -> the :class:`FireSetup` of each stand
        that may opportunity-fire there (the shots the offer was built from)."""
        return moves.opportunity_setups(self.ctx)

    @property
    def opportunity_offer(self) -> dict[int, list[tuple[str, str]]]:
        """While a move waits for the enemy: step index -> [(firer, weapon)] that may
        opportunity-fire there (empty otherwise)."""
        return dict(self.state.pending.offer) if self.state.pending else {}

    def fire_options(self) -> dict[str, list[FireSetup]]:
        """Every legal shot of the side to act in a fire phase, by target
        (:func:`game.rules.procedures.combat.fire_options`). Empty outside the fire phases."""
        return combat.fire_options(self.ctx)

    def undeclared(self, side: str) -> list[StandState]:
        """In the posture phase: ``side``'s stands on the table whose posture is not yet
        declared (WWII and Wehrmacht '47: every stand, 001 5.0 step 2, 004 step 2; the full
        Modern game: its TL1 stands, 002 check list note 1, as the turn's posture phase
        says); those left at the end take the firing posture."""
        if tl1_posture.PHASE in self.rules.turn:
            return tl1_posture.undeclared(self.ctx, side)
        return undeclared(self.ctx, side)

    def contact_chains(self, stand_ids: list[str]) -> list[list[str]]:
        """Split stands into chains of base contact (001 8.1.2), largest first. Raises
        IllegalAction for an unknown id."""
        return contact_chains(self.ctx, stand_ids)

    def winner_if_turn_ended(self, losses: dict[str, int] | None = None) -> str | None:
        """The side that would win were the turn to end now (:func:`game.rules.turns.winner_if_turn_ended`)."""
        return turns.winner_if_turn_ended(self.ctx, losses)

    def kills_needed(self, side: str) -> int:
        """How many enemy stands ``side`` must have destroyed to meet the scenario's share
        (:func:`game.rules.turns.kills_needed`)."""
        return turns.kills_needed(self.ctx, side)

    def losses_allowed(self, side: str) -> int:
        """How many of its own stands ``side`` may lose and still win
        (:func:`game.rules.turns.losses_allowed`)."""
        return turns.losses_allowed(self.ctx, side)

    def state_hash(self) -> str:
        """A digest of the whole battle state and the dice's position."""
        return self.ctx.state_hash()

    # ================================================================== actions

    def legal_actions(self) -> list[Action]:
        """What the side to act may do now.

        Fire and opportunity-fire actions are listed once with every eligible attacker and once
        per single attacker; any other subset of the eligible attackers is legal too. Moves are
        listed as straight samples (eight directions, full movement; entering stands from a
        few points of their edge); any path the stand can walk is legal. While stands wait to
        enter and may still try, neither Pass nor EndMoves is listed (docs/rules.md, "Entering
        the table").
        """
        return list(self.decision().options)

    def apply(self, action: Action, elements: dict[str, str] | None = None) -> list[dict]:
        """Carry out an action for the side to act; returns the battle-log events it made.
        A network battle's action comes with ``elements``, each side's next hash-chain
        element, which seed its dice (:mod:`game.rules.battle_network`).

        Raises IllegalAction (and changes nothing) if the rules do not allow it now, or a
        network battle's elements are missing or do not follow the chains.
        """
        st = self.state
        if st.finished:
            raise IllegalAction("the battle is over")
        if action.side != st.to_act:
            raise IllegalAction(f"it is {st.to_act}'s turn to act, not {action.side}'s")
        if st.covering is not None and action.kind not in ("covering_fire", "end_covering_fire"):
            raise IllegalAction(
                "the enemy's opportunity fire may first be answered with covering fire "
                "(or decline it) before anything else (001 7.5)"
            )
        phase = self.ctx.phase
        if phase is not None and phase.holds(self.ctx) and not action.kind.startswith("reveal_"):
            raise IllegalAction("the hidden plots landing now are revealed first")
        self.ctx.new_events.clear()
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"there is no {action.kind!r} in the {self.rules.name} rules")
        rng = self.dice._rng
        elements = self._network_dice(action, elements)  # and its action line
        try:
            handler(self.ctx, action)
        except IllegalAction:
            if elements is not None:  # a refused action rolled nothing and is not in the log
                self.dice._rng = rng
                self.log.retract_last()
                self.ctx.new_events.clear()
            raise
        self.actions.append(action)
        if self.hashes is not None:
            self.hashes.append(self.state_hash())
        if elements is not None:
            self.state.chains = elements
        if self.autosave is not None:
            self._autosave_action(action)
        return list(self.ctx.new_events)

    @property
    def table(self):
        """The table as the rules see it now, smoke included (:attr:`BattleContext.table`)."""
        return self.ctx.table

    def twin(self) -> Battle:
        """A battle for another thread to ask questions of (every legal shot, a sight
        matrix) while this one's thread goes on asking its own: the same scenario, parsed
        again so that its terrain and its table are geometries of its own (GEOS builds a
        search tree or a prepared geometry's index on first use, and two threads doing that
        to one geometry at once crashed the program), following this battle's state through
        :meth:`follow`. Build it in the thread that uses it."""
        scenario = parse_scenario(self.scenario.raw, self.scenario.path)
        return Battle(scenario, self.seed, auto_pass=self.auto_pass)

    def follow(self, other: Battle) -> None:
        """Take ``other``'s state as this battle's (shared, not copied: read it only while
        ``other`` does not change, i.e. while its thread waits)."""
        self.state = self.ctx.state = other.state
