package dev.wavehost.jetbrains.core.lsp

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import org.eclipse.lsp4j.ClientCapabilities
import org.eclipse.lsp4j.ClientInfo
import org.eclipse.lsp4j.InitializeParams
import org.eclipse.lsp4j.InitializedParams
import org.eclipse.lsp4j.ShowDocumentCapabilities
import org.eclipse.lsp4j.WindowClientCapabilities
import org.eclipse.lsp4j.WorkspaceClientCapabilities
import org.eclipse.lsp4j.WorkspaceFolder
import org.eclipse.lsp4j.jsonrpc.Launcher
import org.eclipse.lsp4j.services.LanguageServer
import java.io.InputStream
import java.io.OutputStream
import java.nio.file.Path
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.Future
import java.util.concurrent.TimeUnit

/** What the client tells the server at `initialize`. */
data class SessionOptions(val projectDir: Path, val locale: String, val trusted: Boolean)

/** One LSP connection to a running `wavehost serve` (over its stdin/stdout), through lsp4j. */
class ServerConnection(input: InputStream, output: OutputStream, callbacks: ServerCallbacks) {
    private val executor: ExecutorService = Executors.newSingleThreadExecutor { r ->
        Thread(r, "wavehost-lsp-reader").apply { isDaemon = true }
    }
    private val launcher: Launcher<LanguageServer> = WaveLauncherBuilder(callbacks)
        .setInput(input)
        .setOutput(output)
        .setExecutorService(executor)
        .create()
    private var listening: Future<Void>? = null

    val server: LanguageServer get() = launcher.remoteProxy

    fun start(): ServerConnection {
        listening = launcher.startListening()
        return this
    }

    fun initialize(options: SessionOptions, clientName: String): CompletableFuture<Unit> {
        val uri = options.projectDir.toUri().toString()
        val params = InitializeParams().apply {
            processId = ProcessHandle.current().pid().toInt()
            clientInfo = ClientInfo(clientName)
            locale = options.locale
            @Suppress("DEPRECATION")
            rootUri = uri
            workspaceFolders = listOf(WorkspaceFolder(uri, options.projectDir.fileName?.toString() ?: uri))
            capabilities = ClientCapabilities().apply {
                window = WindowClientCapabilities().apply { showDocument = ShowDocumentCapabilities(true) }
                workspace = WorkspaceClientCapabilities().apply { workspaceFolders = true }
            }
            initializationOptions = JsonObject().apply {
                addProperty("projectDir", options.projectDir.toString())
                addProperty("locale", options.locale)
                addProperty("trusted", options.trusted)
            }
        }
        return server.initialize(params).thenApply { server.initialized(InitializedParams()) }
    }

    /** A table request; the result is the server's JSON, errors arrive as ResponseErrorException. */
    fun request(method: String, params: JsonElement?): CompletableFuture<JsonElement?> {
        @Suppress("UNCHECKED_CAST")
        return launcher.remoteEndpoint.request(method, params ?: JsonObject()) as CompletableFuture<JsonElement?>
    }

    fun notify(method: String, params: JsonElement?) {
        launcher.remoteEndpoint.notify(method, params ?: JsonObject())
    }

    /** LSP shutdown + exit, bounded; the caller then ends the process if it is still there. */
    fun shutdown(timeoutMillis: Long = 3_000) {
        try {
            server.shutdown().get(timeoutMillis, TimeUnit.MILLISECONDS)
            server.exit()
        } catch (e: Exception) {
            // A server that does not answer is stopped by its process being ended.
        } finally {
            listening?.cancel(true)
            executor.shutdownNow()
        }
    }
}
