"""The library: importing files and folders, and finding a book from what the user typed."""
