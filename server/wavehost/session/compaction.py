"""Compaction: the conversation so far becomes a summary the model continues from.

Manual (`/compact [instructions]` typed in chat, or `wave/chat/compact`) or automatic (the
context passed a size threshold before a model call). PreCompact hooks (matcher `trigger`) run
before the summary call and their stdout joins the instructions; a failing PreCompact hook is
only reported — compaction goes on. A failed summary call leaves the conversation untouched and
runs no PostCompact hook. After a summary: PostCompact gets it (`compact_summary`; its failures
change nothing), then SessionStart fires with source `compact` so context hooks can re-inject.
The user keeps seeing the whole conversation; only the model's view starts at the summary.
"""

import logging
from collections.abc import Sequence
from contextlib import aclosing
from typing import Literal

from wavehost.hooks import payloads as p
from wavehost.session.conversation import Conversation
from wavehost.session.hooks import Halted, SessionHooks
from wavehost.session.messages import (
    ModelAssistant,
    ModelMessage,
    ModelToolResult,
    ModelUser,
    NoticeBlock,
    UserMessage,
    history,
)
from wavehost.session.providers.base import (
    ModelRequest,
    Provider,
    ProviderError,
    TextDelta,
    ToolSpec,
)

log = logging.getLogger(__name__)

Trigger = Literal["manual", "auto"]
COMMAND = "/compact"
CHARS_PER_TOKEN = 4  # a rough, provider-neutral estimate; good enough to decide when to compact

SUMMARY_SYSTEM = (
    "You summarize coding-agent conversations so the work can continue from the summary."
)
SUMMARY_REQUEST = """Summarize the conversation above so the work can go on from your summary alone.
Keep: the user's requests and intent, decisions made, files and code touched (with paths),
errors met and how they were fixed, what is done, what is pending, and the next step.
Reply with the summary only."""
SUMMARY_INTRO = (
    "This session is being continued from a previous conversation that was compacted. "
    "The conversation is summarized below:\n"
)


def parse_command(text: str) -> str | None:
    """The instructions of a `/compact [instructions]` prompt ("" for none); None for others."""
    stripped = text.strip()
    if (
        stripped == COMMAND
        or stripped.startswith(COMMAND + " ")
        or stripped.startswith(COMMAND + "\n")
    ):
        return stripped[len(COMMAND) :].strip()
    return None


def estimate_tokens(system: str, messages: Sequence[ModelMessage]) -> int:
    chars = len(system)
    for message in messages:
        if isinstance(message, ModelAssistant):
            chars += len(message.text) + sum(len(str(c.input)) + len(c.name) for c in message.calls)
        elif isinstance(message, ModelToolResult | ModelUser):
            chars += len(message.text)
    return chars // CHARS_PER_TOKEN


async def compact(
    hooks: SessionHooks,
    provider: Provider,
    conversation: Conversation,
    tools: Sequence[ToolSpec],
    trigger: Trigger,
    instructions: str = "",
) -> bool:
    """Compact `conversation`; False (with an error notice) when the summary call failed or a
    PreCompact hook refused it; `Halted` when that hook also stopped the flow."""
    pre = await hooks.fire(
        p.PreCompactInput(
            **hooks.common(),
            trigger=trigger,
            custom_instructions=instructions,
            history=lambda: history(conversation.messages),
        ),
        meta=False,
    )
    if pre.halt:  # Snow's beforeCompress 2+: no compaction, and the flow stops
        raise Halted
    if pre.blocked:
        return False
    merged = "\n\n".join(part for part in (instructions.strip(), pre.compact_instructions) if part)
    request_text = SUMMARY_REQUEST + (f"\n\nAdditional instructions:\n{merged}" if merged else "")
    visible = conversation.model_messages()
    # The tools go along: a request holding tool calls must declare them.
    request = ModelRequest(SUMMARY_SYSTEM, [*visible, ModelUser(request_text)], tools)
    try:
        summary = await _summary(provider, request)
    except ProviderError as err:
        log.warning("compaction (%s) failed: %s", trigger, err)
        conversation.notice(NoticeBlock(level="error", text=f"Compaction failed: {err}"))
        return False
    conversation.append(
        UserMessage(content=SUMMARY_INTRO + summary, is_meta=True, is_compact_summary=True)
    )
    conversation.notice(NoticeBlock(level="info", text=f"Conversation compacted ({trigger})"))
    await hooks.fire(
        p.PostCompactInput(**hooks.common(), trigger=trigger, compact_summary=summary), meta=False
    )
    await hooks.fire(p.SessionStartInput(**hooks.common(), source="compact"))
    conversation.save(durable=True)
    return True


async def _summary(provider: Provider, request: ModelRequest) -> str:
    parts: list[str] = []
    async with aclosing(provider.stream(request)) as events:
        async for event in events:
            if isinstance(event, TextDelta):
                parts.append(event.text)
    summary = "".join(parts).strip()
    if not summary:
        raise ProviderError("the model returned an empty summary")
    return summary
