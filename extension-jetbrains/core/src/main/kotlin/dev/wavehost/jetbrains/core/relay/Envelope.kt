package dev.wavehost.jetbrains.core.relay

import com.google.gson.Gson
import com.google.gson.GsonBuilder
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import com.google.gson.JsonPrimitive
import com.google.gson.JsonSyntaxException
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode
import java.util.concurrent.CancellationException
import java.util.concurrent.CompletionException
import java.util.concurrent.ExecutionException

/**
 * The webview ↔ shell envelope (the same in every shell):
 * `{kind:"request", id, method, params}`, `{kind:"response", id, result | error}`,
 * `{kind:"notification", method, params}`, `{kind:"shell", command, args}`.
 */
sealed interface Envelope {
    data class Request(val id: JsonPrimitive, val method: String, val params: JsonElement?) : Envelope
    data class Response(val id: JsonPrimitive, val result: JsonElement?, val error: JsonObject?) : Envelope
    data class Notification(val method: String, val params: JsonElement?) : Envelope
    data class Shell(val command: String, val args: JsonObject) : Envelope

    companion object {
        /** The most a page may send in one message (a hook list or a chat message is far smaller). */
        const val MAX_CHARS = 8 * 1024 * 1024

        internal val gson: Gson = GsonBuilder().disableHtmlEscaping().serializeNulls().create()

        /** Parses a page's message; anything that is not an envelope is null (and ignored). */
        fun parse(text: String): Envelope? {
            if (text.length > MAX_CHARS) return null
            val value = try {
                JsonParser.parseString(text)
            } catch (e: JsonSyntaxException) {
                return null
            }
            if (!value.isJsonObject) return null
            val o = value.asJsonObject
            val id = o.get("id")?.takeIf { it.isJsonPrimitive && (it.asJsonPrimitive.isString || it.asJsonPrimitive.isNumber) }?.asJsonPrimitive
            val method = o.get("method")?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isString }?.asString
            return when (o.get("kind")?.takeIf { it.isJsonPrimitive }?.asString) {
                "request" -> if (id != null && method != null) Request(id, method, o.get("params")) else null
                "response" -> if (id != null) Response(id, o.get("result"), o.get("error")?.takeIf { it.isJsonObject }?.asJsonObject) else null
                "notification" -> method?.let { Notification(it, o.get("params")) }
                "shell" -> o.get("command")?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isString }?.asString?.let {
                    Shell(it, o.get("args")?.takeIf { a -> a.isJsonObject }?.asJsonObject ?: JsonObject())
                }
                else -> null
            }
        }

        fun response(id: JsonPrimitive, result: JsonElement?): JsonObject = JsonObject().apply {
            addProperty("kind", "response")
            add("id", id)
            add("result", result ?: JsonNull.INSTANCE)
        }

        fun errorResponse(id: JsonPrimitive, error: JsonObject): JsonObject = JsonObject().apply {
            addProperty("kind", "response")
            add("id", id)
            add("error", error)
        }

        fun request(id: String, method: String, params: JsonElement?): JsonObject = JsonObject().apply {
            addProperty("kind", "request")
            addProperty("id", id)
            addProperty("method", method)
            add("params", params ?: JsonObject())
        }

        fun notification(method: String, params: JsonElement?): JsonObject = JsonObject().apply {
            addProperty("kind", "notification")
            addProperty("method", method)
            add("params", params ?: JsonObject())
        }

        fun shell(command: String, args: JsonObject = JsonObject()): JsonObject = JsonObject().apply {
            addProperty("kind", "shell")
            addProperty("command", command)
            add("args", args)
        }

        fun error(code: Int, message: String, data: JsonElement? = null): JsonObject = JsonObject().apply {
            addProperty("code", code)
            addProperty("message", message)
            if (data != null && !data.isJsonNull) add("data", data)
        }

        /** A failed request as the page sees it: the server's JSON-RPC error unchanged (data.reason included). */
        fun errorOf(failure: Throwable): JsonObject {
            val cause = unwrap(failure)
            return when (cause) {
                is ResponseErrorException -> cause.responseError.let { error(it.code, it.message ?: "", dataOf(it.data)) }
                is CancellationException -> error(ResponseErrorCode.RequestCancelled.value, "the request was cancelled")
                else -> error(ResponseErrorCode.InternalError.value, cause.message ?: cause.javaClass.simpleName)
            }
        }

        /** A page's error answer, for the server. */
        fun exceptionOf(error: JsonObject): ResponseErrorException {
            val code = error.get("code")?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isNumber }?.asInt
                ?: ResponseErrorCode.InternalError.value
            val message = error.get("message")?.takeIf { it.isJsonPrimitive }?.asString ?: "the page answered with an error"
            return ResponseErrorException(ResponseError(code, message, error.get("data")))
        }

        private fun dataOf(data: Any?): JsonElement? = when (data) {
            null -> null
            is JsonElement -> data
            else -> gson.toJsonTree(data)
        }

        private fun unwrap(t: Throwable): Throwable {
            var current = t
            while ((current is CompletionException || current is ExecutionException) && current.cause != null) {
                current = current.cause!!
            }
            return current
        }
    }
}
