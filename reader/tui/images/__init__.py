"""Pictures on the page: choosing how the terminal draws them, decoding them off the UI thread, and
laying them out where they stand in a page's text."""
