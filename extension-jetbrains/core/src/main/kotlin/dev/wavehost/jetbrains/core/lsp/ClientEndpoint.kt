package dev.wavehost.jetbrains.core.lsp

import com.google.gson.JsonElement
import dev.wavehost.jetbrains.core.protocol.Kind
import dev.wavehost.jetbrains.core.protocol.Protocol
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import org.eclipse.lsp4j.ApplyWorkspaceEditParams
import org.eclipse.lsp4j.ApplyWorkspaceEditResponse
import org.eclipse.lsp4j.ConfigurationParams
import org.eclipse.lsp4j.MessageActionItem
import org.eclipse.lsp4j.MessageParams
import org.eclipse.lsp4j.PublishDiagnosticsParams
import org.eclipse.lsp4j.RegistrationParams
import org.eclipse.lsp4j.ShowDocumentParams
import org.eclipse.lsp4j.ShowDocumentResult
import org.eclipse.lsp4j.ShowMessageRequestParams
import org.eclipse.lsp4j.UnregistrationParams
import org.eclipse.lsp4j.WorkDoneProgressCreateParams
import org.eclipse.lsp4j.jsonrpc.Endpoint
import org.eclipse.lsp4j.jsonrpc.Launcher
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer
import org.eclipse.lsp4j.jsonrpc.services.GenericEndpoint
import org.eclipse.lsp4j.services.LanguageClient
import org.eclipse.lsp4j.services.LanguageServer
import java.util.concurrent.CompletableFuture

/** What the server asks of the client, beyond standard LSP housekeeping. */
interface ServerCallbacks {
    /** `window/showDocument`: open the file in the IDE. */
    fun showDocument(params: ShowDocumentParams): CompletableFuture<ShowDocumentResult>

    /** A server notification from the method table. */
    fun serverNotification(method: String, params: JsonElement?)

    /**
     * A server→client request from the method table (answered by a page). The server may withdraw
     * it (`$/cancelRequest`): lsp4j then cancels the returned future.
     */
    fun serverRequest(method: String, params: JsonElement?): CompletableFuture<JsonElement?>

    fun log(message: String)
}

/** Standard LSP server→client requests: `window/showDocument` for real, the rest answered politely. */
internal class StandardClient(private val callbacks: ServerCallbacks) : LanguageClient {
    override fun showDocument(params: ShowDocumentParams): CompletableFuture<ShowDocumentResult> = callbacks.showDocument(params)

    override fun logMessage(message: MessageParams) = callbacks.log(message.message)

    override fun showMessage(message: MessageParams) = callbacks.log(message.message)

    override fun showMessageRequest(params: ShowMessageRequestParams): CompletableFuture<MessageActionItem?> =
        CompletableFuture.completedFuture(null)

    override fun telemetryEvent(obj: Any?) {}

    override fun publishDiagnostics(diagnostics: PublishDiagnosticsParams) {}

    override fun applyEdit(params: ApplyWorkspaceEditParams): CompletableFuture<ApplyWorkspaceEditResponse> =
        CompletableFuture.completedFuture(ApplyWorkspaceEditResponse(false))

    override fun registerCapability(params: RegistrationParams): CompletableFuture<Void?> = CompletableFuture.completedFuture(null)

    override fun unregisterCapability(params: UnregistrationParams): CompletableFuture<Void?> = CompletableFuture.completedFuture(null)

    override fun createProgress(params: WorkDoneProgressCreateParams): CompletableFuture<Void?> = CompletableFuture.completedFuture(null)

    override fun configuration(params: ConfigurationParams): CompletableFuture<List<Any?>> =
        CompletableFuture.completedFuture(params.items.map { null })
}

/**
 * The endpoint lsp4j dispatches incoming messages to: the table's server→client methods go
 * straight to [ServerCallbacks] (so a `$/cancelRequest` cancels the very future we returned),
 * everything else to the reflective [StandardClient].
 */
internal class WaveEndpoint(private val callbacks: ServerCallbacks, private val standard: Endpoint) : Endpoint {
    override fun request(method: String, parameter: Any?): CompletableFuture<*> =
        if (Protocol.isServerRequest(method)) callbacks.serverRequest(method, parameter as? JsonElement) else standard.request(method, parameter)

    override fun notify(method: String, parameter: Any?) {
        when {
            Protocol.isServerNotification(method) -> callbacks.serverNotification(method, parameter as? JsonElement)
            else -> standard.notify(method, parameter)
        }
    }
}

/**
 * lsp4j's launcher with the method table registered: every table method, both directions, with
 * `JsonElement` params and results (lsp4j's untyped request would hand undeclared methods over as
 * null), and [WaveEndpoint] as the local endpoint.
 */
internal class WaveLauncherBuilder(private val callbacks: ServerCallbacks) : Launcher.Builder<LanguageServer>() {
    private val standardClient = StandardClient(callbacks)

    init {
        setLocalService(standardClient)
        setRemoteInterface(LanguageServer::class.java)
    }

    override fun getSupportedMethods(): Map<String, JsonRpcMethod> = super.getSupportedMethods() + tableMethods()

    override fun createRemoteEndpoint(jsonHandler: MessageJsonHandler): RemoteEndpoint {
        val outgoing = wrapMessageConsumer(StreamMessageConsumer(output, jsonHandler))
        val local = WaveEndpoint(callbacks, GenericEndpoint(standardClient))
        val remote = if (exceptionHandler == null) RemoteEndpoint(outgoing, local) else RemoteEndpoint(outgoing, local, exceptionHandler)
        jsonHandler.setMethodProvider(remote)
        remote.setJsonHandler(jsonHandler)
        return remote
    }

    companion object {
        fun tableMethods(): Map<String, JsonRpcMethod> = ProtocolTable.METHODS.associate { m ->
            m.name to when (m.kind) {
                Kind.REQUEST -> JsonRpcMethod.request(m.name, JsonElement::class.java, JsonElement::class.java)
                Kind.NOTIFICATION -> JsonRpcMethod.notification(m.name, JsonElement::class.java)
            }
        }
    }
}
