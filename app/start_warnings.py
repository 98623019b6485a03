"""The warnings a start of Slate may give, by what they are about: the composition root
(``app.bootstrap``) gives them, the window's status bar says them in its own words. Plain
constants, so the window's modules read them without loading the composition root.
"""

WARN_DATA_DIR_OPEN = "data_dir_open"  # others can list the data folder
WARN_SECRET_IN_FILE = "secret_in_file"  # no OS keyring: Slate's own secret is kept in a file
