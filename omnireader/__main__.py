"""``python -m omnireader`` runs the command line."""

import sys

from omnireader.cli.main import main

sys.exit(main())
