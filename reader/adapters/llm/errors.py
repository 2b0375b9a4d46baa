"""litellm's exceptions classified once, then worded as one-line errors for the chat and for embeddings."""

from __future__ import annotations

from typing import TypeVar

from reader.domain.chat_model import ChatModelError
from reader.domain.errors import EmbeddingError, EndpointError

_LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "0.0.0.0")
E = TypeVar("E", bound=EndpointError)

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
    name = type(error).__name__
    while text.startswith(f"{name}: {name}: "):  # litellm repeats its class name in the message
        text = text.removeprefix(f"{name}: ")
    if secret:
        text = text.replace(secret, "***")
    return text[:200].rstrip() + ("…" if len(text) > 200 else "")


def endpoint_key(
    api_key: str | None, api_key_env: str, api_base: str, section: str, error: type[E]
) -> str | None:
    """The key to send: the configured one, a placeholder for a local server, or None (litellm's own)."""
    if api_key:
        return api_key
    if api_key_env:
        raise error(
            f"[{section}] api_key_env names {api_key_env}, but it is not set in the environment; "
            f"export {api_key_env}=... and try again.",
            "auth",
        )
    if api_base and any(host in api_base for host in _LOCAL_HOSTS):
        return "no-key"  # local OpenAI-compatible servers want some key
    return None


def classify(error: BaseException) -> str:
    """What went wrong, from litellm's class and the HTTP status.

    The status counts as much as the class: for `openai/...` models litellm raises BadRequestError
    for any error body typed "invalid_request_error" (a 401 "Invalid API Key" from an
    OpenAI-compatible server included) and a bare APIError for a 403, keeping `status_code`.
    Kinds: missing_key, auth, permission, context_window, not_found, rate_limit, timeout,
    connection, server, unknown_provider, bad_request, malformed, other.
    """
    import litellm

    status = getattr(error, "status_code", None)
    detail = _detail(error, None)
    checks: list[tuple[str, bool]] = [
        ("missing_key", "Missing credentials" in detail or ("api_key" in detail and "must be set" in detail)),
        ("auth", isinstance(error, litellm.AuthenticationError) or status == 401),
        ("permission", isinstance(error, litellm.PermissionDeniedError) or status == 403),
        ("context_window", isinstance(error, litellm.ContextWindowExceededError)),
        ("not_found", isinstance(error, litellm.NotFoundError) or status == 404),
        ("rate_limit", isinstance(error, litellm.RateLimitError)),
        ("timeout", isinstance(error, litellm.Timeout)),
        ("connection", isinstance(error, litellm.APIConnectionError) or "Connection error" in detail),
        (
            "server",
            isinstance(
                error, litellm.InternalServerError | litellm.ServiceUnavailableError | litellm.BadGatewayError
            ),
        ),
        ("unknown_provider", "LLM Provider NOT provided" in detail),
        ("bad_request", isinstance(error, litellm.BadRequestError | litellm.UnsupportedParamsError)),
        ("malformed", isinstance(error, ValueError | KeyError | TypeError | AttributeError | IndexError)),
    ]
    return next((kind for kind, matched in checks if matched), "other")


def map_error(
    error: BaseException, *, model: str, api_base: str, api_key_env: str, timeout: float, secret: str | None
) -> ChatModelError:
    """Turn an exception from a litellm chat call into one clear line."""
    kind = classify(error)
    name = type(error).__name__
    detail = _detail(error, secret)
    where = f" at {api_base}" if api_base else ""
    variable = key_variable(model, api_key_env)
    status = getattr(error, "status_code", "") or "5xx"
    target = f"the model server{where}" if api_base else f"the provider of {model}"
    hint = (
        ' If the model cannot call tools, set [chat] tool_calling = "off".'
        if "tool" in detail.lower()
        else ""
    )
    messages = {
        "missing_key": f"No API key for {model}; set {variable} in the environment (or name the variable in "
        "[chat] api_key_env).",
        "auth": f"The model refused the API key; set {variable} (or [chat] api_key_env) to a valid key.",
        "permission": f"The server{where} denied access to {model} (403); check the key's permissions.",
        "context_window": "The question and history do not fit the model's context window even after "
        "trimming; start a new conversation or lower [chat] context_window.",
        "not_found": f"Model '{model}' was not found{where}; check [chat] model.",
        "rate_limit": "The model's rate limit was reached and retrying did not help; wait a little and ask "
        f"again ({detail}).",
        "timeout": f"The model did not answer within {timeout:g} s; try again, or raise [chat] timeout.",
        "connection": f"Could not connect to {target}; is it running and reachable? (check [chat] api_base)",
        "server": f"The model's server failed ({status}: {detail}); try again later.",
        "unknown_provider": f"litellm does not know who serves '{model}'; name the provider, e.g. "
        f"'openai/{model}' with api_base, or 'ollama_chat/{model}'.",
        "bad_request": f"The model rejected the request: {detail}.{hint}",
        "malformed": f"The model sent a reply that could not be read ({name}: {detail}).",
        "other": f"The model call failed ({name}: {detail}).",
    }
    kinds = {"missing_key": "auth", "permission": "auth", "unknown_provider": "not_found"}
    return ChatModelError(messages[kind], kinds.get(kind, kind), retryable=kind in ("rate_limit", "server"))


def map_embedding_error(
    error: BaseException, *, model: str, api_base: str, api_key_env: str, timeout: float, secret: str | None
) -> EmbeddingError:
    """Turn an exception from a litellm embedding call into one clear line."""
    kind = classify(error)
    detail = _detail(error, secret)[:160]
    where = f" at {api_base}" if api_base else ""
    variable = key_variable(model, api_key_env)
    status = getattr(error, "status_code", "") or "5xx"
    target = f"the embedding server{where}" if api_base else f"the provider of {model}"
    messages = {
        "missing_key": f"No API key for {model}; set {variable} (or name the variable in [embeddings] api_key_env).",
        "auth": f"The embedding server{where} refused the API key; set {variable} to a valid key.",
        "permission": f"The embedding server{where} denied access to {model} (403); check the key's permissions.",
        "not_found": f"Embedding model '{model}' was not found{where}; check [embeddings] model.",
        "rate_limit": f"The embedding rate limit was reached and retrying did not help; try again later ({detail}).",
        "timeout": f"The embedding server{where} did not answer within {timeout:g} s; raise [embeddings] timeout.",
        "connection": f"Could not connect to {target}; is it running? (check [embeddings] api_base)",
        "server": f"The embedding server failed ({status}: {detail}); try again later.",
        "unknown_provider": f"litellm does not know who serves '{model}'; write it as 'openai/{model}' with "
        f"[embeddings] api_base, or 'ollama/{model}'.",
        "bad_request": f"The embedding server rejected the request: {detail}.",
        "context_window": f"The embedding server rejected the request: {detail}.",
    }
    fallback = f"The embedding call failed ({type(error).__name__}: {detail})."
    kinds = {
        "missing_key": "auth",
        "permission": "auth",
        "unknown_provider": "not_found",
        "context_window": "bad_request",
    }
    retryable = kind in ("rate_limit", "server", "timeout", "connection")
    return EmbeddingError(messages.get(kind, fallback), kinds.get(kind, kind), retryable=retryable)
