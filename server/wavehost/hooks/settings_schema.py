"""The format of a Wave hook settings file as typed models, and its JSON Schema.

`~/.wave/settings.json`, `<project>/.wave/settings.json` and `.wave/settings.local.json` (and a
plugin's `hooks/hooks.json`) share it. The models say what `config.py` accepts, entry by entry;
editors use the schema (`wavehost settings-schema`, and the copy shipped beside this module) for
completion and validation while typing. Keys other than the hook settings are allowed: the same
files hold other settings.
"""

import json
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from wavehost.hooks import dialect_registry
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialect_registry import FileFormat

SHIPPED_SCHEMA = Path(__file__).with_name("settings.schema.json")

Seconds = Annotated[float, Field(gt=0)]
Text = Annotated[str, Field(min_length=1)]


def _config(title: str, *, extra: Literal["allow", "forbid"] = "allow") -> ConfigDict:
    # Property titles are the keys as written in the file.
    return ConfigDict(title=title, extra=extra, field_title_generator=lambda name, _: name)


# `async` is a Python keyword: the functional form spells every key as it is in the file.
CommandHook = TypedDict(
    "CommandHook",
    {
        "type": Annotated[Literal["command"], Field(description="A command run as a process")],
        "command": Annotated[
            Text,
            Field(
                description="Run by the shell with the event's JSON on stdin; "
                "$WAVE_PROJECT_DIR (and $CLAUDE_PROJECT_DIR) is the project root. "
                "With `args`: the program to run, looked up on PATH"
            ),
        ],
        "args": NotRequired[
            Annotated[
                list[str],
                Field(
                    description="Exec form: run `command` directly with these arguments, no "
                    "shell; ${CLAUDE_PROJECT_DIR} and ${CLAUDE_PLUGIN_ROOT} are filled in"
                ),
            ]
        ],
        "if": NotRequired[
            Annotated[
                str,
                Field(
                    description="Tool events only: one permission rule the call must match for "
                    'the hook to start, e.g. "Bash(git *)" or "Edit(*.ts)"'
                ),
            ]
        ],
        "shell": NotRequired[
            Annotated[
                Literal["bash", "powershell"],
                Field(
                    description='Shell form: "bash" (the default) runs the command under sh -c, '
                    '"powershell" under pwsh; ignored with `args`'
                ),
            ]
        ],
        "timeout": NotRequired[
            Annotated[Seconds, Field(description="Seconds before the hook is killed")]
        ],
        "async": NotRequired[
            Annotated[bool, Field(description="Run in the background; the agent does not wait")]
        ],
        "asyncRewake": NotRequired[
            Annotated[
                bool,
                Field(
                    description="Run in the background; exit code 2 wakes the agent with its stderr"
                ),
            ]
        ],
        "statusMessage": NotRequired[
            Annotated[str, Field(description="Shown while the hook runs")]
        ],
        "description": NotRequired[
            Annotated[str, Field(description="What the hook is for (the settings page shows it)")]
        ],
    },
)
with_config(_config("Command hook"))(CommandHook)

_IF = Annotated[
    str,
    Field(
        description="Tool events only: one permission rule the call must match for the hook to "
        'start, e.g. "Bash(git *)"'
    ),
]
_STATUS = Annotated[str, Field(description="Shown while the hook runs")]
_DESCRIPTION = Annotated[
    str, Field(description="What the hook is for (the settings page shows it)")
]


_OTHER_MODEL = Annotated[Text, Field(description="Another model of the chat's provider")]

HttpHook = TypedDict(
    "HttpHook",
    {
        "type": Annotated[
            Literal["http"],
            Field(description="The event's JSON POSTed to `url`; a JSON reply answers as stdout"),
        ],
        "url": Annotated[Text, Field(description="Where to POST (http:// or https://)")],
        "headers": NotRequired[
            Annotated[
                dict[str, str],
                Field(description="Extra headers; $VAR / ${VAR} only for names in allowedEnvVars"),
            ]
        ],
        "allowedEnvVars": NotRequired[
            Annotated[list[str], Field(description="The variables its headers may read")]
        ],
        "timeout": NotRequired[Annotated[Seconds, Field(description="Seconds (default 600)")]],
        "if": NotRequired[_IF],
        "statusMessage": NotRequired[_STATUS],
        "description": NotRequired[_DESCRIPTION],
    },
)
with_config(_config("HTTP hook"))(HttpHook)

PromptHook = TypedDict(
    "PromptHook",
    {
        "type": Annotated[
            Literal["prompt"],
            Field(description="The chat's model judges the prompt and answers {ok, reason}"),
        ],
        "prompt": Annotated[
            Text, Field(description="What to judge; $ARGUMENTS is the event's JSON")
        ],
        "model": NotRequired[_OTHER_MODEL],
        "continueOnBlock": NotRequired[
            Annotated[bool, Field(description="ok: false feeds the reason back, the turn goes on")]
        ],
        "timeout": NotRequired[Annotated[Seconds, Field(description="Seconds (default 30)")]],
        "if": NotRequired[_IF],
        "statusMessage": NotRequired[_STATUS],
        "description": NotRequired[_DESCRIPTION],
    },
)
with_config(_config("Prompt hook"))(PromptHook)

AgentHook = TypedDict(
    "AgentHook",
    {
        "type": Annotated[
            Literal["agent"],
            Field(description="A short read-only subagent checks and answers {ok, reason}"),
        ],
        "prompt": Annotated[
            Text, Field(description="What to verify; $ARGUMENTS is the event's JSON")
        ],
        "model": NotRequired[_OTHER_MODEL],
        "timeout": NotRequired[Annotated[Seconds, Field(description="Seconds (default 60)")]],
        "if": NotRequired[_IF],
        "statusMessage": NotRequired[_STATUS],
        "description": NotRequired[_DESCRIPTION],
    },
)
with_config(_config("Agent hook"))(AgentHook)


McpToolHook = TypedDict(
    "McpToolHook",
    {
        "type": Annotated[
            Literal["mcp_tool"],
            Field(description="Call a tool of one of the session's MCP servers"),
        ],
        "server": Annotated[Text, Field(description="The MCP server's name (as in .mcp.json)")],
        "tool": Annotated[Text, Field(description="The tool's name on that server")],
        "input": NotRequired[
            Annotated[
                dict[str, Any],
                Field(
                    description="The tool's arguments; ${tool_input.x}, ${hook_event_name}, "
                    "${prompt}, … in its strings are filled in from the hook's input"
                ),
            ]
        ],
        "if": NotRequired[Annotated[str, Field(description="As for a command hook")]],
        "timeout": NotRequired[
            Annotated[Seconds, Field(description="Seconds before the call is given up")]
        ],
        "statusMessage": NotRequired[_STATUS],
        "description": NotRequired[_DESCRIPTION],
    },
)
with_config(_config("MCP tool hook"))(McpToolHook)

Handler = Annotated[
    CommandHook | HttpHook | PromptHook | AgentHook | McpToolHook, Field(discriminator="type")
]


@with_config(_config("MCP server"))
class McpServer(TypedDict):
    type: NotRequired[
        Annotated[
            Literal["stdio", "http"],
            Field(description='"stdio" (the default: `command`) or "http" (`url`)'),
        ]
    ]
    command: NotRequired[Annotated[Text, Field(description="stdio: the program to start")]]
    args: NotRequired[Annotated[list[str], Field(description="stdio: its arguments")]]
    env: NotRequired[
        Annotated[dict[str, str], Field(description="stdio: added to its environment")]
    ]
    url: NotRequired[Annotated[Text, Field(description="http: the streamable-HTTP endpoint")]]
    headers: NotRequired[
        Annotated[dict[str, str], Field(description="http: sent with every request")]
    ]


@with_config(_config("Matcher group"))
class MatcherGroup(TypedDict):
    matcher: NotRequired[
        Annotated[
            str,
            Field(
                description='Which calls the hooks fire for: a tool name, "A|B", a regular '
                'expression, or "*"/empty for all. Ignored by events without a matcher'
            ),
        ]
    ]
    hooks: Annotated[list[Handler], Field(min_length=1)]


def _event_field(event: Event) -> Any:
    spec = event.value
    matcher = f" Matcher: `{spec.matcher_field}`." if spec.matcher_field else ""
    description = f"{spec.summary_en}.{matcher}"
    return NotRequired[Annotated[list[MatcherGroup], Field(description=description)]]


# One key per event the Wave format names; any other key is an unknown event (the reader skips it).
Hooks = TypedDict("Hooks", {e.name: _event_field(e) for e in Event if e.spec.wave})  # type: ignore[misc]
with_config(_config("Hooks by event", extra="forbid"))(Hooks)


def _switch(name: FileFormat) -> Any:
    hook_format = dialect_registry.BY_NAME[name]
    description = f"{hook_format.title} hooks ({hook_format.files})"
    return NotRequired[Annotated[bool, Field(description=description)]]


# One key per format the user can switch off (the dialect registry's)
HookDialects = TypedDict(  # type: ignore[misc]
    "HookDialects", {name: _switch(name) for name in dialect_registry.SWITCHABLE}
)
with_config(_config("Hook dialects", extra="forbid"))(HookDialects)


@with_config(_config("Wave settings"))
class HookSettings(TypedDict):
    hooks: NotRequired[Annotated[Hooks, Field(description="Hook commands by event")]]
    disableAllHooks: NotRequired[
        Annotated[bool, Field(description="true: no hook from any settings file runs")]
    ]
    enabledPlugins: NotRequired[
        Annotated[
            dict[str, bool],
            Field(description="Plugins whose hooks/hooks.json are loaded, by name"),
        ]
    ]
    mcpServers: NotRequired[
        Annotated[
            dict[str, McpServer],
            Field(
                description="User settings only: MCP servers every chat session starts (a "
                "project's are in its .mcp.json); ${VAR} and ${VAR:-default} are filled in"
            ),
        ]
    ]
    hookDialects: NotRequired[
        Annotated[
            HookDialects,
            Field(description="User settings only: false turns that dialect's hook files off"),
        ]
    ]
    transcriptFormat: NotRequired[
        Annotated[
            Literal["wave", "claude-code"],
            Field(
                description='What transcript_path points at: the session JSON ("wave", the '
                'default) or the conversation in Claude Code\'s JSONL format ("claude-code")'
            ),
        ]
    ]
    allowedHttpHookUrls: NotRequired[
        Annotated[
            list[str],
            Field(description="User settings only: the URL patterns http hooks may call (*)"),
        ]
    ]
    httpHookAllowedEnvVars: NotRequired[
        Annotated[
            list[str],
            Field(description="User settings only: the variables http hook headers may read"),
        ]
    ]


def settings_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a Wave hook settings file."""
    schema = TypeAdapter(HookSettings).json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
    }


def settings_schema_text() -> str:
    """The schema as it is printed and shipped (stable key order, one trailing newline)."""
    return json.dumps(settings_schema(), indent=2, ensure_ascii=False) + "\n"
