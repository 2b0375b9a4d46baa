"""litellm's exceptions as one-line ChatModelErrors that say what to do."""

from __future__ import annotations

from reader.domain.chat_model import ChatModelError

_PROVIDER_KEYS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
}


def key_variable(model: str, api_key_env: str) -> str:
    """The environment variable the user should set for this model's key."""
    if api_key_env:
        return api_key_env
    provider = model.split("/", 1)[0] if "/" in model else "openai"
    return _PROVIDER_KEYS.get(provider, "the provider's API key variable")


def _detail(error: BaseException, secret: str | None) -> str:
    """The provider's message, one line, without litellm's prefixes or the key."""
    text = " ".join(str(getattr(error, "message", "") or error).split())
    for prefix in ("litellm.", "OpenAIException - ", "APIError: ", "Error_str: "):
        text = text.replace(prefix, "")
    if secret:
        text = text.replace(secret, "***")
    return text[:200].rstrip() + ("…" if len(text) > 200 else "")


def map_error(
    error: BaseException, *, model: str, api_base: str, api_key_env: str, timeout: float, secret: str | None
) -> ChatModelError:
    """Turn an exception from a litellm call into one clear line."""
    import litellm

    name = type(error).__name__
    detail = _detail(error, secret)
    where = f" at {api_base}" if api_base else ""
    variable = key_variable(model, api_key_env)
    if "Missing credentials" in detail or ("api_key" in detail and "must be set" in detail):
        return ChatModelError(
            f"No API key for {model}; set {variable} in the environment (or name the variable in "
            "[chat] api_key_env).",
            "auth",
        )
    if isinstance(error, litellm.AuthenticationError):
        return ChatModelError(
            f"The model refused the API key; set {variable} (or [chat] api_key_env) to a valid key.", "auth"
        )
    if isinstance(error, litellm.PermissionDeniedError):
        return ChatModelError(
            f"The server{where} denied access to {model} (403); check the key's permissions.", "auth"
        )
    if isinstance(error, litellm.ContextWindowExceededError):
        return ChatModelError(
            "The question and history do not fit the model's context window even after trimming; "
            "start a new conversation or lower [chat] context_window.",
            "context_window",
        )
    if isinstance(error, litellm.NotFoundError):
        return ChatModelError(f"Model '{model}' was not found{where}; check [chat] model.", "not_found")
    if isinstance(error, litellm.RateLimitError):
        return ChatModelError(
            f"The model's rate limit was reached and retrying did not help; wait a little and ask again ({detail}).",
            "rate_limit",
            retryable=True,
        )
    if isinstance(error, litellm.Timeout):
        return ChatModelError(
            f"The model did not answer within {timeout:g} s; try again, or raise [chat] timeout.", "timeout"
        )
    if isinstance(error, litellm.APIConnectionError) or "Connection error" in detail:
        target = f"the model server{where}" if api_base else f"the provider of {model}"
        return ChatModelError(
            f"Could not connect to {target}; is it running and reachable? (check [chat] api_base)",
            "connection",
        )
    if isinstance(
        error, litellm.InternalServerError | litellm.ServiceUnavailableError | litellm.BadGatewayError
    ):
        status = getattr(error, "status_code", "") or "5xx"
        return ChatModelError(
            f"The model's server failed ({status}: {detail}); try again later.", "server", retryable=True
        )
    if "LLM Provider NOT provided" in detail:
        return ChatModelError(
            f"litellm does not know who serves '{model}'; name the provider, e.g. 'openai/{model}' with "
            f"api_base, or 'ollama_chat/{model}'.",
            "not_found",
        )
    if isinstance(error, litellm.BadRequestError | litellm.UnsupportedParamsError):
        hint = (
            ' If the model cannot call tools, set [chat] tool_calling = "off".'
            if "tool" in detail.lower()
            else ""
        )
        return ChatModelError(f"The model rejected the request: {detail}.{hint}", "bad_request")
    if isinstance(error, ValueError | KeyError | TypeError | AttributeError | IndexError):
        return ChatModelError(
            f"The model sent a reply that could not be read ({name}: {detail}).", "malformed"
        )
    return ChatModelError(f"The model call failed ({name}: {detail}).", "other")
