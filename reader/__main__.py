"""`python -m reader` runs the command line."""

from reader.cli.main import main

raise SystemExit(main())
