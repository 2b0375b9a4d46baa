"""The spoiler shield: answers and summaries stop at the first sentence that reveals a later page."""
