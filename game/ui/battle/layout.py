"""The battle screen's shared sizes, colours and help text: the banner's height, the side
panel's width, the overlay colours the modes and the screen draw with, and the lines of the
F1 help."""

from game.ui.colours import PAL  # the sight lines' colours, set by the settings

BANNER_H = 44
PANEL_W = 360
STAND_PX = 20  # a stand's least size in the opening view (pixels an inch)
GREEN, RED, AMBER = PAL.clear, PAL.blocked, PAL.sees  # the standard palette, for tests
SELECT, GROUP = (255, 255, 255), (255, 230, 80)
HELP_TEXT = [
    "Mouse wheel: zoom at the cursor     drag (or arrow keys): pan     F: fit the whole table",
    "Left click: pick a stand, a target, a waypoint     Right drag: set the facing",
    "Enter: confirm (attack, move attempt, move)     Esc: cancel     Backspace: undo waypoint",
    "Q / E: turn the plotted facing by 15 degrees     W: switch an attacker's weapon",
    "P: pass     Ctrl+S: save     L: show or hide the battle log     F1 or ?: this help",
    "X: the AI's last decision (its three best options, scored)     Space: skip the AI's moves",
    "B: the briefing and how to win     T: show or hide the terrain legend (in the side panel)",
    "Right-click a stand: its unit card",
    "M: the ruler: drag from a stand or a point for the distance, range band and line of sight",
    "Set-up: click a stand and press 1-9 to put it in that battle group.",
    "Badges (beside the stand, or inside it when crowded): S suppressed, D disorganized,",
    "A ATGM used up, M movement posture, F fired, +1 infantry aboard. Hover: id; Alt: all ids.",
    "The light edge of a base is its front. Mini-map (top right): click to look there; N hides it.",
    "Symbols (a setting): oval armour, cross infantry, cross and oval IFV or APC, diagonal",
    "recon, castle engineers. Click an enemy stand while plotting to end in base",
    "contact (to close-assault it); plot through it and beyond to overrun it.",
    "Fire support: in the plot phase click your guns, then the aim (drag to turn the markers);",
    "H: HE or smoke; + / -: the landing turn; A: an air strike (E / R: its entry / exit edge).",
    "Rings: impact markers, in the firing side's colour; grey: smoke; dashed: your plots.",
]
