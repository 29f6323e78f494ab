"""Copilot CLI's matchers (seed 002 "Matcher"), the observed table row by row."""

from pathlib import Path

import pytest

from tests.dialects.conftest import Dispatch, bash, copilot_file
from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects.copilot.matcher import MatcherError, compile_matcher
from wavehost.hooks.sources import load_hook_config


@pytest.mark.parametrize(
    ("pattern", "hits"),
    [
        ("bash", True), ("ba.*", True), ("bash|view", True), (".*", True),
        ("BASH", False), ("Bash", False), ("ba", False),
    ],
)  # fmt: skip
def test_native_matchers_are_full_case_sensitive_regexes_on_copilots_tool_name(
    pattern: str, hits: bool
) -> None:
    assert compile_matcher(pattern, Event.PreToolUse, "preToolUse").matches("Bash") is hits


@pytest.mark.parametrize(
    ("pattern", "hits"),
    [
        ("Bash", True), ("bash", True), ("Ba.*", True), ("ba.*", False), ("BASH", False),
        ("*", True), ("**", True), ("Edit|Bash", True), ("B", False), ("Bas", False),
    ],
)  # fmt: skip
@pytest.mark.parametrize("key", ["PreToolUse", "PostToolUse", "PermissionRequest"])
def test_pascal_tool_matchers_match_claude_or_runtime_names_and_regexes_the_claude_name(
    key: str, pattern: str, hits: bool
) -> None:
    event = {"PreToolUse": Event.PreToolUse, "PostToolUse": Event.PostToolUse,
             "PermissionRequest": Event.PermissionRequest}[key]  # fmt: skip
    assert compile_matcher(pattern, event, key).matches("Bash") is hits


@pytest.mark.parametrize("pattern", ["*", "b[", ""])
def test_invalid_or_empty_matchers_skip_the_hook(pattern: str) -> None:
    with pytest.raises(MatcherError):
        compile_matcher(pattern, Event.PreToolUse, "preToolUse")
    if pattern == "":
        with pytest.raises(MatcherError):
            compile_matcher(pattern, Event.PostToolUse, "PostToolUse")  # the seed names two


@pytest.mark.parametrize(
    ("key", "event"),
    [("PreToolUse", Event.PreToolUse), ("PermissionRequest", Event.PermissionRequest)],
)
def test_an_empty_pascal_matcher_matches_every_tool(key: str, event: Event) -> None:
    """Seed 002: "*、** 或空值匹配所有" on PascalCase PreToolUse / PermissionRequest."""
    matcher = compile_matcher("", event, key)
    assert matcher.matches_all
    assert all(matcher.matches(tool) for tool in ("Bash", "Write", "Read"))


def test_other_tools_by_copilots_names() -> None:
    matcher = compile_matcher("view|create|edit", Event.PostToolUse, "postToolUse")
    assert [matcher.matches(t) for t in ("Read", "Write", "Edit", "Bash")] == [
        True, True, True, False
    ]  # fmt: skip


async def test_matchers_of_other_events_test_their_own_field(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "m.log"
    copilot_file(
        paths.copilot_project_hooks(project),
        "a.json",
        {
            "notification": [bash(f"echo notification >> {log}", matcher="idle_.*")],
            "preCompact": [bash(f"echo compact >> {log}", matcher="manual")],
            "subagentStart": [bash(f"echo agent >> {log}", matcher="Explore|Plan")],
        },
    )
    await dispatch("Notification", message="m", notification_type="idle_prompt")
    await dispatch("Notification", message="m", notification_type="permission_prompt")
    await dispatch("PreCompact", trigger="auto")
    await dispatch("PreCompact", trigger="manual")
    await dispatch("SubagentStart", agent_id="a", agent_type="Plan")
    await dispatch("SubagentStart", agent_id="a", agent_type="Review")
    assert log.read_text().split() == ["notification", "compact", "agent"]


def test_a_matcher_on_an_event_copilot_does_not_match_on_means_nothing(project: Path) -> None:
    copilot_file(
        paths.copilot_project_hooks(project), "a.json",
        {"agentStop": [bash("echo x", matcher="anything")]},
    )  # fmt: skip
    (handler,) = load_hook_config(project).runnable()
    assert handler.matcher.matches_all
    assert handler.matcher.source == "anything"
