"""Stands drawn as their 1/285 models seen from above on a painted base: a tank's hull,
turret and gun along its facing, an IFV or APC, a truck, infantry as a few figures, a gun with
its crew, AA, and a pennant on a headquarters' base, all in the side's colours. The base is
the stand's 1"x1" footprint: flocked, rimmed in the side's colour, its front edge a light
band (facing decides the rules).

Each model is painted once, facing right (east, the table's 0 degrees) at twice the size it is
shown, and kept per (model, colour, pixels an inch, headquarters); turned to a whole degree of
facing (smoothed while small, :data:`SMOOTH_TURN_PX`) and kept again. Nothing here
computes a rule: the model is picked from the unit's data row only.
Units: inches on the table, pixels on the screen.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable

import pygame

STYLES = ("models", "symbols")
"""The stand styles: painted models, or the flat tokens with NATO symbols."""
WRECK = (60, 60, 60)
"""A wreck's burnt paint (the colour the flat style gives a wreck too)."""
FRONT = (245, 240, 215)
"""The light band along a base's front edge."""
INK = (25, 25, 22)
TRACK = (52, 50, 44)
FLOCK = (128, 134, 88)
LEAST_DETAIL_PX = 16.0
"""Below this many pixels an inch a stand is drawn as a plain base in its side's colour with
its front edge: the model's details would be single pixels."""
MAGNIFY = 1.18
"""How much larger than its base's scale a model is drawn (legibility at 20 px an inch)."""
OVERHANG = 1.5
"""Inches of a model's sprite on a side before it is turned: a gun overhangs its base."""
_MAX_KEPT = 4000
SMOOTH_TURN_PX = 72
"""Sprites up to this many pixels a side are turned with smoothing (rotozoom); larger ones,
zoomed in, plainly (rotate: a fifth of the time: the first frame at a new zoom)."""

_BASE: dict[tuple, pygame.Surface] = {}
_TURNED: dict[tuple, pygame.Surface] = {}


def model_kind(unit, name: str = "") -> str:
    """The model a unit's row is painted as: "tank", "casemate" (fires into its front
    arc only), "ifv", "apc", "halftrack", "truck", "scout_car", "wheeled_apc", "sp_gun",
    "spaa", "infantry", "engineers", "cavalry", "atgm_team", "at_gun", "howitzer", "mortar", "aa_gun",
    "aa_gun_heavy". Read from the row's defence class, flags, carrier, movement class and
    weapons; ``name`` (the unit's name) only tells a halftrack from a tracked carrier. A
    unit of None (not known) is a tank."""
    if unit is None:
        return "tank"
    flags = getattr(unit, "flags", frozenset())
    name = (getattr(unit, "name", "") or name).lower()
    wheeled = getattr(unit, "movement_class", "T") == "W"
    if getattr(unit, "defense_class", "armoured") == "personnel":
        if "aa" in flags:
            return "aa_gun_heavy" if "aa_heavy" in flags else "aa_gun"
        if "mortar" in flags:
            return "mortar"
        if "artillery" in flags:
            return "howitzer"
        if "support" in flags:
            return "at_gun"
        if "engineer" in flags:
            return "engineers"
        if "cavalry" in flags:
            return "cavalry"
        if getattr(unit, "atgm", None) is not None and getattr(unit, "ap_attack", 0) is None:
            return "atgm_team"
        return "infantry"
    halftrack = "halftrack" in name or "sdkfz 25" in name or "mgmc" in name
    if "aa" in flags:
        return "spaa"
    if "artillery" in flags:
        return "sp_gun"
    carrier = getattr(unit, "carrier", 0)
    if halftrack:
        return "halftrack"
    if wheeled:
        if carrier:
            return "truck" if getattr(unit, "tech_level", 3) == 1 else "wheeled_apc"
        return "scout_car"
    if carrier or "recon" in flags:
        strong = (getattr(unit, "ap_attack", 0) or 0) >= 8 or getattr(unit, "atgm", None)
        return "ifv" if strong else "apc"
    if getattr(unit, "facing_restricted", False):
        return "casemate"
    return "tank"


def shade(colour, f: float) -> tuple[int, int, int]:
    """``colour`` darker (``f`` < 1) or lighter towards white (``f`` > 1)."""
    if f <= 1:
        return tuple(int(c * f) for c in colour[:3])
    return tuple(int(c + (255 - c) * (f - 1)) for c in colour[:3])


class _Pen:
    """Draws in a model's own inches on its (unturned) sprite: ``fx`` forward (right on the
    sprite), ``fy`` to the model's left (up on the sprite), (0, 0) the stand's centre."""

    def __init__(self, surface: pygame.Surface, k: float):
        self.s = surface
        self.k = k  # pixels an inch (the model's own, see ``m``)
        self.base_k = k
        self.c = surface.get_width() / 2

    def magnify(self, m: float) -> None:
        """Draw what follows ``m`` times its size about the centre (1: the base's own): the
        models are a little larger than their scale so they read at 20 px an inch."""
        self.k = self.base_k * m

    def p(self, fx: float, fy: float) -> tuple[float, float]:
        """The sprite pixel of a point in inches."""
        return (self.c + fx * self.k, self.c - fy * self.k)

    def poly(self, colour, pts, outline=INK) -> None:
        """A filled polygon, outlined."""
        px = [self.p(*q) for q in pts]
        pygame.draw.polygon(self.s, colour, px)
        if outline is not None:
            pygame.draw.polygon(self.s, outline, px, max(1, int(self.k / 40)))

    def box(self, colour, x0, y0, x1, y1, outline=INK) -> None:
        """A rectangle from (x0, y0) to (x1, y1) inches."""
        self.poly(colour, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], outline)

    def disc(self, colour, fx, fy, r, outline=INK) -> None:
        """A circle of radius ``r`` inches."""
        c = self.p(fx, fy)
        pygame.draw.circle(self.s, colour, c, max(1.0, r * self.k))
        if outline is not None and r * self.k > 3:
            pygame.draw.circle(self.s, outline, c, r * self.k, max(1, int(self.k / 40)))

    def line(self, colour, a, b, w: float) -> None:
        """A line ``w`` inches wide."""
        pygame.draw.line(self.s, colour, self.p(*a), self.p(*b), max(1, round(w * self.k)))


def _raised(pen, c, pts) -> None:
    """A turret or superstructure in the model's colour, its shadow cast back and right."""
    pen.poly(shade(c, 0.55), [(x - 0.03, y - 0.03) for x, y in pts], None)
    pen.poly(c, pts)


def _raised_disc(pen, c, fx, fy, r) -> None:
    """A round turret or mount in the model's colour with its shadow."""
    pen.disc(shade(c, 0.55), fx - 0.03, fy - 0.03, r, None)
    pen.disc(c, fx, fy, r)


def _tracks(pen, x0, x1, half, w=0.09) -> None:
    for sgn in (1, -1):
        y0, y1 = sgn * half, sgn * (half - w)
        pen.box(TRACK, x0, y0, x1, y1)
        n = max(2, int((x1 - x0) / 0.08))
        for i in range(1, n):  # the track's links
            x = x0 + (x1 - x0) * i / n
            pen.line(shade(TRACK, 1.5), (x, y0), (x, y1), 0.012)


def _wheels(pen, xs, half) -> None:
    for x in xs:
        for sgn in (1, -1):
            pen.box(TRACK, x - 0.06, sgn * half, x + 0.06, sgn * (half - 0.07))


def _gun(pen, x0, x1, w, y=0.0, brake=True) -> None:
    pen.line(INK, (x0, y), (x1, y), w + 0.025)
    pen.line(shade(TRACK, 1.2), (x0, y), (x1, y), w)
    if brake:
        pen.box(INK, x1 - 0.05, y - w, x1, y + w, None)


def _tank(pen, c, casemate=False, hull_only=False) -> None:
    _tracks(pen, -0.4, 0.36, 0.25)
    pen.poly(
        c, [(-0.38, 0.17), (0.3, 0.17), (0.36, 0.1), (0.36, -0.1), (0.3, -0.17), (-0.38, -0.17)]
    )
    for i in range(3):  # the engine deck's grilles
        x = -0.34 + 0.05 * i
        pen.line(shade(c, 0.6), (x, 0.1), (x, -0.1), 0.015)
    if hull_only:
        return
    if casemate:  # a fixed superstructure, the gun in its front plate
        _raised(pen, c, [(-0.12, 0.15), (0.22, 0.13), (0.26, 0.0), (0.22, -0.13), (-0.12, -0.15)])
        _gun(pen, 0.24, 0.62, 0.045)
        return
    _raised(
        pen,
        c,
        [(-0.2, 0.13), (0.06, 0.15), (0.16, 0.08), (0.16, -0.08), (0.06, -0.15), (-0.2, -0.13)],
    )
    pen.disc(shade(c, 0.75), -0.08, 0.06, 0.045)  # the commander's hatch
    _gun(pen, 0.16, 0.66, 0.04)


def _carrier(pen, c, turret: bool) -> None:
    _tracks(pen, -0.42, 0.34, 0.25)
    pen.poly(
        c, [(-0.42, 0.17), (0.2, 0.17), (0.36, 0.08), (0.36, -0.08), (0.2, -0.17), (-0.42, -0.17)]
    )
    pen.line(shade(c, 0.6), (-0.36, 0.14), (-0.36, -0.14), 0.02)  # the rear ramp
    pen.box(shade(c, 0.8), -0.3, 0.12, -0.12, 0.03)  # roof hatches
    pen.box(shade(c, 0.8), -0.3, -0.03, -0.12, -0.12)
    if turret:
        _raised(pen, c, [(-0.06, 0.1), (0.1, 0.1), (0.14, 0.0), (0.1, -0.1), (-0.06, -0.1)])
        _gun(pen, 0.12, 0.46, 0.025, brake=False)
    else:
        _raised_disc(pen, c, 0.05, 0.06, 0.06)  # the cupola and its machine gun
        _gun(pen, 0.08, 0.28, 0.018, y=0.06, brake=False)


def _wheeled(pen, c, kind) -> None:
    if kind == "truck":
        _wheels(pen, (-0.3, -0.14, 0.24), 0.2)
        pen.box(shade(c, 0.85), -0.42, 0.17, 0.08, -0.17)  # the cargo bed
        for x in (-0.32, -0.2, -0.08):
            pen.line(shade(c, 0.6), (x, 0.16), (x, -0.16), 0.012)
        pen.box(c, 0.12, 0.15, 0.3, -0.15)  # the cab
        pen.box(shade(c, 1.3), 0.24, 0.12, 0.29, -0.12)  # its windscreen
        pen.box(c, 0.3, 0.1, 0.42, -0.1)  # the bonnet
        return
    axles = (-0.3, -0.12, 0.06, 0.24) if kind == "wheeled_apc" else (-0.22, 0.18)
    _wheels(pen, axles, 0.23)
    pen.poly(
        c, [(-0.4, 0.16), (0.24, 0.16), (0.4, 0.06), (0.4, -0.06), (0.24, -0.16), (-0.4, -0.16)]
    )
    _raised_disc(pen, c, -0.02, 0.0, 0.08)
    _gun(pen, 0.04, 0.34, 0.02, brake=False)


def _halftrack(pen, c, aa=False) -> None:
    _tracks(pen, -0.4, 0.0, 0.24, 0.08)
    _wheels(pen, (0.26,), 0.22)
    pen.box(c, -0.4, 0.16, 0.16, -0.16)  # the open troop compartment
    pen.box(shade(c, 0.7), -0.34, 0.11, 0.08, -0.11, None)
    pen.poly(
        c, [(0.16, 0.14), (0.34, 0.1), (0.44, 0.06), (0.44, -0.06), (0.34, -0.1), (0.16, -0.14)]
    )
    if aa:  # the quad mount
        _raised_disc(pen, c, -0.12, 0.0, 0.11)
        for y in (-0.07, -0.025, 0.025, 0.07):
            _gun(pen, -0.06, 0.22, 0.014, y=y, brake=False)
    else:
        for x in (-0.26, -0.1):  # heads of the men aboard
            pen.disc((120, 100, 70), x, 0.05, 0.035, None)
            pen.disc((120, 100, 70), x + 0.04, -0.05, 0.035, None)
        _gun(pen, 0.1, 0.24, 0.014, y=0.05, brake=False)


def _sp_gun(pen, c) -> None:
    _tracks(pen, -0.42, 0.36, 0.25)
    pen.poly(
        c, [(-0.42, 0.17), (0.28, 0.17), (0.36, 0.1), (0.36, -0.1), (0.28, -0.17), (-0.42, -0.17)]
    )
    _raised(
        pen, c, [(-0.38, 0.16), (0.02, 0.16), (0.02, -0.16), (-0.38, -0.16)]
    )  # a big boxy turret to the rear
    pen.line(shade(c, 0.7), (-0.3, 0.12), (-0.3, -0.12), 0.02)
    _gun(pen, 0.02, 0.68, 0.05)


def _spaa(pen, c, wheeled: bool) -> None:
    if wheeled:
        _wheels(pen, (-0.22, 0.2), 0.22)
        pen.box(c, -0.36, 0.17, 0.38, -0.17)
    else:
        _tracks(pen, -0.4, 0.36, 0.25)
        pen.box(c, -0.38, 0.17, 0.36, -0.17)
    _raised_disc(pen, c, -0.08, 0.0, 0.13)
    for y in (0.17, -0.17):  # missile pods either side of the mount
        pen.box(shade(c, 0.8), -0.2, y - 0.04, 0.06, y + 0.04)
        for x in (-0.15, -0.09, -0.03, 0.03):
            pen.disc(INK, x, y, 0.012, None)
    pen.disc((200, 200, 190), -0.18, 0.0, 0.05)  # the radar dish
    for y in (0.05, -0.05):
        _gun(pen, 0.0, 0.36, 0.018, y=y, brake=False)


def _figure(pen, fx, fy, c, weapon=True) -> None:
    """One man from above: shoulders, his rifle and his helmet."""
    if weapon:
        pen.line(INK, (fx, fy - 0.05), (fx + 0.16, fy - 0.03), 0.022)
    pen.poly(
        c,
        [
            (fx - 0.045, fy + 0.085),
            (fx + 0.045, fy + 0.075),
            (fx + 0.045, fy - 0.075),
            (fx - 0.045, fy - 0.085),
        ],
    )
    pen.disc(shade(c, 0.72), fx + 0.01, fy, 0.055)


def _crew(pen, c, spots) -> None:
    for fx, fy in spots:
        _figure(pen, fx, fy, c, weapon=False)


def _infantry(pen, c, kind, rng) -> None:
    spots = [(0.2, 0.24), (0.22, -0.14), (-0.06, 0.04), (-0.24, 0.26), (-0.26, -0.2)]
    if kind == "atgm_team":
        pen.line(INK, (0.24, -0.12), (0.12, 0.0), 0.02)  # the tripod's legs
        pen.line(INK, (0.24, 0.12), (0.12, 0.0), 0.02)
        pen.box(shade(TRACK, 1.3), -0.06, 0.05, 0.32, -0.05)  # the launcher tube
        pen.box((200, 195, 170), -0.28, 0.3, -0.14, 0.18)  # a missile crate
        spots = [(-0.08, 0.2), (-0.14, -0.2)]
    elif kind == "engineers":  # a striped pole of a cleared lane and a crate of charges
        for i in range(6):
            col = (230, 200, 40) if i % 2 == 0 else INK
            pen.line(col, (-0.36 + 0.1 * i, -0.34), (-0.26 + 0.1 * i, -0.34), 0.05)
        pen.box((150, 110, 60), -0.38, 0.32, -0.22, 0.2)
        spots = spots[:4]
    for fx, fy in spots:
        _figure(pen, fx + rng.uniform(-0.03, 0.03), fy + rng.uniform(-0.03, 0.03), c)


HORSES = ((112, 78, 48), (84, 58, 36), (150, 112, 72), (60, 44, 32))  # bay, brown, chestnut, black


def _cavalry(pen, c, rng) -> None:
    """Three horsemen from above, heading to the front: each horse a long body with its
    neck and head ahead and its tail behind, a rider in the side's colour astride it."""
    for fx, fy in ((0.16, 0.22), (0.02, -0.2), (-0.24, 0.12)):
        fx, fy = fx + rng.uniform(-0.02, 0.02), fy + rng.uniform(-0.02, 0.02)
        horse = HORSES[rng.randrange(len(HORSES))]
        pen.line(shade(horse, 0.6), (fx - 0.16, fy), (fx - 0.24, fy + 0.01), 0.03)  # the tail
        body = [(fx + 0.15 * math.cos(t), fy + 0.055 * math.sin(t)) for t in _OVAL]
        pen.poly(horse, body)
        pen.poly(  # the neck and head, reaching forward
            horse,
            [
                (fx + 0.1, fy + 0.03),
                (fx + 0.25, fy + 0.022),
                (fx + 0.27, fy),
                (fx + 0.25, fy - 0.022),
                (fx + 0.1, fy - 0.03),
            ],
        )
        pen.poly(
            c,
            [
                (fx - 0.05, fy + 0.07),
                (fx + 0.03, fy + 0.065),
                (fx + 0.03, fy - 0.065),
                (fx - 0.05, fy - 0.07),
            ],
        )
        pen.disc(shade(c, 0.7), fx - 0.005, fy, 0.03)  # the rider's head


_OVAL = [2 * math.pi * k / 10 for k in range(10)]


def _towed(pen, c, kind) -> None:
    long_gun = kind in ("at_gun", "aa_gun_heavy")
    if kind in ("aa_gun", "aa_gun_heavy"):  # a cruciform platform, the gun on its pivot
        for a, b in (((-0.32, 0.0), (0.32, 0.0)), ((0.0, -0.32), (0.0, 0.32))):
            pen.line(TRACK, a, b, 0.05)
        for q in ((0.32, 0), (-0.32, 0), (0, 0.32), (0, -0.32)):
            pen.disc(TRACK, q[0], q[1], 0.04)
        pen.disc(c, 0.0, 0.0, 0.13)
        if kind == "aa_gun_heavy":
            _gun(pen, 0.0, 0.58, 0.04)
        else:
            pen.disc((205, 200, 180), -0.08, 0.0, 0.05)  # the ring sight
            _gun(pen, 0.05, 0.38, 0.02, brake=False)
        _crew(pen, c, [(-0.22, 0.22), (-0.24, -0.2), (0.2, -0.24)])
        return
    pen.line(TRACK, (-0.05, 0.0), (-0.38, 0.2), 0.04)  # the split trail
    pen.line(TRACK, (-0.05, 0.0), (-0.38, -0.2), 0.04)
    for sgn in (1, -1):
        pen.box(TRACK, -0.09, sgn * 0.2, 0.05, sgn * 0.13)  # the wheels
    pen.box(c, -0.02, 0.19, 0.06, -0.19)  # the shield
    pen.box(c, -0.12, 0.06, 0.06, -0.06)  # the cradle
    if long_gun:
        _gun(pen, 0.06, 0.6, 0.03)
    else:  # a howitzer: a thick short barrel
        _gun(pen, 0.06, 0.42, 0.05, brake=False)
    _crew(pen, c, [(-0.2, 0.3), (-0.3, -0.32), (-0.14, -0.24), (-0.36, 0.06)])


def _mortar(pen, c) -> None:
    pen.disc(TRACK, -0.02, 0.0, 0.1)  # the base plate
    pen.line(INK, (0.14, 0.08), (0.1, 0.0), 0.02)  # the bipod
    pen.line(INK, (0.14, -0.08), (0.1, 0.0), 0.02)
    pen.line(shade(TRACK, 1.3), (-0.02, 0.0), (0.18, 0.0), 0.06)  # the tube, steep
    pen.disc(INK, -0.02, 0.0, 0.035, None)
    for i, y in enumerate((0.26, 0.17)):  # bombs in their boxes
        pen.box((150, 140, 80) if i else (120, 130, 70), -0.36, y, -0.24, y - 0.08)
    _crew(pen, c, [(0.22, 0.26), (-0.14, 0.2), (-0.12, -0.22), (0.22, -0.24)])


_PAINTERS: dict[str, Callable] = {
    "tank": lambda pen, c, r: _tank(pen, c),
    "casemate": lambda pen, c, r: _tank(pen, c, casemate=True),
    "ifv": lambda pen, c, r: _carrier(pen, c, True),
    "apc": lambda pen, c, r: _carrier(pen, c, False),
    "halftrack": lambda pen, c, r: _halftrack(pen, c),
    "truck": lambda pen, c, r: _wheeled(pen, c, "truck"),
    "scout_car": lambda pen, c, r: _wheeled(pen, c, "scout_car"),
    "wheeled_apc": lambda pen, c, r: _wheeled(pen, c, "wheeled_apc"),
    "sp_gun": lambda pen, c, r: _sp_gun(pen, c),
    "spaa": lambda pen, c, r: _spaa(pen, c, False),
    "spaa_wheeled": lambda pen, c, r: _spaa(pen, c, True),
    "spaa_halftrack": lambda pen, c, r: _halftrack(pen, c, aa=True),
    "infantry": lambda pen, c, r: _infantry(pen, c, "infantry", r),
    "engineers": lambda pen, c, r: _infantry(pen, c, "engineers", r),
    "cavalry": lambda pen, c, r: _cavalry(pen, c, r),
    "atgm_team": lambda pen, c, r: _infantry(pen, c, "atgm_team", r),
    "at_gun": lambda pen, c, r: _towed(pen, c, "at_gun"),
    "howitzer": lambda pen, c, r: _towed(pen, c, "howitzer"),
    "aa_gun": lambda pen, c, r: _towed(pen, c, "aa_gun"),
    "aa_gun_heavy": lambda pen, c, r: _towed(pen, c, "aa_gun_heavy"),
    "mortar": lambda pen, c, r: _mortar(pen, c),
}
KINDS = tuple(_PAINTERS)
"""Every model there is (:func:`model_kind` and its variants for wheeled and halftracked AA)."""


def _base(pen, colour, seed: int, wreck: bool) -> None:
    """The 1"x1" base: flock with a little texture, a rim in the side's colour, the front
    edge a light band."""
    flock = WRECK if wreck else FLOCK
    pen.box(flock, -0.5, 0.5, 0.5, -0.5, None)
    rng = random.Random(seed)
    for _ in range(0 if wreck else 40):  # tufts of flock (a wreck's base is burnt bare)
        fx, fy = rng.uniform(-0.46, 0.46), rng.uniform(-0.46, 0.46)
        pen.disc(shade(flock, rng.uniform(0.8, 1.2)), fx, fy, rng.uniform(0.015, 0.035), None)
    rim = 0.08
    for x0, y0, x1, y1 in (
        (-0.5, 0.5, 0.5, 0.5 - rim),
        (-0.5, -0.5 + rim, 0.5, -0.5),
        (-0.5, 0.5, -0.5 + rim, -0.5),
    ):
        pen.box(colour, x0, y0, x1, y1, None)
    pen.box(FRONT, 0.5 - 0.09, 0.5, 0.5, -0.5, None)  # the front edge
    pygame.draw.polygon(
        pen.s, INK, [pen.p(-0.5, 0.5), pen.p(0.5, 0.5), pen.p(0.5, -0.5), pen.p(-0.5, -0.5)], 2
    )


def _pennant(pen, colour, ghq: bool) -> None:
    """A command pennant on its pole at the base's back left corner (two for the GHQ)."""
    for k in range(2 if ghq else 1):
        fx, fy = -0.4 + 0.12 * k, 0.38
        pen.poly((250, 250, 245), [(fx, fy), (fx + 0.2, fy - 0.07), (fx, fy - 0.14)])
        pen.poly(colour, [(fx, fy - 0.035), (fx + 0.11, fy - 0.07), (fx, fy - 0.105)], None)
        pen.disc(INK, fx, fy, 0.025, None)


def _sprite(kind: str, colour, scale: float, hq: int, wreck: bool) -> pygame.Surface:
    """The model on its base facing right, drawn at twice ``scale`` (kept)."""
    key = (kind, tuple(colour[:3]), round(scale, 2), hq, wreck)
    surf = _BASE.get(key)
    if surf is not None:
        return surf
    k = 2 * scale
    side = max(4, int(math.ceil(OVERHANG * k)) // 2 * 2)
    surf = pygame.Surface((side, side), pygame.SRCALPHA)
    surf.fill((0, 0, 0, 0))
    pen = _Pen(surf, k)
    seed = zlib.crc32(kind.encode())
    _base(pen, WRECK if wreck else colour, seed, wreck)
    if scale >= LEAST_DETAIL_PX:
        paint = WRECK if wreck else tuple(colour[:3])
        pen.magnify(MAGNIFY)
        _PAINTERS.get(kind, _PAINTERS["tank"])(pen, paint, random.Random(seed))
        if wreck:  # burnt: scorch marks and a wisp of smoke
            rng = random.Random(seed + 1)
            for _ in range(4):
                pen.disc((25, 22, 20), rng.uniform(-0.3, 0.3), rng.uniform(-0.2, 0.2), 0.06, None)
            pen.magnify(1.0)
            for k in range(3):  # smoke drifting off it
                pen.disc((120, 118, 112), -0.1 - 0.14 * k, 0.12 + 0.1 * k, 0.07 + 0.03 * k, None)
        elif hq:
            pen.magnify(1.0)
            _pennant(pen, colour, hq == 2)
    else:  # zoomed far out: the base in the side's colour, the front band
        pen.box(WRECK if wreck else colour, -0.44, 0.44, 0.41, -0.44, None)
    if len(_BASE) > _MAX_KEPT:
        _BASE.clear()
    _BASE[key] = surf
    return surf


def stand_sprite(
    kind: str, colour, scale: float, facing_deg: float, hq: int = 0, wreck: bool = False
) -> pygame.Surface:
    """The model ``kind`` (:data:`KINDS`) on its base in ``colour``, at ``scale`` pixels an
    inch, turned to ``facing_deg`` (degrees anticlockwise from the table's +x, to the nearest
    whole degree); ``hq`` 1 a headquarters (a pennant), 2 the GHQ (two); ``wreck`` burnt
    out. Centred on its surface (SRCALPHA), kept per all of these."""
    turn = round(facing_deg) % 360
    key = (kind, tuple(colour[:3]), round(scale, 2), hq, wreck, turn)
    surf = _TURNED.get(key)
    if surf is None:
        base = _sprite(kind, colour, scale, hq, wreck)
        if base.get_width() // 2 <= SMOOTH_TURN_PX:
            surf = pygame.transform.rotozoom(base, turn, 0.5)  # turned and halved, smoothly
        else:  # zoomed in: a pixel's step on the edge is small, the smooth turn dear
            key0 = (*key[:5], None)
            half = _TURNED.get(key0)
            if half is None:
                w = base.get_width() // 2
                half = _TURNED[key0] = pygame.transform.smoothscale(base, (w, w))
            surf = pygame.transform.rotate(half, turn)
        if len(_TURNED) > _MAX_KEPT:
            _TURNED.clear()
        _TURNED[key] = surf
    return surf


def paint_stand(
    surface: pygame.Surface,
    view,
    pose,
    colour,
    kind: str = "tank",
    hq: int = 0,
) -> pygame.Rect:
    """Blit a stand as its model on its base at ``pose`` (a StandPose; a wreck burnt out,
    whatever its colour) through ``view`` (table inches to pixels). Returns the rect drawn."""
    sprite = stand_sprite(kind, colour, view.scale, pose.facing_deg, hq, bool(pose.wreck))
    px, py = view.to_px(pose.x, pose.y)
    drawn = surface.blit(sprite, sprite.get_rect(center=(round(px), round(py))))
    if view.scale < FACING_TICK_BELOW_PX and not pose.wreck:  # too small to read its facing
        a = math.radians(pose.facing_deg)
        tip = view.to_px(pose.x + 0.6 * math.cos(a), pose.y + 0.6 * math.sin(a))
        pygame.draw.line(surface, (250, 250, 245), (px, py), tip, 2)
    return drawn


FACING_TICK_BELOW_PX = 20
"""Pixels an inch below which a stand's model also gets a facing tick (a white line from
its centre past its front edge): at the fitted zoom the models read as bare squares."""


_PLANE = [
    (0.5, 0.0),
    (0.42, 0.04),
    (0.08, 0.05),
    (-0.02, 0.5),
    (-0.12, 0.5),
    (-0.1, 0.05),
    (-0.36, 0.04),
    (-0.44, 0.2),
    (-0.5, 0.2),
    (-0.47, 0.0),
]
"""Half an aircraft from above (nose forward, wings swept), span 1; mirrored for the other."""


def aircraft_sprite(colour, span_px: int, heading_deg: float, shadow: bool = False):
    """An aircraft seen from above, ``span_px`` pixels across its wings, in ``colour`` with a
    darker cockpit and roundels, nose along ``heading_deg`` (degrees anticlockwise from the
    table's +x); ``shadow`` its shadow instead (translucent black), to blit offset on the
    ground under it (the air strike flying its path). Kept per all of these."""
    turn = round(heading_deg) % 360
    key = ("aircraft", tuple(colour[:3]), int(span_px), shadow, turn)
    surf = _TURNED.get(key)
    if surf is None:
        size = max(8, int(span_px) * 2)
        art = pygame.Surface((size, size), pygame.SRCALPHA)
        art.fill((0, 0, 0, 0))
        pen = _Pen(art, size * 0.95)
        outline = [*_PLANE, *[(x, -y) for x, y in reversed(_PLANE)]]
        if shadow:
            pen.poly((0, 0, 0, 90), outline, None)
        else:
            pen.poly(tuple(colour[:3]), outline)
            pen.poly(shade(colour, 0.5), [(0.4, 0.0), (0.3, 0.025), (0.22, 0.0), (0.3, -0.025)])
            for y in (0.3, -0.3):  # roundels on the wings
                pen.disc((245, 245, 240), -0.04, y, 0.045, None)
                pen.disc(shade(colour, 0.6), -0.04, y, 0.022, None)
        surf = pygame.transform.rotozoom(art, turn, 0.5)
        _TURNED[key] = surf
    return surf


def kind_of(unit, name: str = "") -> str:
    """:func:`model_kind`, with the AA variants: a wheeled or halftracked AA vehicle."""
    kind = model_kind(unit, name)
    if kind == "spaa":
        nm = (getattr(unit, "name", "") or name).lower()
        if "halftrack" in nm or "mgmc" in nm:
            return "spaa_halftrack"
        if getattr(unit, "movement_class", "T") == "W":
            return "spaa_wheeled"
    return kind


def hq_level(stand) -> int:
    """2 for a side's GHQ, 1 for a headquarters, else 0 (its pennants)."""
    if getattr(stand, "ghq", False):
        return 2
    return 1 if getattr(stand, "hq", False) else 0


__all__ = [
    "KINDS",
    "STYLES",
    "aircraft_sprite",
    "hq_level",
    "kind_of",
    "model_kind",
    "paint_stand",
    "stand_sprite",
]
