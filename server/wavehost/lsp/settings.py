"""The settings feature: the settings page's methods over the settings service, and the watch
that tells the client when the hooks list may have changed.

Imported on first use, not at start-up: it pulls in pydantic and the hook engine.
"""

import asyncio
import logging
from typing import TYPE_CHECKING, Any, TypeVar

from anyio import to_thread
from lsprotocol.types import WINDOW_SHOW_DOCUMENT as SHOW_DOCUMENT
from lsprotocol.types import ShowDocumentResult

from wavehost.hooks.safe_read import is_regular_file
from wavehost.lsp.edge import Params, RequestFailedError, dump, handlers_for, off_loop, parse, spawn
from wavehost.lsp.framing import Encoded
from wavehost.lsp.workspace import WorkspaceOptions
from wavehost.protocol import table
from wavehost.protocol.inspector import (
    HookRunEntry,
    HooksExplainParams,
    HooksExplainResult,
    HooksHistoryParams,
    HooksHistoryResult,
    HooksSampleParams,
    HooksSampleResult,
    HooksTestParams,
    HooksTestResult,
)
from wavehost.protocol.mcp import McpListParams, McpListResult
from wavehost.protocol.settings import (
    HooksDeleteParams,
    HooksDeleteResult,
    HooksListParams,
    HooksListResult,
    HooksPrefillParams,
    HooksPrefillResult,
    OpenConfigFileParams,
    OpenConfigFileResult,
    SettingsErrorData,
)
from wavehost.protocol.workspace import WorkspaceSetTrustedParams, WorkspaceSetTrustedResult
from wavehost.settings.errors import SettingsError
from wavehost.settings.listing import HooksListing
from wavehost.settings.mcp_servers import entry_lines
from wavehost.settings.service import SettingsService
from wavehost.settings.trial import run_trial
from wavehost.settings.watch import ConfigWatcher

if TYPE_CHECKING:
    from wavehost.lsp.server import WaveServer

log = logging.getLogger(__name__)
T = TypeVar("T")


class SettingsFeature:
    def __init__(self, server: "WaveServer", options: WorkspaceOptions) -> None:
        self._server = server
        self._options = options
        for warning in options.warnings:
            log.warning(warning)
        log.info("project %s (trusted: %s)", options.project_dir, options.trust.trusted)
        self.settings = SettingsService(
            options.project_dir,
            trust=options.trust,
            programmatic=options.hooks,
            locale=options.locale,
        )
        self._watcher = ConfigWatcher(self.settings.inputs, self._changed)
        self._watching: asyncio.Task[None] | None = None
        # The last list, encoded: while nothing changed, every page's list is the same bytes.
        self._listed: tuple[HooksListing, Encoded] | None = None
        self.handlers = handlers_for(
            "settings",
            {
                table.HOOKS_LIST: self.hooks_list,
                table.HOOKS_DELETE: self.hooks_delete,
                table.HOOKS_PREFILL: self.hooks_prefill,
                table.OPEN_CONFIG_FILE: self.open_config_file,
                table.WORKSPACE_SET_TRUSTED: self.set_trusted,
                table.HOOKS_HISTORY: self.hooks_history,
                table.HOOKS_SAMPLE: self.hooks_sample,
                table.HOOKS_TEST: self.hooks_test,
                table.HOOKS_EXPLAIN: self.hooks_explain,
                table.MCP_LIST: self.mcp_list,
            },
        )

    def start(self) -> None:
        self._watching = spawn(self._watcher.run(), "watching the hook config")

    def halt(self) -> None:
        """Stop at once (LSP `exit` without `shutdown`): the watch thread must not hold it up."""
        self._watcher.stop()

    async def stop(self) -> None:
        self.halt()
        if self._watching is not None:
            await asyncio.wait([self._watching], timeout=2)

    async def _changed(self) -> None:
        self._server.pages.notify(table.HOOKS_CHANGED, {})

    async def _run(self, work: Any, *args: Any) -> Any:
        """Blocking service work off the loop; a `SettingsError` becomes RequestFailedError whose
        `data` is SettingsErrorData."""
        try:
            return await off_loop(work, *args)
        except SettingsError as err:
            raise RequestFailedError(err.message, SettingsErrorData.of(err)) from err

    # -- methods ----------------------------------------------------------------------------

    async def hooks_list(self, params: Params) -> Encoded:
        parse(HooksListParams, params, table.HOOKS_LIST)
        listing: HooksListing = await self._run(self.settings.list_hooks)
        listed = self._listed
        if listed is None or listed[0] is not listing:  # unchanged: the same bytes again
            encoded = await off_loop(_encoded_listing, listing)
            listed = self._listed = (listing, encoded)
        return listed[1]

    async def hooks_delete(self, params: Params) -> dict[str, Any]:
        """Delete, and answer with the list as it is now: the watcher's news of this write of our
        own is dropped (the page has the list already); anyone else's change is still news."""
        request = parse(HooksDeleteParams, params, table.HOOKS_DELETE)
        async with self._watcher.own_write() as seen:
            deleted = await self._run(self.settings.delete, request.id)
            listing, snapshot = await self._run(self.settings.listing_now)
            if snapshot is not None:
                seen(snapshot)
        log.info("deleted hook %s from %s", request.id, deleted.path)
        runs = await self._run(self.settings.last_runs, listing)
        result = HooksDeleteResult.of(deleted, listing, [HookRunEntry.of(r) for r in runs])
        return await off_loop(dump, result)

    async def hooks_prefill(self, params: Params) -> dict[str, Any]:
        request = parse(HooksPrefillParams, params, table.HOOKS_PREFILL)
        if request.action == "edit" and request.id:
            prefill = await self._run(self.settings.prefill_edit, request.id, request.locale)
        else:
            work = self.settings.prefill_new
            prefill = await self._run(work, request.source, request.locale, request.starter)
        return dump(HooksPrefillResult.of(prefill))

    async def open_config_file(self, params: Params) -> dict[str, Any]:
        request = parse(OpenConfigFileParams, params, table.OPEN_CONFIG_FILE)
        file = await self._run(self.settings.config_file, request.path)
        if not await to_thread.run_sync(is_regular_file, file.path):
            return dump(OpenConfigFileResult(opened=False, reason="missing"))
        window = self._server.client_capabilities.window
        if not (window and window.show_document and window.show_document.support):
            return dump(OpenConfigFileResult(opened=False, reason="unsupported"))
        document: dict[str, Any] = {"uri": file.path.absolute().as_uri(), "takeFocus": True}
        if request.line is not None:
            start = {"line": request.line - 1, "character": 0}
            document["selection"] = {"start": start, "end": start}
        elif request.pointer is not None:
            lines = await self._run(self.settings.entry_lines, file, request.pointer)
            if lines is not None:  # the whole entry, its first line to the start of the next
                first, last = lines
                document["selection"] = {
                    "start": {"line": first - 1, "character": 0},
                    "end": {"line": last, "character": 0},
                }
        # For the page that asked: a shell that shows the file in a page shows it there only.
        params = self._server.pages.to_asker(document)
        shown: ShowDocumentResult = await self._server.protocol.send_request_async(
            SHOW_DOCUMENT, params
        )
        return dump(
            OpenConfigFileResult(opened=shown.success, reason=None if shown.success else "declined")
        )

    async def set_trusted(self, params: Params) -> dict[str, Any]:
        request = parse(WorkspaceSetTrustedParams, params, table.WORKSPACE_SET_TRUSTED)
        changed = self._options.trust.set(request.trusted)  # the list, sessions opened from now
        if changed:
            log.info("workspace trust is now %s", request.trusted)
            await self._changed()
        return dump(WorkspaceSetTrustedResult(trusted=request.trusted, changed=changed))

    async def hooks_history(self, params: Params) -> dict[str, Any]:
        request = parse(HooksHistoryParams, params, table.HOOKS_HISTORY)
        records = await self._run(self.settings.history, request.id)
        return dump(HooksHistoryResult(runs=[HookRunEntry.of(r) for r in records]))

    async def hooks_sample(self, params: Params) -> dict[str, Any]:
        request = parse(HooksSampleParams, params, table.HOOKS_SAMPLE)
        handler = await self._run(self.settings.handler, request.id)
        sample = await self._run(self.settings.sample, request.id, request.input)
        event = handler.event.name
        return dump(HooksSampleResult(event=event, payload=sample.payload, stdin=sample.stdin))

    async def hooks_test(self, params: Params) -> dict[str, Any]:
        request = parse(HooksTestParams, params, table.HOOKS_TEST)
        work = self.settings.trial_payload
        test = await self._run(work, request.id, request.payload, request.stdin, request.input)
        handler, payload, stdin = test.handler, test.payload, test.stdin
        log.info("testing hook %s: %s", request.id, handler.command)
        project, run_log = self.settings.project_dir, self.settings.run_log
        if handler.kind not in ("prompt", "agent"):
            trial = await run_trial(handler, payload, project, run_log, stdin=stdin)
            return dump(HooksTestResult.of(trial))
        # A model decides: the provider a chat in this project would use (loaded on first use)
        from wavehost.session.hook_models import trial_models

        async with trial_models(project, trusted=self._options.trust.trusted) as models:
            trial = await run_trial(handler, payload, project, run_log, models, stdin)
        return dump(HooksTestResult.of(trial))

    async def mcp_list(self, params: Params) -> dict[str, Any]:
        parse(McpListParams, params, table.MCP_LIST)
        config = await self._run(self.settings.mcp_servers)
        lines = await self._run(entry_lines, config)
        chat = getattr(self._server, "built", lambda _: None)("chat")  # never built for this
        states = chat.mcp_states() if chat is not None else {}
        return dump(McpListResult.of(config, states, lines))

    async def hooks_explain(self, params: Params) -> dict[str, Any]:
        request = parse(HooksExplainParams, params, table.HOOKS_EXPLAIN)
        explanation = await self._run(self.settings.explain, request.id, request.session_id)
        return dump(HooksExplainResult.of(explanation))


def _encoded_listing(listing: HooksListing) -> Encoded:
    return Encoded(dump(HooksListResult.of(listing)))
