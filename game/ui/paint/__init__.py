"""The painted table: terrain drawn as on a painted wargames table (flocked ground,
tree crowns, roofs, stepped hills, rutted tracks...) procedurally, seeded per feature from the
map so that the same map always looks the same (``game.ui.render.draw_table`` calls it when
the table style is "painted"; the "plain" style stays the flat drawing of ``render``); the
stands as their models on painted bases (``models``) and the mini-map (``minimap``)."""
