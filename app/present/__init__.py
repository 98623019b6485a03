"""What Slate says to people, owned by neither face and free of Qt: the words for reasons,
rules, events, states, progress, costs and counts, keyed by the domain's enums and data, in
English and (from the shipped translations) zh_CN.

The desktop app (``app.ui``) and the command line (``app.cli``) both say their words through
this package; the window's widgets use Qt's translator for the same translation file, the
command line reads it here (:mod:`app.present.translations`) and never imports Qt.
"""
