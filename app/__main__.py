"""`python -m app` runs the `slate` command."""

from app.cli import main

raise SystemExit(main())
