"""Where wavehost keeps and finds its files. The only place these locations are spelled out."""

import hashlib
import os
import re
from pathlib import Path

WAVE_DIR = ".wave"
# What a session id (and a subagent's) may be: it is part of file names, so never `/` or `..`.
ID_PATTERN = r"^[A-Za-z0-9_-]{1,128}$"
_ID = re.compile(ID_PATTERN)


class InvalidIdError(ValueError):
    pass


def checked_id(value: str, what: str = "session id") -> str:
    """`value` if it can name a file of its own; else InvalidIdError (one line)."""
    if not _ID.match(value):
        shown = value if len(value) <= 80 else value[:80] + "…"
        raise InvalidIdError(
            f"{shown!r} is not a {what}: letters, digits, '-' and '_' only, at most 128"
        )
    return value


def outside(root: Path, path: Path) -> Path | None:
    """Where `path` really leads (symlinks resolved) when that is not under `root`, else None:
    a project's files must not lead out of it (a `.wave` linked to `/`, a settings file linked
    to the user's)."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep):
        return None
    return Path(real)


def link_out(root: Path, path: Path) -> Path | None:
    """The first symlink on the way from `root` down to `path` that leads out of `root` (None:
    none does, or `path` is not under `root`). Only what is inside `root` is looked at: the
    link itself can be watched and read with `lstat`/`readlink`, what it points to is not."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return None
    current = root
    for part in parts:
        current = current / part
        if os.path.islink(current) and outside(root, current) is not None:
            return current
    return None


def wave_home(home: Path | None = None) -> Path:
    return (home if home is not None else Path.home()) / WAVE_DIR


def user_settings(home: Path | None = None) -> Path:
    return wave_home(home) / "settings.json"


def project_settings(project_dir: Path) -> Path:
    return project_dir / WAVE_DIR / "settings.json"


def local_settings(project_dir: Path) -> Path:
    return project_dir / WAVE_DIR / "settings.local.json"


CLAUDE_DIR = ".claude"


def claude_user_settings(home: Path | None = None) -> Path:
    """Claude Code's own user settings, `~/.claude/settings.json`: its hooks run here too."""
    return (home if home is not None else Path.home()) / CLAUDE_DIR / "settings.json"


def claude_project_settings(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / "settings.json"


def claude_local_settings(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / "settings.local.json"


def project_mcp_servers(project_dir: Path) -> Path:
    """The project's MCP servers, where Claude Code reads them (`.mcp.json` at the root)."""
    return project_dir / ".mcp.json"


def plugins_dir(home: Path | None = None) -> Path:
    return wave_home(home) / "plugins"


def plugin_hooks_file(plugin_root: Path) -> Path:
    return plugin_root / "hooks" / "hooks.json"


def plugin_data_dir(plugin_root: Path) -> Path:
    """`~/.wave/plugin-data/<name>`: a plugin's own folder for state that outlives its updates
    (Claude Code's `CLAUDE_PLUGIN_DATA`), beside the plugins rather than in one."""
    return plugin_root.parent.parent / "plugin-data" / plugin_root.name


def sessions_dir(home: Path | None = None) -> Path:
    return wave_home(home) / "sessions"


def transcript_path(session_id: str, home: Path | None = None) -> Path:
    return sessions_dir(home) / f"session_{checked_id(session_id)}.json"


def run_log(project_dir: Path, home: Path | None = None) -> Path:
    """The hook run log of one project (kept in the user's folder, never in the project)."""
    digest = hashlib.sha256(str(project_dir).encode("utf-8")).hexdigest()[:16]
    return wave_home(home) / "runs" / f"{project_dir.name or 'root'}-{digest}.jsonl"


def worktrees_dir(repo_top: Path) -> Path:
    """Where wavehost puts the git worktrees it creates (EnterWorktree)."""
    return repo_top / WAVE_DIR / "worktrees"


def claude_transcript_path(session_id: str, home: Path | None = None) -> Path:
    """The session's conversation in Claude Code's JSONL format, for hooks that read that
    (`"transcriptFormat": "claude-code"`): beside its JSON."""
    return sessions_dir(home) / f"session_{session_id}.jsonl"


def session_dir(session_id: str, home: Path | None = None) -> Path:
    """The folder of one session's files: subagent transcripts, the hooks' env file, large hook
    output."""
    return sessions_dir(home) / f"session_{checked_id(session_id)}"


def session_env_file(session_id: str, home: Path | None = None) -> Path:
    """`$CLAUDE_ENV_FILE`: SessionStart / CwdChanged hooks append `export` lines; every Bash
    command of the session sources it first."""
    return session_dir(session_id, home) / "hook-env.sh"


def agent_transcript_path(session_id: str, agent_id: str, home: Path | None = None) -> Path:
    """A subagent's own conversation (SubagentStop's `agent_transcript_path`)."""
    return session_dir(session_id, home) / f"agent_{checked_id(agent_id, 'subagent id')}.json"


# Other hook dialects' files (hooks.dialects.copilot / .snow): read where those tools keep them.


def copilot_home(home: Path | None = None) -> Path:
    """Copilot CLI's own folder: `$COPILOT_HOME`, else `~/.copilot`."""
    copilot_home = os.environ.get("COPILOT_HOME") if home is None else None
    if copilot_home:
        return Path(copilot_home)
    return (home if home is not None else Path.home()) / ".copilot"


def copilot_user_hooks(home: Path | None = None) -> Path:
    """Copilot CLI's user hooks folder: `$COPILOT_HOME/hooks`, else `~/.copilot/hooks`."""
    return copilot_home(home) / "hooks"


def copilot_user_settings(home: Path | None = None) -> Path:
    """Copilot CLI's user settings (its `hooks` block runs too): `~/.copilot/settings.json`."""
    return copilot_home(home) / "settings.json"


def copilot_project_hooks(project_dir: Path) -> Path:
    return project_dir / ".github" / "hooks"


def copilot_project_settings(project_dir: Path) -> tuple[Path, Path]:
    """A repository's Copilot CLI settings, in the order their `hooks` run:
    `.github/copilot/settings.json`, then `settings.local.json`."""
    folder = project_dir / ".github" / "copilot"
    return folder / "settings.json", folder / "settings.local.json"


def snow_user_hooks(home: Path | None = None) -> Path:
    return (home if home is not None else Path.home()) / ".snow" / "hooks"


def snow_project_hooks(project_dir: Path) -> Path:
    return project_dir / ".snow" / "hooks"


def snow_inject_log(project_dir: Path) -> Path:
    """Where `SNOW_DEBUG_HOOKS` appends its injection summaries."""
    return project_dir / ".snow" / "log" / "hooks-inject.txt"
