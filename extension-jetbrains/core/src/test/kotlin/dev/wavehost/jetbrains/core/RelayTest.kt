package dev.wavehost.jetbrains.core

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.Routing
import dev.wavehost.jetbrains.core.protocol.ShellCommands
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.PageLink
import dev.wavehost.jetbrains.core.relay.Relay
import dev.wavehost.jetbrains.core.relay.ServerPort
import dev.wavehost.jetbrains.core.relay.ShellActions
import dev.wavehost.jetbrains.core.relay.View
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.ExecutionException
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * The relay's rules with the server's side played by the test (when it answers is what these
 * tests control); the real server is behind it in HostIntegrationTest and the JCEF tests.
 */
class RelayTest {
    private val thread = Executors.newSingleThreadScheduledExecutor()
    private val actions = RecordingActions()
    private val relay = Relay(actions, thread)
    private val server = ScriptedServer()

    @AfterEach
    fun stop() {
        thread.shutdownNow()
    }

    /** The relay thread has handled everything submitted so far. */
    private fun settle() = thread.submit {}.get(5, TimeUnit.SECONDS)

    private fun page(view: View = View.SETTINGS, ready: Boolean = true): Pair<PageHandle, FakePage> {
        val link = FakePage()
        val handle = relay.attach(view, link)
        if (ready) handle.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{"view":"${view.id}"}}""")
        settle()
        return handle to link
    }

    private fun request(page: PageHandle, id: String, method: String, params: String = "{}") =
        page.receive("""{"kind":"request","id":"$id","method":"$method","params":$params}""")

    /** Params as the server sends them to [page]: naming it. */
    private fun named(params: String, page: PageHandle): JsonObject = JsonParser.parseString(params).asJsonObject.apply {
        add(Routing.PAGE_IDS, com.google.gson.JsonArray().apply { add(page.pageId) })
    }

    @Test
    fun `requests reach the server in the order the page sent them, answers go back by id`() {
        relay.serverUp(server)
        val (page, link) = page()
        request(page, "p1", ProtocolTable.HOOKS_LIST)
        request(page, "p2", ProtocolTable.HOOKS_PREFILL, """{"action":"new","source":"user"}""")
        settle()
        assertEquals(listOf(ProtocolTable.HOOKS_LIST, ProtocolTable.HOOKS_PREFILL), server.calls.map { it.first })
        server.answer(1, JsonParser.parseString("""{"prompt":"x"}"""))
        server.answer(0, JsonParser.parseString("""{"hooks":[]}"""))
        settle()
        assertEquals(listOf("p2", "p1"), link.envelopes().map { it["id"].asString })
        assertEquals("x", link.envelopes()[0]["result"].asJsonObject["prompt"].asString)
    }

    @Test
    fun `only the table's page requests pass, anything else is refused with -32601 and never reaches the server`() {
        relay.serverUp(server)
        val (page, link) = page()
        request(page, "a", "workspace/executeCommand")
        request(page, "b", ProtocolTable.CHAT_UPDATED) // a server notification, not a page request
        request(page, "c", ProtocolTable.CHAT_REQUEST_PERMISSION) // server → client only
        settle()
        assertEquals(emptyList<Pair<String, JsonElement?>>(), server.calls)
        val errors = link.envelopes().map { it["error"].asJsonObject }
        assertEquals(listOf(-32601, -32601, -32601), errors.map { it["code"].asInt })
        assertEquals("workspace/executeCommand is not a wavehost method", errors[0]["message"].asString)
    }

    @Test
    fun `the server's error reaches the page unchanged, data reason included`() {
        relay.serverUp(server)
        val (page, link) = page()
        request(page, "d", ProtocolTable.HOOKS_DELETE, """{"id":"h1"}""")
        settle()
        val data = JsonParser.parseString("""{"reason":"conflict","path":"/p/.wave/settings.json","message":"changed"}""")
        server.fail(0, ResponseErrorException(ResponseError(-32803, "the file changed", data)))
        settle()
        val error = link.envelopes().single()["error"].asJsonObject
        assertEquals(-32803, error["code"].asInt)
        assertEquals("the file changed", error["message"].asString)
        assertEquals(data, error["data"])
    }

    @Test
    fun `nothing is sent to a page before it is ready, what waited arrives in order`() {
        relay.serverUp(server)
        val (page, link) = page(ready = false)
        relay.serverNotification(ProtocolTable.HOOKS_CHANGED, JsonObject())
        request(page, "p1", ProtocolTable.HOOKS_LIST)
        settle()
        server.answer(0, JsonObject())
        settle()
        assertEquals(0, link.scripts.size)
        page.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
        settle()
        assertEquals(listOf("notification", "response"), link.envelopes().map { it["kind"].asString })
    }

    @Test
    fun `closeSettings, the page's last message, closes the tab at once, after what the page sent before it`() {
        relay.serverUp(server)
        val (settings, _) = page(View.SETTINGS)
        settings.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_CHAT}","args":{"prefill":"帮我编辑钩子"}}""")
        settings.receive("""{"kind":"shell","command":"${ShellCommands.CLOSE_SETTINGS}","args":{}}""")
        settle()
        assertEquals(listOf("openChat", "closeSettings settings page ${settings.id}"), actions.calls)
    }

    @Test
    fun `what a page sends after closeSettings is not acted on`() {
        relay.serverUp(server)
        val (settings, _) = page(View.SETTINGS)
        settings.receive("""{"kind":"shell","command":"${ShellCommands.CLOSE_SETTINGS}","args":{}}""")
        settings.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_CHAT}","args":{"prefill":"late"}}""")
        request(settings, "late", ProtocolTable.HOOKS_LIST)
        settle()
        assertEquals(listOf("closeSettings settings page ${settings.id}"), actions.calls)
        assertEquals(emptyList<Pair<String, JsonElement?>>(), server.calls)
    }

    @Test
    fun `the prefill waits for the chat page to be ready`() {
        val (settings, _) = page(View.SETTINGS)
        settings.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_CHAT}","args":{"prefill":"hello"}}""")
        settle()
        val (handle, chat) = page(View.CHAT, ready = false)
        assertEquals(0, chat.scripts.size)
        handle.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
        settle()
        val prefill = chat.envelopes().single()
        assertEquals("prefill", prefill["command"].asString)
        assertEquals("hello", prefill["args"].asJsonObject["text"].asString)
    }

    @Test
    fun `a chat's openSettings with a hookId opens the settings tab, which shows that row once it is ready`() {
        val (chat, chatLink) = page(View.CHAT)
        chat.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_SETTINGS}","args":{"hookId":"h-42"}}""")
        settle()
        assertEquals(listOf("openSettings"), actions.calls)
        val (handle, settings) = page(View.SETTINGS, ready = false) // the tab the glue opened
        assertEquals(0, settings.scripts.size)
        handle.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
        settle()
        val shown = settings.envelopes().single()
        assertEquals(ShellCommands.SHOW_VIEW, shown["command"].asString)
        assertEquals("settings", shown["args"].asJsonObject["view"].asString)
        assertEquals("h-42", shown["args"].asJsonObject["hookId"].asString)
        assertEquals(0, chatLink.scripts.size) // the chat page is not told
        // A settings tab already open and ready hears it at once; an openSettings without a hookId reveals nothing.
        chat.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_SETTINGS}","args":{"hookId":"h-7"}}""")
        chat.receive("""{"kind":"shell","command":"${ShellCommands.OPEN_SETTINGS}","args":{}}""")
        settle()
        assertEquals(listOf("h-42", "h-7"), settings.envelopes().map { it["args"].asJsonObject["hookId"].asString })
        assertEquals(listOf("openSettings", "openSettings", "openSettings"), actions.calls)
    }

    @Test
    fun `a chat's manageTrust shows the IDE's own trust settings and reaches no server`() {
        val (chat, _) = page(View.CHAT)
        chat.receive("""{"kind":"shell","command":"${ShellCommands.MANAGE_TRUST}","args":{}}""")
        settle()
        assertEquals(listOf("manageTrust"), actions.calls)
        assertEquals(emptyList<Pair<String, JsonElement?>>(), server.calls)
    }

    @Test
    fun `a page's requests reach the server with its pageId, whatever the page put there`() {
        relay.serverUp(server)
        val (page, _) = page(View.CHAT)
        request(page, "o1", ProtocolTable.CHAT_OPEN, """{"sessionId":"s1","${Routing.PAGE_ID}":"someone-else"}""")
        request(page, "o2", ProtocolTable.HOOKS_LIST, "null")
        settle()
        val named = server.calls.map { it.second!!.asJsonObject[Routing.PAGE_ID].asString }
        assertEquals(listOf(page.pageId, page.pageId), named)
        assertEquals("s1", server.calls[0].second!!.asJsonObject["sessionId"].asString)
    }

    @Test
    fun `a server request goes to the page it names, without the names, and its answer back to the server`() {
        relay.serverUp(server)
        val (first, firstLink) = page(View.CHAT)
        val (_, secondLink) = page(View.CHAT)
        val answer = relay.serverRequest(ProtocolTable.CHAT_REQUEST_PERMISSION, named("""{"sessionId":"s-first","toolName":"Write"}""", first))
        settle()
        val asked = firstLink.envelopes().last()
        assertEquals("request", asked["kind"].asString)
        assertEquals(JsonParser.parseString("""{"sessionId":"s-first","toolName":"Write"}"""), asked["params"])
        assertEquals(0, secondLink.envelopes().size, "the other page is not asked")
        first.receive("""{"kind":"response","id":"${asked["id"].asString}","result":{"allow":true}}""")
        assertEquals(JsonParser.parseString("""{"allow":true}"""), answer.get(5, TimeUnit.SECONDS))
    }

    @Test
    fun `a notification goes to the pages it names, one that names none to every page`() {
        relay.serverUp(server)
        val (first, firstLink) = page(View.CHAT)
        val (_, secondLink) = page(View.SETTINGS)
        relay.serverNotification(ProtocolTable.CHAT_UPDATED, named("""{"sessionId":"s1","deltas":[]}""", first))
        relay.serverNotification(ProtocolTable.CHAT_UPDATED, JsonParser.parseString("""{"sessionId":"s2","${Routing.PAGE_IDS}":["chat-0"]}"""))
        relay.serverNotification(ProtocolTable.HOOKS_CHANGED, JsonObject())
        settle()
        assertEquals(listOf(ProtocolTable.CHAT_UPDATED, ProtocolTable.HOOKS_CHANGED), firstLink.envelopes().map { it["method"].asString })
        assertEquals(JsonParser.parseString("""{"sessionId":"s1","deltas":[]}"""), firstLink.envelopes()[0]["params"])
        assertEquals(listOf(ProtocolTable.HOOKS_CHANGED), secondLink.envelopes().map { it["method"].asString })
    }

    @Test
    fun `a question the server withdraws ($cancelRequest) is withdrawn from the page, a late answer is ignored`() {
        relay.serverUp(server)
        val (page, link) = page(View.CHAT)
        val answer = relay.serverRequest(ProtocolTable.CHAT_REQUEST_PERMISSION, named("""{"sessionId":"s1"}""", page))
        settle()
        val id = link.envelopes().last()["id"].asString
        answer.cancel(true) // what lsp4j does on the server's $/cancelRequest
        settle()
        settle()
        val withdrawn = link.envelopes().last()
        assertEquals("notification", withdrawn["kind"].asString)
        assertEquals("\$/cancelRequest", withdrawn["method"].asString)
        assertEquals(id, withdrawn["params"].asJsonObject["id"].asString)
        page.receive("""{"kind":"response","id":"$id","result":{"allow":true}}""")
        settle()
        assertTrue(answer.isCancelled)
    }

    @Test
    fun `a closed page's question is answered with an error and the server hears it is gone, a question for a page not there fails at once`() {
        relay.serverUp(server)
        val (page, link) = page(View.CHAT)
        val answer = relay.serverRequest(ProtocolTable.CHAT_REQUEST_PERMISSION, named("""{"sessionId":"s1"}""", page))
        settle()
        assertEquals(1, link.envelopes().size)
        page.dispose()
        val closed = assertThrows<ExecutionException> { answer.get(5, TimeUnit.SECONDS) }
        assertEquals("the page was closed", (closed.cause as ResponseErrorException).responseError.message)
        settle()
        assertEquals(ProtocolTable.PAGE_CLOSED to JsonParser.parseString("""{"${Routing.PAGE_ID}":"${page.pageId}"}"""), server.calls.last())
        val nobody = relay.serverRequest(ProtocolTable.CHAT_REQUEST_PERMISSION, named("""{"sessionId":"s1"}""", page))
        val none = assertThrows<ExecutionException> { nobody.get(5, TimeUnit.SECONDS) }
        assertEquals("the page asked is not open", (none.cause as ResponseErrorException).responseError.message)
    }

    @Test
    fun `when the server stops, waiting requests are answered with the reason, and so are new ones`() {
        relay.serverUp(server)
        val (page, link) = page()
        request(page, "p1", ProtocolTable.HOOKS_LIST)
        settle()
        relay.serverDown("wavehost serve stopped (exit code 1): boom")
        request(page, "p2", ProtocolTable.HOOKS_LIST)
        settle()
        server.answer(0, JsonObject()) // too late: already answered
        settle()
        val answers = link.envelopes().filter { it["kind"].asString == "response" }
        assertEquals(listOf("p1", "p2"), answers.map { it["id"].asString })
        assertTrue(answers.all { it["error"].asJsonObject["message"].asString == "wavehost serve stopped (exit code 1): boom" })
    }

    @Test
    fun `every page hears serverState when the server stops, with why, and again when it runs`() {
        val (_, settings) = page(View.SETTINGS)
        val (_, chat) = page(View.CHAT)
        relay.serverUp(server)
        relay.serverDown("wavehost serve stopped (exit code 1): boom")
        relay.serverUp(server)
        settle()
        for (link in listOf(settings, chat)) {
            val states = link.envelopes().filter { it["kind"].asString == "shell" && it["command"].asString == ShellCommands.SERVER_STATE }
                .map { it["args"].asJsonObject }
            assertEquals(listOf(true, false, true), states.map { it["running"].asBoolean })
            assertEquals("wavehost serve stopped (exit code 1): boom", states[1]["reason"].asString)
            assertTrue(states[0]["reason"].isJsonNull && states[2]["reason"].isJsonNull)
        }
    }

    @Test
    fun `a page's restartServer asks the host for a fresh server`() {
        var restarts = 0
        val restarting = Relay(actions, thread, restartServer = { restarts++ })
        val handle = restarting.attach(View.SETTINGS, FakePage())
        handle.receive("""{"kind":"shell","command":"${ShellCommands.RESTART_SERVER}","args":{}}""")
        settle()
        assertEquals(1, restarts)
        assertEquals(emptyList<String>(), actions.calls)
    }

    @Test
    fun `a page that gives up on its request ($cancelRequest) cancels it at the server`() {
        relay.serverUp(server)
        val (page, _) = page()
        request(page, "c1", ProtocolTable.CHAT_COMPACT, """{"sessionId":"s1"}""")
        settle()
        page.receive("""{"kind":"notification","method":"${'$'}/cancelRequest","params":{"id":"c1"}}""")
        settle()
        assertTrue(server.futures[0].isCancelled)
    }

    @Test
    fun `what is not an envelope is ignored`() {
        relay.serverUp(server)
        val (page, link) = page()
        for (junk in listOf("", "null", "[1]", "{\"kind\":\"request\"}", "{\"kind\":\"nope\"}", "x".repeat(9 * 1024 * 1024))) page.receive(junk)
        settle()
        assertEquals(0, link.scripts.size)
        assertEquals(0, server.calls.size)
    }
}

class FakePage : PageLink {
    val scripts = CopyOnWriteArrayList<String>()
    var reloads = 0

    override fun execute(script: String) {
        scripts.add(script)
    }

    override fun reload() {
        reloads++
    }

    /** The envelopes the dispatch scripts delivered, in order. */
    fun envelopes(): List<JsonObject> = scripts.mapNotNull { envelopeOf(it) }

    companion object {
        private val DISPATCH = Regex("""^window\.dispatchEvent\(new MessageEvent\("message", \{ data: (".*") \}\)\);$""", RegexOption.DOT_MATCHES_ALL)

        fun envelopeOf(script: String): JsonObject? =
            DISPATCH.find(script)?.let { JsonParser.parseString(JsonParser.parseString(it.groupValues[1]).asString).asJsonObject }
    }
}

class RecordingActions : ShellActions {
    val calls = CopyOnWriteArrayList<String>()

    override fun openChat() {
        calls.add("openChat")
    }

    override fun closeSettings(page: PageHandle) {
        calls.add("closeSettings $page")
    }

    override fun openSettings() {
        calls.add("openSettings")
    }

    override fun manageTrust() {
        calls.add("manageTrust")
    }
}

/** The server's side of the connection, answering when the test says so. */
class ScriptedServer : ServerPort {
    val calls = CopyOnWriteArrayList<Pair<String, JsonElement?>>()
    val futures = CopyOnWriteArrayList<CompletableFuture<JsonElement?>>()

    override fun request(method: String, params: JsonElement?): CompletableFuture<JsonElement?> {
        calls.add(method to params)
        return CompletableFuture<JsonElement?>().also { futures.add(it) }
    }

    override fun notify(method: String, params: JsonElement?) {
        calls.add(method to params)
    }

    fun answer(index: Int, result: JsonElement) = futures[index].complete(result)

    fun fail(index: Int, error: Throwable) = futures[index].completeExceptionally(error)
}
