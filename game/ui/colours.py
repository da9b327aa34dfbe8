"""Colours and sizes the screens share and the settings set, in a module that loads nothing
(the menu draws its first frame before the engine is imported)."""

INK = (30, 30, 30)  # text and outlines drawn on the table and the screens
UI = {"scale": 1.0, "table_style": "painted", "stand_style": "models", "enemy_attacks": "pause"}
"""What the settings set and the window applies (game.settings): the label size, the table's
style ("painted" or "plain"), the stands' ("models" or "symbols") and whether the
battle screen stops on each enemy attack ("pause") or lets them run ("run")."""


class Palette:
    """The sight lines' colours (the settings choose them, ``game.settings.PALETTES``):
    ``clear`` may fire, ``sees`` sees but may not, ``blocked`` no line of sight."""

    clear = (40, 170, 60)
    sees = (230, 150, 20)
    blocked = (215, 45, 45)

    WORDS = {
        (40, 170, 60): "green",
        (230, 150, 20): "amber",
        (215, 45, 45): "red",
        (0, 114, 178): "blue",
        (240, 228, 66): "yellow",
        (213, 94, 0): "orange",
    }
    """The palettes' colours in words, for the legends that name them."""

    def word(self, key: str) -> str:
        """The colour ``key`` (clear, sees or blocked) is drawn in, in a word ("green")."""
        return self.WORDS.get(tuple(getattr(self, key)), key)

    def use(self, colours: dict) -> None:
        """Take the colours of a palette (keys clear, sees, blocked)."""
        for k, v in colours.items():
            setattr(self, k, tuple(v))


PAL = Palette()

TERRAIN_COLOURS = {
    "woods": (70, 120, 60),
    "grove": (110, 150, 80),
    "light_buildings": (170, 150, 130),
    "heavy_buildings": (120, 105, 95),
    "marsh": (130, 160, 150),
    "rough_1": (180, 175, 130),
    "rough_2": (160, 150, 110),
    "rough_3": (140, 125, 95),
    "smoke": (210, 210, 210),
    "light_improved_position": (150, 140, 100),
    "medium_improved_position": (135, 125, 90),
    "heavy_improved_position": (120, 110, 80),
    "barbed_wire": (150, 120, 120),
    "minefield": (190, 120, 110),
    "impassable": (90, 120, 170),
}
"""Each terrain kind's flat colour (the plain look, the editor, the legend's swatches)."""
