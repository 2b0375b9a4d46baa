"""The app's panes and their parts."""
