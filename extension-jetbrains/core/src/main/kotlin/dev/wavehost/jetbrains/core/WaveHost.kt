package dev.wavehost.jetbrains.core

import com.google.gson.JsonElement
import dev.wavehost.jetbrains.core.launcher.Backoff
import dev.wavehost.jetbrains.core.launcher.Interpreter
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.launcher.LaunchException
import dev.wavehost.jetbrains.core.launcher.ServerLauncher
import dev.wavehost.jetbrains.core.lsp.ServerCallbacks
import dev.wavehost.jetbrains.core.lsp.ServerConnection
import dev.wavehost.jetbrains.core.lsp.SessionOptions
import dev.wavehost.jetbrains.core.protocol.LaunchPolicy
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.ShellTexts
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.PageLink
import dev.wavehost.jetbrains.core.relay.Relay
import dev.wavehost.jetbrains.core.relay.ServerPort
import dev.wavehost.jetbrains.core.relay.ShellActions
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.theme.IdeTheme
import dev.wavehost.jetbrains.core.theme.ThemeMapping
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.PageResources
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.eclipse.lsp4j.ShowDocumentParams
import org.eclipse.lsp4j.ShowDocumentResult
import java.io.IOException
import java.net.URI
import java.nio.file.Path
import java.time.Duration
import java.time.Instant
import java.util.concurrent.CompletableFuture
import java.util.concurrent.Executors
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.TimeUnit

/** What the IDE does for the host; the glue implements it (FileEditorManager, tool window, notifications). */
interface IdeHost : ShellActions {
    /** `window/showDocument`: open [path] in an editor, at the 1-based [line] when given (a
     *  parse error's, a hook's own entry); completes with whether it was shown. */
    fun showDocument(path: Path, takeFocus: Boolean, line: Int?): CompletableFuture<Boolean>

    /** A problem the user must see (the server cannot start, keeps stopping, …), in plain words. */
    fun showError(message: String)
}

data class HostConfig(
    val launch: LaunchConfig,
    val locale: String,
    val trusted: Boolean,
    val assets: WebviewAssets,
    val theme: IdeTheme = IdeTheme(emptyMap()),
    val clientName: String = "wavehost JetBrains",
    val backoff: Backoff = Backoff(),
    val initializeTimeout: Duration = Duration.ofMillis(LaunchPolicy.START_TIMEOUT_MS),
)

/** A page the glue put in a browser: route its messages to [handle], serve [resources] for it. */
class OpenedPage(val handle: PageHandle, val resources: PageResources)

/**
 * One project's wavehost: the `wavehost serve` process (started, restarted with back-off, stopped),
 * its LSP connection, and the relay every page of the project goes through.
 */
class WaveHost(private val config: HostConfig, private val ide: IdeHost, private val log: (String) -> Unit = {}) {
    private val relayThread = Executors.newSingleThreadScheduledExecutor { daemon(it, "wavehost-relay") }
    private val lifecycle: ScheduledExecutorService = Executors.newSingleThreadScheduledExecutor { daemon(it, "wavehost-lifecycle") }
    val relay = Relay(ide, relayThread, log) { restart() }

    @Volatile private var theme = config.theme
    @Volatile private var trusted = config.trusted
    @Volatile private var process: Process? = null
    private var connection: ServerConnection? = null
    private var interpreter: Interpreter? = null
    private var generation = 0
    private var failures = 0
    private var stopped = false
    private val stderrTail = ArrayDeque<String>()

    /** Starts the server; completes when it answered `initialize` (or failed, with the reason shown). */
    fun start(): CompletableFuture<Unit> = CompletableFuture.supplyAsync({ launch(reloadPages = false) }, lifecycle)

    fun openPage(view: View, link: PageLink, postFunction: String): OpenedPage {
        val handle = relay.attach(view, link)
        val resources = PageResources(config.assets, view, config.locale) {
            Bridge.script(postFunction, ThemeMapping.applyScript(theme))
        }
        return OpenedPage(handle, resources)
    }

    /** The IDE's theme changed: every page gets the new colours now, new pages at load. */
    fun setTheme(newTheme: IdeTheme) {
        theme = newTheme
        relay.executeInPages(ThemeMapping.applyScript(newTheme))
    }

    /** Workspace trust changed: the server is told (and a restarted one learns it at `initialize`). */
    fun setTrusted(value: Boolean): CompletableFuture<Unit> {
        if (value == trusted) return CompletableFuture.completedFuture(Unit)
        trusted = value
        return CompletableFuture.supplyAsync({ connection }, lifecycle).thenCompose { conn ->
            val params = com.google.gson.JsonObject().apply { addProperty("trusted", value) }
            conn?.request(ProtocolTable.WORKSPACE_SET_TRUSTED, params)?.thenApply { } ?: CompletableFuture.completedFuture(Unit)
        }
    }

    /** "Wave: Restart Host": stop the server, start a fresh one, reload the pages. */
    fun restart(): CompletableFuture<Unit> = CompletableFuture.supplyAsync({
        stopServer(text(ShellTexts.RESTARTING_HOST))
        failures = 0
        launch(reloadPages = true)
    }, lifecycle)

    /** The operating-system process id of the running server (null when none runs). */
    fun serverPid(): Long? = process?.takeIf { it.isAlive }?.pid()

    fun dispose() {
        val done = CompletableFuture.runAsync({
            stopped = true
            stopServer(text(ShellTexts.STOPPED_HOST))
        }, lifecycle)
        try {
            done.get(10, TimeUnit.SECONDS)
        } catch (e: Exception) {
            process?.destroyForcibly()
        }
        lifecycle.shutdownNow()
        relayThread.shutdown()
    }

    // -- the server process (lifecycle thread only) -------------------------------------------

    private fun launch(reloadPages: Boolean) {
        if (stopped) return
        val gen = ++generation
        val found = try {
            if (config.launch.command == null) ServerLauncher.discover(config.launch) else null
        } catch (e: LaunchException) {
            fail(e.message!!)
            return
        }
        interpreter = found
        val builder = ServerLauncher.processBuilder(config.launch, found)
        val started = try {
            builder.start()
        } catch (e: IOException) {
            fail(ServerLauncher.cannotStart(builder.command(), e))
            return
        }
        process = started
        synchronized(stderrTail) { stderrTail.clear() }
        pumpStderr(started)
        val startedAt = Instant.now()
        started.onExit().thenAccept { lifecycle.execute { exited(gen, it, startedAt) } }
        val conn = ServerConnection(started.inputStream, started.outputStream, callbacks).start()
        connection = conn
        try {
            conn.initialize(SessionOptions(config.launch.projectDir, config.locale, trusted), config.clientName)
                .get(config.initializeTimeout.toMillis(), TimeUnit.MILLISECONDS)
        } catch (e: Exception) {
            log("initialize failed: $e")
            started.destroyForcibly() // the exit handler explains and restarts
            return
        }
        relay.serverUp(port(conn))
        if (reloadPages) relay.reloadPages()
    }

    private fun exited(gen: Int, process: Process, startedAt: Instant) {
        if (gen != generation || stopped) return
        connection = null
        this.process = null
        val tail = synchronized(stderrTail) { stderrTail.joinToString("\n") }
        val bundled = config.launch.command == null && config.launch.bundle != null
        val reason = ServerLauncher.explainExit(process.exitValue(), tail, interpreter, bundled)
        relay.serverDown(reason)
        if (bundled && process.exitValue() == LaunchPolicy.UNUSABLE_EXIT) {
            fail(reason) // this interpreter cannot run the bundle: a restart would fail the same way
            return
        }
        failures = config.backoff.failuresAfter(failures, Duration.between(startedAt, Instant.now()))
        val delay = config.backoff.delay(failures)
        if (delay == null) {
            fail(text(ShellTexts.GAVE_UP, mapOf("reason" to reason, "count" to failures)))
            return
        }
        log("$reason Restarting in ${delay.toMillis()} ms.")
        lifecycle.schedule({ if (gen == generation) launch(reloadPages = true) }, delay.toMillis(), TimeUnit.MILLISECONDS)
    }

    private fun stopServer(reason: String) {
        generation++ // the exit that follows is expected
        relay.serverDown(reason)
        connection?.shutdown()
        connection = null
        process?.let { p ->
            if (!p.waitFor(LaunchPolicy.STOP_GRACE_MS, TimeUnit.MILLISECONDS)) {
                p.destroy()
                if (!p.waitFor(LaunchPolicy.STOP_GRACE_MS, TimeUnit.MILLISECONDS)) p.destroyForcibly()
            }
        }
        process = null
    }

    private fun fail(message: String) {
        log(message)
        relay.serverDown(message)
        ide.showError(message)
    }

    /** The plugin's own text [key], in the pages' language (the IDE's, by the rule). */
    private fun text(key: String, values: Map<String, Any> = emptyMap()) = ShellText.of(config.locale, key, values)

    private fun pumpStderr(process: Process) {
        daemon({
            process.errorStream.bufferedReader().useLines { lines ->
                for (line in lines) {
                    log("server: $line")
                    synchronized(stderrTail) {
                        stderrTail.addLast(line.take(2000))
                        while (stderrTail.size > 40) stderrTail.removeFirst()
                    }
                }
            }
        }, "wavehost-stderr").start()
    }

    private fun port(conn: ServerConnection) = object : ServerPort {
        override fun request(method: String, params: JsonElement?) = conn.request(method, params)
        override fun notify(method: String, params: JsonElement?) = conn.notify(method, params)
    }

    private val callbacks = object : ServerCallbacks {
        override fun showDocument(params: ShowDocumentParams): CompletableFuture<ShowDocumentResult> {
            val path = fileOf(params.uri) ?: return CompletableFuture.completedFuture(ShowDocumentResult(false))
            val line = params.selection?.start?.line?.takeIf { it >= 0 }?.plus(1)
            return ide.showDocument(path, params.takeFocus ?: false, line)
                .thenApply { ShowDocumentResult(it) }
                .exceptionally { ShowDocumentResult(false) }
        }

        override fun serverNotification(method: String, params: JsonElement?) = relay.serverNotification(method, params)

        override fun serverRequest(method: String, params: JsonElement?) = relay.serverRequest(method, params)

        override fun log(message: String) = this@WaveHost.log("server: $message")
    }

    companion object {
        /** Only `file:` URIs name something the IDE can open. */
        fun fileOf(uri: String?): Path? = try {
            URI(uri ?: return null).takeIf { it.scheme == "file" }?.let { Path.of(it) }
        } catch (e: Exception) {
            null
        }

        private fun daemon(r: Runnable, name: String) = Thread(r, name).apply { isDaemon = true }
    }
}
