"""Compaction (seed 000 "PreCompact" and "PostCompact" stories): `/compact` typed in chat,
`ChatSession.compact`, and automatic compaction at the context threshold."""

import json
from pathlib import Path

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, lines, metas, notices, record, turn, users
from tests.session.fake_llm import HttpError
from wavehost.hooks.outcome import system_reminder
from wavehost.session.compaction import SUMMARY_INTRO
from wavehost.session.messages import AssistantMessage

SUMMARY = "The user asked for the API notes; they are in notes.md."


async def test_typed_compact_merges_pre_compact_stdout_and_the_model_continues_from_the_summary(
    chat: ChatRunner, project: Path
) -> None:
    pre, post, start, prompts = (
        project.parent / f"{n}.jsonl" for n in ("pre", "post", "start", "prompts")
    )
    context = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}}
    hooks = merge(
        hooks_for("PreCompact", f"{record(pre)}; echo 'also keep the TODOs'", matcher="manual"),
        hooks_for("PreCompact", "echo 'never for manual'", matcher="auto"),
        hooks_for("PostCompact", record(post)),
        hooks_for("SessionStart", record(start), matcher="compact"),
        hooks_for("SessionStart", f"echo '{json.dumps(context)}'", matcher="compact"),
        hooks_for("UserPromptSubmit", record(prompts)),
    )
    script = [turn("first answer"), turn(SUMMARY), turn("continuing")]
    result = await chat(
        script, "write the API notes", "/compact keep the API notes", "go on", hooks=hooks
    )

    summary_request, after = result.llm.request_texts()[1:]
    assert "keep the API notes\n\nalso keep the TODOs" in summary_request
    assert "never for manual" not in summary_request
    assert "first answer" in summary_request
    [started] = lines(pre)
    assert (started["trigger"], started["custom_instructions"]) == ("manual", "keep the API notes")
    [done] = lines(post)
    assert (done["trigger"], done["compact_summary"]) == ("manual", SUMMARY)
    assert [s["source"] for s in lines(start)] == ["compact"]
    assert [p["prompt"] for p in lines(prompts)] == ["write the API notes", "go on"]
    assert "first answer" not in after  # the model's view starts at the summary
    assert SUMMARY_INTRO + SUMMARY in after
    assert metas(result.messages) == [
        SUMMARY_INTRO + SUMMARY,
        system_reminder("SessionStart hook additional context: ctx"),
    ]
    replies = [m.text() for m in result.messages if isinstance(m, AssistantMessage)]
    assert "first answer" in replies  # the user still sees the whole conversation
    assert ("info", "Conversation compacted (manual)") in [
        (n.level, n.text) for n in notices(result.messages)
    ]


async def test_compaction_starts_by_itself_past_the_context_threshold(
    chat: ChatRunner, project: Path
) -> None:
    pre = project.parent / "pre.jsonl"
    long_prompt = "please read this carefully " * 40
    result = await chat(
        [turn(SUMMARY), turn("done")],
        long_prompt,
        hooks=hooks_for("PreCompact", record(pre), matcher="auto"),
        config={"auto_compact_tokens": 100},
    )

    [started] = lines(pre)
    assert (started["trigger"], started["custom_instructions"]) == ("auto", "")
    summary_request, answer_request = result.llm.request_texts()
    assert long_prompt.strip() in summary_request
    assert long_prompt.strip() not in answer_request
    assert SUMMARY in answer_request
    assert result.messages[-1].text() == "done"


async def test_failing_compaction_hooks_are_reported_and_compaction_goes_on(
    chat: ChatRunner, project: Path
) -> None:
    hooks = merge(
        hooks_for("PreCompact", "echo 'pre broke' >&2; exit 1"),
        hooks_for("PreCompact", "echo 'silently dropped' >&2; exit 2"),
        hooks_for("PostCompact", "echo 'post broke' >&2; exit 1"),
    )
    async with chat.open([turn("hi"), turn(SUMMARY)], hooks=hooks) as running:
        running.session.send("hello")
        assert await running.session.compact()

    assert metas(running.messages) == [SUMMARY_INTRO + SUMMARY]
    errors = [n.text for n in notices(running.messages) if n.level == "error"]
    assert errors == ["pre broke", "post broke"]


async def test_a_failed_summary_call_changes_nothing_and_runs_no_post_compact(
    chat: ChatRunner, project: Path
) -> None:
    post = project.parent / "post.jsonl"
    async with chat.open(
        [turn("hi"), HttpError(400, "context too long")],
        hooks=hooks_for("PostCompact", record(post)),
    ) as running:
        running.session.send("hello")
        assert not await running.session.compact("keep it short")

    assert not post.exists()
    assert metas(running.messages) == []
    assert [m.content for m in users(running.messages)] == ["hello"]
    [failure] = [n for n in notices(running.messages) if n.level == "error"]
    assert failure.text.startswith("Compaction failed: anthropic:")
    assert "context too long" in failure.text
