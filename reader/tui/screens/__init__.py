"""Modal screens: confirm, go to page, contents, import, search, conversations, help."""
