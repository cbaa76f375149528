"""``python -m newsml``: the ``newsml`` command."""

from .run.cli import app

app(prog_name="newsml")
