"""``python -m game`` runs the ``hulldown`` command."""

import sys

from game.cli import main

sys.exit(main())
