"""The scripted AI's fire: which attacks to make in a fire phase, which subset of the stands
that may fire at one target to use, and the best shot one stand has at another (cannon or
ATGM, 000 07.03.03, 07.04), all by the engine's own fire setups and exact odds."""

from __future__ import annotations

from game import Fire, FireSetup, Pass
from game.ai.values import Option, attack_value, fired


class FireChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the fire phases' choice (``attacks``),
    and the shot values the other parts weigh (``best_subset``, ``best_shot``). Built with
    the AI's ``level`` and the ``situation`` part (:class:`game.ai.situation.Situation`)."""

    def __init__(self, level, situation) -> None:
        self.level = level
        self.situation = situation

    def best_subset(
        self, battle, setups: list[FireSetup], target, reserve: float
    ) -> tuple[list[FireSetup], float]:
        """Which of the possible shots to take at one target: best first, each further stand
        only while it adds more than keeping its shot is worth."""
        by_attacker: dict[str, FireSetup] = {}
        single: dict[str, float] = {}
        for fs in setups:
            v = attack_value(battle, [fs], target)
            if fs.attacker not in single or v > single[fs.attacker]:
                single[fs.attacker] = v
                by_attacker[fs.attacker] = fs
        order = sorted(by_attacker, key=lambda a: -single[a])
        chosen: list[FireSetup] = []
        value = 0.0
        for a in order:
            trial = chosen + [by_attacker[a]]
            v = attack_value(battle, trial, target)
            if not chosen or v - value > reserve:
                chosen, value = trial, v
        return chosen, value - reserve * len(chosen)

    def attacks(self, battle, side) -> list[Option]:
        """The fire phase's options for ``side``: each target's best
        subset of our shots (``best_subset``), scored in stands, and holding fire."""
        level = self.level
        # on the last turn (WWII) a shot kept for later can only be taken at a stand that
        # moves, and the victory is counted at the turn's end: any shot worth anything is
        # taken (seeds 5001-5100: against random 83 won -> 84, against the recruit 75 -> 77)
        last = battle.rules.postures and battle.state.turn >= battle.scenario.spec.turns
        options = [Option("hold fire", 0.0 if last else level.min_attack, Pass(side))]
        tl4_again = battle.state.phase == "fire1"
        # once the win is ours if the turn ends now, a shot in the last fire phase only helps
        # by stopping an enemy stand that could still fire in it (and firing bares our cover)
        holding = not tl4_again and self.situation.holding(battle, side)
        for target, setups in battle.fire_options().items():
            t = battle.stand(target)
            if holding and not battle.rules.fire.may_fire_in(t, battle.state.phase):
                continue
            reserve = 0.0 if last else level.reserve * (0.3 if tl4_again else 1.0)
            chosen, score = self.best_subset(battle, setups, t, reserve)
            if chosen:
                names = ", ".join(
                    f"{fs.attacker}{'(ATGM)' if fs.weapon == 'atgm' else ''}" for fs in chosen
                )
                options.append(
                    Option(
                        f"fire at {target} with {names}", score, Fire(side, target, *fired(chosen))
                    )
                )
        return options

    def unengaged_pose(self, battle, firer):
        """The firer's pose when the engine says it is on the table and engaged with no enemy
        stand (``battle.engaged_with``, 000 07.08.04), else None. A planning shot given this
        pose as ``attacker_pose`` is the engine's shot from where the stand is, without the
        engine asking again, for every target, whether it is engaged: an unengaged stand may
        fire at any target (``game.rules.procedures.combat.fire_setup``). Ask it once per query, never
        across a change of the battle."""
        if firer.active and not battle.engaged_with(firer.id):
            return firer.pose()
        return None

    def best_shot(
        self, battle, firer, target, sight, target_pose=None, attacker_pose=None, next_turn=False
    ):
        """The firer's best legal shot at the target, by expected damage (stands): its
        cannon or, if it carries one that is not depleted, its ATGM (000 07.03.03, 07.04), as
        the engine's planning FireSetup, or None when neither may fire. ``sight`` is the
        line-of-sight answer for the two poses; the poses default to where the stands are.
        ``next_turn``: a shot of the next turn's fire phases, when this turn's fired markers
        are off (the target's cover then counts, 000 07.01.03, 07.07)."""
        weapons = ("cannon", "atgm") if firer.unit.atgm and not firer.depleted else ("cannon",)
        best, value = None, -1.0
        for w in weapons:
            fs = battle.fire_setup(
                firer.id,
                target.id,
                w,
                "planning",
                target_pose=target_pose,
                sight=sight,
                attacker_pose=attacker_pose,
                next_turn=next_turn,
            )
            if fs.legal:
                v = attack_value(battle, [fs], target)
                if v > value:
                    best, value = fs, v
        return best
