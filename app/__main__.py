"""`python -m app` runs the `slate` command."""

import gc

# The start-up imports (a few hundred modules, ~100 dataclasses) make objects that live as long
# as the process: Python's cycle collector would walk them again and again while they load (a
# full collection of all loaded so far, and ~150 of the young ones, ~75 ms in all). It is off
# while they load, and they are then moved out of its way (``gc.freeze``); ``app.cli`` does
# the same while the service's modules load.
gc.disable()
try:
    import app.cli

    app.cli.FREEZE_LOADED = True
    gc.freeze()
finally:
    gc.enable()

raise SystemExit(app.cli.main())
