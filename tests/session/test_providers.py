"""Both real providers, through their official SDKs, against the fake server's SSE streams."""

import pytest

from tests.session.chat import ChatRunner, notices, tools, turn
from tests.session.fake_llm import HttpError
from wavehost.session.providers import ProviderError, choose


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_streamed_text_and_tool_calls_come_back_as_blocks(
    chat: ChatRunner, project: str, provider: str
) -> None:
    calls = [
        ("Write", {"file_path": "a.txt", "content": "ä\n" * 3}),
        ("Read", {"file_path": "a.txt"}),
    ]
    result = await chat(
        [turn("Let me write a longer sentence that streams in pieces.", *calls), turn("All done.")],
        "go",
        provider=provider,
    )
    reply = result.messages[1]
    assert reply.text() == "Let me write a longer sentence that streams in pieces."
    assert [(b.name, b.input, b.status) for b in tools(result.messages)] == [
        (*calls[0], "success"),
        (*calls[1], "success"),
    ]
    assert result.messages[-1].text() == "All done."


async def test_anthropic_request_carries_tools_system_and_tool_results(chat: ChatRunner) -> None:
    result = await chat([turn("", ("Bash", {"command": "echo hi"})), turn("ok")], "go")
    first, second = result.llm.requests
    assert result.llm.paths == ["/v1/messages", "/v1/messages"]
    assert first["stream"] is True
    assert first["model"] == "fake-anthropic"
    assert {t["name"] for t in first["tools"]} == {
        *("Read", "Write", "Edit", "Bash", "Glob", "Grep", "TaskOutput", "TaskStop", "Agent"),
        "AskUserQuestion",
        *("CronCreate", "CronList", "CronDelete", "EnterWorktree", "ExitWorktree"),
    }
    assert first["tools"][0]["input_schema"]["type"] == "object"
    assert "Project root" in first["system"]
    user_turn = second["messages"][2]
    assert user_turn["role"] == "user"
    [result_block] = user_turn["content"]
    assert result_block["type"] == "tool_result"
    assert (result_block["content"], result_block["is_error"]) == ("hi", False)


async def test_openai_request_carries_tool_calls_and_tool_messages(chat: ChatRunner) -> None:
    result = await chat(
        [turn("", ("Bash", {"command": "echo hi"})), turn("ok")], "go", provider="openai"
    )
    second = result.llm.requests[1]
    assert result.llm.paths == ["/v1/chat/completions"] * 2
    roles = [m["role"] for m in second["messages"]]
    assert roles == ["system", "user", "assistant", "tool"]
    call = second["messages"][2]["tool_calls"][0]
    assert call["function"]["name"] == "Bash"
    assert second["messages"][3] == {"role": "tool", "tool_call_id": call["id"], "content": "hi"}
    assert second["tools"][0]["type"] == "function"


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_an_http_error_ends_the_turn_with_an_error_notice(
    chat: ChatRunner, provider: str
) -> None:
    result = await chat([HttpError(400, "bad request from the fake")], "go", provider=provider)
    [notice] = notices(result.messages)
    assert notice.level == "error"
    assert notice.text.startswith("Model request failed:")
    assert "bad request from the fake" in notice.text
    assert result.session.turn_error == notice.text
    assert result.session.status == "idle"


def test_provider_is_chosen_by_flag_then_environment_then_settings_then_api_key() -> None:
    settings = {"provider": "openai", "model": "from-settings"}
    assert choose("anthropic", None, None, settings, {}).provider == "anthropic"
    assert (
        choose(None, None, None, settings, {"WAVE_PROVIDER": "anthropic"}).provider == "anthropic"
    )
    chosen = choose(None, None, None, settings, {})
    assert (chosen.provider, chosen.model) == ("openai", "from-settings")
    assert choose(None, None, None, {}, {"OPENAI_API_KEY": "k"}).provider == "openai"
    with pytest.raises(ProviderError, match="no model provider"):
        choose(None, None, None, {}, {})
    with pytest.raises(ProviderError, match="needs a script"):
        choose("scripted", None, None, {}, {})
