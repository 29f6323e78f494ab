from wavehost.hooks.catalogue import EVENT_NAMES, EVENTS_BY_NAME, Event

SEED_EVENTS = {
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
    "SubagentStart", "SubagentStop", "PermissionRequest", "Notification", "SessionStart",
    "SessionEnd", "PreCompact", "PostCompact", "WorktreeCreate", "WorktreeRemove", "CwdChanged",
}  # fmt: skip


# Points only other dialects name (Copilot's prompt transform and error events).
DIALECT_ONLY_EVENTS = {"UserPromptTransformed", "ErrorOccurred"}


def test_catalogue_lists_every_event_once_with_distinct_specs() -> None:
    assert set(EVENT_NAMES) == SEED_EVENTS
    assert {e.name for e in Event if not e.spec.wave} == DIALECT_ONLY_EVENTS
    # no two specs equal (an Enum would alias them)
    assert len(Event) == len(SEED_EVENTS) + len(DIALECT_ONLY_EVENTS)


def test_each_payload_model_names_its_own_event() -> None:
    for name, event in EVENTS_BY_NAME.items():
        assert event.spec.payload.model_fields["hook_event_name"].default == name


def test_matcher_fields_are_claude_codes() -> None:
    fields = {e.name: e.spec.matcher_field for e in Event if e.spec.matcher_field}
    assert fields["PreToolUse"] == fields["PostToolUse"] == "tool_name"
    assert fields["SessionStart"] == "source"
    assert fields["PreCompact"] == fields["PostCompact"] == "trigger"
    assert fields["Notification"] == "notification_type"
    assert fields["SubagentStart"] == fields["SubagentStop"] == "agent_type"
    assert "UserPromptSubmit" not in fields
    assert "Stop" not in fields


def test_additional_context_only_on_the_four_claude_code_events() -> None:
    supported = {e.name for e in Event if e.spec.additional_context}
    assert supported == {"UserPromptSubmit", "PreToolUse", "PostToolUse", "SessionStart"}
