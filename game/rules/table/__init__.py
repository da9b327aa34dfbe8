"""The table: stand footprints and arcs (``geometry``), the terrain and its queries
(``table``), line of sight (``sight``), walking a path over the terrain (``walks``), and the
impact markers' and smoke areas' circles (``smoke``). Units: inches, degrees."""
