"""The rules' procedures, each worked on the battle context: fire, the cohesion roll and the
CRT (``combat``, its arithmetic ``odds``), moving stands (``moves``), overrun and close
assault (``melee``, their odds before the dice ``melee_odds``), carriers (``transport``),
artillery (``artillery``) and air strikes (``air``)."""
