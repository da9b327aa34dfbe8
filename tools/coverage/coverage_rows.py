"""The rows of the rules coverage report (tools/coverage/rules_coverage.py): one row for each rule that a
battle-log line can show happening, in the order of docs/rules.md's sections, each with the rule
number docs/rules.md cites for it.

A row may name its ``needs``: facts of the battles played (read off their start lines by
tools/coverage/coverage_scan.py: rulesets, tech levels, movement classes, unit flags, terrain, range
bands within reach), any one of which makes the rule possible, and ``why``, the sentence that
says what is missing. A row that stayed at 0 is explained when none of its ``needs`` is among
the facts, or when it has a ``why`` and no ``needs`` (a rule the dice or the table make
impossible or nearly so); any other 0 is a finding.

The rows are written as a table, one line each: ``key | rulesets | rule | where | needs |
why``. A key with ``{rs}`` is one row per ruleset named (``full``: modern-full and wwii-47),
each with ``{rs}`` filled in everywhere; a ``where`` of ``@name`` is that ruleset's entry of
``WHERE[name]``.
"""

from __future__ import annotations

from dataclasses import dataclass

RULESETS = ("modern", "modern-full", "wwii", "wwii-47")
RANGE_BUCKETS = {  # the range effects the charts give (docs/rules.md "Range")
    "modern": ("-1", "+0", "+1", "+2", "+3", "+4"),
    "modern-full": ("-1", "+0", "+1", "+2", "+3", "+4"),
    "wwii": ("-1", "+0", "+1", "+2", "+3 or more"),
    "wwii-47": ("-1", "+0", "+1", "+2", "+3 or more"),
}
ART = "Full games: artillery, smoke and air strikes"
WHERE = {
    "art": {"modern-full": f"{ART} · 002 7.10", "wwii-47": f"{ART} · 004 7.8"},
    "plot": {"modern-full": f"{ART} · 002 7.11", "wwii-47": f"{ART} · 004 7.8"},
    "air": {"modern-full": f"{ART} · 002 7.13", "wwii-47": f"{ART} · 004 12.8"},
    "overrun": {"modern-full": "Overrun · 002 8.6", "wwii-47": "Wehrmacht '47: overrun · 004 8.6"},
    "assault": {
        "modern-full": "Close assault · 002 8.7",
        "wwii-47": "Wehrmacht '47: close assault · 004 8.7",
    },
    "range": {
        "modern": "Range · 000 07.08.02, range chart by TL",
        "modern-full": "Range · 002 range chart by TL",
        "wwii": "Range · 001 7.3.2",
        "wwii-47": "Wehrmacht '47: range · 004 range charts",
    },
    "crt": {
        "modern": "Fire · 000 CRT (row 17 rebuilt)",
        "wwii": "Fire · 001 CRT",
        "modern-full": "Full Modern: the CRT's -S- · 002 CRT",
        "wwii-47": "Wehrmacht '47: the CRT · 004 CRT",
    },
    "orders": {rs: "Movement (orders) · 000 08.02.02" for rs in RULESETS},
}
# the CRT cells each ruleset's table prints and what each may do to a target (docs/rules.md
# "Fire", "The CRT's -S-", Wehrmacht '47 "The CRT"): (S) is D on a suppressed stand and E on one
# already S and D; D is E on a disorganized stand
READINGS = {"S": ("S",), "(S)": ("S", "D", "E"), "D": ("D", "E"), "E": ("E",)}
CRT_CELLS = {
    "modern": {**READINGS},
    "wwii": {"-": ("none",), **READINGS},
    "modern-full": {"-S-": ("none", "S"), **READINGS},
    "wwii-47": {"-": ("none", "S"), **READINGS},
}
CRT_NOTES = {
    ("modern-full", "-S-", "none"): " (a TL1/TL2 attacker, or AA at an aircraft)",
    ("wwii-47", "-", "S"): " (artillery, a support stand or an air strike)",
}
CRT_NEEDS = {  # (needs, why) of a CRT row that only some attackers can show
    ("modern-full", "-S-", "none"): (
        ("modern-full:tl1", "modern-full:tl2"),
        "no played modern-full scenario fields a TL1 or TL2 stand (AA reads -S- as none too, but "
        "only at a differential low enough for 2D6 to reach a -S- cell)",
    ),
}

ROWS = """
flank | | a shot hits the flank or rear (armour halved) | Stands and facing · 000 07.08.01, 001 7.3.1 | |
move | | a stand moves | Movement · 000 08.03 | |
move-entered | | a stand enters the table | Movement (000 08.01-08.03) · entering the table (RD) | |
move-hill | | a move pays a slope or hilltop step (+1) | Movement · 000 09.00.01 | hill | no played map has a hill
road-T | | a tracked stand moves along a road at the road rate | Movement · 000 09.00.01; 002 chart § | road | no played map has a road
road-W | | a wheeled stand moves along a road at the road rate | Movement · 000 09.00.01; 002 chart § | road+W | no played map has both a road and a wheeled unit
road-F | | a foot stand moves along a road | Movement · 000 09.00.01; 002 chart § | road+F | no played map has both a road and a foot unit
wheeled-clear | | a wheeled stand moves across clear ground | Movement · 002 chart (W column) | class:W | no played scenario fields a wheeled unit
wheeled-clear-2mp | | a wheeled stand's move wholly on flat clear ground (over 1") pays 2 MP an inch | Movement · 002/004 chart (W column: clear 2) | class:W | no played scenario fields a wheeled unit
foot-move | | a foot stand moves | Movement · 002 chart (F column) | class:F | no played scenario fields a foot unit
facing-only | | a stand only turns (a move of no length) | Movement · 001 8.1.3; RD Movement | |
stop-mp | | a move stops for want of movement points | Movement · 000 08.03.03 | |
stop-overlap | | a move is walked back off another stand | Movement · 000 08.03.05, 001 8.3.5 | |
stop-enemy | | a move stops against an enemy stand | Movement · 001 8.3.6; RD | |
pass-through-passed | | a stand passes its nerve roll (+3) and drives through an enemy | Movement · 001 8.3.6 | ruleset:wwii | no wwii scenario was played
pass-through-failed | | a stand fails its nerve roll to pass through an enemy | Movement · 001 8.3.6 | ruleset:wwii | no wwii scenario was played
regroup | | a side moves a stand to another battle group in the set-up | Sequence of play, Modern · 000 08.01.01 | |
initiative-tie | | an initiative tie is re-rolled | Sequence of play · 000 05.00 step 1; 001 5.0 step 1 | |
fire1 | | a TL4/TL5 stand fires in the 1st fire phase | Sequence of play, Modern · 000 05.00 step 2 | modern:tl4, modern:tl5, modern-full:tl4, modern-full:tl5 | no played Modern scenario fields a TL4 or TL5 stand
fire-twice | | a stand fires in both the 1st and the 2nd fire phase | Sequence of play, Modern · 000 05.00 steps 2-3 | modern:tl4, modern:tl5, modern-full:tl4, modern-full:tl5 | no played Modern scenario fields a TL4 or TL5 stand
modern-tl2-fire-move | | a TL2 stand fires, then moves the same turn (Modern) | Movement (000 08.01-08.03) · 000 05.00 step 4 | modern:tl2, modern-full:tl2 | no played Modern scenario fields a TL2 stand
group-many | | a movement group of two or more stands is declared | Sequence of play, WWII · 001 5.0 step 2 | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
group-single | | a one-stand movement group is declared | Sequence of play, WWII · 001 5.0 step 2 | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
entry-posture | | stands waiting to enter are put in the movement posture | Sequence of play, WWII · 001 5.0 step 2; RD Entering the table | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
of-no-effect-no-roll | | WWII: an opportunity attack without effect, the mover goes on without a roll | Sequence of play, WWII · 001 7.4.4 | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
of-effect-roll | | WWII: an opportunity attack with an effect, the mover rolls to go on | Sequence of play, WWII · 001 7.4.4 | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
covering | | covering fire answers an opportunity attack (+3) | Sequence of play, WWII · 001 7.5 | ruleset:wwii, ruleset:wwii-47 | no WWII scenario was played
fire-standard | | a standard attack's combat event | Fire · 000 07.02 | |
fire-cohesion-failed | | a firer fails its cohesion roll | Fire · 000 07.03.01 | |
fire-sd | | a suppressed or disorganized firer rolls (+4 S, +3 D) | Fire · 000 07.03.01 | |
nat1 | | a natural 1 passes a roll whose total is over the level | Fire · 002/004 cards; RD Cohesion | | a natural 1 decides a roll only when its modifiers reach the cohesion level (+14 to +16: S and D, smoke and heavy cover at once)
nat20 | | a natural 20 fails a roll whose total is within the level | Fire · 002/004 cards; RD Cohesion | | a natural 20 decides a roll only when its modifiers are -4 to -6 or lower (two or three HQs in one moving group)
atgm-fire | | an ATGM fires (+2 TL3, +1 TL4 on cohesion) | Fire · 000 07.03.01 | atgm | no played scenario fields an ATGM
atgm-depleted | | an ATGM shot depletes its stand | Fire · 000 07.03.03 | atgm | no played scenario fields an ATGM
hilltop | | a target on a hilltop above the firer (+2) | Fire · chart **; RD Hills | hill | no played map has a hill
wreck | | a target on a wreck (+1) | Fire · 000 09.01 | |
@cover
smoke-fire | | a line of fire into or out of smoke (+3) | Full games: artillery, smoke and air strikes · 002 smoke (RD) | smoke | no played scenario has artillery to fire smoke
above9-modern | | a differential above +9 (Modern: E) | Fire · 000 CRT notes | modern:above9, modern-full:above9 | no firepower of the played Modern scenarios exceeds an enemy's halved defence by 10
above9-wwii | | a differential above +9 (WWII: read as +9) | Fire · 001 CRT; 004 CRT notes | wwii:above9, wwii-47:above9 | no firepower of the played WWII scenarios exceeds an enemy's halved defence by 10
ap-armoured | | AP fire at an armoured target | Units beyond tanks · 000 07.02.05 | full | no full-game scenario was played
he-personnel | | HE fire at a personnel target | Units beyond tanks · 000 07.02.05 | personnel | no played scenario fields a personnel unit
personnel-halved | | a moving personnel target's defence is halved | Units beyond tanks · 002 fire step 3 | personnel | no played scenario fields a personnel unit
moving-target-code | | a `moving_target` modifier in a log line | Fire · event-log.md modifier codes | | no rule of the four rulesets is a die modifier for a moving target: marsh's -1 is logged as terrain:marsh (a row above) and moving personnel's halving as defense < defense_base
opportunity | | an opportunity attack's combat event | Movement · 000 07.06.05 | |
of-stop | | a mover stopped by opportunity fire | Movement · 000 07.06.05 | |
of-goon-passed | | a mover passes its roll to go on after opportunity fire | Movement · 000 07.06.05 | |
of-goon-failed | | a mover fails its roll to go on and stops | Movement · 000 07.06.05 | |
orders | | a side rolls for orders | Movement (orders) · 000 08.02.01 | |
orders-zero-roll | | an orders roll under 4 gives no orders | Movement (orders) · 002 command table | |
ghq-lost:{rs} | modern, modern-full, wwii, wwii-47 | a side whose GHQ is gone gets no orders ({rs}) | @orders | ruleset:{rs} | no {rs} scenario was played
attempt-ordered | | an ordered movement attempt | Movement (attempts) · 000 08.02 | |
attempt-independent | | an independent movement attempt (+3) | Movement (attempts) · 000 08.02.08, 08.02.10 | |
attempt-hq | | a movement attempt with an HQ or GHQ in the group (-2 each) | Movement (attempts) · 000 08.02.03 | |
attempt-sd | | a suppressed or disorganized stand's movement roll (+4 S, +3 D) | Movement (attempts) · 000 08.02 | |
attempt-failed | | a whole group fails its movement roll | Movement (attempts) · 000 08.02 | |
stragglers | | stragglers: some stands of a group fail while others pass | Movement (attempts) · 000 08.02.09, 001 8.2.7 | |
straggler-group | | a straggler group (2') tries again | Movement (attempts) · 000 08.02.09; RD | |
attempt-recon | | a recon group moves without an order and without the +3 | Full Modern: movement · 002 movement cohesion chart | flag:recon | no played scenario fields a recon unit
attempt-wire | | a stand in barbed wire tries to move (+1) | Full Modern: movement · 002 chart note | terrain:barbed_wire | no played map has barbed wire
attempt-minefield | | a stand in a minefield tries to move (+2) | Full Modern: movement · 002 chart note | terrain:minefield | no played map has a minefield
002-tl1-move | | a TL1 stand is declared into the movement posture (Modern full) | Full Modern: sequence · 002 step 1, check list note 1 | modern-full:tl1 | no played modern-full scenario fields a TL1 stand
002-tl1-fire | | a TL1 stand takes the firing posture (Modern full) | Full Modern: sequence · 002 step 1, check list note 1 | modern-full:tl1 | no played modern-full scenario fields a TL1 stand
002-tl1-moved | | a TL1 stand moves after its entry turn (Modern full) | Full Modern: sequence · 002 step 1 | modern-full:tl1 | no played modern-full scenario fields a TL1 stand
fire3 | | a TL5 stand fires in the 3rd fire phase | Full Modern: sequence · 002 step 7 | modern-full:tl5 | no played modern-full scenario fields a TL5 stand
start-aboard | | a scenario starts a stand aboard a carrier | Transport · RD Transport | carrier | no played scenario fields a carrier
mount | | a personnel stand boards a carrier | Transport · RD Transport | carrier | no played scenario fields a carrier
unload | | a carrier sets its rider down | Transport · RD Transport | carrier | no played scenario fields a carrier
rider-lost | | a rider is lost with its carrier (failed roll) | Transport · RD Transport | carrier | no played scenario fields a carrier
rider-survived | | a rider survives its carrier, disorganized | Transport · RD Transport | carrier | no played scenario fields a carrier
overrun:{rs} | full | a vehicle overruns an enemy stand ({rs}) | @overrun | ruleset:{rs} | no {rs} scenario was played
ov-def-passed:{rs} | full | overrun: the defender passes its roll ({rs}) | @overrun | ruleset:{rs} | no {rs} scenario was played
ov-def-failed:{rs} | full | overrun: the defender fails and is attacked at +6 ({rs}) | @overrun | ruleset:{rs} | no {rs} scenario was played
ov-att-failed:{rs} | full | overrun: the attacker fails and is attacked at +2 ({rs}) | @overrun | ruleset:{rs} | no {rs} scenario was played
ov-tracked:{rs} | full | overrun: +3 to the defender against a tracked vehicle ({rs}) | @overrun | ruleset:{rs} | no {rs} scenario was played
ov-ifv:{rs} | modern-full | overrun: +2 to the defender against an IFV carrying troops ({rs}) | @overrun | {rs}:carrier | no played {rs} scenario fields a carrier
ov-wheeled:{rs} | full | overrun by a wheeled vehicle, without the +3 ({rs}) | @overrun | {rs}:class:W | no played {rs} scenario fields a wheeled vehicle
ca:{rs} | full | a close assault ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-def-moving:{rs} | full | close assault: the defender carries a movement marker and does not roll ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-def-failed:{rs} | full | close assault: the defender fails its roll ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-def-reply:{rs} | full | close assault: the defender replies at -3 ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-ass-failed:{rs} | full | close assault: an assaulter fails its roll ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-ass-attack:{rs} | full | close assault: an assaulter attacks at -3 ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-engineer:{rs} | full | close assault: an engineer's further -3 ({rs}) | @assault | {rs}:flag:engineer | no played {rs} scenario fields engineers
ca-type-s:{rs} | full | close assault: type S infantry's further -3 ({rs}) | @assault | {rs}:flag:type_s | no played {rs} scenario fields type S infantry
ca-cavalry:{rs} | full | close assault: cavalry (002 -3; 004 doubled) ({rs}) | @assault | {rs}:flag:cavalry | no played {rs} scenario fields cavalry
ca-closing:{rs} | modern-full | close assault: -1 for closing the range ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-range:{rs} | wwii-47 | close assault: the 1" band (-1) at 0" ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-retreat:{rs} | wwii-47 | close assault: the disorganized defender falls back 1" ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
ca-no-room:{rs} | wwii-47 | close assault: the disorganized defender has no room and is eliminated ({rs}) | @assault | ruleset:{rs} | no {rs} scenario was played
plot-he:{rs} | full | an HE mission is plotted ({rs}) | @plot | {rs}:flag:artillery | no played {rs} scenario fields artillery
plot-smoke:{rs} | full | a smoke mission is plotted ({rs}) | @plot | {rs}:flag:artillery | no played {rs} scenario fields artillery
art-direct:{rs} | full | direct artillery fires ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
art-indirect:{rs} | full | an indirect mission lands ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
art-firer-failed:{rs} | full | an artillery firer fails its cohesion roll and lays no marker ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
art-not-fired:{rs} | full | a plotted firer does not fire: out of range, gone or moving ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
dev-rolled:{rs} | full | a deviation roll ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
deviated:{rs} | full | a mission deviates: 1D8 direction, 1D8/2" ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
mortar-deviation:{rs} | full | direct fire by a mortar rolls for deviation ({rs}) | @art | {rs}:flag:mortar | no played {rs} scenario fields a mortar
impact-landing:{rs} | full | a marker lands on a stand: impact on landing ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
impact-entered:{rs} | full | a stand drives into an impact marker ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
impact-below-crt:{rs} | full | an impact below -3: S without dice ({rs}) | @art | {rs}:below-crt | no artillery of the played {rs} scenarios is 4 or more below any stand's halved defence
smoke-fired:{rs} | full | smoke is laid ({rs}) | @art | {rs}:flag:artillery | no played {rs} scenario fields artillery
plot-air:{rs} | full | an air strike is plotted ({rs}) | @air | {rs}:air | no played {rs} scenario gives a side air support
air-attack:{rs} | full | an air strike arrives and attacks ({rs}) | @air | {rs}:air | no played {rs} scenario gives a side air support
air-cancelled:{rs} | full | an air strike fails its arrival roll: cancelled ({rs}) | @air | {rs}:air | no played {rs} scenario gives a side air support
air-friendly:{rs} | full | an air strike attacks its own side ({rs}) | @air | {rs}:air | no played {rs} scenario gives a side air support
air-deviated:{rs} | full | an air strike deviates ({rs}) | @air | {rs}:air | no played {rs} scenario gives a side air support
air-no-target:{rs} | full | an air strike finds no stand ({rs}) | @air | | the target is the nearest active stand anywhere on the table, and there is one while the battle goes on
air-tie:{rs} | full | an air strike's target is chosen by a die: a tie ({rs}) | @air | | two stands' centres must be equally far, to 1e-6 inch, from where the aircraft comes down
aa-fire:{rs} | modern-full | an AA stand rolls to fire at an aircraft ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
aa-hit:{rs} | modern-full | AA fire has an effect on an aircraft ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
shot-down-in:{rs} | modern-full | an aircraft is shot down flying in ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
shot-down-out:{rs} | modern-full | an aircraft is shot down flying out ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
flak-mod:{rs} | wwii-47 | a flak stand adds to the arrival roll: +1, +2 over 40 mm ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
flak-failed:{rs} | wwii-47 | a flak stand fails its cohesion roll and adds nothing ({rs}) | @air | {rs}:air+aa | no played {rs} scenario has both air support and AA
004-tl1-move-posture | | a TL1 stand is declared into the movement posture (wwii-47) | Wehrmacht '47: posture · 004 step 2 | wwii-47:tl1 | no played wwii-47 scenario fields a TL1 stand
004-tl2-move-posture | | a TL2 stand is declared into the movement posture (wwii-47) | Wehrmacht '47: posture · 004 step 2 | wwii-47:tl2 | no played wwii-47 scenario fields a TL2 stand
004-tl1-moved | | a TL1 stand moves after its entry turn (wwii-47) | Wehrmacht '47: posture · 004 step 2 | wwii-47:tl1 | no played wwii-47 scenario fields a TL1 stand
004-tl2-moved | | a TL2 stand moves after its entry turn (wwii-47) | Wehrmacht '47: posture · 004 step 2 | wwii-47:tl2 | no played wwii-47 scenario fields a TL2 stand
004-tl2-fire-move | | a TL2 stand fires, then moves the same turn (wwii-47) | Wehrmacht '47: posture · 004 steps 2, 6 | wwii-47:tl2 | no played wwii-47 scenario fields a TL2 stand
004-tl2-half | | a TL2 stand that fired moves with at most half its allowance, rounded up to 0.5" (wwii-47) | Wehrmacht '47: posture · 004 step 6 | wwii-47:tl2 | no played wwii-47 scenario fields a TL2 stand
mr-recovered | | marker removal: S removed (recover) | Marker removal · 000 07.07 | |
mr-rallied | | marker removal: a natural 1 removes S and D (rally) | Marker removal · 000 07.07 | |
mr-panic | | marker removal: a natural 20, an immediate (S) (panic) | Marker removal · 000 07.07 | |
mr-panic-eliminated | | marker removal: a panic eliminates a stand already S and D | Marker removal · 000 07.07 | |
mr-none | | marker removal: the roll removes nothing | Marker removal · 000 07.07 | |
resupply-passed | | an ATGM stand resupplies (+4) | Marker removal · 000 07.03.04 | atgm | no played scenario fields an ATGM
resupply-failed | | an ATGM stand fails to resupply | Marker removal · 000 07.03.04 | atgm | no played scenario fields an ATGM
win-early | | a side wins before the last turn | Victory · seed scenario sheets; RD | |
win-last | | a side wins at the end of the last turn | Victory · seed scenario sheets; RD | |
draw | | the last turn ends in a draw | Victory · seed scenario sheets; RD | |
@crt
"""


@dataclass(frozen=True)
class Row:
    """One rule of the report: ``key`` (stable, as the scanner counts it), ``rule`` (what happened,
    in words), ``where`` (docs/rules.md section · rule number), ``needs`` (facts of the played
    battles, any one of which makes it possible; empty: always possible) and ``why`` (the reason
    a 0 is no finding: without ``needs``, always; with them, when none is present)."""

    key: str
    rule: str
    where: str
    needs: tuple[str, ...] = ()
    why: str = ""


def _expand(line: str) -> list[Row]:
    """The rows of one line of ``ROWS``: one, or one per ruleset for a ``{rs}`` key."""
    key, rulesets, rule, where, needs, why = (f.strip() for f in line.split("|"))
    names = {"full": "modern-full, wwii-47", "": ""}.get(rulesets, rulesets)
    out = []
    for rs in [r.strip() for r in names.split(",") if r.strip()] or [""]:
        w = WHERE[where[1:]][rs] if where.startswith("@") else where
        out.append(
            Row(
                key.format(rs=rs),
                rule.format(rs=rs),
                w,
                tuple(n.strip().format(rs=rs) for n in needs.split(",") if n.strip()),
                why.format(rs=rs),
            )
        )
    return out


def beyond_reasons(data) -> dict[str, str]:
    """Why a Modern chart's last effect (``beyond``, +4) cannot come up with the unit data at all,
    by ruleset: the band starts past each tech level's last inch, and no weapon of the data
    (``data``: ``load_rules_data()``; the ruleset's tank table and support rows, ATGMs aside,
    which ignore range effects, rules-decisions "ATGM") reaches it. Empty for a ruleset where
    some unit's gun does reach it (000 07.08.02)."""
    out = {}
    for rs in ("modern", "modern-full"):
        longest: dict[int, int] = {}
        for u in data.units_for(rs).values():
            reach = getattr(u, "gun_range", None) or getattr(u, "cannon_range", 0) or 0
            longest[u.tech_level] = max(longest.get(u.tech_level, 0), int(reach))
        starts = {tl: data.range_chart(rs, tl).bands[-1][0] + 1 for tl in longest}
        if any(reach >= starts[tl] for tl, reach in longest.items()):
            continue
        parts = "; ".join(
            f'TL{tl}: from {starts[tl]}", longest gun {longest[tl]}"' for tl in sorted(longest)
        )
        out[rs] = (
            "no gun in the unit tables (GHQ's rows and the house rows) reaches the band "
            f"({parts}); an ATGM ignores range effects"
        )
    return out


def range_rows(beyond: dict[str, str] | None = None) -> list[Row]:
    """A row for each range effect of each ruleset's chart (wwii-47: of each tech level's);
    ``beyond`` gives a ruleset's reason for its last band from :func:`beyond_reasons`."""
    rows = []
    for rs, buckets in RANGE_BUCKETS.items():
        for tl in ("tl1", "tl2") if rs == "wwii-47" else ("",):
            for b in buckets:
                key = f"range:{rs}:{tl}:{b}"
                chart = f" {tl.upper()} chart" if tl else ""
                why = (
                    "no weapon of the played scenarios reaches that band within its range and sight"
                )
                if b == buckets[-1] and rs in (beyond or {}):
                    why = (beyond or {})[rs]
                rows.append(
                    Row(
                        key,
                        f"range effect {b} on a shot ({rs}{chart})",
                        WHERE["range"][rs],
                        (key,),
                        why,
                    )
                )
    return rows


def cover_rows(terrain: dict) -> list[Row]:
    """A row for each area of the terrain effects chart with an effect on fire at a target in
    it (``terrain``: ``load_rules_data().terrain``); smoke has its own rows."""
    return [
        Row(
            f"cover:{kind}",
            f"a target in {t.name.lower()}: its chart effect ({t.combat_vehicle:+d}, personnel "
            f"{t.combat_personnel:+d})",
            "Fire · the target's terrain effects (002 chart)",
            (f"terrain:{kind}",),
            f"no played map has {t.name.lower()}",
        )
        for kind, t in sorted(terrain.items())
        if kind != "smoke" and t.geometry == "area" and (t.combat_vehicle or t.combat_personnel)
    ]


def crt_row(rs: str, cell: str, result: str) -> Row:
    """The row of a CRT cell and what it did (``result``) in a ruleset; one the card does not
    foresee says so, and a count there is a finding."""
    foreseen = result in CRT_CELLS.get(rs, {}).get(cell, ())
    note = CRT_NOTES.get((rs, cell, result), "") if foreseen else ": **not a reading of the card**"
    needs, why = CRT_NEEDS.get(
        (rs, cell, result), ((f"ruleset:{rs}",), f"no {rs} scenario was played")
    )
    return Row(
        f"crt:{rs}:{cell}:{result}",
        f"CRT cell `{cell}` gives {result} ({rs}){note}",
        WHERE["crt"].get(rs, "Fire · CRT"),
        needs if foreseen else (),
        why if foreseen else "",
    )


def build_rows(terrain: dict, beyond: dict[str, str] | None = None) -> list[Row]:
    """Every row of the report in docs/rules.md's order (``ROWS``, with the range rows first
    after the flank's, the cover rows and the CRT's where ``ROWS`` places them); ``terrain`` is
    the terrain effects chart (``load_rules_data().terrain``), ``beyond`` the reasons of
    :func:`beyond_reasons`."""
    rows: list[Row] = []
    for line in ROWS.strip().splitlines():
        if line == "@cover":
            rows += cover_rows(terrain)
        elif line == "@crt":
            rows += [
                crt_row(rs, cell, result)
                for rs, cells in CRT_CELLS.items()
                for cell, results in cells.items()
                for result in results
            ]
        else:
            rows += _expand(line)
            if rows[-1].key == "flank":
                rows += range_rows(beyond)
    return rows
