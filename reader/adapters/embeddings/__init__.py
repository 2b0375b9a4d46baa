"""Embedding models run in this process (the `reader[semantic]` extra)."""
