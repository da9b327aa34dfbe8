"""Battle-log events as sentences a player reads, e.g.

    T-80U A3 fires at M1A2 B2: cohesion roll 9 + 2 (woods) = 11, needs 15 or less; 2D6 7 + 2 (range) = 9 at +2
    -> (S): suppressed

Made only from the log event and the battle's stand names, so the panel says exactly what the
log records.
"""

from __future__ import annotations

import re

from game import phase_titles

PHASE_NAMES = phase_titles()  # from the rulesets' phases
RESULT_WORDS = {"none": "no effect", "S": "suppressed", "D": "disorganized", "E": "eliminated"}

NAME_GAP = "\u2002"
"""Between a unit's name and its stand id on screen: an en space. The screens' font (Noto
Sans at 13-14 px) draws a plain space 3 px wide, and "Leopard-IIA6 A3" read as
"Leopard-IIA6A3" (#43 trial 27); the en space is wider and never breaks the line there."""


def possessive(name: str) -> str:
    """A name with its possessive: "Blue's", but "Allies'" (a name ending in s)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def stand_name(unit_name: str, stand_id: str) -> str:
    """A stand as the screens name it: its unit's name, an en space, its id
    ("Leopard-IIA6\u2002A3", #43)."""
    return f"{unit_name}{NAME_GAP}{stand_id}"


MAX_SENTENCE_CHARS = 2000
"""Characters of one sentence the panel shows; the rest is cut and counted (#42: a log text of
200,000 letters made a surface 87,000 pixels tall)."""
MAX_WORD_CHARS = 100
"""Characters of a word (no space) the panel shows whole, as a scenario's description allows
(game.rules.files.scenario_file); a longer word is cut and counted. The font wraps a word
wider than the box one letter at a time, in time that grows with the square of its length
(#42: a 200,000-letter word froze the window 47-65 s)."""
_UNSHOWABLE = re.compile(r"[\x00\ud800-\udfff]")
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD_CHARS + 1},}}")


def panel_text(text: str) -> str:
    """``text`` as the log panel shows it: a NUL or a lone surrogate (which the font cannot
    render: it raised ValueError or UnicodeEncodeError, #42) becomes U+FFFD; a word over
    MAX_WORD_CHARS keeps its first MAX_WORD_CHARS characters and says how long it was; a text
    over MAX_SENTENCE_CHARS is cut within it likewise. Linear in the length of ``text``, and
    what it returns it returns unchanged (the replay's sentences come made, the battle
    screen's not)."""
    text = _UNSHOWABLE.sub("\ufffd", text)
    text = _LONG_WORD.sub(
        lambda m: f"{m.group()[:MAX_WORD_CHARS]} [... {len(m.group()):,} letters in all]", text
    )
    if len(text) > MAX_SENTENCE_CHARS:  # cut short of the limit: the note fits within it
        text = f"{text[: MAX_SENTENCE_CHARS - 40]} [... {len(text):,} characters in all]"
    return text


def sentence(ev: dict, names: dict[str, str], sides: dict[str, str]) -> str:
    """A line of a log as the replay's log panel shows it: :func:`describe` made showable
    by :func:`panel_text` ("" for a line with no sentence, the start line's aside)."""
    return panel_text(describe(ev, names, sides) or "")


def path_html(path, width_chars: int = 34) -> str:
    """A file path for a text box, as HTML: the home folder written ``~``, and the path cut
    into lines at its separators (each at most ``width_chars`` where a folder name allows), so
    the box never breaks a name with a hyphen that is not in it."""
    import html
    import os

    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/", "~") and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    parts = text.split(os.sep)
    lines, line = [], ""
    for k, part in enumerate(parts):
        piece = part + (os.sep if k < len(parts) - 1 else "")
        if line and len(line) + len(piece) > width_chars:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return "<br>".join(html.escape(x) for x in lines)


def mp_text(mp: float) -> str:
    """Movement points as the screens write them: to 0.1 MP, no trailing zeros ("14.1",
    "11", "0.2"), or to 0.01 MP under 0.05 so a spent sliver is never "0" ("0.04"); the
    log file keeps them exact (000 09.00). One decimal like the distances beside them
    (#43: "12.0"" for 12.01 of 15 MP")."""
    mp = float(mp)
    return f"{round(mp, 1 if abs(mp) >= 0.05 or mp == 0 else 2):g}"


def inches_text(inches: float) -> str:
    """A distance moved as the log panel writes it: to 0.1", or to 0.01" under 0.05" so a
    short step is never "0.0"" beside the movement points it cost (#43: "moves 0.0" for
    0.01 MP")."""
    return f"{inches:.1f}" if abs(inches) >= 0.05 else f"{inches:.2f}"


def _spent_text(mp: float, inches: float) -> str:
    """The movement points a move spent, written to the distance's own precision (0.1, or
    0.01 for a step under 0.05"), so "12.0"" stands beside "12.0", never "12.01" (#43)."""
    return f"{mp:.1f}" if abs(inches) >= 0.05 and abs(mp) >= 0.05 else f"{mp:.2f}"


def _mods(mods: list[dict]) -> str:
    out = ""
    for m in mods:
        why = m["why"].removeprefix("terrain:").replace("_", " ")
        sign = "+" if m["value"] >= 0 else "-"
        out += f" {sign} {abs(m['value'])} ({why})"
    return out


def _markers(m: dict) -> str:
    if m.get("eliminated"):
        return "eliminated"
    on = [k for k in ("S", "D") if m.get(k)]
    return "+".join(on) if on else "no markers"


def need_text(need: int) -> str:
    """What a D20 cohesion roll needed, in words: "15 or less"; a natural 1 always passes
    and a natural 20 always fails (000 04.00)."""
    if need >= 20:
        return "anything but a 20"
    if need <= 1:
        return "a 1"
    return f"{need} or less"


def _whole(v) -> bool:
    """Whether ``v`` is a whole number (not a bool): a log field read for arithmetic."""
    return isinstance(v, int) and not isinstance(v, bool)


def attempt_needs(ev: dict) -> str:
    """What a ``move_attempt`` line's one D20 needed: its cohesion level less the
    modifiers, read from the line's own ``level`` and each stand's ``total`` (000 08.02):
    "15 or less", or, where stands' markers make them differ, "15 or less (A3: 13 or
    less)"; "" for a line without its level (the log's fields are only read)."""
    level, roll, per_stand = ev.get("level"), ev.get("roll"), ev.get("per_stand")
    if not (_whole(level) and _whole(roll) and isinstance(per_stand, dict) and per_stand):
        return ""  # a line without them, or a spoiled one a replay let through (#42)
    if not all(isinstance(p, dict) and _whole(p.get("total")) for p in per_stand.values()):
        return ""
    by: dict[int, list[str]] = {}
    for sid, p in per_stand.items():
        by.setdefault(level - (p["total"] - roll), []).append(sid)
    first, *rest = sorted(by, key=lambda k: -len(by[k]))
    extra = "; ".join(f"{', '.join(by[k])}: {need_text(k)}" for k in rest)
    return need_text(first) + (f" ({extra})" if extra else "")


def describe(ev: dict, names: dict[str, str], sides: dict[str, str]) -> str | None:
    """One event as a sentence; ``names`` maps stand ids to "unit id", ``sides`` side ids to
    side names. Returns None for events a player need not read (start)."""
    name = ev["event"]

    def n(sid: str) -> str:
        return names.get(sid, sid)

    if name == "start":
        return (
            f'{ev["scenario"]["title"]}: {ev["turns"]} turns on a {ev["table"]["width"]:g}"x'
            f'{ev["table"]["depth"]:g}" table, sighting {ev["max_sighting_in"]:g}" '
            f"(seed {ev['seed']})."
        )
    if name == "regroup":
        extra = ", its GHQ" if ev.get("ghq") else ", an HQ" if ev.get("hq") else ""
        return (
            f"{sides.get(ev['side'])} puts {n(ev['stand'])}{extra} in battle group {ev['group']}."
        )
    if name == "initiative":
        rolls = ", ".join(
            f"{sides.get(s, s)} {sum(r['dice'])} + cohesion = {r['total']}"
            for s, r in ev["rolls"].items()
        )
        ties = f" (tie, re-rolled {len(ev['tiebreaks'])}x)" if ev["tiebreaks"] else ""
        return f"Turn {ev['turn']}: initiative {rolls}{ties}: {sides.get(ev['winner'])} has it."
    if name == "orders":
        return _orders(ev, sides)
    if name == "pass":
        return _pass(ev, sides)
    if name == "fire":
        kind = {"opportunity": " (opportunity fire)", "covering": " (covering fire)"}.get(
            ev["kind"], ""
        )
        weapon = {"atgm": " with its ATGM", "he": " (HE)"}.get(ev["weapon"], "")
        c = ev["cohesion"]
        text = (
            f"{n(ev['attacker'])} fires{weapon} at {n(ev['target'])}{kind}: cohesion roll "
            + _total(c)
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
    if name == "posture" and str(ev.get("rule", "")).startswith("004"):  # Wehrmacht '47
        who = ", ".join(n(i) for i in ev["stands"])
        if ev.get("posture") == "fire":
            return f"{sides.get(ev['side'])}: {who} in the firing posture this turn."
        return f"{sides.get(ev['side'])} movement group {ev['group']}: {who} (movement posture)."
    if name == "posture" and "posture" in ev:  # the full Modern game: TL1 stands only
        who = ", ".join(n(i) for i in ev["stands"])
        how = "may move, not fire" if ev["posture"] == "move" else "may fire, not move"
        return f"{sides.get(ev['side'])} TL1 posture: {who} {how} this turn."
    if name == "posture":
        who = ", ".join(n(i) for i in ev["stands"])
        return f"{sides.get(ev['side'])} movement group {ev['group']}: {who} (movement posture)."
    if name in ("overrun", "close_assault", "mount", "unload"):
        return _card_line(ev, n)
    if name in ("plot", "reveal", "artillery", "impact", "air_strike"):
        return _fire_support(ev, n, sides)
    if name == "move_attempt":
        ok = [s for s, p in ev["per_stand"].items() if p["passed"]]
        how = "ordered" if ev["ordered"] else "independent"
        needs = attempt_needs(ev)
        rolled = f"rolled {ev['roll']}" + (f", needed {needs}" if needs else "")
        if not ok:
            return f"{sides.get(ev['side'])} group {ev['group']} fails to move ({how}, {rolled})."
        left = [s for s in ev["per_stand"] if s not in ok]
        tail = f"; stragglers: {', '.join(left)}" if left else ""
        return f"{sides.get(ev['side'])} group {ev['group']} moves ({how}, {rolled}){tail}."
    if name == "move":
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
        if round(dist, 2) == 0 and not entered:  # #43: not "moves 0.00" for 0 of 9.5 MP"
            spent = ev["mp_spent"]
            if round(spent, 2):  # it only turned where it stands
                return f"{n(ev['stand'])} turns where it stands for {mp_text(spent)} of {allowed} MP{why}."
            because = f"{why.removeprefix(', ')}; " if why else ""
            return f"{n(ev['stand'])} does not move ({because}0 of {allowed} MP)."
        spent = _spent_text(ev["mp_spent"], dist)
        return (
            f'{n(ev["stand"])}{entered} moves {inches_text(dist)}" for {spent} of '
            f"{allowed} MP{why}."
        )
    if name == "marker_removal":
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
    if name == "resupply":
        ok = "resupplied" if ev["passed"] else "not resupplied"
        return f"{n(ev['stand'])} resupply roll {ev['roll']} + 4 = {ev['total']}: {ok}."
    if name == "end_turn":
        losses = ", ".join(f"{sides.get(s, s)} {v}" for s, v in ev["losses"].items())
        return f"End of turn {ev['turn']}. Stands lost: {losses}."
    if name == "end":
        if not ev["winner"]:
            return f"The battle is over: a draw ({ev['reason']})."
        return f"The battle is over: {sides.get(ev['winner'])} wins. {ev['reason']}."
    return None


def _phase_title(phase: str) -> str:
    """A phase's name in words, as a sentence starts it ("1st fire phase")."""
    return PHASE_NAMES.get(phase, phase)


SKIP_WHO = {
    "fire1": "; only the highest tech levels fire in it (000 05.00 step 2; 002 sequence step 3)",
    "fire3": "; only tech level 5 stands fire in it (002 sequence of play)",
}
"""Who may fire in a fire phase that not every stand fires in, told when it is skipped: the
2nd fire phase may then offer shots though the 1st had none (#43, second trial)."""


def _pass(ev: dict, sides: dict[str, str]) -> str | None:
    """A ``pass`` line in words. The engine's automatic passes (#43, their ``auto`` field):
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
    order would have needed (000 08.02.01; 001 8.2.1; #43: the line said only "-> 2 order(s)").
    A log written before #43 has no ``command_table``: its line says the roll and the orders."""
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


def _crt(cell: str, result: str) -> str:
    """The CRT cell an attack rolled, and why it did more than the cell says when the
    target's markers made it so (#43 trial: "CRT D: B6 eliminated"): a D on a stand already
    disorganized eliminates it, an (S) on one already suppressed disorganizes it (and
    eliminates it when it was disorganized too)
    (:func:`game.crt_result`, 000 07.06)."""
    if cell == "D" and result == "E":
        return "CRT D on a stand already disorganized"
    if cell == "(S)" and result == "D":
        return "CRT (S) on a stand already suppressed"
    if cell == "(S)" and result == "E":
        return "CRT (S) on a stand already suppressed and disorganized"
    return f"CRT {cell}"


def _aspect(ev: dict) -> str:
    """How the target's defence was taken: its aspect, or (full games) personnel, who have
    no facing."""
    return "personnel" if ev.get("defense_class") == "personnel" else str(ev["aspect"])


def _roll(r: dict | None) -> str:
    """A cohesion roll in words: "rolls 9 + 3 (tracked) = 12, needs 15 or less: passes"."""
    if r is None:
        return "no roll"
    return f"rolls {_total(r)}: {'passes' if r['passed'] else 'fails'}"


def _total(r: dict) -> str:
    """A roll against a level in plain words (#43: "6 = 6 <= 15" read as code): "6, needs
    15 or less", or with modifiers "9 + 3 (tracked) = 12, needs 15 or less"."""
    mods = r.get("mods") or []
    total = f"{r['roll']}{_mods(mods)} = {r['total']}" if mods else f"{r['total']}"
    return f"{total}, needs {r['level']} or less"


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


DIRECTIONS = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")
"""The deviation die's eight directions on screen (1 towards the top edge, then clockwise)."""


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
        hidden = " (hidden until it lands)" if ev.get("commitment") else ""  # network (#45)
        return f"{side} plots {what} ({ev['mission']}) for turn {ev['lands_turn']}{hidden}."
    if name == "reveal":  # a network battle's hidden plot, shown as it lands (#45)
        aim = ev.get("aim") or [0, 0]
        at = f'{aim[0]:g}", {aim[1]:g}" on the table'
        if ev.get("kind") == "air":
            who = possessive(side)
            return f"{ev['mission']} revealed: {who} {ev.get('aircraft')} strike aimed at {at}."
        ammo = "smoke" if ev.get("ammo") == "smoke" else "HE"
        return f"{ev['mission']} revealed: {possessive(side)} {ammo} mission aimed at {at}."
    if name == "artillery":
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
    if name == "impact":
        cb = ev["combat"]
        roll = (
            "below the table: S"
            if cb is None
            else (
                f"2D6 {sum(cb['dice'])}{_mods(cb['mods'])} = {cb['total']}, "
                f"{_crt(ev['crt'], ev['result'])}"
            )
        )
        effect = "no effect" if ev["result"] == "none" else RESULT_WORDS[ev["result"]]
        how = "drives into" if ev["cause"] == "entered" else "is under"
        return (
            f"{n(ev['target'])} {how} impact marker {ev['marker']}: {ev['firepower']} against "
            f"{ev['defense']} ({ev['differential']:+d}), {roll}: {effect}."
        )
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
        cb = ev.get("combat")
        roll = (
            "below the table: S"
            if cb is None
            else (
                f"2D6 {sum(cb['dice'])}{_mods(cb['mods'])} = {cb['total']}, "
                f"{_crt(ev['crt'], ev['result'])}"
            )
        )
        effect = "no effect" if ev["result"] == "none" else RESULT_WORDS[ev["result"]]
        friendly = " (its own side's)" if ev.get("friendly") else ""
        text += (
            f" It attacks {n(ev['target'])}{friendly}: {ev['firepower']} against "
            f"{ev['defense']} ({ev['differential']:+d}), {roll}: {effect}."
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
