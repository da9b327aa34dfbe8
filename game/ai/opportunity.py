"""The scripted AI's answers to an enemy move: opportunity fire at the best point of its
path (000 07.06.05), or letting it pass, and covering fire at the enemy stands that just
opportunity-fired (WWII, 001 7.5)."""

from __future__ import annotations

from game import CoveringFire, EndCoveringFire, LetPass, OpportunityFire
from game.ai.values import Option, fired


class OpportunityChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: opportunity and covering fire, each
    target's shots chosen as in the fire phases (``FireChooser.best_subset``). Built with the
    AI's ``level`` and the ``fire`` part (:class:`game.ai.fire.FireChooser`)."""

    def __init__(self, level, fire) -> None:
        self.level = level
        self.fire = fire

    def answers(self, battle, side) -> list[Option]:
        """Opportunity fire at the move waiting for an answer (000 07.06.05): the best attack
        at any step of it (``steps``), or letting it pass."""
        options = [Option("let it pass", self.level.min_attack + 0.02, LetPass(side))]
        best: Option | None = None
        for o in self.steps(battle, side):
            if best is None or o.score > best.score:
                best = o  # the first of the best, where steps tie
        if best is not None:
            options.append(best)
        return options

    def steps(self, battle, side) -> list[Option]:
        """Per step of the move waiting for an answer where an attack is worth making, the
        best attack there (its stands chosen as in the fire phases), in the order of the
        steps (000 07.06.05)."""
        pm = battle.state.pending
        target = battle.stand(pm.stand)
        out = []
        for step, setups in battle.opportunity_setups().items():
            chosen, score = self.fire.best_subset(battle, setups, target, self.level.reserve)
            if chosen:
                out.append(
                    Option(
                        f"fire at {pm.stand} at step {step} with {', '.join(fired(chosen)[0])}",
                        score,
                        OpportunityFire(side, step, *fired(chosen)),
                    )
                )
        return out

    def covering(self, battle, side) -> list[Option]:
        """Covering fire at the enemy stands that just opportunity-fired (001 7.5): each
        target's best subset of our eligible stands, by the engine's odds at +3 cohesion."""
        options = [Option("no covering fire", self.level.min_attack, EndCoveringFire(side))]
        targets = {a.target: a for a in battle.legal_actions() if isinstance(a, CoveringFire)}
        for target, a in targets.items():
            t = battle.stand(target)
            setups = [
                battle.fire_setup(f, target, w, "covering")
                for f, w in zip(a.attackers, a.weapons, strict=True)
            ]
            chosen, score = self.fire.best_subset(battle, setups, t, self.level.reserve)
            if chosen:
                options.append(
                    Option(
                        f"covering fire at {target} with {', '.join(fired(chosen)[0])}",
                        score,
                        CoveringFire(side, target, *fired(chosen)),
                    )
                )
        return options
