"""The providers speak their APIs over HTTP themselves: credentials and headers as Claude Code (and
the OpenAI SDK) send them, the SDKs' retry policy, and one readable `ProviderError` for whatever
a server does wrong — against the fake server on 127.0.0.1, real sockets."""

import json
import socket
import subprocess
import sys
from typing import Any

import anyio
import pytest

from tests.processes import TIMEOUT
from tests.session.chat import turn
from tests.session.fake_llm import Answer, FakeLLM, HttpError, RawEvents, serve
from wavehost.session.messages import ModelUser, ToolCall
from wavehost.session.providers import ProviderChoice, ProviderError, make_provider
from wavehost.session.providers.base import ModelRequest, StreamEvent, TextDelta, ToolSpec
from wavehost.session.providers.http import proxy_for

REQUEST = ModelRequest(
    system="be brief",
    messages=[ModelUser("hi")],
    tools=[ToolSpec("Bash", "run", {"type": "object", "properties": {}})],
)
PROVIDERS = ["anthropic", "openai"]


def environment(provider: str, url: str, **more: str) -> dict[str, str]:
    if provider == "anthropic":
        return {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "key-1", **more}
    return {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "key-1", **more}


async def reply(
    provider: str, env: dict[str, str], request: ModelRequest = REQUEST
) -> list[StreamEvent]:
    model = make_provider(ProviderChoice(provider, "fake-model"), env)
    try:
        with anyio.fail_after(TIMEOUT):
            return [event async for event in model.stream(request)]
    finally:
        await model.aclose()


async def exchange(
    provider: str, turns: list[Answer], **env: str
) -> tuple[FakeLLM, list[StreamEvent] | ProviderError]:
    async with serve(turns) as llm:
        try:
            return llm, await reply(provider, environment(provider, llm.url, **env))
        except ProviderError as err:
            return llm, err


def text(events: Any) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


async def test_anthropic_sends_the_api_key_and_version_as_claude_code_does() -> None:
    llm, events = await exchange("anthropic", [turn("hello", ("Bash", {"command": "ls"}))])
    assert text(events) == "hello"
    [call] = [e for e in events if isinstance(e, ToolCall)]
    assert (call.name, call.input) == ("Bash", {"command": "ls"})
    [headers] = llm.headers
    assert headers["x-api-key"] == "key-1"
    assert headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in headers
    [body] = llm.requests
    assert body["stream"] is True
    assert (body["model"], body["system"], body["max_tokens"]) == ("fake-model", "be brief", 8192)
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert body["tools"][0]["input_schema"] == {"type": "object", "properties": {}}


async def test_anthropic_auth_token_is_a_bearer_and_custom_headers_are_added() -> None:
    async with serve([turn("ok")]) as llm:
        env = {
            "ANTHROPIC_BASE_URL": f"{llm.url}/gateway/",
            "ANTHROPIC_AUTH_TOKEN": "token-2",
            "ANTHROPIC_CUSTOM_HEADERS": "X-Team: blue\nnot a header\nX-Trace:  abc ",
        }
        assert text(await reply("anthropic", env)) == "ok"
    [headers] = llm.headers
    assert headers["authorization"] == "Bearer token-2"
    assert "x-api-key" not in headers
    assert (headers["x-team"], headers["x-trace"]) == ("blue", "abc")
    assert llm.paths == ["/gateway/v1/messages"]


async def test_openai_sends_a_bearer_key_and_the_organization() -> None:
    llm, events = await exchange(
        "openai", [turn("hello")], OPENAI_ORG_ID="org-3", OPENAI_PROJECT_ID="proj-4"
    )
    assert text(events) == "hello"
    [headers] = llm.headers
    assert headers["authorization"] == "Bearer key-1"
    assert (headers["openai-organization"], headers["openai-project"]) == ("org-3", "proj-4")
    assert llm.paths == ["/v1/chat/completions"]
    assert llm.requests[0]["messages"][0] == {"role": "system", "content": "be brief"}


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_rate_limited_request_is_sent_again_when_the_server_says(provider: str) -> None:
    limited = HttpError(429, "slow down", {"retry-after-ms": "20"})
    llm, events = await exchange(provider, [limited, limited, turn("at last")])
    assert text(events) == "at last"
    assert len(llm.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_retries_stop_after_two_and_the_error_says_what_the_server_said(
    provider: str,
) -> None:
    failing = HttpError(500, "the fake is down", {"retry-after": "0.01"})
    llm, error = await exchange(provider, [failing] * 4)
    assert isinstance(error, ProviderError)
    assert str(error) == f"{provider}: HTTP 500: api_error: the fake is down"
    assert len(llm.requests) == 3


async def test_x_should_retry_false_is_obeyed_and_a_bad_request_is_not_retried() -> None:
    llm, error = await exchange("anthropic", [HttpError(503, "no", {"x-should-retry": "false"})])
    assert isinstance(error, ProviderError)
    assert len(llm.requests) == 1
    llm, error = await exchange("anthropic", [HttpError(400, "bad"), turn("unused")])
    assert str(error) == "anthropic: HTTP 400: api_error: bad"
    assert len(llm.requests) == 1


def sse(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"


async def test_an_error_event_mid_stream_ends_the_reply_with_its_message() -> None:
    events = [
        sse("message_start", {"message": {"id": "m", "content": []}}),
        sse("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}}),
        sse("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "par"}}),
        sse("error", {"error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ]
    seen: list[StreamEvent] = []

    async def read(url: str) -> None:
        model = make_provider(ProviderChoice("anthropic", "m"), environment("anthropic", url))
        try:
            async for event in model.stream(REQUEST):
                seen.append(event)
        finally:
            await model.aclose()

    async with serve([RawEvents(events)]) as llm:
        with pytest.raises(ProviderError, match=r"^anthropic: overloaded_error: Overloaded$"):
            await read(llm.url)
    assert text(seen) == "par"  # what came before the error was handed over


@pytest.mark.parametrize(
    ("provider", "events", "message"),
    [
        ("anthropic", ["event: message_start\ndata: {not json\n\n"], "not JSON"),
        ("anthropic", ["data: [1, 2]\n\n"], "not a JSON object"),
        (
            "anthropic",
            [sse("content_block_delta", {"index": 5, "delta": {"type": "text_delta"}})],
            "malformed content_block_delta event",
        ),
        (
            "anthropic",
            [
                sse("content_block_start", {"index": 0, "content_block": {"type": "text"}}),
                sse(
                    "content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": 7}}
                ),
            ],
            "malformed content_block_delta event",
        ),
        (
            "openai",
            ['data: {"choices": [{"delta": {"tool_calls": [{"index": "0"}]}}]}\n\n'],
            "malformed chunk",
        ),
        ("openai", ['data: {"error": {"message": "quota"}}\n\n'], "openai: quota"),
    ],
)
async def test_a_stream_that_lies_is_a_provider_error(
    provider: str, events: list[str], message: str
) -> None:
    _, error = await exchange(provider, [RawEvents(events)])
    assert isinstance(error, ProviderError)
    assert message in str(error)


async def test_an_answer_that_is_not_an_event_stream_is_a_provider_error() -> None:
    _, error = await exchange("anthropic", [HttpError(200, "a JSON answer, not events")])
    assert isinstance(error, ProviderError)
    assert "text/event-stream" in str(error)


async def test_an_unreachable_server_is_tried_three_times_then_reported() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with pytest.raises(ProviderError) as raised:
        await reply("anthropic", environment("anthropic", url))
    reason = "Connection refused"
    assert str(raised.value) == f"anthropic: cannot connect to {url} (ANTHROPIC_BASE_URL): {reason}"


async def test_a_tool_call_whose_input_is_in_its_start_block_keeps_it() -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
    events = [
        sse("content_block_start", {"index": 0, "content_block": block}),
        sse("content_block_stop", {"index": 0}),
        sse("message_stop", {}),
    ]
    _, result = await exchange("anthropic", [RawEvents(events)])
    assert result == [ToolCall("toolu_1", "Bash", {"command": "ls"})]


def test_a_chat_with_either_provider_loads_no_sdk() -> None:
    # The reason the providers speak HTTP themselves: importing the official SDKs costs 0.6–1 s of
    # CPU (bench/chat.py prints it beside `claude -p`), more than Claude Code's whole turn.
    probe = (
        "import sys\n"
        "from wavehost.session import headless\n"
        "from wavehost.session.providers import ProviderChoice, make_provider\n"
        "env = {'ANTHROPIC_API_KEY': 'k', 'OPENAI_API_KEY': 'k'}\n"
        "for name in ('anthropic', 'openai'):\n"
        "    make_provider(ProviderChoice(name, 'm'), env)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'anthropic', 'openai'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


async def test_the_proxy_the_environment_names_carries_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with serve([turn("through the proxy")]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)  # the fake answers as a forwarding proxy
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        env = {"ANTHROPIC_BASE_URL": "http://api.example.invalid", "ANTHROPIC_API_KEY": "k"}
        assert text(await reply("anthropic", env)) == "through the proxy"
    assert proxy.paths == ["http://api.example.invalid/v1/messages"]


def test_no_proxy_leaves_its_hosts_to_a_direct_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example")
    assert proxy_for("https://api.anthropic.com/v1/messages") == "http://proxy.example:3128"
    assert proxy_for("https://llm.internal.example/v1/messages") is None
