"""The chat model through litellm: streamed replies, tool calls reassembled, errors as one line.

litellm is imported lazily (it takes seconds and fetches a price map unless told not to), so only
the chat pays for it, never the app's or the other commands' start-up.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from reader.adapters.llm.endpoint import LitellmEndpoint
from reader.adapters.llm.errors import map_error
from reader.domain.chat_model import ChatModelError, ModelReply, ModelToolCall
from reader.domain.endpoint import EndpointSettings

DEFAULT_CONTEXT_WINDOW = 8192


class LitellmChatModel(LitellmEndpoint):
    """A litellm chat model (any provider litellm supports, or a local OpenAI-compatible server)."""

    section = "chat"
    error = ChatModelError

    def __init__(
        self, settings: EndpointSettings, *, api_key: str | None = None, context_window: int = 0
    ) -> None:
        super().__init__(settings, api_key=api_key)
        self._context_window = context_window

    def supports_tools(self) -> bool:
        try:
            return bool(self.litellm.supports_function_calling(model=self.model))
        except Exception:  # noqa: BLE001 - unknown models: configuration decides ([chat] tool_calling)
            return False

    def supports_pdf_input(self) -> bool:
        """What litellm's model table says; unknown models (local servers) are taken not to."""
        try:
            return bool(self.litellm.utils.supports_pdf_input(model=self.model))
        except Exception:  # noqa: BLE001 - unknown models: configuration decides ([chat] pdf_input)
            return False

    def context_window(self) -> int:
        if self._context_window <= 0:
            self._context_window = DEFAULT_CONTEXT_WINDOW
            try:
                info = self.litellm.get_model_info(self.model)
                self._context_window = int(info.get("max_input_tokens") or info.get("max_tokens") or 0) or (
                    DEFAULT_CONTEXT_WINDOW
                )
            except Exception:  # noqa: BLE001 - unmapped models (local servers) use the default
                pass
        return self._context_window

    def stream(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        *,
        json_object: bool | Mapping[str, Any] = False,
    ) -> Iterator[str | ModelReply]:
        """Yield text deltas as they arrive, then the whole reply with its tool calls."""
        key = self._key()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "stream": True,
            "timeout": self.timeout,
            "max_retries": 0,
            "drop_params": True,
        }
        if tools:
            kwargs["tools"] = list(tools)
        if json_object:
            kwargs["response_format"] = self._response_format(json_object)
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if key:
            kwargs["api_key"] = key
        response: Any = None
        try:
            response = self.litellm.completion(**kwargs)
            chunks = []
            for chunk in response:
                chunks.append(chunk)
                choices = getattr(chunk, "choices", None) or []
                text = getattr(choices[0].delta, "content", None) if choices else None
                if text:
                    yield text
            yield self._assemble(chunks, messages)
        except ChatModelError:
            raise
        except Exception as error:  # noqa: BLE001 - every failure becomes one line
            raise map_error(
                error,
                model=self.model,
                api_base=self.api_base,
                api_key_env=self.api_key_env,
                timeout=self.timeout,
                secret=key,
            ) from None
        finally:
            _close(response)

    def supports_response_schema(self) -> bool:
        """Whether litellm's model table says the model takes a JSON schema as response_format."""
        try:
            return bool(self.litellm.supports_response_schema(model=self.model))
        except Exception:  # noqa: BLE001 - unknown models (local servers): a plain JSON object
            return False

    def _response_format(self, wanted: bool | Mapping[str, Any]) -> dict[str, Any]:
        """A JSON object, of the given schema where the model takes one (not strict: the caller
        validates, and strict mode refuses schemas with length and range limits)."""
        if isinstance(wanted, Mapping) and self.supports_response_schema():
            schema = {"name": "reply", "schema": dict(wanted)}
            return {"type": "json_schema", "json_schema": schema}
        return {"type": "json_object"}

    def _assemble(self, chunks: list[Any], messages: Sequence[dict[str, Any]]) -> ModelReply:
        if not chunks:
            raise ChatModelError("The model sent an empty reply; try again.", "malformed")
        built = self.litellm.stream_chunk_builder(chunks, messages=list(messages))
        if built is None or not built.choices:
            raise ChatModelError(
                "The model's streamed reply could not be put together; try again.", "malformed"
            )
        choice = built.choices[0]
        message = choice.message
        calls = tuple(
            ModelToolCall(
                id=call.id or "",
                name=(call.function.name or "").strip(),
                arguments=call.function.arguments or "",
            )
            for call in (getattr(message, "tool_calls", None) or [])
        )
        return ModelReply(message.content or "", calls, choice.finish_reason or "")


def _close(response: Any) -> None:
    """Close the HTTP stream of a cancelled or finished call."""
    for target in (getattr(response, "completion_stream", None), response):
        close = getattr(target, "close", None)
        if callable(close):
            try:
                close()
            except Exception:  # noqa: BLE001 - best effort
                pass
            return
