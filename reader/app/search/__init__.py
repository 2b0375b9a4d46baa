"""Search that never spoils: lexical, semantic and hybrid retrieval, query terms, snippets and embedding runs."""
