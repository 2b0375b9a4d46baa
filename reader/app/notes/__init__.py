"""The reader's own marks and reading: highlights and notes, bookmarks, undo, their export, and reading time and statistics."""
