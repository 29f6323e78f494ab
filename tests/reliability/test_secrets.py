"""Secrets stay where they belong: wavehost's own token reaches no child, the model providers'
keys reach only what Claude Code would hand them to, and no hook reads them from the server.

Before: Copilot hooks got `ANTHROPIC_AUTH_TOKEN`, `WAVEHOST_TOKEN` reached `serve`, every hook and
the Bash tool, and any hook could read every key from `/proc/$PPID/environ`. Claude Code 2.1.197
hands its hooks and its Bash tool its whole environment, provider keys included: so do Wave hooks
and the Bash tool here (docs/security.md).
"""

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tests.dialect_files import action, bash, copilot_file, rule, write
from tests.hooks_doc import hook
from tests.lsp.client import as_user, reply, running_server, script
from tests.web.browser import stand_in_dist, web_process
from tests.workspace import Workspace
from wavehost import paths

NOBODY = 65534
SECRETS = {
    "WAVEHOST_TOKEN": "wavehost-own-token-0123456789abcdef0123456789",
    "ANTHROPIC_API_KEY": "anthropic-key-secret",
    "ANTHROPIC_AUTH_TOKEN": "anthropic-bearer-secret",
    "OPENAI_API_KEY": "openai-key-secret",
}
PROVIDER_KEYS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY")


def dump(name: str, out: Path) -> str:
    """A shell line writing its environment and what it can read of its parent's."""
    return (
        f"env > {out}/{name}-env; "
        f"tr '\\0' '\\n' < /proc/$PPID/environ > {out}/{name}-parent 2>/dev/null; true"
    )


def names(path: Path) -> set[str]:
    if not path.exists():
        return set()
    return {line.split("=", 1)[0] for line in path.read_text().splitlines() if "=" in line}


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)


async def test_hooks_and_tools_get_only_what_their_dialect_hands_them(
    workspace: Workspace, secret_env: None
) -> None:
    out = workspace.root / "out"
    out.mkdir(parents=True)
    script(workspace, reply("", ("Bash", {"command": dump("bash", out)})), reply("done"))
    settings = json.loads(workspace.user_settings.read_text())
    settings["hooks"] = {"UserPromptSubmit": [{"hooks": [hook(dump("wave", out))]}]}
    workspace.write(workspace.user_settings, settings)
    copilot_file(
        paths.copilot_user_hooks(workspace.home),
        "env.json",
        {"userPromptSubmitted": [bash(dump("copilot", out))]},
    )
    write(
        paths.snow_user_hooks(workspace.home) / "onUserMessage.json",
        {"onUserMessage": [rule(action(dump("snow", out)))]},
    )
    workspace.project.mkdir(parents=True, exist_ok=True)
    workspace.give_to(NOBODY, NOBODY)  # as another user than root, whom /proc never refuses
    async with running_server(workspace, prefix=as_user(NOBODY, NOBODY)) as client:
        opened = await client.open_chat(permissionMode="bypassPermissions")
        view = await client.turn(opened["sessionId"], "go")
    assert [b["text"] for b in view.blocks("text")] == ["done"]

    wave, bash_tool = names(out / "wave-env"), names(out / "bash-env")
    copilot, snow = names(out / "copilot-env"), names(out / "snow-env")
    for seen in (wave, bash_tool, copilot, snow):
        assert seen  # it ran
        assert "WAVEHOST_TOKEN" not in seen
    assert set(PROVIDER_KEYS) <= wave  # as Claude Code hands them to its hooks…
    assert set(PROVIDER_KEYS) <= bash_tool  # …and to its Bash tool
    assert not set(PROVIDER_KEYS) & copilot  # Copilot and Snow hand their hooks no model key
    assert not set(PROVIDER_KEYS) & snow
    for who in ("wave", "bash", "copilot", "snow"):  # the server's environment is not theirs
        parent = out / f"{who}-parent"
        text = parent.read_text() if parent.exists() else ""
        assert not any(value in text for value in SECRETS.values()), who


async def test_browser_mode_keeps_its_token_from_the_server_it_starts(
    workspace: Workspace, tmp_path: Path
) -> None:
    out = tmp_path / "serve-env"
    serve = f"sh -c 'env > {out}; exec \"$0\" -m wavehost serve' {sys.executable}"
    env = {"WAVEHOST_TOKEN": SECRETS["WAVEHOST_TOKEN"], "ANTHROPIC_API_KEY": "anthropic-key"}
    workspace.project.mkdir(parents=True, exist_ok=True)
    async with web_process(
        workspace, stand_in_dist(tmp_path), "--serve-command", serve, env=env
    ) as web:
        assert SECRETS["WAVEHOST_TOKEN"] in web.url  # it is the token in use
        for _ in range(300):
            if out.exists() and out.read_text():
                break
            await asyncio.sleep(0.1)
    seen = names(out)
    assert "WAVEHOST_TOKEN" not in seen
    assert "ANTHROPIC_API_KEY" in seen  # chats in browser mode still reach the model
