"""The three panes of the main screen (library, page viewer, chat): they own their state, push dialogs from screens/ and post messages up to the app."""
