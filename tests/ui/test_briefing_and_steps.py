"""The first hour of a new player (issue #43), second trial: the briefing and the game agree,
the step-through of the artillery phase does not show a mission's result early, and the view a
battle opens with keeps the stands waiting off the table in sight."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game import load_scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.json"))

pytestmark = pytest.mark.usefixtures("data_dir")

# --- #14: what the briefing says each side has, against the scenario's data -----------------

TOPICS = {
    "air strikes": re.compile(r"\bair strikes?\b", re.I),
    "artillery": re.compile(r"\b(artillery|howitzers?|mortars?|battery)\b", re.I),
    "flak": re.compile(r"\b(flak|AA)\b"),
}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
EVERY_SIDE = re.compile(r"\b(each side|both sides|either side)\b", re.I)
NEGATION = re.compile(r"\b(no|without|none)\b", re.I)


def _aliases(sides) -> dict[str, list[str]]:
    """Each side's names as a briefing writes them: the words of its name, cut to five letters
    (Germany, Germans; Allies, Allied; Russia, Russian), without those both sides share."""
    stems = {s.id: {w[:5] for w in re.findall(r"[A-Za-z][\w-]+", s.name)} for s in sides}
    shared = set.intersection(*stems.values()) if len(stems) > 1 else set()
    return {k: sorted(v - shared) for k, v in stems.items()}


def briefing_claims(description: str, sides) -> list[tuple[str, str, bool, int | None]]:
    """(side id, topic, has it, how many air strikes or None) for every clause of the briefing
    that names a side (or every side) with air strikes, artillery or flak."""
    aliases = _aliases(sides)
    claims = []
    for clause in re.split(r"(?<=[.;])\s+", description):
        topics = [t for t, rx in TOPICS.items() if rx.search(clause)]
        if not topics:
            continue
        marks = [
            (m.start(), side)
            for side, words in aliases.items()
            for w in words
            for m in re.finditer(rf"\b{re.escape(w)}\w*", clause)
        ]
        if EVERY_SIDE.search(clause):
            marks += [(EVERY_SIDE.search(clause).start(), side) for side in aliases]
        marks.sort()
        for i, (at, side) in enumerate(marks):
            ends = [m for m, _ in marks[i + 1 :] if m > at]
            segment = clause[at : ends[0] if ends else len(clause)]
            only = re.search(r"\bonly\b", clause[max(0, at - 12) : at], re.I)
            for topic in topics:
                hit = TOPICS[topic].search(segment)
                if hit is None and topic == "air strikes":  # "Germany one Hs 129 strike"
                    hit = re.search(r"\bstrikes?\b", segment)
                if hit is None:  # this clause says it of another side
                    continue
                before = segment[: hit.start()]
                words = re.findall(r"\b\w+\b", before.lower())
                count = next((NUMBERS[w] for w in reversed(words) if w in NUMBERS), None)
                has = not NEGATION.search(before)
                claims.append((side, topic, has, count if topic == "air strikes" else None))
                if only and has:
                    claims += [(o, topic, False, None) for o in aliases if o != side]
    return claims


def _has(scenario, side: str) -> dict[str, int]:
    """What a side has on the table and in the air: air strikes (sorties), artillery, flak."""
    spec_side = next(s for s in scenario.spec.sides if s.id == side)
    sorties = sum(a.sorties for a in (spec_side.air_support or []))
    flags = [
        getattr(scenario.units[st.id], "flags", frozenset())
        for st in scenario.spec.stands
        if st.side == side
    ]
    return {
        "air strikes": sorties,
        "artillery": sum("artillery" in f for f in flags),
        "flak": sum("aa" in f for f in flags),
    }


@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_the_briefing_tells_what_each_side_has_in_the_air_and_behind(path):
    """(#43, trial 14) wwii-47-breakthrough's briefing named the Allies' two P-47 strikes and no
    other, but Germany flew an Hs 129: a side the briefing gives no air strikes, artillery or
    flak has none; a side that has them is told of them (with the number of air strikes)."""
    scenario = load_scenario(path)
    sides = scenario.spec.sides
    claims = briefing_claims(scenario.spec.description, sides)
    wrong = []
    for side, topic, has, count in claims:
        real = _has(scenario, side)[topic]
        if has and not real or not has and real:
            wrong.append(f"the briefing says {side} has {'' if has else 'no '}{topic}: {real}")
        if has and count is not None and count != real:
            wrong.append(f"the briefing gives {side} {count} {topic}, the data {real}")
    for s in sides:
        for topic, real in _has(scenario, s.id).items():
            if real and not any(c[:3] == (s.id, topic, True) for c in claims):
                wrong.append(f"{s.name} has {topic} ({real}) the briefing does not mention")
    assert not wrong, "; ".join(wrong)


def test_the_claims_reader_reads_no_and_only():
    """The reader of briefings sees a side given none, and the other sides of an "only"."""
    scenario = load_scenario(ROOT / "maps" / "wwii-47-breakthrough.json")
    sides = scenario.spec.sides
    claims = briefing_claims("Only the Allies have air strikes. Germany has no flak.", sides)
    assert ("B", "air strikes", True, None) in claims
    assert ("A", "air strikes", False, None) in claims
    assert ("A", "flak", False, None) in claims


# --- #16: the artillery step-through shows each mission's results in their turn -------------


def _token_pixels(app, s, sid: str) -> tuple[int, int]:
    """(wreck grey, the side's own colour) pixels drawn within half an inch of a stand's
    centre on the real window."""
    from game.ui.render import SIDE_COLOURS

    t = s.battle.stand(sid)
    px, py = s.tv.to_px(t.x, t.y)
    r = int(0.45 * s.tv.view.scale)
    own = SIDE_COLOURS[s.battle.sides.index(t.side) % 2]
    cols = [
        tuple(app.surface.get_at((x, y)))[:3]
        for x in range(int(px) - r, int(px) + r)
        for y in range(int(py) - r, int(py) + r)
    ]
    return sum(c == (60, 60, 60) for c in cols), sum(c == own for c in cols)


def test_a_stand_a_later_mission_eliminates_is_drawn_whole_until_then(app):
    """(#43, trial 16) At mission 1 of 3 the table already drew B13 (which mission 2
    eliminates) and B15 (the A-10, mission 3) as wrecks: the step-through gave away the
    result. Now each is drawn whole until its mission is shown, a wreck from then on; the
    battle's own state is not touched (both are eliminated in it all along)."""
    from game.ui.battle import BattleScreen
    from tests.helpers import landing_frame as frame
    from tests.helpers import lift_curtain, press, to_the_landing

    b, landing = to_the_landing()
    s = BattleScreen(app, b)
    app.show(s)
    s.act(landing)
    s.tv.fit()
    frame(s)
    assert "Mission 1 of 3" in s._panel_text
    assert b.stand("B13").eliminated and b.stand("B15").eliminated
    grey, _ = _token_pixels(app, s, "A16")
    assert grey > 20  # mission 1's own result is shown: A16's wreck
    for sid in ("B13", "B15"):
        grey, own = _token_pixels(app, s, sid)
        assert grey == 0 and own > 20, sid  # the old screen drew both as wrecks here
    press(s, "Continue")
    frame(s)
    assert "Mission 2 of 3" in s._panel_text
    assert _token_pixels(app, s, "B13")[0] > 20  # mission 2 eliminates B13
    grey, own = _token_pixels(app, s, "B15")
    assert grey == 0 and own > 20
    press(s, "Continue")
    frame(s)
    assert "Mission 3 of 3" in s._panel_text
    assert _token_pixels(app, s, "B15")[0] > 20
    press(s, "Continue")
    lift_curtain(s)  # hotseat: the screen may be handed over after the phase (#43)
    frame(s)
    assert all(_token_pixels(app, s, sid)[0] > 20 for sid in ("A16", "B13", "B15"))


# --- #22: the stands waiting to enter stay whole in view, never under the side panel -------


def _waiting_cut(s, side: str) -> list[str]:
    """The stands of ``side`` waiting to enter that the table view does not show whole: the
    footprint turned any way or the first marker badge beyond the view's rectangle."""
    from game import corners

    tv, r, cut = s.tv, s.tv.rect, []
    for st in s.battle.state.stands.values():
        if st.side != side or st.on_table or st.carried_by or st.eliminated:
            continue
        pts = [tv.to_px(x, y) for x, y in corners(st.x, st.y, st.facing_deg)]
        px, py = tv.to_px(st.x, st.y)  # a badge across the base's top edge, at its right
        bx, by, br = px + tv.view.scale * 0.5, py - tv.view.scale * 0.5, tv.badge_radius()
        x0, x1 = min(p[0] for p in pts), max(max(p[0] for p in pts), bx + br)
        y0, y1 = min(min(p[1] for p in pts), by - br), max(p[1] for p in pts)
        if x0 < r.left or x1 > r.right or y0 < r.top or y1 > r.bottom:
            cut.append(st.id)
    return cut


def _to_the_movement(s, side: str) -> None:
    """Work the battle on screen ``s`` (hotseat) to ``side``'s first movement decision,
    passing whatever else it asks, with ``side`` chosen to act first."""
    from game import ChooseFirst, Pass

    b = s.battle
    for _ in range(60):
        d = b.decision()
        if d.phase == "movement" and b.to_act == side:
            return
        if d.kind == "choose_first":
            s.act(ChooseFirst(b.to_act, side))
        else:
            s.act(Pass(b.to_act))
        s.set_mode(s.mode_for_state())  # the other player has clicked the curtain away
    raise AssertionError("no movement phase for " + side)


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("modern-combined-arms", (1280, 800)),
        ("wwii-47-breakthrough", (1280, 800)),
        ("wwii-47-breakthrough", (1920, 1080)),
    ],
)
def test_the_side_to_move_sees_its_stands_waiting_to_enter_whole(name, size, tmp_path):
    """(#43, trial 22) Hotseat: the battle opened on the first side's stands (the left edge);
    when the other side came to move, its stands waiting on the right edge were out of view
    or, once panned to, cut by the side panel (at 1920x1080 the fitted breakthrough table cut
    them too). Now the view the battle opens with keeps the acting side's waiting stands
    whole, and when the side to act changes to one with none of its stands in view, the view
    turns to it; nothing of the table is drawn under the side panel."""
    import pygame

    from game import Battle, load_scenario
    from game.ui.app import App
    from game.ui.battle import BattleScreen
    from game.ui.battle.layout import PANEL_W
    from tests.helpers import landing_frame as frame

    app = App(size=size)
    try:
        b = Battle(load_scenario(ROOT / "maps" / f"{name}.json"), 1)
        s = BattleScreen(app, b)
        app.show(s)
        frame(s)
        assert _waiting_cut(s, "A") == []
        _to_the_movement(s, "B")
        frame(s)
        assert _waiting_cut(s, "B") == []
        w, h = size
        strip = [app.surface.get_at((w - PANEL_W + 2, y))[:3] for y in range(60, h - 10, 7)]
        assert set(strip) == {(226, 222, 210)}  # the panel's own colour, no table
    finally:
        pygame.quit()
