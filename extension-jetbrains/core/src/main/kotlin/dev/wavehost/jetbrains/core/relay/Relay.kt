package dev.wavehost.jetbrains.core.relay

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import dev.wavehost.jetbrains.core.protocol.Protocol
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.Routing
import dev.wavehost.jetbrains.core.protocol.ShellCommands
import dev.wavehost.jetbrains.core.web.Bridge
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode
import java.util.concurrent.CancellationException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ScheduledExecutorService

enum class View(val id: String) { SETTINGS("settings"), CHAT("chat") }

/** A browser showing the page; implemented over JCEF (`executeJavaScript`). Any thread may call it. */
interface PageLink {
    fun execute(script: String)
    fun reload()
}

/** The server as the relay sees it: the LSP connection while it is up. */
interface ServerPort {
    fun request(method: String, params: JsonElement?): CompletableFuture<JsonElement?>
    fun notify(method: String, params: JsonElement?)
}

/** The IDE actions the shell-local commands need; the glue implements them (on the EDT). */
interface ShellActions {
    /** Show the chat tool window (creating its page if needed). */
    fun openChat()

    /**
     * Close this settings tab. Called when the page sent `closeSettings`, which is always its last
     * message: everything it sent before (its `openChat`, an Edit's answered `wave/openConfigFile`)
     * has been handled by then.
     */
    fun closeSettings(page: PageHandle)

    fun openSettings()

    /** Show the IDE's own workspace-trust settings: the chat's way out when project hooks do not
     *  run because the project is not trusted. The page never changes trust itself. */
    fun manageTrust()
}

/** One page (a settings tab or the chat tool window). Messages from it go through [receive]. */
class PageHandle internal constructor(val id: Int, val view: View, internal val link: PageLink, private val relay: Relay) {
    /** What the server calls this page (its requests carry it as `pageId`). */
    val pageId: String = "${view.id}-$id"
    internal var ready = false
    internal var disposed = false
    internal var closing = false
    internal val outbox = ArrayDeque<String>()

    /** A message from the page (what it passed to `__waveJetBrainsBridge.postMessage`). */
    fun receive(json: String) = relay.fromPage(this, json)

    /** The browser is gone: questions only it could answer are answered with an error now. */
    fun dispose() = relay.detach(this)

    override fun toString(): String = "${view.id} page $id"
}

/**
 * The envelope relay between pages and `wavehost serve`, the same rules as every shell:
 *
 * - one thread ([executor]) handles everything in arrival order: a page's request is written to
 *   the server before its next message is looked at, and everything sent to a page leaves in the
 *   order it was produced (so an Edit's `wave/openConfigFile` answer reaches the page before the
 *   page can send `closeSettings`, and `closeSettings` acts only after what came before it);
 * - only the method table's methods pass (page requests clientToServer, server notifications and
 *   requests serverToClient); anything else is refused with -32601;
 * - a multiplexer, no session state: a page's requests reach the server with its `pageId`, and
 *   what the server sends goes to the pages it names (`pageIds`), or to every page when it names
 *   none (which page shows which session is the server's to decide); a server→client request
 *   names one page, and is answered with an error when that page is not there; a
 *   `$/cancelRequest` from the server withdraws the question from the page; a page that is gone
 *   is reported to the server (`wave/page/closed`);
 * - nothing is sent to a page before it said `ready` (it is queued until then);
 * - `closeSettings` is a settings page's last message: it closes the tab at once (after what the
 *   page sent earlier, in order); anything the page sends after it is ignored;
 * - the pages hear `serverState` when the server stops (running false, with why: they disable
 *   their actions and offer Restart) and when it runs again; a page's `restartServer` asks
 *   [restartServer] for a fresh server;
 * - `openSettings {hookId}` (a chat's "Show in settings") opens the settings tab and, once it is
 *   ready, sends it `showView {view: "settings", hookId}`: it scrolls to that row.
 */
class Relay(
    private val actions: ShellActions,
    private val executor: ScheduledExecutorService,
    private val log: (String) -> Unit = {},
    private val restartServer: () -> Unit = {},
) {
    private class InFlight(val page: PageHandle, val future: CompletableFuture<JsonElement?>)
    private class Question(val page: PageHandle, val future: CompletableFuture<JsonElement?>)

    private val pages = mutableListOf<PageHandle>()
    private var nextPageId = 1
    private var nextQuestionId = 1
    private var server: ServerPort? = null
    private var downReason = "wavehost is starting"
    private val inFlight = LinkedHashMap<Pair<Int, JsonPrimitive>, InFlight>()
    private val questions = LinkedHashMap<String, Question>()
    private var pendingPrefill: String? = null
    private var pendingReveal: String? = null

    fun attach(view: View, link: PageLink): PageHandle {
        val page = synchronized(this) { PageHandle(nextPageId++, view, link, this) }
        executor.execute { pages.add(page) }
        return page
    }

    fun serverUp(port: ServerPort) = executor.execute {
        server = port
        broadcast(serverState(running = true, reason = null))
    }

    /** The server stopped: every request still waiting gets an error answer that says why. */
    fun serverDown(reason: String) = executor.execute {
        server = null
        downReason = reason
        for ((key, entry) in inFlight.entries.toList()) {
            inFlight.remove(key)
            post(entry.page, Envelope.errorResponse(key.second, Envelope.error(ResponseErrorCode.InternalError.value, reason)))
        }
        broadcast(serverState(running = false, reason = reason))
    }

    /** Runs a script in every page (a theme change). */
    fun executeInPages(script: String) = executor.execute { pages.filter { it.ready }.forEach { it.link.execute(script) } }

    /** Reloads every page (after a restart: what they showed came from the old server). */
    fun reloadPages() = executor.execute {
        for (page in pages) {
            page.ready = false
            page.outbox.clear()
            page.link.reload()
        }
    }

    // -- from the server --------------------------------------------------------------------

    fun serverNotification(method: String, params: JsonElement?) = executor.execute {
        val (targets, delivered) = addressed(params)
        val envelope = Envelope.notification(method, delivered)
        targets.forEach { post(it, envelope) }
    }

    fun serverRequest(method: String, params: JsonElement?): CompletableFuture<JsonElement?> {
        val future = CompletableFuture<JsonElement?>()
        executor.execute { ask(method, params, future) }
        return future
    }

    private fun ask(method: String, params: JsonElement?, future: CompletableFuture<JsonElement?>) {
        val (targets, delivered) = addressed(params)
        val page = targets.singleOrNull()
        if (page == null) {
            future.completeExceptionally(ResponseErrorException(ResponseError(ResponseErrorCode.InternalError, "the page asked is not open", null)))
            return
        }
        val id = "srv-${nextQuestionId++}"
        questions[id] = Question(page, future)
        future.whenComplete { _, failure ->
            if (failure is CancellationException) {
                // The server withdrew the question ($/cancelRequest): the page drops it.
                executor.execute {
                    if (questions.remove(id) != null) {
                        post(page, Envelope.notification(CANCEL_METHOD, JsonObject().apply { addProperty("id", id) }))
                    }
                }
            }
        }
        post(page, Envelope.request(id, method, delivered))
    }

    /**
     * The pages a server message names (`pageIds`; none: every page), and its params as the pages
     * get them (without the names).
     */
    private fun addressed(params: JsonElement?): Pair<List<PageHandle>, JsonElement?> {
        val named = (params as? JsonObject)?.get(Routing.PAGE_IDS) ?: return pages.toList() to params
        val ids = if (named.isJsonArray) named.asJsonArray.mapNotNull { it.takeIf { e -> e.isJsonPrimitive }?.asString }.toSet() else emptySet()
        val delivered = (params as JsonObject).deepCopy().apply { remove(Routing.PAGE_IDS) }
        return pages.filter { it.pageId in ids } to delivered
    }

    // -- from a page ------------------------------------------------------------------------

    internal fun fromPage(page: PageHandle, json: String) = executor.execute {
        if (page.disposed) return@execute
        if (page.closing) {
            log("$page sent something after closeSettings (its last message): ignored")
            return@execute
        }
        when (val envelope = Envelope.parse(json)) {
            null -> log("$page sent something that is not an envelope")
            is Envelope.Request -> relay(page, envelope)
            is Envelope.Response -> answer(page, envelope)
            is Envelope.Notification -> pageNotification(page, envelope)
            is Envelope.Shell -> shell(page, envelope)
        }
    }

    private fun relay(page: PageHandle, request: Envelope.Request) {
        if (!Protocol.isPageRequest(request.method)) {
            val error = Envelope.error(ResponseErrorCode.MethodNotFound.value, "${request.method} is not a wavehost method")
            post(page, Envelope.errorResponse(request.id, error))
            return
        }
        val port = server
        if (port == null) {
            post(page, Envelope.errorResponse(request.id, Envelope.error(ResponseErrorCode.InternalError.value, downReason)))
            return
        }
        // The page is named by the shell, never by itself: a page cannot pose as another.
        val named = (request.params as? JsonObject)?.deepCopy() ?: JsonObject()
        named.addProperty(Routing.PAGE_ID, page.pageId)
        val future = port.request(request.method, named)
        val key = page.id to request.id
        inFlight[key] = InFlight(page, future)
        future.whenComplete { result, failure ->
            executor.execute {
                if (inFlight.remove(key) == null) return@execute // already answered (server down)
                if (failure != null) {
                    post(page, Envelope.errorResponse(request.id, Envelope.errorOf(failure)))
                } else {
                    post(page, Envelope.response(request.id, result))
                }
            }
        }
    }

    private fun answer(page: PageHandle, response: Envelope.Response) {
        val id = response.id.takeIf { it.isString }?.asString ?: return
        val question = questions[id]?.takeIf { it.page === page } ?: return
        questions.remove(id)
        if (response.error != null) question.future.completeExceptionally(Envelope.exceptionOf(response.error))
        else question.future.complete(response.result)
    }

    private fun pageNotification(page: PageHandle, notification: Envelope.Notification) {
        if (notification.method == CANCEL_METHOD) {
            // The page gives up on one of its requests: the server is told ($/cancelRequest).
            val id = (notification.params as? JsonObject)?.get("id")?.takeIf { it.isJsonPrimitive }?.asJsonPrimitive ?: return
            inFlight[page.id to id]?.future?.cancel(true)
            return
        }
        if (!Protocol.isPageNotification(notification.method)) {
            log("$page sent ${notification.method}, which is not a wavehost notification")
            return
        }
        server?.notify(notification.method, notification.params)
    }

    private fun shell(page: PageHandle, shell: Envelope.Shell) {
        when (shell.command) {
            ShellCommands.READY -> {
                page.ready = true
                while (page.outbox.isNotEmpty()) page.link.execute(page.outbox.removeFirst())
                if (page.view == View.CHAT) deliverPrefill() else deliverReveal()
            }
            ShellCommands.CLOSE_SETTINGS -> if (page.view == View.SETTINGS) {
                page.closing = true
                actions.closeSettings(page)
            }
            ShellCommands.OPEN_CHAT -> {
                shell.args.get("prefill")?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isString }?.let { pendingPrefill = it.asString }
                actions.openChat()
                deliverPrefill()
            }
            ShellCommands.OPEN_SETTINGS -> {
                // A chat's "Show in settings": the settings page shows that hook's row once it listens.
                shell.args.get("hookId")?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isString }?.let { pendingReveal = it.asString }
                actions.openSettings()
                deliverReveal()
            }
            ShellCommands.RESTART_SERVER -> restartServer()
            ShellCommands.MANAGE_TRUST -> actions.manageTrust()
            else -> log("$page sent an unknown shell command: ${shell.command}")
        }
    }

    /** The prefill waits for a ready chat page (the tool window may be opening right now). */
    private fun deliverPrefill() {
        val text = pendingPrefill ?: return
        val chat = pages.lastOrNull { it.view == View.CHAT && it.ready && !it.disposed } ?: return
        pendingPrefill = null
        post(chat, Envelope.shell(ShellCommands.PREFILL, JsonObject().apply { addProperty("text", text) }))
    }

    /** The row to reveal waits for a ready settings page (the tab may be opening right now). */
    private fun deliverReveal() {
        val hookId = pendingReveal ?: return
        val settings = pages.lastOrNull { it.view == View.SETTINGS && it.ready && !it.disposed && !it.closing } ?: return
        pendingReveal = null
        val args = JsonObject().apply {
            addProperty("view", View.SETTINGS.id)
            addProperty("hookId", hookId)
        }
        post(settings, Envelope.shell(ShellCommands.SHOW_VIEW, args))
    }

    internal fun detach(page: PageHandle) = executor.execute {
        if (page.disposed) return@execute
        page.disposed = true
        pages.remove(page)
        for ((id, question) in questions.entries.toList()) {
            if (question.page === page) {
                questions.remove(id)
                question.future.completeExceptionally(ResponseErrorException(ResponseError(ResponseErrorCode.InternalError, "the page was closed", null)))
            }
        }
        // Its requests still run (a session outlives its page); their answers are dropped.
        inFlight.keys.removeIf { it.first == page.id }
        server?.notify(ProtocolTable.PAGE_CLOSED, JsonObject().apply { addProperty(Routing.PAGE_ID, page.pageId) })
    }

    private fun broadcast(envelope: JsonObject) = pages.forEach { post(it, envelope) }

    private fun serverState(running: Boolean, reason: String?) = Envelope.shell(
        ShellCommands.SERVER_STATE,
        JsonObject().apply {
            addProperty("running", running)
            addProperty("reason", reason)
        },
    )

    private fun post(page: PageHandle, envelope: JsonObject) {
        if (page.disposed) return
        val script = Bridge.dispatchScript(Envelope.gson.toJson(envelope))
        if (page.ready) {
            page.link.execute(script)
        } else {
            if (page.outbox.size >= MAX_QUEUED) {
                page.outbox.removeFirst()
                log("$page is not ready: dropped its oldest queued message")
            }
            page.outbox.addLast(script)
        }
    }

    companion object {
        const val MAX_QUEUED = 1000
        val CANCEL_METHOD: String = MessageJsonHandler.CANCEL_METHOD.methodName
    }
}
