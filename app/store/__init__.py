"""The task store: SQLAlchemy 2 models, migrations, the claim transaction and read-side queries."""
