"""The `reader` command line."""
