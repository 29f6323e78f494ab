"""wave/hooks/list: every hook by source, the config files, problems, the project."""

from lsprotocol import types

from tests.dialect_files import bash, copilot_project
from tests.hooks_doc import hook
from tests.lsp.client import running_server
from tests.workspace import Workspace
from wavehost import paths


def _all_sources(workspace: Workspace) -> None:
    workspace.write(
        workspace.user_settings,
        {
            "enabledPlugins": {"lint-kit@market": True},
            "hooks": {"Stop": [{"hooks": [hook("echo user", description="says bye")]}]},
        },
    )
    workspace.write(
        workspace.project_settings,
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("guard", timeout=5)]}]}},
    )
    workspace.write(
        workspace.local_settings,
        {"hooks": {"PostToolUse": [{"hooks": [hook("fmt", **{"async": True})]}]}},
    )
    workspace.write(
        workspace.plugin_hooks("lint-kit"),
        {"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [hook("lint")]}]}},
    )


async def test_list_reports_each_hook_with_its_source_file_and_read_only_flag(
    workspace: Workspace,
) -> None:
    _all_sources(workspace)
    async with running_server(workspace) as client:
        result = await client.list_hooks()

    by_command = {h["command"]: h for h in result["hooks"]}
    assert set(by_command) == {"echo user", "guard", "fmt", "lint"}
    user, guard, fmt, lint = (by_command[c] for c in ("echo user", "guard", "fmt", "lint"))
    assert (user["source"], user["path"], user["readOnly"]) == (
        "user",
        str(workspace.user_settings),
        False,
    )
    assert (user["event"], user["description"]) == ("Stop", "says bye")
    assert (guard["source"], guard["matcher"], guard["timeout"]) == ("project", "Bash", 5)
    assert user["pointer"] == "/hooks/Stop/0/hooks/0"  # where it is in its file: the page's order
    assert (fmt["source"], fmt["path"], fmt["async"]) == (
        "project",
        str(workspace.local_settings),
        True,
    )
    assert (lint["source"], lint["plugin"], lint["readOnly"]) == ("plugin", "lint-kit", True)
    assert lint["path"] == str(workspace.plugin_hooks("lint-kit"))
    assert len({h["id"] for h in result["hooks"]}) == 4
    assert result["project"] == {
        "dir": str(workspace.project),
        "name": "my-app",
        "home": str(workspace.home),
    }
    assert result["trusted"] is True
    assert result["diagnostics"] == []


async def test_list_reports_missing_files_and_parse_errors_per_file(workspace: Workspace) -> None:
    workspace.write(workspace.project_settings, '{"hooks": {"Stop": [}\n')
    async with running_server(workspace) as client:
        result = await client.list_hooks()

    files = {f["path"]: f for f in result["configFiles"]}
    assert files[str(workspace.user_settings)]["exists"] is False
    assert files[str(workspace.local_settings)]["exists"] is False
    broken = files[str(workspace.project_settings)]
    assert broken["exists"] is True
    assert broken["error"].startswith("invalid JSON at line 1")
    assert [d["path"] for d in result["diagnostics"]] == [str(workspace.project_settings)]
    assert result["hooks"] == []


async def test_list_reports_bad_entries_as_diagnostics_and_keeps_the_rest(
    workspace: Workspace,
) -> None:
    workspace.write(
        workspace.user_settings,
        {"hooks": {"Stop": [{"hooks": [hook("ok"), {"type": "command"}]}], "stop": []}},
    )
    async with running_server(workspace) as client:
        result = await client.list_hooks()

    assert [h["command"] for h in result["hooks"]] == ["ok"]
    pointers = sorted(d["pointer"] for d in result["diagnostics"])
    assert pointers == ["/hooks/Stop/0/hooks/1/command", "/hooks/stop"]


async def test_list_shows_claude_codes_own_files_under_their_own_format(
    workspace: Workspace,
) -> None:
    user_file = paths.claude_user_settings(workspace.home)
    local_file = paths.claude_local_settings(workspace.project)
    workspace.write(user_file, {"hooks": {"Stop": [{"hooks": [hook("say done")]}]}})
    workspace.write(local_file, {"hooks": {"PreToolUse": [{"hooks": [hook("guard")]}]}})
    async with running_server(workspace) as client:
        result = await client.list_hooks()

    by_command = {h["command"]: h for h in result["hooks"]}
    assert (by_command["say done"]["source"], by_command["say done"]["dialect"]) == (
        "user",
        "claude",
    )
    assert (by_command["guard"]["source"], by_command["guard"]["path"]) == (
        "project",
        str(local_file),
    )
    files = {f["path"]: f["dialect"] for f in result["configFiles"]}
    assert files[str(user_file)] == files[str(local_file)] == "claude"
    assert files[str(workspace.project_settings)] == "wave"


async def test_untrusted_workspace_lists_project_hooks_marked_untrusted(
    workspace: Workspace,
) -> None:
    _all_sources(workspace)
    async with running_server(workspace, options={"trusted": False}) as client:
        result = await client.list_hooks()

    untrusted = {h["command"] for h in result["hooks"] if h["untrusted"]}
    assert untrusted == {"guard", "fmt"}
    assert result["trusted"] is False


async def test_project_defaults_to_the_first_workspace_folder(workspace: Workspace) -> None:
    other = workspace.root / "other"
    other.mkdir()
    folders = [
        types.WorkspaceFolder(uri=workspace.project.as_uri(), name="my-app"),
        types.WorkspaceFolder(uri=other.as_uri(), name="other"),
    ]
    async with running_server(
        workspace, options={"projectDir": None}, workspace_folders=folders
    ) as client:
        result = await client.list_hooks()
    assert result["project"] == {
        "dir": str(workspace.project),
        "name": "my-app",
        "home": str(workspace.home),
    }


async def test_project_falls_back_to_the_root_uri(workspace: Workspace) -> None:
    async with running_server(
        workspace, options={"projectDir": None}, root_uri=workspace.project.as_uri()
    ) as client:
        result = await client.list_hooks()
    assert result["project"]["dir"] == str(workspace.project)


async def test_the_list_says_where_two_dialects_hooks_both_fire_on_one_call(
    workspace: Workspace,
) -> None:
    """A Wave Bash guard and a Copilot preToolUse hook on bash both run on a Bash call; a Wave
    Stop hook and a Copilot agentStop hook on every stop; a Write hook of Wave's alone overlaps
    with nothing; an untrusted project's Copilot hooks run on no call at all."""
    workspace.write(
        workspace.project_settings,
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [hook("./guard.sh")]},
                    {"matcher": "Write", "hooks": [hook("./fmt.sh")]},
                ],
                "Stop": [{"hooks": [hook("./done.sh")]}],
            }
        },
    )
    copilot_project(
        workspace.project,
        "team.json",
        {"preToolUse": [bash("./audit.sh", matcher="bash|view")], "agentStop": [bash("./bye.sh")]},
    )
    async with running_server(workspace) as client:
        listed = await client.list_hooks()
    async with running_server(workspace, options={"trusted": False}) as client:
        untrusted = await client.list_hooks()

    assert listed["overlaps"] == [
        {"event": "PreToolUse", "dialects": ["wave", "copilot"], "subjects": ["Bash"]},
        {"event": "Stop", "dialects": ["wave", "copilot"], "subjects": []},
    ]
    assert untrusted["overlaps"] == []


async def test_the_rows_on_the_wire_name_their_file_once_and_carry_no_null_or_default(
    workspace: Workspace,
) -> None:
    """5,000 hooks are one answer: a row points at its config file (`file`, an index into
    `configFiles`) instead of repeating its path, source, read-only-ness and plugin, and leaves
    out every null and default field; filled in from its file it is the whole row."""
    _all_sources(workspace)
    async with running_server(workspace) as client:
        raw = await client.list_hooks_raw()
        whole = await client.list_hooks()

    files = raw["configFiles"]
    by_command = {h["command"]: h for h in raw["hooks"]}
    assert set(by_command) == {"echo user", "guard", "fmt", "lint"}
    for row in raw["hooks"]:
        assert None not in row.values(), row
        assert not {"path", "source", "readOnly", "plugin", "dialect", "type"} & set(row), row
    guard = by_command["guard"]
    assert files[guard["file"]]["path"] == str(workspace.project_settings)
    assert set(guard) == {"id", "file", "pointer", "event", "matcher", "command", "timeout"}
    assert files[by_command["lint"]["file"]]["plugin"] == "lint-kit"
    assert by_command["fmt"]["async"] is True
    lint = next(h for h in whole["hooks"] if h["command"] == "lint")
    assert (lint["source"], lint["readOnly"], lint["plugin"]) == ("plugin", True, "lint-kit")
    assert lint["path"] == str(workspace.plugin_hooks("lint-kit"))
    assert (lint["type"], lint["catalogueEvent"], lint["timeout"]) == (
        "command",
        "PostToolUse",
        None,
    )
