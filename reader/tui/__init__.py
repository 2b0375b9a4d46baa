"""The Textual app: screens, widgets, themes and styles."""

from reader.startup import before_textual

before_textual()  # TEXTUAL_FPS, before any Textual import (see reader.startup)
