"""Our providers against the official SDKs they replaced (kept as dev dependencies for this): the
same request sent for the same conversation, and the same stream read as the same reply.

Why the providers do not use the SDKs at run time: `wavehost/session/providers/http.py`.
"""

import json
from typing import Any

import anthropic
import openai
import pytest

from tests.session.chat import turn
from tests.session.fake_llm import serve
from tests.session.test_provider_http import REQUEST, environment, reply
from wavehost.session.messages import ModelAssistant, ModelToolResult, ModelUser, ToolCall
from wavehost.session.providers.anthropic_messages import wire_messages as anthropic_messages
from wavehost.session.providers.anthropic_messages import wire_tools as anthropic_tools
from wavehost.session.providers.base import ModelRequest, StreamEvent, TextDelta
from wavehost.session.providers.openai_chat import wire_messages as openai_messages
from wavehost.session.providers.openai_chat import wire_tools as openai_tools

CONVERSATION = ModelRequest(
    system=REQUEST.system,
    tools=REQUEST.tools,
    messages=[
        ModelUser("list the files — ä ✓"),
        ModelAssistant("Let me look.", (ToolCall("toolu_1", "Bash", {"command": "ls"}),)),
        ModelToolResult("toolu_1", "a.txt\nb.txt", False),
        ModelUser("thanks"),
    ],
)
TURNS = [
    turn("A reply long enough to stream in several pieces, ünïcode included ✓."),
    turn(["two", "text blocks"], ("Write", {"file_path": "é.txt", "content": "x\n" * 20})),
    turn("", ("Bash", {}), ("Read", {"file_path": "a.txt"})),
]


def blocks(events: list[StreamEvent]) -> list[Any]:
    """Text blocks joined, tool calls as (name, input)."""
    out: list[Any] = []
    for event in events:
        if isinstance(event, TextDelta):
            if event.starts_block or not out or not isinstance(out[-1], str):
                out.append("")
            out[-1] += event.text
        else:
            out.append((event.name, event.input))
    return out


async def anthropic_sdk(url: str, request: ModelRequest) -> list[StreamEvent]:
    async with anthropic.AsyncAnthropic(base_url=url, api_key="key-1", max_retries=0) as client:
        return await _anthropic_reply(client, request)


async def _anthropic_reply(
    client: anthropic.AsyncAnthropic, request: ModelRequest
) -> list[StreamEvent]:
    events: list[StreamEvent] = []
    tools: Any = anthropic_tools(request.tools)
    messages: Any = anthropic_messages(request.messages)
    async with client.messages.stream(
        model="fake-model",
        max_tokens=request.max_tokens,
        system=request.system,
        messages=messages,
        tools=tools,
    ) as stream:
        new_block = False
        async for event in stream:
            if event.type == "content_block_start" and event.content_block.type == "text":
                new_block = True
            elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                events.append(TextDelta(event.delta.text, starts_block=new_block))
                new_block = False
            elif event.type == "content_block_stop" and event.content_block.type == "tool_use":
                block = event.content_block
                events.append(ToolCall(block.id, block.name, dict(block.input)))
    return events


async def openai_sdk(url: str, request: ModelRequest) -> list[StreamEvent]:
    async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="key-1", max_retries=0) as client:
        return await _openai_reply(client, request)


async def _openai_reply(client: openai.AsyncOpenAI, request: ModelRequest) -> list[StreamEvent]:
    tools: Any = openai_tools(request.tools)
    messages: Any = openai_messages(request.system, request.messages)
    stream = await client.chat.completions.create(
        model="fake-model", messages=messages, tools=tools, stream=True
    )
    events: list[StreamEvent] = []
    calls: dict[int, list[str]] = {}
    async with stream:
        async for chunk in stream:
            for choice in chunk.choices:
                if choice.delta.content:
                    events.append(TextDelta(choice.delta.content))
                for piece in choice.delta.tool_calls or ():
                    call = calls.setdefault(piece.index, ["", "", ""])
                    call[0] = call[0] or piece.id or ""
                    if piece.function is not None:
                        call[1] = call[1] or piece.function.name or ""
                        call[2] += piece.function.arguments or ""
    for index in sorted(calls):
        call_id, name, arguments = calls[index]
        events.append(ToolCall(call_id, name, json.loads(arguments) if arguments else {}))
    return events


SDKS = {"anthropic": anthropic_sdk, "openai": openai_sdk}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("scripted", TURNS, ids=["text", "blocks-and-write", "calls-only"])
async def test_our_provider_reads_a_stream_as_the_official_sdk_does(
    provider: str, scripted: Any
) -> None:
    async with serve([scripted, scripted]) as llm:
        ours = await reply(provider, environment(provider, llm.url))
        theirs = await SDKS[provider](llm.url, REQUEST)
    assert blocks(ours) == blocks(theirs)
    assert ours, "the stream said something"


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_our_provider_sends_the_request_the_official_sdk_sends(provider: str) -> None:
    async with serve([turn("ok"), turn("ok")]) as llm:
        await reply(provider, environment(provider, llm.url), CONVERSATION)
        await SDKS[provider](llm.url, CONVERSATION)
    ours, theirs = llm.requests
    assert ours == theirs
    assert llm.paths[0] == llm.paths[1].partition("?")[0]
