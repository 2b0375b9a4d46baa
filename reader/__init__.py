"""reader: a terminal reading companion."""

__version__ = "0.1.0"
