"""The battle log's lines in words: :func:`describe` (one line as a sentence, or None) and
:func:`sentence` (the same made showable in the log panel). :data:`WORDS` holds a sentence
maker for every kind of line in ``game.rules.events.EVENTS`` that a player reads (a test keeps
the two in step); the pieces they share are in :mod:`game.ui.logtext`.
"""

from __future__ import annotations

from collections.abc import Callable

from game.ui.logtext import (
    DIRECTIONS,
    PHASE_NAMES,
    RESULT_WORDS,
    _aspect,
    _crt,
    _markers,
    _mods,
    _roll,
    _spent_text,
    _total,
    attempt_needs,
    inches_text,
    mp_text,
    panel_text,
    possessive,
)


def sentence(ev: dict, names: dict[str, str], sides: dict[str, str]) -> str:
    """A line of a log as the replay's log panel shows it: :func:`describe` made showable
    by :func:`panel_text` ("" for a line with no sentence, the start line's aside)."""
    return panel_text(describe(ev, names, sides) or "")


def describe(ev: dict, names: dict[str, str], sides: dict[str, str]) -> str | None:
    """One event as a sentence; ``names`` maps stand ids to "unit id", ``sides`` side ids to
    side names. Returns None for events a player need not read (a network battle's chain
    lines): :data:`WORDS` has the words of every other kind of line in
    ``game.rules.events.EVENTS``."""
    words = WORDS.get(ev["event"])
    if words is None:
        return None

    def n(sid: str) -> str:
        return names.get(sid, sid)

    return words(ev, n, sides)


def _start_words(ev: dict, n, sides: dict) -> str | None:
    return (
        f'{ev["scenario"]["title"]}: {ev["turns"]} turns on a {ev["table"]["width"]:g}"x'
        f'{ev["table"]["depth"]:g}" table, sighting {ev["max_sighting_in"]:g}" '
        f"(seed {ev['seed']})."
    )


def _regroup_words(ev: dict, n, sides: dict) -> str | None:
    extra = ", its GHQ" if ev.get("ghq") else ", an HQ" if ev.get("hq") else ""
    return f"{sides.get(ev['side'])} puts {n(ev['stand'])}{extra} in battle group {ev['group']}."


def _initiative_words(ev: dict, n, sides: dict) -> str | None:
    rolls = ", ".join(
        f"{sides.get(s, s)} {sum(r['dice'])} + cohesion = {r['total']}"
        for s, r in ev["rolls"].items()
    )
    ties = f" (tie, re-rolled {len(ev['tiebreaks'])}x)" if ev["tiebreaks"] else ""
    return f"Turn {ev['turn']}: initiative {rolls}{ties}: {sides.get(ev['winner'])} has it."


def _fire_words(ev: dict, n, sides: dict) -> str | None:
    kind = {"opportunity": " (opportunity fire)", "covering": " (covering fire)"}.get(
        ev["kind"], ""
    )
    weapon = {"atgm": " with its ATGM", "he": " (HE)"}.get(ev["weapon"], "")
    c = ev["cohesion"]
    text = f"{n(ev['attacker'])} fires{weapon} at {n(ev['target'])}{kind}: cohesion roll " + _total(
        c
    )
    if not c["passed"]:
        return text + ": misses its chance."
    cb = ev["combat"]
    text += (
        f"; 2D6 {sum(cb['dice'])}{_mods(cb['mods'])} = {cb['total']} at "
        f"{ev['differential']:+d} ({_aspect(ev)}), {_crt(ev['crt'], ev['result'])}: "
        + (
            "no effect"
            if ev["result"] == "none"
            else f"{n(ev['target'])} {RESULT_WORDS[ev['result']]}"
        )
    )
    if ev.get("depleted"):
        text += "; its ATGMs are used up"
    return text + "."


def _posture_words(ev: dict, n, sides: dict) -> str | None:
    if str(ev.get("rule", "")).startswith("004"):  # Wehrmacht '47
        who = ", ".join(n(i) for i in ev["stands"])
        if ev.get("posture") == "fire":
            return f"{sides.get(ev['side'])}: {who} in the firing posture this turn."
        return f"{sides.get(ev['side'])} movement group {ev['group']}: {who} (movement posture)."
    if "posture" in ev:  # the full Modern game: TL1 stands only
        who = ", ".join(n(i) for i in ev["stands"])
        how = "may move, not fire" if ev["posture"] == "move" else "may fire, not move"
        return f"{sides.get(ev['side'])} TL1 posture: {who} {how} this turn."
    who = ", ".join(n(i) for i in ev["stands"])
    return f"{sides.get(ev['side'])} movement group {ev['group']}: {who} (movement posture)."


def _move_attempt_words(ev: dict, n, sides: dict) -> str | None:
    ok = [s for s, p in ev["per_stand"].items() if p["passed"]]
    how = "ordered" if ev["ordered"] else "independent"
    needs = attempt_needs(ev)
    rolled = f"rolled {ev['roll']}" + (f", needed {needs}" if needs else "")
    if not ok:
        return f"{sides.get(ev['side'])} group {ev['group']} fails to move ({how}, {rolled})."
    left = [s for s in ev["per_stand"] if s not in ok]
    tail = f"; stragglers: {', '.join(left)}" if left else ""
    return f"{sides.get(ev['side'])} group {ev['group']} moves ({how}, {rolled}){tail}."


def _move_words(ev: dict, n, sides: dict) -> str | None:
    dist = 0.0
    for (x0, y0), (x1, y1) in zip(ev["path"], ev["path"][1:], strict=False):
        dist += ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    why = {
        "opportunity_fire": ", stopped by opportunity fire",
        "cohesion": ", fails its cohesion roll to go on",
        "overlap": ", stopping short so as not to overlap another stand",
        "mp": "",
        "enemy": ", stopped by an enemy stand",
    }.get(ev["stopped_by"] or "", "")
    entered = " enters and" if ev["entered"] else ""
    nerve = ev.get("pass_through")
    if nerve:
        how = "passes: on through it" if nerve["passed"] else "fails: it stays"
        why = (
            f", stopped by {n(nerve['enemy'])}; nerve roll {nerve['roll']}, total "
            f"{nerve['total']} against {nerve['level']}, {how}"
        )
    allowed = mp_text(ev["mp_allowed"])
    if round(dist, 2) == 0 and not entered:  # not "moves 0.00" for 0 of 9.5 MP"
        spent = ev["mp_spent"]
        if round(spent, 2):  # it only turned where it stands
            return (
                f"{n(ev['stand'])} turns where it stands for {mp_text(spent)} of {allowed} MP{why}."
            )
        because = f"{why.removeprefix(', ')}; " if why else ""
        return f"{n(ev['stand'])} does not move ({because}0 of {allowed} MP)."
    spent = _spent_text(ev["mp_spent"], dist)
    return f'{n(ev["stand"])}{entered} moves {inches_text(dist)}" for {spent} of {allowed} MP{why}.'


def _marker_removal_words(ev: dict, n, sides: dict) -> str | None:
    what = {
        "recovered": "recovers (S off)",
        "rallied": "rallies (all markers off)",
        "panic": "panics",
        "none": "stays as it is",
    }[ev["outcome"]]
    return (
        f"{n(ev['stand'])} rolls {ev['roll']}{_mods(ev['mods'])} = {ev['total']}: "
        f"{what}; now {_markers(ev['markers_after'])}."
    )


def _resupply_words(ev: dict, n, sides: dict) -> str | None:
    ok = "resupplied" if ev["passed"] else "not resupplied"
    return f"{n(ev['stand'])} resupply roll {ev['roll']} + 4 = {ev['total']}: {ok}."


def _end_turn_words(ev: dict, n, sides: dict) -> str | None:
    losses = ", ".join(f"{sides.get(s, s)} {v}" for s, v in ev["losses"].items())
    return f"End of turn {ev['turn']}. Stands lost: {losses}."


def _end_words(ev: dict, n, sides: dict) -> str | None:
    if not ev["winner"]:
        return f"The battle is over: a draw ({ev['reason']})."
    return f"The battle is over: {sides.get(ev['winner'])} wins. {ev['reason']}."


WORDS: dict[str, Callable[[dict, Callable[[str], str], dict], str | None]] = {
    "orders": lambda ev, n, sides: _orders(ev, sides),
    "pass": lambda ev, n, sides: _pass(ev, sides),
    "overrun": lambda ev, n, sides: _card_line(ev, n),
    "close_assault": lambda ev, n, sides: _card_line(ev, n),
    "mount": lambda ev, n, sides: _card_line(ev, n),
    "unload": lambda ev, n, sides: _card_line(ev, n),
    "plot": lambda ev, n, sides: _fire_support(ev, n, sides),
    "reveal": lambda ev, n, sides: _fire_support(ev, n, sides),
    "artillery": lambda ev, n, sides: _fire_support(ev, n, sides),
    "impact": lambda ev, n, sides: _fire_support(ev, n, sides),
    "air_strike": lambda ev, n, sides: _fire_support(ev, n, sides),
    "start": _start_words,
    "regroup": _regroup_words,
    "initiative": _initiative_words,
    "fire": _fire_words,
    "posture": _posture_words,
    "move_attempt": _move_attempt_words,
    "move": _move_words,
    "marker_removal": _marker_removal_words,
    "resupply": _resupply_words,
    "end_turn": _end_turn_words,
    "end": _end_words,
}
"""Each kind of log line's sentence: (line, stand id -> its name, side id -> side name)."""


def _phase_title(phase: str) -> str:
    """A phase's name in words, as a sentence starts it ("1st fire phase")."""
    return PHASE_NAMES.get(phase, phase)


SKIP_WHO = {
    "fire1": "; only the highest tech levels fire in it (000 05.00 step 2; 002 sequence step 3)",
    "fire3": "; only tech level 5 stands fire in it (002 sequence of play)",
}
"""Who may fire in a fire phase that not every stand fires in, told when it is skipped: the
2nd fire phase may then offer shots though the 1st had none."""


def _pass(ev: dict, sides: dict[str, str]) -> str | None:
    """A ``pass`` line in words. The engine's automatic passes (their ``auto`` field):
    the two that skip a phase are one sentence, told at the first (``skip`` 1; None for the
    second), and a side passed for says why in a short one."""
    side, phase = sides.get(ev["side"], ev["side"]), _phase_title(ev["phase"])
    why = ev.get("auto")
    if why is None:
        return f"{side} passes ({phase})."
    if ev.get("skip") == 2:
        return None
    if ev.get("skip") == 1:  # why a shot may come in the next phase though none here
        only = SKIP_WHO.get(ev["phase"], "")
        return f"{phase[:1].upper()}{phase[1:]} skipped: {why}{only}."
    return f"{side} passes, {why} ({phase})."


def _orders(ev: dict, sides: dict[str, str]) -> str:
    """An ``orders`` line in words: the roll and what it was added to, the total read on the
    command efficiency table, what that total gives and what it needed, and what one more
    order would have needed (000 08.02.01; 001 8.2.1; the line once said only "-> 2 order(s)").
    An older log has no ``command_table``: its line says the roll and the orders."""
    side = sides.get(ev["side"], ev["side"])
    if not ev["dice"]:
        return f"{side} has lost its GHQ: no movement orders."
    roll = f"2D6 {sum(ev['dice'])}"
    for value, why in (
        (ev["command_value"], "GHQ command value"),
        (ev["generation_mod"], "generation"),
    ):
        if value:
            roll += f" {'+' if value > 0 else '-'} {abs(value)} ({why})"
    total, got = ev["total"], ev["orders"]
    words = "no orders" if got == 0 else "1 order" if got == 1 else f"{got} orders"
    text = f"{side} rolls for movement orders: {roll} = {total}"
    steps = sorted(ev.get("command_table") or [])
    if not steps:
        return f"{text}: {words} this phase."
    text += f" on the command efficiency table: {words} this phase"
    lows = [lo for lo, n in steps if n == got]
    more = next(((lo, n) for lo, n in steps if n > got), None)
    if got == 0:
        return f"{text} (it needed {steps[0][0]} for an order)."
    if not lows:  # a table that does not give this number (a log edited by hand)
        return f"{text}."
    if more is None:
        return f"{text} ({lows[0]} or more gives {got})."
    band = f"{lows[0]}" if more[0] - 1 == lows[0] else f"{lows[0]} to {more[0] - 1}"
    return f"{text} ({band} gives {got}; {more[0]} would have given {more[1]})."


def _attack(a: dict | None, n) -> str:
    """An overrun's or close assault's attack in words."""
    if a is None:
        return ""
    cb = a["combat"]
    effect = (
        "no effect" if a["result"] == "none" else f"{n(a['target'])} {RESULT_WORDS[a['result']]}"
    )
    return (
        f"; attacked at {a['differential']:+d}: 2D6 {sum(cb['dice'])}{_mods(cb['mods'])} = "
        f"{cb['total']}, {_crt(a['crt'], a['result'])}: {effect}"
    )


def _card_line(ev: dict, n) -> str:
    """The full games' lines (overrun, close assault, boarding and setting down) in words."""
    name = ev["event"]
    if name == "mount":
        return f"{n(ev['stand'])} boards {n(ev['carrier'])}."
    if name == "unload":
        if ev.get("cause") == "carrier_eliminated":
            r = ev.get("cohesion")
            fate = (
                "is lost with it"
                if ev.get("markers_after", {}).get("eliminated")
                else "gets out, disorganized"
            )
            return f"{n(ev['stand'])}, aboard the lost {n(ev['carrier'])}, {_roll(r)}: {fate}."
        return f"{n(ev['stand'])} gets out of {n(ev['carrier'])}."
    if name == "overrun":
        return (
            f"{n(ev['mover'])} overruns {n(ev['defender'])} (002 8.6). {n(ev['defender'])} "
            f"{_roll(ev['defender_roll'])}{_attack(ev['attack_on_defender'], n)}. "
            f"{n(ev['mover'])} {_roll(ev['attacker_roll'])}{_attack(ev['attack_on_attacker'], n)}."
        )
    who = ", ".join(n(i) for i in ev["assaulters"])
    verb = "close-assaults" if len(ev["assaulters"]) == 1 else "close-assault"
    text = f"{who} {verb} {n(ev['defender'])} (002 8.7). "
    if ev["defender_roll"] is None:
        text += f"{n(ev['defender'])} moved this turn: it does not strike back."
    else:
        text += f"{n(ev['defender'])} {_roll(ev['defender_roll'])}"
        reply = ev["defender_attack"]
        if reply is not None:
            text += f" and strikes at {n(reply['target'])}{_attack(reply, n)}"
        text += "."
    for sid, r in ev["assaulter_rolls"].items():
        text += f" {n(sid)} {_roll(r)}"
        hit = next((a for a in ev["assaulter_attacks"] if a["attacker"] == sid), None)
        text += f"{_attack(hit, n)}."
    back = ev.get("retreat")
    if back:  # 004 close assault step 5
        text += (
            f' {n(ev["defender"])}, disorganized, falls back 1".'
            if len(back) > 1
            else f" {n(ev['defender'])}, disorganized, has no room to fall back: eliminated."
        )
    return text


def _deviation(d: dict | None) -> str:
    """A deviation roll in words."""
    if d is None:
        return ""
    if d["passed"]:
        return f" Deviation {_roll(d)}: on target."
    if d.get("direction_die") is None or d.get("distance_die") is None:
        return f" Deviation {_roll(d)}."
    way = DIRECTIONS[(d["direction_die"] - 1) % 8]
    return (
        f" Deviation {_roll(d)}: direction die {d['direction_die']} ({way}), distance die "
        f'{d["distance_die"]}: {d["distance_in"]:g}" off.'
    )


def _fire_support(ev: dict, n, sides: dict[str, str]) -> str:
    """Artillery, smoke and air strikes (plot, artillery, impact, air_strike) in words."""
    name = ev["event"]
    side = sides.get(ev.get("side"), ev.get("side"))
    if name == "plot":  # where and what stay hidden until it lands (the file has them)
        what = "an air strike" if ev["kind"] == "air" else "a fire mission"
        hidden = " (hidden until it lands)" if ev.get("commitment") else ""  # network
        return f"{side} plots {what} ({ev['mission']}) for turn {ev['lands_turn']}{hidden}."
    if name == "reveal":  # a network battle's hidden plot, shown as it lands
        aim = ev.get("aim") or [0, 0]
        at = f'{aim[0]:g}", {aim[1]:g}" on the table'
        if ev.get("kind") == "air":
            who = possessive(side)
            return f"{ev['mission']} revealed: {who} {ev.get('aircraft')} strike aimed at {at}."
        ammo = "smoke" if ev.get("ammo") == "smoke" else "HE"
        return f"{ev['mission']} revealed: {possessive(side)} {ammo} mission aimed at {at}."
    if name == "artillery":
        return _artillery_words(ev, n, side)
    if name == "impact":
        attack = _attack_words(ev, ev["combat"])
        how = "drives into" if ev["cause"] == "entered" else "is under"
        return (
            f"{n(ev['target'])} {how} impact marker {ev['marker']}: {ev['firepower']} against "
            f"{ev['defense']} ({ev['differential']:+d}), {attack}."
        )
    return _air_strike_words(ev, n, side)


def _attack_words(ev: dict, cb: dict | None) -> str:
    """The roll and result of an impact's or a strike's attack on a stand: the dice (2D6),
    modifiers and total and the combat results table's cell, or "below the table: S" when
    there was no roll (``cb`` None); then the effect ("no effect" or the result's words)."""
    roll = (
        "below the table: S"
        if cb is None
        else (
            f"2D6 {sum(cb['dice'])}{_mods(cb['mods'])} = {cb['total']}, "
            f"{_crt(ev['crt'], ev['result'])}"
        )
    )
    effect = "no effect" if ev["result"] == "none" else RESULT_WORDS[ev["result"]]
    return f"{roll}: {effect}"


def _artillery_words(ev: dict, n, side: str) -> str:
    """An ``artillery`` line in words: indirect fire or direct artillery, the ammunition,
    each firer's cohesion roll or why it did not fire, the deviation, the markers that
    land."""
    how = "indirect fire" if ev["kind"] == "indirect" else "direct artillery"
    ammo = "smoke" if ev["ammo"] == "smoke" else "HE"
    text = f"{side} {how} ({ammo}, mission {ev['mission']}):"
    for sid, r in ev["cohesion"].items():
        text += f" {n(sid)} {_roll(r)};"
    for sid, why in (ev.get("not_fired") or {}).items():
        text += f" {n(sid)} does not fire ({why});"
    text = text.rstrip(";") + "."
    text += _deviation(ev["deviation"])
    k = len(ev["markers"])
    return text + (
        f" {k} markers land." if k > 1 else " 1 marker lands." if k else " Nothing lands."
    )


def _air_strike_words(ev: dict, n, side: str) -> str:
    """An ``air_strike`` line in words: the flak that spoils its arrival (004), the arrival
    roll, the AA on the way in (002), being shot down before it attacks, the deviation, the
    attack on the stand it lands by, the AA on the way out, being shot down leaving."""
    aa = ev["aa"]
    text = f"{side} air strike ({ev['aircraft']}):"
    for a in (a for a in aa if "arrival_mod" in a):  # 004: flak spoils the arrival
        plus = f", +{a['arrival_mod']} to the arrival roll" if a["arrival_mod"] else ""
        text += f" flak {n(a['stand'])} {_roll(a['cohesion'])}{plus};"
    text += f" arrival {_roll(ev['arrival'])}."
    text += _aa_leg(aa, "in", "Flying in", n)
    down_in = ev["aircraft_after"].get("eliminated") and ev["target"] is None
    if down_in and ev["arrival"]["passed"]:
        text += " It is shot down before it attacks."
    text += _deviation(ev["deviation"])
    if ev["target"] is not None:
        attack = _attack_words(ev, ev.get("combat"))
        friendly = " (its own side's)" if ev.get("friendly") else ""
        text += (
            f" It attacks {n(ev['target'])}{friendly}: {ev['firepower']} against "
            f"{ev['defense']} ({ev['differential']:+d}), {attack}."
        )
    text += _aa_leg(aa, "out", "Flying out", n)
    if ev["aircraft_after"].get("eliminated") and ev["target"] is not None:
        text += " It is shot down on the way out."
    return text


def _aa_leg(aa: list, leg: str, words: str, n) -> str:
    """The 002 AA fire on one leg of a strike's flight, in words."""
    shots = [a for a in aa if a.get("leg") == leg]
    if not shots:
        return ""
    parts = []
    for a in shots:
        part = f"AA {n(a['stand'])} {_roll(a['cohesion'])}"
        if a.get("crt"):
            effect = "no effect" if a["result"] == "none" else RESULT_WORDS[a["result"]]
            part += f", fires at {a['differential']:+d}: {_crt(a['crt'], a['result'])}, {effect}"
        parts.append(part)
    return f" {words}: " + "; ".join(parts) + "."
