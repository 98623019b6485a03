"""The desktop app: a Qt shim, one controller that owns all background work, models, widgets."""
