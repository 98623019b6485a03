"""The main window's panes: widgets that each fit on a screen and bind to the slot on screen.

A pane is handed the controller and the window's :class:`~app.ui.current.CurrentSlot`; it
redraws from their signals and asks for what it cannot do itself (a dialog, another slot) with
its own signals, which the window routes. Panes import the UI, the domain and the service's
public types only (``tests/unit/test_import_contract.py``), never each other's internals.

- :mod:`.toolbar` — the top bar: "+ New slot", "⚙ Settings"
- :mod:`.browser` — search, filters and the slot tree
- :mod:`.slot` — the slot on screen: :mod:`.banner`, composer, form, :mod:`.actions`
- :mod:`.result` — media and history
- :mod:`.status` — the status bar
- :mod:`.welcome` — the first-launch page
"""
