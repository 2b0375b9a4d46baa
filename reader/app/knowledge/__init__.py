"""The companion's knowledge of a book: the concept map and names, the X-Ray and its refinement, summaries, recaps and the question router."""
