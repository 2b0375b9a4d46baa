"""Pages of a book: page and chapter lookups, page-aligned chunks, story pages, figures and model enrichment."""
