"""Use cases, grouped by feature; they depend on reader.domain only (never adapters, textual or litellm).

Features, from the top of the import order down: chat/ (the chat about a book), library/ (import and
finding books), knowledge/, notes/ and search/ (independent of each other), shield/ (the spoiler shield
on answers and summaries), pages/ (pages, chapters, chunks, figures and enrichment) and text/ (sentences
and word lists every feature shares). A package imports only the ones below it; the import-linter
contracts in pyproject.toml check it.
"""
