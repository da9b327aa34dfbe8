"""The rules' tables, read from ``assets/data``: the tank rows, CRTs, range and terrain
charts and per-ruleset settings (``data``), the full games' unit rows and support tables
(``units``), the artillery, AA and aircraft data (``fire_data``), and reading CSV and TOML
rows (``rowfiles``)."""
