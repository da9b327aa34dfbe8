"""Checks that play whole battles: the engine audit and fuzz (random players against the
rules), the regression corpus, headless simulation. They may use the AI and the rules; the
rules never import them."""
