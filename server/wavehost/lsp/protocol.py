"""The wavehost protocol: every custom method's params and result, in one place.

camelCase on the wire (`WireModel`). The JSON Schema of these models (`protocol_schema`) is what
the webview's TypeScript types and the shells' relay allow-list are generated from.
"""

from typing import Any, Literal, NamedTuple, Self

from pydantic import Field, model_validator
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from wavehost.lsp import methods
from wavehost.wire import WireModel

HookSource = Literal["user", "project", "plugin"]


class ProjectInfo(WireModel):
    dir: str
    name: str


class ConfigFileEntry(WireModel):
    source: HookSource
    path: str
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None


class HookEntry(WireModel):
    id: str
    source: HookSource
    path: str
    read_only: bool
    event: str
    matcher: str | None = None
    type: Literal["command"] = "command"
    command: str
    timeout: float | None = None
    async_: bool | None = Field(default=None, alias="async")
    async_rewake: bool | None = None
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = None
    dialect: Literal["wave"] = "wave"
    untrusted: bool | None = None


class DiagnosticEntry(WireModel):
    path: str
    pointer: str | None = None
    message: str


class HooksListParams(WireModel):
    pass


class HooksListResult(WireModel):
    project: ProjectInfo
    config_files: list[ConfigFileEntry]
    hooks: list[HookEntry]
    diagnostics: list[DiagnosticEntry]
    trusted: bool = Field(
        default=True, description="False: project hooks are listed but never run (untrusted)"
    )


ErrorReason = Literal[
    "notFound",
    "readOnly",
    "conflict",
    "permissionDenied",
    "malformedConfig",
    "ioError",
    "unknownPath",
]


class SettingsErrorData(WireModel):
    """`error.data` of a settings request that failed (JSON-RPC code -32803, RequestFailed)."""

    reason: ErrorReason
    path: str | None = None
    message: str


class HooksDeleteParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")


class HooksDeleteResult(WireModel):
    deleted: HookEntry


class OpenConfigFileParams(WireModel):
    path: str = Field(min_length=1, description="A config file path that wave/hooks/list reported")


class OpenConfigFileResult(WireModel):
    opened: bool
    reason: Literal["missing", "unsupported", "declined"] | None = Field(
        default=None,
        description="Why not opened: the file does not exist (nothing is created), the client "
        "cannot show documents, or the client declined",
    )


class HooksPrefillParams(WireModel):
    action: Literal["new", "edit"]
    source: HookSource
    id: str | None = Field(default=None, description="The hook to edit (required for edit)")

    @model_validator(mode="after")
    def _edit_names_a_hook(self) -> Self:
        if self.action == "edit" and not self.id:
            raise ValueError('"id" is required when action is "edit"')
        if self.action == "new" and self.source == "plugin":
            raise ValueError("plugin hooks are read-only: new hooks go in user or project settings")
        return self


class HooksPrefillResult(WireModel):
    prompt: str
    config_path: str | None = Field(
        description="Absolute path of the config file to open beside the chat; null if none exists"
    )


class HooksChangedParams(WireModel):
    pass


class InitializationOptions(WireModel):
    """`initializationOptions` of the LSP `initialize` request."""

    project_dir: str | None = Field(
        default=None,
        description="The session workdir; default: first workspace folder, else root URI, else cwd",
    )
    locale: str | None = Field(default=None, description="UI locale; default: the LSP locale")
    trusted: bool = Field(
        default=True, description="Workspace trust: if false, project hooks never run"
    )
    hooks: dict[str, Any] | None = Field(
        default=None, description="Programmatic hooks: run first, never listed"
    )


class Method(NamedTuple):
    name: str
    direction: Literal["clientToServer", "serverToClient"]
    params: type[WireModel]
    result: type[WireModel] | None  # None: a notification


METHODS: tuple[Method, ...] = (
    Method(methods.HOOKS_LIST, "clientToServer", HooksListParams, HooksListResult),
    Method(methods.HOOKS_DELETE, "clientToServer", HooksDeleteParams, HooksDeleteResult),
    Method(methods.OPEN_CONFIG_FILE, "clientToServer", OpenConfigFileParams, OpenConfigFileResult),
    Method(methods.HOOKS_PREFILL, "clientToServer", HooksPrefillParams, HooksPrefillResult),
    Method(methods.HOOKS_CHANGED, "serverToClient", HooksChangedParams, None),
)
EXTRA_MODELS: tuple[type[WireModel], ...] = (InitializationOptions, SettingsErrorData)


def protocol_schema() -> dict[str, Any]:
    """One JSON document: every model under `$defs`, and each method's direction and shapes."""
    inputs = [m.params for m in METHODS] + list(EXTRA_MODELS)
    outputs = [m.result for m in METHODS if m.result is not None] + [SettingsErrorData]
    modes: list[tuple[type[WireModel], JsonSchemaMode]] = [(m, "validation") for m in inputs]
    modes += [(m, "serialization") for m in outputs]
    refs, schema = models_json_schema(modes, by_alias=True, title="wavehost protocol")
    schema["methods"] = {
        m.name: {
            "direction": m.direction,
            "kind": "notification" if m.result is None else "request",
            "params": refs[(m.params, "validation")],
            **({"result": refs[(m.result, "serialization")]} if m.result is not None else {}),
        }
        for m in METHODS
    }
    schema["initializationOptions"] = refs[(InitializationOptions, "validation")]
    schema["errorData"] = refs[(SettingsErrorData, "serialization")]
    return schema
