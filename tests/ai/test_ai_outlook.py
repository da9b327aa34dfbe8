"""#44: the veteran weighs the battle's outcome (win 1, draw 1/2, loss 0), spreads its guns,
fights counter-battery, and says so in the explain overlay; ``veteran-43`` keeps the veteran
as it played before. Cases worked by hand from the victory rule of the scenario sheets
(destroy at least 51% of the enemy while losing no more than 50%: modern-skirmish, three
stands a side, is won by destroying 2 while losing at most 1)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from game.ai.levels import LEVELS
from game.ai.outcome import _poisson
from game.ai.scripted import ScriptedAI
from game.check.sim import make_player
from game.rules.battle import Battle
from game.rules.files.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = load_scenario(ROOT / "maps" / "modern-skirmish.json")
FIRE_SUPPORT = load_scenario(ROOT / "maps" / "modern-fire-support.json")


def test_the_poisson_counts_fold_their_tail_into_the_last():
    e = math.exp(-1.0)
    assert _poisson(1.0, 2) == pytest.approx([e, e, 1 - 2 * e])
    assert _poisson(0.0, 3) == pytest.approx([1.0, 0.0, 0.0, 0.0])
    assert _poisson(2.0, 0) == [1.0]


def _outlook_at(turn: int, kills: int, losses: int):
    """The veteran's outlook for A on modern-skirmish at ``turn`` with A having destroyed
    ``kills`` T-90s and lost ``losses`` Leopards (the losses set on the state directly)."""
    b = Battle(SKIRMISH, 1)
    b.state.turn = turn
    for sid in ("B1", "B2", "B3")[:kills]:
        b.stand(sid).eliminated = True
    for sid in ("A1", "A2", "A3")[:losses]:
        b.stand(sid).eliminated = True
    assert b.state.losses(b.sides) == {"A": losses, "B": kills}
    return ScriptedAI(0).outcome.outlook(b, "A")


@pytest.mark.parametrize(
    ("turn", "kills", "losses", "now", "loss_vs_kill", "presses"),
    [
        # 0-0 at the start: the rule is the same for both and the pace is the prior for both,
        # so a kill gains what a loss costs, and fighting harder gains nothing: a draw
        (1, 0, 0, 0.5, "=", False),
        # 2-0: the win is in hand (2 of 3 destroyed, none lost); a kill adds little, the
        # second loss would take the win away: guard it
        (4, 2, 0, 1.0, ">", False),
        # 0-2: the enemy wins now; a further loss changes nothing (already lost), two kills
        # would take his win away (he would have lost 2 of 3): only kills count, press
        (4, 0, 2, 0.0, "<", True),
        # last turn, 1-0: the second kill wins, the first loss only spends the one allowed
        (8, 1, 0, 0.5, "<", False),
    ],
    ids=["0-0 turn 1", "2-0 turn 4", "0-2 turn 4", "1-0 last turn"],
)
def test_what_one_more_kill_and_one_more_loss_are_worth_to_the_battle(
    turn, kills, losses, now, loss_vs_kill, presses
):
    """The battle's score, not the shot's (#44): what one more kill adds to the expected
    score against what one more loss takes away, by the victory rule (seed scenario sheets:
    51% destroyed, at most 50% lost) and the turns left."""
    o = _outlook_at(turn, kills, losses)
    assert o.now == now
    ratio = o.loss / o.kill
    assert {"=": ratio == pytest.approx(1.0), ">": ratio > 1.5, "<": ratio < 1.0}[loss_vs_kill]
    assert (o.press > 0.3) == presses


def test_a_draw_no_longer_makes_the_veteran_careless_late():
    """Turn 7 of 8 at 0-0: the pre-#44 clock weighed the fire a position draws at a fifth
    (a draw no better than a loss); the new veteran weighs it as much as on turn 1."""
    b = Battle(SKIRMISH, 1)
    b.state.turn = 7
    new, old = ScriptedAI(0, "veteran"), ScriptedAI(0, "veteran-43")
    assert old.situation.caution(b, "A", old.situation.pressure(b, "A")) == pytest.approx(1.1 * 0.2)
    assert new.situation.caution(b, "A", new.situation.pressure(b, "A")) == pytest.approx(1.1)


def _fire_support_after(level: str, turns: int, seed: int = 3) -> Battle:
    """modern-fire-support with ``level`` commanding both sides, played to the start of
    ``turns`` + 1."""
    b = Battle(FIRE_SUPPORT, seed)
    players = {s: make_player(level, seed * 2 + i) for i, s in enumerate(b.sides)}
    while not b.finished and b.state.turn <= turns:
        b.apply(players[b.to_act].choose(b))
    return b


def test_the_veteran_spreads_its_guns_beyond_one_sheaf():
    """The Paladins start 1.5" apart (one HE sheaf could take both). By the end of turn 2 the
    veteran has moved the later of them at least 6" (``Level.gun_spacing``, a house value)
    from the other; veteran-43 leaves both where they start."""
    for level, apart in (("veteran", True), ("veteran-43", False)):
        b = _fire_support_after(level, 2)
        a15, a16 = b.stand("A15"), b.stand("A16")
        d = math.hypot(a15.x - a16.x, a15.y - a16.y)
        assert (d >= 6.0) == apart, (level, d)
        if not apart:
            assert d == pytest.approx(1.5)


def test_enemy_guns_and_aa_are_worth_more_as_aims():
    """Counter-battery (#44): an enemy 2S19 is worth 2.5 times its worth as a stand as an aim
    for fire support, the 2S6 (AA) 1.75 times while we have air strikes left, a tank its
    worth; veteran-43 weighs them all as stands."""
    from game.ai.values import stand_value

    b = Battle(FIRE_SUPPORT, 1)
    new, old = ScriptedAI(0, "veteran"), ScriptedAI(0, "veteran-43")
    for sid, k in (("B13", 2.5), ("B16", 1.75), ("B1", 1.0)):
        st = b.stand(sid)
        assert new.support.target_worth(b, st) == pytest.approx(k * stand_value(st))
        assert old.support.target_worth(b, st) == pytest.approx(stand_value(st))


def test_the_explain_overlay_says_how_the_battle_stands():
    """X shows the battle's outlook above the three options (#44); veteran-43 has none."""
    b = Battle(SKIRMISH, 1)
    line = ScriptedAI(0).outlook_text(b, "A")
    assert line == (
        "Battle: a draw now, 0.50 of a win expected; a loss weighs 1.0 kills: "
        "it takes only fights that pay"
    )
    assert ScriptedAI(0, "veteran-43").outlook_text(b, "A") is None


def test_veteran_43_differs_from_the_veteran_only_in_the_later_weights():
    """veteran-43 is the yardstick the veteran's later judgements are measured against: it
    differs from the veteran only in them (the outlook's weights, and keeping guns back to
    fire direct)."""
    old, new = LEVELS["veteran-43"], LEVELS["veteran"]
    assert not old.weighs_outcome and old.open_cost == old.gun_spacing == 0.0
    assert old.counter_battery == 0.0
    changed = {f for f in new.__dataclass_fields__ if getattr(new, f) != getattr(old, f)}
    assert changed == {
        "name",
        "weighs_outcome",
        "open_cost",
        "gun_spacing",
        "counter_battery",
        "shields_carriers",
        "fires_direct",
    }


def test_riders_get_down_once_the_enemy_sees_their_carrier():
    """modern-combined-arms, seed 1, both sides veteran: in turn 2 the M113 A11 is in the
    sight and reach of a Russian stand, still more than 12" from every enemy stand, and the
    veteran sets its US Engineers down (a carrier hit with troops aboard may lose them, 002
    transport; the count of stands destroyed wins the battle). veteran-43 set riders down only
    within 12"."""
    from game.check.sim import make_player as player

    b = Battle(load_scenario(ROOT / "maps" / "modern-combined-arms.json"), 1)
    ais = {s: player("veteran", 2 + i) for i, s in enumerate(b.sides)}
    for _ in range(42):
        b.apply(ais[b.to_act].choose(b))
    ai = ais[b.to_act]
    action = ai.choose(b)
    assert ai.last[0].label == "set A12 down beside A11: the enemy sees A11"
    a11 = b.stand("A11")
    assert ai.paths.nearest_enemy_in(b, a11.x, a11.y, "A") > 12.0
    assert ai.full.carrier_seen(b, a11)
    old = ScriptedAI(0, "veteran-43")
    assert old.full.unload(b, "A") == []
    assert action.kind == "unload"


def test_an_empty_weak_carrier_is_not_drawn_towards_the_enemy():
    """A halftrack (firepower 3) with nobody aboard hangs back (it has nothing to shoot with;
    ``Level.shields_carriers`` 5); with its Panzergrenadiers aboard it carries them forward;
    a Pz VIB (firepower 11) is never idle; veteran-43 draws every stand forward."""
    b = Battle(load_scenario(ROOT / "maps" / "wwii-47-breakthrough.json"), 1)
    new, old = ScriptedAI(0, "veteran"), ScriptedAI(0, "veteran-43")
    a4, a5, a1 = b.stand("A4"), b.stand("A5"), b.stand("A1")
    assert a5.carried_by == "A4" and a4.unit.firepower == 3
    assert not new.positions.idle_carrier(b, a4)  # riders aboard
    a5.carried_by = None
    a5.eliminated = True  # (a foot stand beside it with far to go would want a ride)
    a4.x, a4.y = 24.0, 12.0  # more than a move from the 20 mm flak by the German edge
    assert new.positions.idle_carrier(b, a4) and not old.positions.idle_carrier(b, a4)
    assert not new.positions.idle_carrier(b, a1)
