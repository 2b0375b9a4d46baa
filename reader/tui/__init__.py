"""The Textual app: screens, widgets, themes and styles."""

import os

# Textual repaints at most TEXTUAL_FPS times a second and waits for the next frame slot after a key
# press; at its default of 60 that wait alone is up to 17 ms. Page turns should repaint at once, so
# the app allows up to 240 screen updates a second (animations still run at 60). Set TEXTUAL_FPS
# to override; it only takes effect if Textual was not imported before this package.
os.environ.setdefault("TEXTUAL_FPS", "240")
