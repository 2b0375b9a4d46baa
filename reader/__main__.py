"""`python -m reader` runs the command line."""

from reader.cli.main import run

raise SystemExit(run())
