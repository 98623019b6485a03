#!/usr/bin/env bash
# Refresh the translation sources from app/ui and compile them (commit both .ts and .qm).
# Translate new strings in app/ui/translations/*.ts with Qt Linguist (pyside6-linguist) first.
set -euo pipefail
cd "$(dirname "$0")/.."
QT=$(.venv/bin/python -c 'import PySide6, os; print(list(PySide6.__path__)[0])')
for ts in app/ui/translations/slate_*.ts; do
  "$QT/lupdate" -no-obsolete app/ui/*.py -ts "$ts"
  "$QT/lrelease" "$ts" -qm "${ts%.ts}.qm"
done
