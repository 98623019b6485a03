"""What the app ships besides code: icons and compiled translations.

Installed as the package ``app.resources`` (``pyproject.toml`` maps this folder there), so an
installed wheel, an editable install and a bundle all find the files with
``importlib.resources.files("app.resources")``; :mod:`app.ui.assets` is the one place that does.

- ``icons/hicolor/`` — the app icon (``io.slate.Slate``) in the freedesktop icon-theme layout: the
  SVG source under ``scalable/apps`` and PNGs 16–512 px rendered from it by
  ``packaging/render-icons.py``.
- ``icons/ui/`` — small SVGs the stylesheet draws (combo and spin box arrows).
- ``translations/`` — ``slate_<lang>.ts`` (the sources, edited with Qt Linguist) and the compiled
  ``.qm`` files the app loads (``packaging/update-translations.sh`` makes both).
"""
