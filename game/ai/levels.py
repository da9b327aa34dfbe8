"""How well the scripted AI plays: its levels (veteran, recruit) as a table of weights.

Every weight is data here; the choosers read them from ``ScriptedAI.level`` and nothing else
tells the two levels apart. docs/ai.md says how each weight was settled.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How well the AI plays.

    noise: random spread added to every score (stands). pick_from: it chooses among this many of the
    best options. reserve: what keeping a stand's shot for later is worth. min_attack: attacks worth
    less are declined. caution: weight of the enemy fire a position draws. directions: how many
    headings it tries for a move. faces_threat: the chance it remembers to turn its front towards
    the enemy at the end of a move (else it faces the way it drove, and may show its flank).
    holds_win: whether it stops moving once it would win were the turn to end now (a recruit forgets
    that victory counts only at the turn's end). crosses_with: how many other stands of ours (at
    most as many as it has) must be in the enemy's sight already, or about to go into it in the same
    movement action, before a stand moves into it, until the clock's pressure (0..1,
    ``Situation.pressure``) reaches crosses_alone. One stand against three draws all their fire; a
    recruit (0) goes piecemeal. moves_at (WWII): a stand whose wish to move (stands,
    ``Situation.urgency``) is above this takes the movement posture; posture_caution replaces
    caution where stands take postures (WWII: an enemy stand fires at most once a turn, and not
    while it moves). repositions (WWII): whether a stand that has a shot takes the movement posture
    whenever its best move is worth more over the turns left (``PostureChooser.better_moved``), even
    where the enemy cannot hit it; a recruit moves only the stands that are under fire or have
    nothing to shoot at. keeps_company (WWII, stands): what ending a move that gives no shot and
    draws no fire in base contact with a stand of ours is worth. The two may then be declared as one
    movement group and move on one cohesion roll (001 8.1.2, 8.2) and one order; 0 (the recruit):
    each stand makes its own way. seeks_sight (WWII, inches): a stand with no shot closes in to 0.8
    of its gun's range of an enemy stand it would see from there, but to this distance of one it
    would not (a wood, a hill or a stand blocks the sight line, 001 6.1), so that it goes round or
    through instead of waiting in range and blind; 0 (the recruit): 0.8 of its range either way.
    seeks_modern (Modern, inches): the same in the Modern games; 0: a Modern stand in range of an
    enemy it cannot see is not drawn nearer (it waits behind the ridge).
    hunts_below (WWII, inches a turn): while the enemy closes in slower than this
    (``Situation.approach``), the clock (``Situation.pressure``) runs from the first turn, since an
    enemy that holds back must be sought out; 0 (the recruit): the clock runs from a quarter of the
    battle whatever the enemy does. plan_budget (WWII): how much planning for a better position one
    posture decision may do, a plan costing the square of the enemy stands on the table over 9; the
    stands left are planned in the side's next posture decisions of the turn
    (``PostureChooser.within_budget``, docs/ai.md). 80 plans a whole turn of the shipped scenarios
    (nine stands against nine: eight plans spend 72) in one decision, as before, and holds a
    decision at 40 stands a side to one plan (178) and at 20 a side to two (44 each): a budget that
    bound at nine a side lost 13 of 200 battles against the recruit.

    The battle's outlook (off in ``veteran-43``): weighs_outcome: the fire a position draws is
    weighed against its shots by what one more loss and one more kill do to the battle's expected
    score (win 1, draw ½, loss 0) under the victory rule and the turns left, and its shots count
    more only when fighting harder raises that score (``Outcome.outlook``), not merely because the
    clock runs. open_cost (stands, times the stand's worth): ending a move in the open (no cover
    from the terrain, not on a crest) in the sight of an enemy stand, or of where one waiting to
    enter will be. gun_spacing (inches, a house value): our guns are moved apart until this far from
    each other, and away from the enemy's impact markers this near (``game.ai.guns.Guns``).
    counter_battery: how much more an enemy gun is worth as the aim of our fire support (an AA
    stand, half as much more while we have air strikes left). shields_carriers (firepower): riders
    get down as soon as their carrier is in an enemy's sight and reach, and an empty carrier whose
    firepower is at most this is not drawn towards the enemy (``Positions.idle_carrier``); 0: as
    before. fires_direct (0..1): in the plot phase a gun that has an enemy stand in its direct range
    and sight is kept back from the plot when its direct fire next turn, at this share of what it
    would do now (the enemy may move out of sight), is worth more than its best mission
    (``FireSupportChooser.held_for_direct``); 0: every free gun is plotted, and none is left to fire
    direct. draw_worth (share of a win, 0..1): what a draw is worth to it when it weighs the
    battle's outlook; ½ (the battle's own score) keeps a draw worth waiting for, less makes a
    side that came to win go and get it (``Outcome.outlook``). overwatch (stands): what a
    position in cover with no shot yet is worth for seeing all of the ground the enemy must
    cross to reach the stand (``Positions._watch``); 0: such ground is not weighed.

    The look-ahead (the elite, :mod:`game.ai.search`): lookahead: how many of the best
    candidates of a decision it plays forward on copies of the battle (0: none, the choice
    is the scorers' own). samples: how many continuations each candidate is played through
    at the normal thinking time (the same sampled dice for every candidate). prior: how much
    the scorers' own score (stands) of a candidate adds to the mean result of its
    continuations (stands). turn_budget_s: the wall-clock seconds of thinking one turn may
    take at the normal thinking time (the settings scale it); a decision stops sampling when
    its share is spent. margin: the scorers' own choice is kept unless another candidate
    beats it, over the same sampled dice, by more than this many standard errors of the
    difference (0: the best mean wins). base_moves: in the continuations of a move or an
    opportunity fire, which stands still to move this turn make their expected moves
    (``game.ai.search.expected_moves``): "both" sides', the "enemy"'s, or "" none (every
    such stand holds where it stands).
    """

    name: str
    noise: float
    pick_from: int
    reserve: float
    min_attack: float
    caution: float
    directions: int
    faces_threat: float = 1.0
    holds_win: bool = True
    crosses_with: int = 0
    crosses_alone: float = 0.0
    moves_at: float = 0.8
    posture_caution: float = 0.25
    repositions: bool = False
    keeps_company: float = 0.0
    seeks_sight: float = 0.0
    seeks_modern: float = 0.0
    hunts_below: float = 0.0
    plan_budget: float = 80.0
    weighs_outcome: bool = False
    open_cost: float = 0.0
    gun_spacing: float = 0.0
    counter_battery: float = 0.0
    shields_carriers: float = 0.0
    fires_direct: float = 0.0
    draw_worth: float = 0.5
    overwatch: float = 0.0
    lookahead: int = 0
    samples: int = 0
    prior: float = 0.0
    turn_budget_s: float = 0.0
    margin: float = 0.0
    base_moves: str = ""


VETERAN = Level(
    "veteran",
    noise=0.0,
    pick_from=1,
    reserve=0.05,
    min_attack=0.03,
    caution=1.1,
    directions=12,
    crosses_with=2,
    crosses_alone=0.7,
    repositions=True,
    keeps_company=0.15,
    seeks_sight=4.0,
    hunts_below=0.5,
)
"""The veteran as it played before it weighed the battle's outlook: every such weight is off. It
stays as the level ``veteran-43`` so that the gauntlet (tools/ai/ai_gauntlet.py, docs/ai.md) can
measure the veteran against its earlier self."""

DEFAULT_LEVEL = "veteran"
"""The level a new player meets first (menu, quick battle, ``--level``, ``balance``)."""
LOOKAHEAD_BASE = "veteran"
"""The level whose scorers propose the elite's candidates and play its continuations on."""
PLAYABLE = ("elite", "veteran", "recruit")
"""The levels a player picks from (menu, quick battle, ``--level``), strongest first; the
others in :data:`LEVELS` are kept to measure against."""
THINKING_TIMES = ("quick", "normal", "long")
"""The setting "AI thinking time": how long the elite may look ahead (game.ai.search.THINKING
scales its budget by it); the other levels do not look ahead."""

LEVELS = {
    "veteran-43": dataclasses.replace(VETERAN, name="veteran-43"),
    "veteran": dataclasses.replace(
        VETERAN,
        weighs_outcome=True,
        open_cost=0.2,
        gun_spacing=6.0,
        counter_battery=1.5,
        shields_carriers=5.0,
        fires_direct=0.85,
    ),
    "elite": dataclasses.replace(
        VETERAN,
        name="elite",
        weighs_outcome=True,
        open_cost=0.2,
        gun_spacing=6.0,
        counter_battery=1.5,
        shields_carriers=5.0,
        fires_direct=0.85,
        lookahead=4,
        samples=8,
        prior=0.5,
        turn_budget_s=4.0,
        margin=1.0,
    ),
    "recruit": Level(
        "recruit",
        noise=0.25,
        pick_from=3,
        reserve=0.0,
        min_attack=0.0,
        caution=0.3,
        posture_caution=0.3,
        directions=6,
        faces_threat=0.5,
        holds_win=False,
    ),
}


def level_problem(meta: object) -> str | None:
    """``$.meta.ai.<side>: what is wrong`` when a save's ``meta.ai`` (side -> level, its shape
    checked by the save's reader) names a level that is not in :data:`LEVELS`, else None."""
    ai = meta.get("ai") if isinstance(meta, dict) else None
    for side, level in ai.items() if isinstance(ai, dict) else ():
        if level not in LEVELS:
            names = ", ".join([*PLAYABLE, *(n for n in LEVELS if n not in PLAYABLE)])
            return f"$.meta.ai.{side}: must be one of {names}, not {json.dumps(level)}"
    return None


def load_battle(path, **kwargs):
    """``game.Battle.load(path, **kwargs)`` for a battle the AI may play a side of: a save or
    autosave whose ``meta.ai`` names a level the AI does not have is refused as the save's
    other faults are. Raises ``game.SaveError`` ("<path>: $.meta.ai.B: must be one of ...")
    and whatever ``Battle.load`` raises."""
    import game  # lazy: --help and the settings read this module at start, not the engine

    battle = game.Battle.load(path, **kwargs)
    problem = level_problem(battle.meta)
    if problem:
        raise game.SaveError(f"{path}: {problem}")
    return battle
