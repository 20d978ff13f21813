"""Alembic environment. Run through storage.migrate, which hands us an open connection.

There is no alembic.ini: storage.migrate builds the configuration in code, so `python -m storage
upgrade` and start-up work from any directory.
"""

from __future__ import annotations

from alembic import context

from storage.models import SQLModel

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through storage.migrate (python -m storage upgrade), not alembic")

context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most columns in place
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
