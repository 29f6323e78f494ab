"""Arguments of the shell-local commands (`{kind: "shell", command, args}`; see `table`)."""

from typing import Literal

from pydantic import Field

from wavehost.wire import WireModel

View = Literal["settings", "chat"]


class NoArgs(WireModel):
    pass


class ReadyArgs(WireModel):
    view: View = Field(description="The view the page shows")
    locale: str = Field(description="The locale the page renders in")


class OpenChatArgs(WireModel):
    prefill: str | None = Field(default=None, description="Text to put in the chat input")


class OpenSettingsArgs(WireModel):
    hook_id: str | None = Field(
        default=None,
        description="A hook's `id` (as in wave/hooks/list): the settings page shows that row "
        '(its tab selected, scrolled to and highlighted) — a chat\'s "Show in settings"',
    )


class ShowViewArgs(WireModel):
    view: View
    hook_id: str | None = Field(
        default=None,
        description="With view settings: the hook whose row to show (from openSettings' hookId)",
    )


class PrefillArgs(WireModel):
    text: str


class ShowFileArgs(WireModel):
    path: str = Field(description="Absolute path of the file shown")
    content: str = Field(description="Its text (a shell shows only files of bounded size)")
    line: int | None = Field(default=None, description="The 1-based line to show and mark")
    end_line: int | None = Field(
        default=None, description="The last 1-based line to mark with it (a hook's entry)"
    )


class SetLocaleArgs(WireModel):
    locale: str = Field(description="A BCP 47 locale, e.g. zh-CN; the page picks its language")


class ServerStateArgs(WireModel):
    running: bool = Field(description="Whether wavehost serve is up")
    reason: str | None = Field(
        default=None, description="Why it stopped or could not start (server words, English)"
    )
