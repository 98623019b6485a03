#!/usr/bin/env bash
# Refresh the translation sources from app/ui and app/ui/panes and compile them (commit both
# .ts and .qm).
# The sources live in resources/translations/; the compiled .qm beside them is installed with the
# package (as app.resources). Translate new strings in resources/translations/*.ts with Qt
# Linguist (pyside6-linguist) first. No source locations are written: line numbers would change
# with every edit of a widget and make each branch's .ts conflict with the others'.
set -euo pipefail
cd "$(dirname "$0")/.."
QT=$(.venv/bin/python -c 'import PySide6, os; print(list(PySide6.__path__)[0])')
for ts in resources/translations/slate_*.ts; do
  "$QT/lupdate" -no-obsolete -locations none app/ui/*.py app/ui/panes/*.py app/ui/gallery/*.py -ts "$ts"
  "$QT/lrelease" "$ts" -qm "${ts%.ts}.qm"
done
