"""The message model and what of it reaches the model."""

import json

from wavehost.session.messages import (
    AssistantMessage,
    ModelAssistant,
    ModelToolResult,
    ModelUser,
    NoticeBlock,
    TextBlock,
    ToolBlock,
    ToolCall,
    UserMessage,
    to_model_messages,
)
from wavehost.session.transcript import TranscriptState


def test_notices_are_dropped_and_is_meta_user_messages_kept() -> None:
    tool = ToolBlock(id="t1", name="Write", input={"file_path": "a"})
    tool.succeed("written")
    messages = [
        UserMessage(content="hi"),
        AssistantMessage(blocks=[NoticeBlock(level="error", text="hook broke")]),
        AssistantMessage(blocks=[TextBlock(text="ok"), tool, NoticeBlock(level="info", text="🔄")]),
        UserMessage(content="<system-reminder>\nctx\n</system-reminder>", is_meta=True),
    ]
    assert to_model_messages(messages) == [
        ModelUser("hi"),
        ModelAssistant("ok", (ToolCall("t1", "Write", {"file_path": "a"}),)),
        ModelToolResult("t1", "written", False),
        ModelUser("<system-reminder>\nctx\n</system-reminder>"),
    ]


def test_a_failed_tool_shows_its_error_text_to_the_model() -> None:
    tool = ToolBlock(id="t1", name="Write", input={})
    tool.fail("PreToolUse:Write hook error: no")
    [_, result] = to_model_messages([AssistantMessage(blocks=[tool])])
    assert result == ModelToolResult("t1", "PreToolUse:Write hook error: no", True)


def test_last_assistant_text_joins_text_blocks_and_trims() -> None:
    reply = AssistantMessage(
        blocks=[
            TextBlock(text="  one"),
            ToolBlock(id="t", name="Bash", input={}),
            TextBlock(text="two \n"),
        ]
    )
    assert reply.text() == "one\ntwo"
    assert AssistantMessage(blocks=[ToolBlock(id="t", name="Bash", input={})]).text() == ""


def test_messages_round_trip_through_the_camel_case_wire_form() -> None:
    messages = [
        UserMessage(content="x", is_meta=True),
        AssistantMessage(blocks=[NoticeBlock(level="warning", text="w", exit_code=1)]),
    ]
    wire = TranscriptState(messages=messages).to_wire()
    assert wire["messages"][0]["isMeta"] is True
    assert wire["messages"][1]["blocks"][0] == {
        "type": "notice",
        "level": "warning",
        "text": "w",
        "event": None,
        "command": None,
        "exitCode": 1,
        "hook": None,
        "label": None,
        "kind": None,
    }
    assert TranscriptState.model_validate(wire).messages == messages


def test_a_message_has_one_form_in_the_transcript_and_on_the_wire() -> None:
    from wavehost.protocol.chat import MessagePut

    message = AssistantMessage(blocks=[ToolBlock(id="t", name="Bash", input={})])
    in_transcript = json.loads(TranscriptState(messages=[message]).to_json())["messages"][0]
    on_the_wire = MessagePut(index=0, message=message).to_wire()["message"]
    assert in_transcript == on_the_wire
    assert in_transcript["blocks"][0]["result"] is None  # absent is an explicit null, both ways
