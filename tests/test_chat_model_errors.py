"""The litellm adapter's one-line errors for set-up mistakes (no server needed)."""

from __future__ import annotations

import pytest

from reader.adapters.llm.litellm_chat import LitellmChatModel
from reader.domain.chat_model import ChatModelError
from reader.domain.endpoint import EndpointSettings


def failure(model: LitellmChatModel) -> ChatModelError:
    with pytest.raises(ChatModelError) as caught:
        list(model.stream([{"role": "user", "content": "hi"}]))
    return caught.value


def test_a_missing_key_names_the_variable_and_is_not_retried() -> None:
    error = failure(LitellmChatModel(EndpointSettings("gpt-4o-mini", timeout=2)))
    assert str(error).startswith("No API key for gpt-4o-mini; set OPENAI_API_KEY")
    assert error.kind == "auth" and not error.retryable


def test_a_model_without_a_provider_says_how_to_name_one() -> None:
    error = failure(LitellmChatModel(EndpointSettings("llama3", timeout=2)))
    assert "name the provider, e.g. 'openai/llama3' with api_base, or 'ollama_chat/llama3'" in str(error)


def test_capabilities_and_context_window_fall_back_for_unknown_models() -> None:
    local = LitellmChatModel(EndpointSettings("openai/my-local-model", api_base="http://127.0.0.1:9/v1"))
    assert not local.supports_tools() and local.context_window() == 8192
    assert "no-key" not in repr(local)
    known = LitellmChatModel(EndpointSettings("gpt-4o-mini"), context_window=4000)
    assert known.supports_tools() and known.context_window() == 4000


def test_a_schema_is_asked_for_only_where_litellm_says_the_model_takes_one() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    hosted = LitellmChatModel(EndpointSettings("gpt-4o-mini"))
    assert hosted.supports_response_schema()
    assert hosted._response_format(schema) == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": schema},
    }
    assert hosted._response_format(True) == {"type": "json_object"}
    local = LitellmChatModel(EndpointSettings("openai/my-local-model", api_base="http://127.0.0.1:9/v1"))
    assert local._response_format(schema) == {"type": "json_object"}
