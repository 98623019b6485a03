"""``python -m app.sim [--port N]``: the demo provider, printing one JSON line with its address."""

import sys

from app.sim.cli import main

if __name__ == "__main__":
    sys.exit(main())
