"""The `wavehost` command line."""

import argparse
import importlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from wavehost import __version__, paths

# Imports of the engine (pydantic models) are made in the commands that need them: `serve` must
# start as fast as a bare pygls server.

SOURCE_TITLES = {"user": "User hooks", "project": "Project hooks", "plugin": "Plugin hooks"}
# `hooks run`'s exit status when the outcome blocks; 2 is every command's "could not run".
BLOCKED = 3
COULD_NOT_RUN = 2
LIST_PROBLEMS = 1  # `hooks list`: a config file has a problem (the listing is printed all the same)
HOOKS_RUN_STATUS = (
    "Exit status: 0 when the hooks ran and nothing blocks; 3 when the outcome blocks "
    '("blocked": true: the tool call, prompt or stop is refused); 2 when wavehost could not '
    "run them (arguments, project folder or payload), or not all of them: a settings file "
    "that does not parse or cannot be read (the other files' hooks run, and their outcome is "
    "printed)."
)


class UsageError(Exception):
    """wavehost was called wrongly: one line on stderr saying how to call it, exit status 2."""


INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)
PIPE_CLOSED = 141  # what a process killed by SIGPIPE reports


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong call is one line (what is wrong, where the help is), not the usage
    block: the same shape as every other error of the command line."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("wavehost").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message}; see `{self.prog} --help`")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="wavehost", description=__doc__)
    parser.add_argument("--version", action="version", version=f"wavehost {__version__}")
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log verbosity (logs go to stderr)",
    )
    # Metavars name what is missing in argparse's errors (else it shows the `dest`).
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    hooks = commands.add_parser("hooks", help="inspect and try hooks").add_subparsers(
        dest="hooks_command", required=True, metavar="{list,run}"
    )
    listing = hooks.add_parser("list", help="list configured hooks by source, with diagnostics")
    listing.add_argument("--project", type=Path, default=Path.cwd(), help="project directory")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")

    run = hooks.add_parser(
        "run",
        help="run the hooks matching EVENT for real, reading the payload JSON on stdin",
        description="The payload uses wavehost's (Claude Code's) field names; missing common "
        "fields (session_id, transcript_path, cwd, …) are filled in. Without --dialect, EVENT "
        "is a Wave event and every dialect's hooks for it run, as in a chat; with it, EVENT is "
        "that dialect's name and only its hooks under that name run, each reading the payload "
        "rendered in that dialect. " + HOOKS_RUN_STATUS,
    )
    run.add_argument(
        "event",
        choices=_LazyChoices("wavehost.hooks.dialects", "EVENT_NAMES"),
        metavar="EVENT",
        help="%(choices)s",
    )
    run.add_argument("--project", type=Path, default=Path.cwd(), help="project directory")
    run.add_argument(
        "--dialect",
        choices=_LazyChoices("wavehost.hooks.dialect_registry", "DIALECT_NAMES"),
        metavar="DIALECT",
        default=None,
        help="whose event name EVENT is: %(choices)s (default: wave, and every dialect's hooks "
        "run)",
    )
    run.add_argument(
        "--payload-only",
        action="store_true",
        help="print what each matching hook would read on stdin, and run nothing",
    )

    serve = commands.add_parser("serve", help="run the language server on stdio (for the IDEs)")
    # vscode-languageclient appends --stdio for a stdio transport; stdio is the only one anyway.
    serve.add_argument("--stdio", action="store_true", help="talk LSP on stdin/stdout (default)")
    serve.add_argument(
        "--log-level",
        default=argparse.SUPPRESS,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log verbosity (stderr and window/logMessage)",
    )
    commands.add_parser("protocol-schema", help="print the JSON Schema of the custom LSP methods")
    commands.add_parser(
        "settings-schema",
        help="print the JSON Schema of the hook settings files (.wave/settings.json, …)",
    )
    _chat_parser(commands)

    mcp = commands.add_parser("mcp", help="the MCP servers chat sessions start").add_subparsers(
        dest="mcp_command", required=True, metavar="{list}"
    )
    mcp_list = mcp.add_parser(
        "list",
        help="start each configured MCP server, report whether it connects and its tools, stop it",
    )
    mcp_list.add_argument("--project", type=Path, default=Path.cwd(), help="project directory")
    mcp_list.add_argument(
        "--untrusted",
        action="store_true",
        help="as an untrusted workspace: the project's servers are listed but not started",
    )
    mcp_list.add_argument("--json", action="store_true", help="print the list as JSON")

    web = commands.add_parser(
        "web",
        help="browser mode: the settings page and chat in a browser tab, served on 127.0.0.1",
    )
    web.add_argument("--project", type=Path, default=Path.cwd(), help="project directory")
    web.add_argument(
        "--port", help="port on 127.0.0.1 (default: $WAVEHOST_PORT, else any free one)"
    )
    web.add_argument("--open", action="store_true", help="open the page in the default browser")
    web.add_argument("--locale", default=None, help="UI locale, e.g. zh-CN (default: $LANG)")
    web.add_argument(
        "--token",
        default=None,
        help="the secret the page needs (default: $WAVEHOST_TOKEN, else a new random one); "
        "prefer the variable: other local users can read a command line",
    )
    web.add_argument(
        "--untrusted",
        action="store_true",
        help="open the project as an untrusted workspace (like an IDE's restricted mode): "
        "the project's hooks are listed but never run (user hooks run as ever)",
    )
    web.add_argument(
        "--serve-command",
        default=None,
        help="how to start the language server (default: this Python's `-m wavehost serve`)",
    )
    return parser


class _LazyChoices(Sequence[str]):
    """Choices read from `module.attribute` only when argparse needs them (keeps start-up light)."""

    def __init__(self, module: str, attribute: str) -> None:
        self._where = module, attribute

    def _names(self) -> tuple[str, ...]:
        module, attribute = self._where
        names: tuple[str, ...] = getattr(importlib.import_module(module), attribute)
        return names

    def __getitem__(self, index: Any) -> Any:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())


def _chat_parser(commands: Any) -> None:
    chat = commands.add_parser(
        "chat",
        help="run one chat turn headless, hooks firing, and print the result",
        description="The permission mode decides what may run: nobody is asked.",
    )
    chat.add_argument("-p", "--prompt", required=True, help="the prompt to send")
    chat.add_argument("--cwd", type=Path, help="session root (default: the current directory)")
    # A metavar on every lazy choice list: without one argparse reads the choices at once.
    chat.add_argument(
        "--permission-mode",
        default="default",
        choices=_LazyChoices("wavehost.session.permissions", "PERMISSION_MODES"),
        metavar="MODE",
        help="%(choices)s (default: %(default)s)",
    )
    chat.add_argument(
        "--provider",
        choices=_LazyChoices("wavehost.session.providers", "PROVIDERS"),
        metavar="NAME",
        help="model provider: %(choices)s",
    )
    chat.add_argument("--model", help="model name")
    chat.add_argument("--script", type=Path, help="turns for the scripted provider (JSON)")
    chat.add_argument("--output-format", default="text", choices=["text", "json"])
    chat.add_argument("--resume", metavar="ID", help="continue a saved session")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        logging.basicConfig(
            level=args.log_level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
        )
        status = _command(args)
        if not sys.stdout.closed:  # (serve's server closes it when it exits)
            sys.stdout.flush()  # here, where a closed pipe can still be handled
        return status
    except UsageError as err:
        print(f"wavehost: {err}", file=sys.stderr)
        return COULD_NOT_RUN
    except KeyboardInterrupt:
        # Ctrl-C: the command's own clean-up has run (the cancelled tasks ended their hooks'
        # process trees); one line says why it stopped, as a shell would.
        print("wavehost: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BaseException as err:
        if not _only(err, BrokenPipeError):
            raise
        # The reader stopped reading (`wavehost hooks list | head`): nothing more to say, also
        # when a task group wrapped the error. Python must not try to flush the rest into the
        # closed pipe as it exits.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PIPE_CLOSED


def _only(err: BaseException, kind: type[BaseException]) -> bool:
    """Whether `err` is `kind`, or a group (of groups) of nothing else."""
    if isinstance(err, BaseExceptionGroup):
        return all(_only(inner, kind) for inner in err.exceptions)
    return isinstance(err, kind)


def _command(args: argparse.Namespace) -> int:
    if args.command in ("serve", "web", "chat", "hooks", "mcp"):  # they start other processes
        from wavehost import environment

        environment.protect()
    if args.command == "serve":
        from wavehost.lsp.server import serve

        return serve(args.log_level)
    if args.command == "protocol-schema":
        from wavehost.protocol.schema import protocol_schema

        print(json.dumps(protocol_schema(), indent=2, ensure_ascii=False))
        return 0
    if args.command == "settings-schema":
        from wavehost.hooks.settings_schema import settings_schema_text

        sys.stdout.write(settings_schema_text())
        return 0
    if args.command == "chat":
        return _chat(args)
    project = _folder(args.project, "project folder", "--project")
    if args.command == "web":
        from wavehost.web.app import PORT_ENV  # aiohttp only when it is needed
        from wavehost.web.app import main as web_main

        port = _port(args.port, "--port") if args.port is not None else _port_from_env(PORT_ENV)
        return web_main(
            project,
            port,
            args.open,
            args.locale,
            args.serve_command,
            args.token,
            trusted=not args.untrusted,
        )
    if args.command == "mcp":
        import anyio

        return anyio.run(_mcp_list, project, not args.untrusted, args.json)
    if args.hooks_command == "list":
        return _list(project, as_json=args.json)
    import anyio

    return anyio.run(_run, args.event, project, args.dialect, args.payload_only)


def _folder(path: Path, what: str, option: str) -> Path:
    resolved = path.expanduser().resolve()
    if resolved.is_dir():
        return resolved
    if resolved.exists():
        raise UsageError(f"{path} is a file, not a folder (give {option} the {what})")
    raise UsageError(f"no such {what}: {path} (give {option} an existing folder)")


def _port(text: str, where: str) -> int:
    port = int(text) if text.strip().isdigit() else -1
    if not 0 <= port <= 65535:
        raise UsageError(f"{where} must be a port from 0 to 65535 (0: any free one), not {text!r}")
    return port


def _port_from_env(name: str) -> int:
    text = os.environ.get(name, "")
    return _port(text, name) if text else 0


def _chat(args: argparse.Namespace) -> int:
    import anyio

    from wavehost.plumbing import orphans
    from wavehost.session.headless import HeadlessRun, run_headless

    run = HeadlessRun(
        prompt=args.prompt,
        cwd=_folder(args.cwd, "folder", "--cwd") if args.cwd else None,
        permission_mode=args.permission_mode,
        provider=args.provider,
        model=args.model,
        script=args.script,
        output_format=args.output_format,
        resume=args.resume,
    )
    orphans.adopt_orphans()  # what its hooks and commands leave running ends with it
    try:
        return anyio.run(run_headless, run)
    finally:
        orphans.end_all()


def _list(project: Path, *, as_json: bool) -> int:
    from wavehost.hooks.dialect_registry import title as dialect_title
    from wavehost.hooks.sources import load_hook_config
    from wavehost.protocol.settings import HookEntry, HooksListResult
    from wavehost.settings.listing import listing_of

    listing = listing_of(load_hook_config(project), project)
    result = HooksListResult.of(listing)  # --json: as wave/hooks/list answers (compact rows)
    # A problem in any file is a failure a script can see: the listing is printed all the same.
    status = LIST_PROBLEMS if result.diagnostics else 0
    if as_json:
        print(json.dumps(result.to_wire(), indent=2, ensure_ascii=False))
        return status
    print(f"Project: {result.project.name} ({result.project.dir})")
    for source, title in SOURCE_TITLES.items():
        hooks = [HookEntry.of(h) for h in listing.hooks if h.source == source]  # whole rows
        print(f"\n{title} ({len(hooks)})")
        for file in result.config_files:
            if file.source == source and file.exists:
                dialect = f" ({dialect_title(file.dialect)})" if file.dialect != "wave" else ""
                error = f"  [error: {file.error}]" if file.error else ""
                print(f"  file: {file.path}{dialect}{error}")
        if not hooks:
            print("  (none)")
        for hook in hooks:
            dialect = hook.dialect or "wave"
            extras = [dialect_title(dialect)] if dialect != "wave" else []
            extras += [f"timeout {hook.timeout:g}s"] if hook.timeout else []
            extras += ["async"] * bool(hook.async_) + ["asyncRewake"] * bool(hook.async_rewake)
            extras += [f"{hook.type} action"] if hook.type != "command" else []
            extras += [f"plugin {hook.plugin}"] if hook.plugin else []
            extras += ["disabled"] if hook.disabled else []
            extras += ["untrusted: will not run"] if hook.untrusted else []
            matcher = f" [{hook.matcher}]" if hook.matcher else ""
            suffix = f"  ({', '.join(extras)})" if extras else ""
            print(f"  {hook.event}{matcher}: {hook.command}{suffix}")
    if result.diagnostics:
        print(f"\nProblems ({len(result.diagnostics)})")
        for problem in result.diagnostics:
            where = f"{problem.path}#{problem.pointer}" if problem.pointer else problem.path
            print(f"  {where}: {problem.message}")
    return status


async def _mcp_list(project: Path, trusted: bool, as_json: bool) -> int:
    """`wavehost mcp list`: like `claude mcp list`, each server is started to see it connect."""
    from wavehost.protocol.mcp import McpListResult
    from wavehost.session.mcp import started
    from wavehost.settings.mcp_servers import entry_lines, read_mcp_config

    config = read_mcp_config(project, trusted=trusted)
    async with started(config.startable(), root=project) as servers:
        await servers.settled()
        states = {s.config.name: s for s in servers.states()}
        result = McpListResult.of(config, states, entry_lines(config))
    if as_json:
        print(json.dumps(result.to_wire(), indent=2, ensure_ascii=False))
        return 0
    print(f"MCP servers of {project.name} ({project})")
    for file in result.config_files:
        if file.exists or file.source == "project":
            found = "" if file.exists else "  (none)"
            error = f"  [error: {file.error}]" if file.error else ""
            untrusted = "  [untrusted: not started]" if file.untrusted and file.exists else ""
            print(f"  file: {file.path}{found}{error}{untrusted}")
    if not result.servers:
        print("\n  (no servers)")
    for server in result.servers:
        status = MCP_STATUS[server.status]
        if server.status == "connected":
            status += f", {len(server.tools)} tool{'s' * (len(server.tools) != 1)}"
        detail = f": {server.error}" if server.error else ""
        print(f"\n  {server.name} ({server.source}, {server.transport}): {status}{detail}")
        if server.target:
            print(f"    {server.target}")
        for tool in server.tools:
            print(f"    - {tool}")
    return 0


MCP_STATUS = {
    "notStarted": "not started",
    "starting": "starting",
    "connected": "connected",
    "failed": "failed",
    "stopped": "stopped",
    "untrusted": "not started (untrusted workspace)",
    "invalid": "not started (invalid entry)",
}


def _payload(event_name: str, project: Path, text: str) -> dict[str, Any]:
    try:
        raw = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as err:
        raise ValueError(f"it is not JSON ({err})") from err
    if not isinstance(raw, dict):
        raise ValueError("the payload must be a JSON object")
    session_id = str(raw.get("session_id", "cli"))
    defaults = {
        "session_id": session_id,
        "transcript_path": str(paths.transcript_path(session_id)),
        "cwd": str(project),
        "hook_event_name": event_name,
    }
    return {**defaults, **raw}


async def _run(name: str, project: Path, dialect_name: str | None, payload_only: bool) -> int:
    from dataclasses import replace

    from pydantic import ValidationError

    from wavehost.hooks.dialects import DIALECTS
    from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
    from wavehost.hooks.outcome import subject_of
    from wavehost.hooks.payloads import plain_problems
    from wavehost.hooks.runner import HookContext
    from wavehost.hooks.sources import load_hook_config

    dialect = DIALECTS["wave" if dialect_name is None else dialect_name]  # type: ignore[index]
    event = dialect.events.get(name)
    if event is None:
        known = ", ".join(dialect.events)
        raise UsageError(f"{dialect.name} has no event {name!r} (known: {known})")
    try:
        raw = _payload(event.name, project, sys.stdin.read())
        payload = event.spec.payload.model_validate(raw)
    except ValidationError as err:
        raise UsageError(f"invalid {name} payload on stdin: {plain_problems(err)}") from err
    except ValueError as err:  # not JSON, or not an object
        raise UsageError(f"invalid {name} payload on stdin: {err}") from err
    config = load_hook_config(project)
    if dialect_name is not None:  # only that dialect's hooks under that very name
        kept = (h for h in config.handlers if h.dialect == dialect.name and h.event_name == name)
        config = replace(config, handlers=tuple(kept))
    # A file whose hooks could not be read fails the run (after the others' hooks ran, as in a
    # session): a CI guard must not pass because its own configuration is broken.
    unusable = {
        str(f.path): f.error
        for f in config.files
        if f.error and (dialect_name is None or f.dialect == dialect.name)
    }
    for problem in config.diagnostics:
        if problem.path in unusable and problem.pointer is None:
            continue  # said last, as the reason for the exit status
        where = f"{problem.path}#{problem.pointer}" if problem.pointer else problem.path
        print(f"wavehost: warning: {where}: {problem.message}", file=sys.stderr)
    engine = HookEngine(config)
    if payload_only:
        for handler in engine.matching(event, subject_of(payload), payload):
            stdin = DIALECTS[handler.dialect].stdin(handler, payload).decode("utf-8")
            print(json.dumps({"dialect": handler.dialect, "event": handler.event_name,
                              "command": handler.command, "stdin": json.loads(stdin)},
                             ensure_ascii=False))  # fmt: skip
        return 0

    def report_rewake(rewake: Rewake) -> None:
        print(json.dumps({"rewake": rewake.reminder, "command": rewake.command}), file=sys.stderr)

    context = HookContext(cwd=Path(payload.cwd), project_dir=project)
    async with BackgroundHooks(report_rewake) as background:
        outcome = await engine.dispatch(payload, context, background)
    print(json.dumps(outcome.to_wire(), indent=2, ensure_ascii=False), flush=True)
    for path, error in unusable.items():
        print(f"wavehost: {path}: {error}; its hooks did not run", file=sys.stderr)
    if unusable:
        return COULD_NOT_RUN
    return BLOCKED if outcome.blocked else 0
