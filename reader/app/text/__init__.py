"""Text helpers every feature shares: sentence splitting, general-English words and title matching."""
