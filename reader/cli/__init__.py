"""The `reader` command line."""

from reader.startup import pause_collector

pause_collector()  # until a command runs or the app's first screen is up (see reader.startup)
