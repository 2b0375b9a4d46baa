"""Language-model adapters (litellm), loaded only when a chat model is used."""
