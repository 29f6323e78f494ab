"""`wavehost protocol-schema`: the method table and every model it names, as one JSON document.

The document is what generated code is made from (the webview's TypeScript, the JetBrains
plugin's Kotlin), so its shape is a contract too (docs/protocol.md describes it):

    $defs               every model's JSON Schema
    methods             {name: {constant, direction, kind, feature, session, shellOnly, description,
                                params: {$ref}, result?: {$ref}}}
    standardMethods     the same, for the standard LSP methods shells relay ($/cancelRequest)
    shellCommands       {name: {constant, direction, description, args: {$ref}}}
    routing             {pageId, pageIds}: the params keys that name pages (see table.PAGE_ID)
    initializationOptions, errorData, chatErrorData     {$ref}
    language            the locale → UI language rule (see wavehost.language)
    launch              how the IDE shells start and restart the server (protocol.launch)
    shellTexts          {language: {key: text}}  the shells' own texts (protocol.shell_texts)
    tools               {name: {summary, shell, change}}    the chat tools (wavehost.hooks.tools)
    dialects            {format: {title, runsAs, files, promptHook}}    the dialect registry

A model is described as it is read where the server reads it (params of client→server methods,
results of server→client requests, page→shell args) and as it is written elsewhere: written
fields are all required, since the server always writes every field (nulls included).
"""

import importlib
from typing import Any

from pydantic.json_schema import JsonSchemaMode, models_json_schema

from wavehost import language
from wavehost.hooks import dialect_registry, tools
from wavehost.protocol import table
from wavehost.protocol.launch import launch_policy
from wavehost.protocol.shell_texts import SHELL_TEXTS
from wavehost.wire import WireModel

_MODULES = (
    "wavehost.protocol.settings",
    "wavehost.protocol.inspector",
    "wavehost.protocol.mcp",
    "wavehost.protocol.chat",
    "wavehost.protocol.workspace",
    "wavehost.protocol.shell",
    "wavehost.protocol.pages",
)


def model(name: str) -> type[WireModel]:
    """The wire model a table row names."""
    for module_name in _MODULES:
        found = getattr(importlib.import_module(module_name), name, None)
        if isinstance(found, type) and issubclass(found, WireModel):
            return found
    raise LookupError(f"no protocol model named {name!r}")


def _modes(m: table.Method) -> tuple[JsonSchemaMode, JsonSchemaMode]:
    """(params, result) modes: what the server reads is validated, what it writes serialised."""
    if m.direction == "clientToServer":
        return "validation", "serialization"
    return "serialization", "validation"


def _args_mode(c: table.ShellCommand) -> JsonSchemaMode:
    return "validation" if c.direction == "pageToShell" else "serialization"


def protocol_schema() -> dict[str, Any]:
    from wavehost.protocol.chat import ChatErrorData
    from wavehost.protocol.settings import SettingsErrorData
    from wavehost.protocol.workspace import InitializationOptions

    wanted: list[tuple[type[WireModel], JsonSchemaMode]] = []
    for m in (*table.METHODS, *table.STANDARD):
        params_mode, result_mode = _modes(m)
        wanted.append((model(m.params), params_mode))
        if m.result is not None:
            wanted.append((model(m.result), result_mode))
    wanted += [(model(c.args), _args_mode(c)) for c in table.SHELL_COMMANDS]
    wanted += [(InitializationOptions, "validation")]
    wanted += [(SettingsErrorData, "serialization"), (ChatErrorData, "serialization")]
    refs, schema = models_json_schema(
        list(dict.fromkeys(wanted)), by_alias=True, title="wavehost protocol"
    )

    def method(m: table.Method) -> dict[str, Any]:
        params_mode, result_mode = _modes(m)
        entry: dict[str, Any] = {
            "constant": m.constant,
            "direction": m.direction,
            "kind": m.kind,
            "feature": m.feature,
            "session": m.session,
            "shellOnly": m.shell_only,
            "description": m.doc,
            "params": refs[(model(m.params), params_mode)],
        }
        if m.result is not None:
            entry["result"] = refs[(model(m.result), result_mode)]
        return entry

    schema["methods"] = {m.name: method(m) for m in table.METHODS}
    schema["standardMethods"] = {m.name: method(m) for m in table.STANDARD}
    schema["shellCommands"] = {
        c.name: {
            "constant": c.constant,
            "direction": c.direction,
            "description": c.doc,
            "args": refs[(model(c.args), _args_mode(c))],
        }
        for c in table.SHELL_COMMANDS
    }
    schema["routing"] = {"pageId": table.PAGE_ID, "pageIds": table.PAGE_IDS}
    schema["initializationOptions"] = refs[(InitializationOptions, "validation")]
    schema["errorData"] = refs[(SettingsErrorData, "serialization")]
    schema["chatErrorData"] = refs[(ChatErrorData, "serialization")]
    schema["language"] = {
        "languages": list(language.LANGUAGES),
        "unset": language.FALLBACK,  # no locale chooses no language: as any other (a stable key)
        "fallback": language.FALLBACK,
        "rule": "the locale's primary subtag (case-insensitive, `_` as `-`) if it is one of "
        "`languages`; `fallback` for any other locale and the C / POSIX locale; `unset` when "
        "there is none",
    }
    schema["launch"] = launch_policy()
    schema["shellTexts"] = {lang: dict(texts) for lang, texts in SHELL_TEXTS.items()}
    schema["tools"] = {
        tool.name: {"summary": tool.summary, "shell": tool.shell, "change": tool.change}
        for tool in tools.TOOLS
    }
    schema["dialects"] = {
        f.name: {
            "title": f.title,
            "runsAs": f.runs_as,
            "files": f.files,
            "promptHook": f.prompt_hook,
        }
        for f in dialect_registry.FORMATS
    }
    return schema
