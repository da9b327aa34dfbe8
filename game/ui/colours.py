"""Colours and sizes the screens share and the settings set, in a module that loads nothing
(the menu draws its first frame before the engine is imported)."""

INK = (30, 30, 30)  # text and outlines drawn on the table and the screens
UI = {"scale": 1.0, "stand_style": "models"}  # the settings' label size and stand style, set
# by the window (game.settings; #46: "models" painted on their bases, "symbols" the flat tokens)


class Palette:
    """The sight lines' colours (the settings choose them, ``game.settings.PALETTES``):
    ``clear`` may fire, ``sees`` sees but may not, ``blocked`` no line of sight."""

    clear = (40, 170, 60)
    sees = (230, 150, 20)
    blocked = (215, 45, 45)

    def use(self, colours: dict) -> None:
        """Take the colours of a palette (keys clear, sees, blocked)."""
        for k, v in colours.items():
            setattr(self, k, tuple(v))


PAL = Palette()
