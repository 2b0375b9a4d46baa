"""The chat about a book: the turn, the prompts, the retrieval strategies, the tools and the history."""
