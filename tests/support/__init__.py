"""Test support: a scripted OpenAI-compatible server and its pytest fixture."""
