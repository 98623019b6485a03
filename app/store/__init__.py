"""The task store: SQLAlchemy 2 models and migrations, the write side (``repository``, with the
lean SQLite claim in ``sqlite_claim``), the read side (``queries``), and their async face for
the service (``aio.Store``, opened by ``aio.open_store``)."""
