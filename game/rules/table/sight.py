"""Sight on the table (000 07.01, 07.08; 001 6.1; rules-decisions "Line of sight"), every
firer to every target at once on numpy arrays, as the LOS tool, the fire check and the AI's
sight matrices read it: :class:`SightMixin`, part of :class:`game.rules.table.table.Table`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely
from numpy.typing import ArrayLike
from shapely import STRtree

from game.rules.charts.data import RulesetTables
from game.rules.table.geometry import (
    ANGLE_EPS_DEG,
    CONTACT_IN,
    HALF,
    TOUCH_IN,
    Sight,
    SightMatrix,
    StandPose,
    _angle_off,
    _cos_sin,
    _seg_point_dist,
    footprint,
    footprints,
    overlaps,
)


class SightMixin:
    """The sight queries of a :class:`~game.rules.table.table.Table`, over the parts of it
    named here (set by ``Table.__init__``; sizes in inches)."""

    width: float
    depth: float
    hills: list
    _hill_geoms: np.ndarray
    _hill_levels: np.ndarray
    _hill_eroded_tree: STRtree
    _blocking: list
    _blocking_eroded: np.ndarray
    _blocking_tree: STRtree
    _inner_cx: np.ndarray  # the circles that answer most sight lines at once: x, y, radius
    _inner_cy: np.ndarray
    _inner_r: np.ndarray
    _outer_cx: np.ndarray
    _outer_cy: np.ndarray
    _outer_r: np.ndarray

    if TYPE_CHECKING:  # the table's own method, as the sight queries call it

        def ground_levels(self, xs: ArrayLike, ys: ArrayLike) -> np.ndarray: ...

    def _sight_core(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: RulesetTables,
        explain: bool = False,
    ) -> dict:
        """Sight between every firer and every target, both ways at once.

        Works in stages over all pairs, each on numpy arrays: the sight segment (centre to
        centre less both footprints, inches); the sighting distance; then the blockers (000
        07.01, 001 6.1): lines surely inside a blocking area (numpy alone, inscribed circles);
        hills; the rest of the blocking terrain (an STRtree over the shrunk areas, then
        bounding and inscribed circles, Shapely only for lines that pass near an outline);
        stands in the way (a cheap distance test, Shapely only for lines that pass near a
        footprint's corners). A pair already out of sight or blocked both ways skips the later
        stages. With ``explain`` every blocker is named, in the rules' order (stands, hills,
        terrain), and no stage is skipped. Returns arrays of shape (len(firers),
        len(targets)); "rev" entries are the target firing at the firer.
        """
        pairs = self._sight_pairs(firers, targets, max_sighting_in, rules)
        blocked, blocked_rev, reasons = self._blocked_lines(
            firers, targets, stands, rules, pairs, explain
        )
        contact, band, front, front_rev = _contact_and_front(firers, targets, pairs)
        return {
            "clear": pairs.in_sight & ~blocked,
            "clear_rev": pairs.in_sight_rev & ~blocked_rev,
            "dist": pairs.dist,
            "band": band,
            "front": front,
            "front_rev": front_rev,
            "contact": contact,
            "in_sight": pairs.in_sight,
            "max_sight": pairs.f_sight,
            "reasons": reasons,
            "segment": (pairs.x0, pairs.y0, pairs.x1, pairs.y1, pairs.has_line),
        }

    def _sight_pairs(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        max_sighting_in: float,
        rules: RulesetTables,
    ) -> _Pairs:
        """The geometry of every firer-target pair, arrays of shape (len(firers),
        len(targets)) in inches: centre distance, whether each side is within its sighting
        distance (the maximum, plus ``rules.sight_bonus_per_level_in`` a hill level it stands
        on, 000 07.08; rules-decisions "Line of sight"), and the sight segment from the
        firer's footprint edge to the target's along the line of centres (``has_line`` false
        where the footprints leave no gap, or the stand is the same). Raises nothing."""
        fx = np.array([p.x for p in firers], dtype=float)
        fy = np.array([p.y for p in firers], dtype=float)
        ff = np.array([p.facing_deg for p in firers], dtype=float)
        tx = np.array([p.x for p in targets], dtype=float)
        ty = np.array([p.y for p in targets], dtype=float)
        tf = np.array([p.facing_deg for p in targets], dtype=float)
        f_level = self.ground_levels(fx, fy)
        t_level = self.ground_levels(tx, ty)
        bonus = rules.sight_bonus_per_level_in
        f_sight = max_sighting_in + bonus * np.maximum(f_level, 0)
        t_sight = max_sighting_in + bonus * np.maximum(t_level, 0)

        FX, TX = np.meshgrid(fx, tx, indexing="ij")
        FY, TY = np.meshgrid(fy, ty, indexing="ij")
        dx, dy = TX - FX, TY - FY
        dist = np.hypot(dx, dy)
        code: dict[str, int] = {}
        f_code = np.array([code.setdefault(p.id, len(code)) for p in firers], dtype=int)
        t_code = np.array([code.setdefault(p.id, len(code)) for p in targets], dtype=int)
        same = f_code[:, None] == t_code[None, :]
        in_sight = (dist <= f_sight[:, None] + 1e-9) & ~same
        in_sight_rev = (dist <= t_sight[None, :] + 1e-9) & ~same
        with np.errstate(invalid="ignore", divide="ignore"):
            ux, uy = dx / dist, dy / dist

            def exit_t(facing):
                c, s = _cos_sin(facing)
                return HALF / np.maximum(np.abs(ux * c + uy * s), np.abs(-ux * s + uy * c))

            # (a stand's cos and sin once, broadcast over the pairs: the same values)
            t1, t2 = exit_t(ff[:, None]), exit_t(tf[None, :])
        has_line = (~same) & (dist > 1e-12) & (t1 + t2 < dist - 1e-12)
        return _Pairs(
            ff=ff,
            tf=tf,
            FX=FX,
            FY=FY,
            TX=TX,
            TY=TY,
            f_level=f_level,
            t_level=t_level,
            f_sight=f_sight,
            dist=dist,
            same=same,
            in_sight=in_sight,
            in_sight_rev=in_sight_rev,
            has_line=has_line,
            x0=FX + ux * t1,
            y0=FY + uy * t1,
            x1=TX - ux * t2,
            y1=TY - uy * t2,
        )

    def _blocked_lines(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        stands: Sequence[StandPose],
        rules: RulesetTables,
        pairs: _Pairs,
        explain: bool,
    ) -> tuple[np.ndarray, np.ndarray, dict[tuple[int, int], list[tuple]]]:
        """Which sight lines something blocks (000 07.01, 001 6.1): ``(blocked,
        blocked_rev, reasons)``, two boolean arrays of shape (len(firers), len(targets)) and,
        with ``explain``, every blocker of each (firer, target) pair named in the rules'
        order. Without ``explain`` only the lines within sight one way or the other are
        tested, and a direction already out of sight or blocked skips the later stages."""
        has_line, in_sight, in_sight_rev = pairs.has_line, pairs.in_sight, pairs.in_sight_rev
        work = has_line if explain else has_line & (in_sight | in_sight_rev)
        pf, pt = np.nonzero(work)
        found = _Blocked(pairs, pf, pt, explain)
        if not len(pf):
            return found.blocked, found.blocked_rev, found.reasons
        seg = (pairs.x0[pf, pt], pairs.y0[pf, pt], pairs.x1[pf, pt], pairs.y1[pf, pt])
        lines = _Lines(*seg)
        mark, still_open = found.mark, found.still_open
        f_level, t_level = pairs.f_level, pairs.t_level
        stages = {
            "stands": lambda: self._stands_in_the_way(
                firers,
                targets,
                stands,
                rules,
                f_level,
                t_level,
                pf,
                pt,
                seg,
                lines,
                still_open(),
                mark,
            ),
            "hills": lambda: self._hills_in_the_way(
                firers, targets, f_level, t_level, pf, pt, lines, still_open(), mark
            ),
            "terrain": lambda: self._terrain_in_the_way(
                firers, targets, pf, pt, seg, lines, still_open(), mark
            ),
            "sure_terrain": lambda: self._terrain_surely_in_the_way(
                firers, targets, pf, pt, seg, still_open(), mark
            ),
        }
        # Explaining names the blockers in the order the rules list them (stands, hills,
        # terrain). Otherwise the cheap stages go first: the lines surely inside an area
        # (numpy alone, no Shapely), then hills, the rest of the terrain, and last the
        # stands, the dearest a line, on the lines still open. A stage only adds blocked
        # lines, so the answer is the same in any order.
        order = (
            ("stands", "hills", "terrain")
            if explain
            else ("sure_terrain", "hills", "terrain", "stands")
        )
        for stage in order:
            stages[stage]()
        return found.blocked, found.blocked_rev, found.reasons

    def _stands_in_the_way(
        self, firers, targets, stands, rules, f_level, t_level, pf, pt, seg, lines, open_, mark
    ) -> None:
        """Stands whose footprint the sight line touches (000 07.01.04, 001 6.1.1). A stand
        within 0.5" of the line surely touches it, one farther than half its diagonal surely
        does not; Shapely decides the rest. The lines are tested in chunks of at most
        ``_CHUNK_CELLS`` line-stand pairs (see :func:`_near_stands`), so memory stays bounded
        however many stands there are."""
        blockers = [p for p in stands if not p.wreck]
        if not blockers or not len(open_):
            return
        bx = np.array([p.x for p in blockers])
        by = np.array([p.y for p in blockers])
        b_side = np.array([p.side for p in blockers], dtype=object)
        b_level = self.ground_levels(bx, by)
        index = {p.id: i for i, p in enumerate(blockers)}
        f_b = np.array([index.get(p.id, -1) for p in firers])[pf]
        t_b = np.array([index.get(p.id, -1) for p in targets])[pt]
        reach = HALF * math.sqrt(2) + TOUCH_IN + 1e-12
        fps = None
        touch_l, touch_s = [], []
        seg = tuple(a[open_] for a in seg)
        for li, si, d in _near_stands(seg, bx, by, f_b[open_], t_b[open_], reach):
            li = open_[li]
            sure = d <= HALF
            unsure = ~sure
            if unsure.any():
                if fps is None:
                    fps = footprints(blockers)
                sure[unsure] = shapely.dwithin(lines.geoms(li[unsure]), fps[si[unsure]], TOUCH_IN)
            touch_l.append(li[sure])
            touch_s.append(si[sure])
        if not touch_l:
            return
        li, si = np.concatenate(touch_l), np.concatenate(touch_s)
        li, si = self._not_sharing_a_place(firers, targets, blockers, pf, pt, li, si)
        fwd = np.ones(len(li), dtype=bool)
        rev = fwd.copy()
        if rules.friendly_see_over:
            # a friendly stand lower than the firer does not block (000 07.01.04)
            f_side = np.array([p.side for p in firers], dtype=object)[pf[li]]
            t_side = np.array([p.side for p in targets], dtype=object)[pt[li]]
            fwd &= ~((b_side[si] == f_side) & (f_level[pf[li]] > b_level[si]))
            rev &= ~((b_side[si] == t_side) & (t_level[pt[li]] > b_level[si]))
        mark(li, fwd, rev, lambda i: ("stand", blockers[si[i]].id))

    @staticmethod
    def _not_sharing_a_place(firers, targets, blockers, pf, pt, li, si):
        """Drop the blocking stands whose footprint overlaps the firer's or the target's (a
        stand passing through an enemy, 001 8.3.6, shares its place and does not block the
        line between them; RD "Line of sight"). ``li``, ``si``: line and blocker indices of
        the stands that touch the lines; returns them without those."""
        if not len(li):
            return li, si
        reach = 2 * HALF * math.sqrt(2)  # centres farther apart than this never overlap
        bx = np.array([b.x for b in blockers])[si]
        by = np.array([b.y for b in blockers])[si]
        near = np.zeros(len(li), dtype=bool)
        for group, k in ((firers, pf[li]), (targets, pt[li])):
            gx = np.array([p.x for p in group])[k]
            gy = np.array([p.y for p in group])[k]
            # a cheap superset (with a margin); the exact test below decides
            near |= np.hypot(bx - gx, by - gy) < reach + 1e-6
        keep = np.ones(len(li), dtype=bool)
        shared: dict[tuple[int, int, int], bool] = {}  # (blocker, 0 firer / 1 target, index)
        for k in np.nonzero(near)[0]:
            bi = int(si[k])
            b = blockers[bi]
            for key in ((bi, 0, int(pf[li[k]])), (bi, 1, int(pt[li[k]]))):
                hit = shared.get(key)
                if hit is None:
                    p = (firers, targets)[key[1]][key[2]]
                    hit = shared[key] = math.hypot(b.x - p.x, b.y - p.y) < reach and overlaps(
                        footprint(b.x, b.y, b.facing_deg), footprint(p.x, p.y, p.facing_deg)
                    )
                if hit:
                    keep[k] = False
        return li[keep], si[keep]

    def _hills_in_the_way(
        self, firers, targets, f_level, t_level, pf, pt, lines, open_, mark
    ) -> None:
        """Hills the sight line crosses, unless either end stands on that hill or higher than
        its level (rules-decisions "Hills")."""
        if not len(self.hills) or not len(open_):
            return
        li, hi = self._hill_eroded_tree.query(lines.geoms(open_), predicate="intersects")
        if not len(li):
            return
        k = open_[li]
        fk, tk = pf[k], pt[k]
        lvl = self._hill_levels[hi]
        fx = np.array([p.x for p in firers])[fk]
        fy = np.array([p.y for p in firers])[fk]
        tx = np.array([p.x for p in targets])[tk]
        ty = np.array([p.y for p in targets])[tk]
        hill_g = self._hill_geoms[hi]
        on_it = shapely.intersects_xy(hill_g, fx, fy) | shapely.intersects_xy(hill_g, tx, ty)
        higher = (f_level[fk] > lvl) | (t_level[tk] > lvl)
        hit = ~(on_it | higher)
        hi = hi[hit]
        mark(
            k[hit],
            np.ones(len(hi), bool),
            np.ones(len(hi), bool),
            lambda i: ("hill", int(self._hill_levels[hi[i]]), self.hills[hi[i]].index),
        )

    def _terrain_surely_in_the_way(self, firers, targets, pf, pt, seg, open_, mark) -> None:
        """The lines surely blocked by terrain, found with numpy alone: a line on which the foot
        of the perpendicular from an area's inscribed-circle centre lies, nearer than that
        circle's radius, runs inside the area (rules-decisions "Line of sight"). Lines with an
        end counting as in the clear (001 6.1.2) are left to :meth:`_terrain_in_the_way`, as
        are all the lines not found here: this stage only saves that one work.

        The circles go in groups of neighbours (:meth:`_sure_groups`); each group is tried only
        on the open lines whose bounding box meets the group's, in chunks of at most
        ``_CHUNK_CELLS`` line-circle cells, and a line found blocked leaves the open set."""
        if not len(self._blocking) or not len(open_):
            return
        f_clear = np.array([p.in_clear for p in firers], dtype=bool)[pf[open_]]
        t_clear = np.array([p.in_clear for p in targets], dtype=bool)[pt[open_]]
        k_all = open_[~(f_clear | t_clear)]
        if not len(k_all):
            return
        x0, y0, x1, y1 = (a[k_all] for a in seg)
        dx, dy = x1 - x0, y1 - y0
        length = np.hypot(dx, dy)
        with np.errstate(invalid="ignore", divide="ignore"):
            ux = np.where(length > 0, dx / length, 0.0)
            uy = np.where(length > 0, dy / length, 0.0)
        # along = (c - p0) . u must lie in [0, length]; across = |(c - p0) x u| below r
        a_lo = x0 * ux + y0 * uy
        a_hi = a_lo + length
        c_off = x0 * uy - y0 * ux
        lx0, lx1 = np.minimum(x0, x1), np.maximum(x0, x1)
        ly0, ly1 = np.minimum(y0, y1), np.maximum(y0, y1)
        alive = np.ones(len(k_all), dtype=bool)
        for cx, cy, r, (gx0, gy0, gx1, gy1) in self._sure_groups():
            rows = np.nonzero(alive & (lx0 <= gx1) & (lx1 >= gx0) & (ly0 <= gy1) & (ly1 >= gy0))[0]
            step = max(1, _CHUNK_CELLS // len(cx))
            for c in range(0, len(rows), step):
                z = rows[c : c + step]
                along = cx * ux[z, None] + cy * uy[z, None]
                across = np.abs(cx * uy[z, None] - cy * ux[z, None] - c_off[z, None])
                hit = ((across < r) & (along >= a_lo[z, None]) & (along <= a_hi[z, None])).any(
                    axis=1
                )
                alive[z[hit]] = False
        k = k_all[~alive]
        if len(k):
            both = np.ones(len(k), dtype=bool)
            mark(k, both, both, lambda i: ("terrain", None, None))

    def _sure_groups(self) -> list:
        """The blocking areas' inscribed circles in groups of about ``_SURE_AREAS`` neighbours
        (cells of a grid over the table): per group the centres' x, y and the radii (inches,
        arrays of shape (m,)) and the bounding box (x0, y0, x1, y1) of its circles. Built once
        per table."""
        groups = getattr(self, "_sure_groups_cache", None)
        if groups is None:
            groups = []
            # an area shrunk to nothing has no circle: the exact stage alone looks at it
            usable = np.nonzero(
                np.isfinite(self._inner_cx) & np.isfinite(self._inner_cy) & (self._inner_r > 0)
            )[0]
            cells = max(1, round(math.sqrt(len(usable) / _SURE_AREAS)))
            fx = np.clip(self._inner_cx[usable] / max(self.width, 1e-9), 0.0, 1.0)
            fy = np.clip(self._inner_cy[usable] / max(self.depth, 1e-9), 0.0, 1.0)
            gx = np.minimum((fx * cells).astype(int), cells - 1)
            gy = np.minimum((fy * cells).astype(int), cells - 1)
            cell = gx * cells + gy
            for c in np.unique(cell):
                k = usable[cell == c]
                cx, cy, r = self._inner_cx[k], self._inner_cy[k], self._inner_r[k]
                box = (
                    float(np.min(cx - r)),
                    float(np.min(cy - r)),
                    float(np.max(cx + r)),
                    float(np.max(cy + r)),
                )
                groups.append((cx, cy, r, box))
            self._sure_groups_cache = groups
        return groups

    def _terrain_in_the_way(self, firers, targets, pf, pt, seg, lines, open_, mark) -> None:
        """Blocking areas the sight line runs inside for more than 1e-6" (rules-decisions
        "Line of sight"); an area holding the centre of a stand that counts as in clear terrain
        (WWII, after firing) does not block that stand's lines (001 6.1.2)."""
        if not len(self._blocking) or not len(open_):
            return
        li, ai = self._blocking_tree.query(lines.geoms(open_))
        if not len(li):
            return
        k = open_[li]
        lx0, ly0, lx1, ly1 = (a[k] for a in seg)
        d_out = _seg_point_dist(lx0, ly0, lx1, ly1, self._outer_cx[ai], self._outer_cy[ai])
        near = d_out <= self._outer_r[ai]
        k, ai = k[near], ai[near]
        lx0, ly0, lx1, ly1 = lx0[near], ly0[near], lx1[near], ly1[near]
        d_in = _seg_point_dist(lx0, ly0, lx1, ly1, self._inner_cx[ai], self._inner_cy[ai])
        hit = d_in < self._inner_r[ai]
        unsure = ~hit
        if unsure.any():
            hit[unsure] = shapely.intersects(
                self._blocking_eroded[ai[unsure]], lines.geoms(k[unsure])
            )
        k, ai = k[hit], ai[hit]
        f_clear = np.array([p.in_clear for p in firers])[pf[k]]
        t_clear = np.array([p.in_clear for p in targets])[pt[k]]
        if f_clear.any() or t_clear.any():
            geoms = np.array([self._blocking[a].geometry for a in ai], dtype=object)
            fx = np.array([p.x for p in firers])[pf[k]]
            fy = np.array([p.y for p in firers])[pf[k]]
            tx = np.array([p.x for p in targets])[pt[k]]
            ty = np.array([p.y for p in targets])[pt[k]]
            keep = ~(f_clear & shapely.intersects_xy(geoms, fx, fy))
            keep &= ~(t_clear & shapely.intersects_xy(geoms, tx, ty))
            k, ai = k[keep], ai[keep]
        both = np.ones(len(k), dtype=bool)
        mark(
            k,
            both,
            both,
            lambda i: ("terrain", self._blocking[ai[i]].kind, self._blocking[ai[i]].index),
        )

    def sight_matrix(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: RulesetTables,
    ) -> SightMatrix:
        """Sight from every firer to every target, computed in bulk.

        ``stands`` is every stand on the table (wrecks included; they never block). The line
        of sight runs centre to centre less the two footprints; it is blocked by a blocking
        terrain area it runs inside for more than 1e-6", by a hill it crosses unless either end
        is on that hill or above its level, and by any stand footprint it touches (Modern: not
        a friendly stand lower than the firer) (000 07.01, 001 6.1). A target farther than the
        firer's sighting distance is not clear.
        """
        return self.sight_matrices(firers, targets, stands, max_sighting_in, rules)[0]

    def sight_matrices(
        self,
        side_a: Sequence[StandPose],
        side_b: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: RulesetTables,
    ) -> tuple[SightMatrix, SightMatrix]:
        """Sight both ways between two groups at once (a to b, then b to a), sharing the work
        that does not depend on who fires: the same rules as :meth:`sight_matrix`.

        The answer is a pure function of the poses, so the last :data:`SIGHT_MEMO` answers
        of at most :data:`SIGHT_MEMO_PAIRS` pairs are kept and asked again for nothing (a fire phase asks the same sight for every
        attack, and the game's check whether anyone has a shot asks it once more); the
        matrices' arrays are read-only, so no caller can change a kept answer."""
        small = SIGHT_MEMO > 0 and len(side_a) * len(side_b) <= SIGHT_MEMO_PAIRS
        key = (
            (tuple(side_a), tuple(side_b), tuple(stands), max_sighting_in, id(rules))
            if small
            else None
        )
        memo = self.__dict__.setdefault("_sight_memo", {}) if small else {}
        kept = memo.get(key)
        if kept is not None:
            return kept
        core = self._sight_core(side_a, side_b, stands, max_sighting_in, rules)
        a_ids = tuple(p.id for p in side_a)
        b_ids = tuple(p.id for p in side_b)
        arrays = ("clear", "dist", "band", "front", "clear_rev", "front_rev")
        for name in arrays:
            core[name].flags.writeable = False
        ab = SightMatrix(a_ids, b_ids, core["clear"], core["dist"], core["band"], core["front"])
        ba = SightMatrix(
            b_ids, a_ids, core["clear_rev"].T, core["dist"].T, core["band"].T, core["front_rev"].T
        )
        if memo and len(memo) >= SIGHT_MEMO:
            memo.pop(next(iter(memo)))  # the oldest
        memo[key] = (ab, ba)
        return ab, ba

    def sight(
        self,
        firer: StandPose,
        target: StandPose,
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: RulesetTables,
    ) -> Sight:
        """Sight from one firer to one target, with everything that blocks it named.

        The same computation as :meth:`sight_matrix` (one code path), for the LOS tool and
        the fire check (000 07.01, 07.08; 001 6.1, 7.3).
        """
        core = self._sight_core([firer], [target], stands, max_sighting_in, rules, explain=True)
        reasons = list(core["reasons"].get((0, 0), []))
        if not core["in_sight"][0, 0] and firer.id != target.id:
            reasons.append(("distance", None))
        x0, y0, x1, y1, has = core["segment"]
        seg = (
            ((float(x0[0, 0]), float(y0[0, 0])), (float(x1[0, 0]), float(y1[0, 0])))
            if has[0, 0]
            else None
        )
        return Sight(
            clear=bool(core["clear"][0, 0]),
            range_in=float(core["dist"][0, 0]),
            range_band_in=int(core["band"][0, 0]),
            aspect="front" if core["front"][0, 0] else "flank",
            max_sight_in=float(core["max_sight"][0]),
            in_contact=bool(core["contact"][0, 0]),
            blocked_by=tuple(reasons),
            segment=seg,
        )


SIGHT_MEMO = 64
"""How many answers of ``sight_matrices`` a table keeps (a few fire phases' worth)."""
SIGHT_MEMO_PAIRS = 4096
"""Only answers of at most this many firer-target pairs are kept: stands against stands, which
a fire phase asks again and again (40 a side is 1,600), not the AI's one-off sight of hundreds
of step points along its candidate paths (kept, those would only fill memory)."""
_CHUNK_CELLS = 1 << 16  # line-stand pairs tested at once: 0.5 MB a float array, cache-sized
_SURE_AREAS = 16  # inscribed circles in a group of neighbours tried at once for a sure hit


@dataclass(frozen=True)
class _Pairs:
    """Every firer-target pair's geometry, as :meth:`SightMixin._sight_pairs` finds it: per
    stand arrays (facings in degrees, ground levels, the firers' sighting distances in
    inches) and arrays of shape (len(firers), len(targets)): centres, distance, same stand,
    within sight each way, and the sight segment ``x0, y0 -> x1, y1`` with ``has_line``."""

    ff: np.ndarray
    tf: np.ndarray
    FX: np.ndarray
    FY: np.ndarray
    TX: np.ndarray
    TY: np.ndarray
    f_level: np.ndarray
    t_level: np.ndarray
    f_sight: np.ndarray
    dist: np.ndarray
    same: np.ndarray
    in_sight: np.ndarray
    in_sight_rev: np.ndarray
    has_line: np.ndarray
    x0: np.ndarray
    y0: np.ndarray
    x1: np.ndarray
    y1: np.ndarray


def _contact_and_front(
    firers: Sequence[StandPose], targets: Sequence[StandPose], pairs: _Pairs
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(contact, band, front, front_rev)``, arrays of shape (len(firers), len(targets)):
    base contact (footprints within ``CONTACT_IN``, tested with Shapely only where the
    centres are close enough to touch), the range band in whole inches (1 in contact, 000
    07.08), and whether the firer stands in the target's front 90-degree arc (``front``) or
    the target in the firer's (``front_rev``)."""
    nf, nt = len(firers), len(targets)
    dist, FX, FY, TX, TY = pairs.dist, pairs.FX, pairs.FY, pairs.TX, pairs.TY
    # base contact only where centres are close enough to touch
    contact = np.zeros((nf, nt), dtype=bool)
    near_f, near_t = np.nonzero((~pairs.same) & (dist <= math.sqrt(2) + CONTACT_IN + 1e-9))
    if len(near_f):
        fa = footprints([firers[int(i)] for i in near_f])
        fb = footprints([targets[int(j)] for j in near_t])
        contact[near_f, near_t] = shapely.distance(fa, fb) <= CONTACT_IN
    band = np.where(contact, 1, np.maximum(1, np.ceil(dist - 1e-9))).astype(int)
    front = _angle_off(pairs.tf[None, :], FX - TX, FY - TY) <= 45.0 + ANGLE_EPS_DEG
    front_rev = _angle_off(pairs.ff[:, None], TX - FX, TY - FY) <= 45.0 + ANGLE_EPS_DEG
    return contact, band, front, front_rev


class _Blocked:
    """The blocking found so far over the sight lines under test, line ``i`` being the pair
    ``(pf[i], pt[i])``: ``blocked``/``blocked_rev`` of shape (len(firers), len(targets)),
    and with ``explain`` the blockers of each pair named in ``reasons``. Without ``explain``
    a direction out of sight or already blocked is done, and later stages skip a line done
    both ways."""

    def __init__(self, pairs: _Pairs, pf: np.ndarray, pt: np.ndarray, explain: bool) -> None:
        shape = pairs.dist.shape
        self.blocked = np.zeros(shape, dtype=bool)
        self.blocked_rev = np.zeros(shape, dtype=bool)
        self.reasons: dict[tuple[int, int], list[tuple]] = {}
        self.pf, self.pt, self.explain = pf, pt, explain
        if not explain:
            # a direction out of sight needs no more work
            self.done = ~pairs.in_sight[pf, pt]
            self.done_rev = ~pairs.in_sight_rev[pf, pt]
        else:
            self.done = np.zeros(len(pf), dtype=bool)
            self.done_rev = self.done.copy()

    def mark(self, k: np.ndarray, fwd: np.ndarray, rev: np.ndarray, why) -> None:
        """Lines ``k`` (indices into ``pf``/``pt``) are blocked where ``fwd`` (firer to
        target) and ``rev`` (target to firer), boolean masks of k's length; ``why(i)`` names
        the blocker of ``k[i]`` for the explanation."""
        pf, pt = self.pf, self.pt
        self.blocked[pf[k[fwd]], pt[k[fwd]]] = True
        self.blocked_rev[pf[k[rev]], pt[k[rev]]] = True
        if not self.explain:  # explaining names every blocker, so nothing is skipped
            self.done[k[fwd]] = True
            self.done_rev[k[rev]] = True
        else:
            for i in np.nonzero(fwd)[0]:
                key = (int(pf[k[i]]), int(pt[k[i]]))
                self.reasons.setdefault(key, []).append(why(i))

    def still_open(self) -> np.ndarray:
        """Indices of the lines not yet done both ways."""
        return np.nonzero(~(self.done & self.done_rev))[0]


class _Lines:
    """The sight segments of one computation, their Shapely geometries made only when a stage
    asks (most lines are settled with numpy alone). ``x0``..``y1``: arrays of shape (n,),
    inches."""

    def __init__(self, x0, y0, x1, y1) -> None:
        self.ends = np.stack([np.c_[x0, y0], np.c_[x1, y1]], axis=1)
        self._geoms = np.empty(len(x0), dtype=object)
        self._made = np.zeros(len(x0), dtype=bool)

    def geoms(self, k: np.ndarray) -> np.ndarray:
        """The LineStrings of lines ``k`` (an index array), shape (len(k),)."""
        new = np.unique(k[~self._made[k]])
        if len(new):
            self._geoms[new] = shapely.linestrings(self.ends[new])
            self._made[new] = True
        return self._geoms[k]


def _near_stands(seg, bx, by, f_b, t_b, reach):
    """The stands whose centre lies within ``reach`` inches of each sight line, the line's own
    firer and target left out.

    ``seg``: (x0, y0, x1, y1), arrays of shape (n,), the lines; ``bx``, ``by``: shape (m,), the
    stands' centres; ``f_b``, ``t_b``: shape (n,), the index in the stands of each line's firer
    and target (-1 for none). Yields, chunk by chunk, ``(li, si, d)``: line index, stand index
    and distance (inches) of each near pair, ordered by line then stand. The lines go in chunks
    of at most ``_CHUNK_CELLS`` pairs, each first culled by the distance to the line through the
    segment (never more than to the segment, so nothing near is lost), so memory does not grow
    with lines x stands; the distances kept are computed exactly as the whole array gives them.
    """
    x0, y0, x1, y1 = seg
    n, m = len(x0), len(bx)
    if not n or not m:
        return
    length = np.hypot(x1 - x0, y1 - y0)
    with np.errstate(invalid="ignore", divide="ignore"):
        nx = np.where(length > 0, (x1 - x0) / length, 0.0)
        ny = np.where(length > 0, (y1 - y0) / length, 0.0)
    cull = reach + 1e-6  # rounding margin: the cull must keep every pair within reach
    step = max(1, _CHUNK_CELLS // m)
    for a in range(0, n, step):
        z = slice(a, a + step)
        ex = bx[None, :] - x0[z, None]
        ey = by[None, :] - y0[z, None]
        across = np.abs(ex * ny[z, None] - ey * nx[z, None])
        del ex, ey
        li, si = np.nonzero(across <= cull)
        del across
        li += a
        own = (si == f_b[li]) | (si == t_b[li])
        li, si = li[~own], si[~own]
        d = _seg_point_dist(x0[li], y0[li], x1[li], y1[li], bx[si], by[si])
        near = d <= reach
        if near.any():
            yield li[near], si[near], d[near]
