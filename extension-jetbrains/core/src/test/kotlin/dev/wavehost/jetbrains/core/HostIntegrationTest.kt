package dev.wavehost.jetbrains.core

import com.google.gson.JsonObject
import dev.wavehost.jetbrains.core.launcher.Backoff
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.ShellCommands
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The core against a real `wavehost serve` (the repository's .venv), without a browser: the page
 * is played by the test through the same envelope a JCEF page sends.
 */
class HostIntegrationTest {
    @TempDir
    lateinit var tmp: Path
    private var host: WaveHost? = null
    private val ide = RecordingIde()
    private val logs = CopyOnWriteArrayList<String>()

    @AfterEach
    fun stop() {
        host?.dispose()
    }

    private fun project(settings: String = """{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"""): Path {
        val project = Files.createDirectories(tmp.resolve("my-app/.wave")).parent
        Files.writeString(project.resolve(".wave/settings.json"), settings)
        Files.createDirectories(tmp.resolve("home"))
        Files.createDirectories(tmp.resolve("dist/assets"))
        Files.writeString(tmp.resolve("dist/assets/webview.js"), "")
        return project
    }

    private fun start(project: Path, env: Map<String, String> = emptyMap(), command: List<String>? = null, backoff: Backoff = Backoff()): WaveHost {
        val config = HostConfig(
            launch = LaunchConfig(project, interpreterSetting = PYTHON.toString(), command = command, env = mapOf("HOME" to tmp.resolve("home").toString()) + env),
            locale = "en",
            trusted = true,
            assets = WebviewAssets.directory(tmp.resolve("dist")),
            backoff = backoff,
        )
        return WaveHost(config, ide) { logs.add(it) }.also { host = it; it.start().get() }
    }

    private fun page(h: WaveHost, view: View): Pair<PageHandle, FakePage> {
        val link = FakePage()
        val handle = h.openPage(view, link, Bridge.cefQueryPost()).handle
        handle.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
        return handle to link
    }

    private fun await(link: FakePage, what: String, predicate: (JsonObject) -> Boolean): JsonObject {
        var found: JsonObject? = null
        waitUntil(what) { link.envelopes().firstOrNull(predicate)?.also { found = it } != null }
        return found!!
    }

    @Test
    fun `wave-openConfigFile makes the IDE show the file (window-showDocument), then the page gets the answer`() {
        val project = project()
        val h = start(project)
        val (page, link) = page(h, View.SETTINGS)
        page.receive("""{"kind":"request","id":"l1","method":"${ProtocolTable.HOOKS_LIST}","params":{}}""")
        val list = await(link, "the list") { it["id"]?.asString == "l1" }["result"].asJsonObject
        assertEquals("true", list["hooks"].asJsonArray.single().asJsonObject["command"].asString)
        val path = project.resolve(".wave/settings.json").toString()
        page.receive("""{"kind":"request","id":"o1","method":"${ProtocolTable.OPEN_CONFIG_FILE}","params":{"path":${com.google.gson.Gson().toJson(path)}}}""")
        val opened = await(link, "the open answer") { it["id"]?.asString == "o1" }
        assertEquals(true, opened["result"].asJsonObject["opened"].asBoolean)
        assertEquals(listOf("showDocument $path"), ide.calls)
    }

    @Test
    fun `Edit's wave-openConfigFile with the hook's pointer makes the IDE open the file at the hook's own line`() {
        val project = project("{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [\n        {\"type\": \"command\", \"command\": \"true\"},\n        {\"type\": \"command\", \"command\": \"echo two\"}\n      ]}\n    ]\n  }\n}\n")
        val h = start(project)
        val (page, link) = page(h, View.SETTINGS)
        page.receive("""{"kind":"request","id":"l1","method":"${ProtocolTable.HOOKS_LIST}","params":{}}""")
        val hooks = await(link, "the list") { it["id"]?.asString == "l1" }["result"].asJsonObject["hooks"].asJsonArray
        val two = hooks.map { it.asJsonObject }.single { it["command"].asString == "echo two" }
        val path = project.resolve(".wave/settings.json").toString()
        val params = com.google.gson.JsonObject().apply {
            addProperty("path", path)
            addProperty("pointer", two["pointer"].asString)
        }
        page.receive("""{"kind":"request","id":"o1","method":"${ProtocolTable.OPEN_CONFIG_FILE}","params":$params}""")
        await(link, "the open answer") { it["id"]?.asString == "o1" }
        assertEquals(listOf("showDocument $path:6"), ide.calls) // "echo two" is on line 6
    }

    @Test
    fun `a permission question goes to the session's page and is withdrawn ($cancelRequest) when the turn is cancelled`() {
        val project = project("{}")
        val script = tmp.resolve("turns.json")
        Files.writeString(script, """{"turns": [{"text": "writing", "tool_calls": [{"name": "Write", "input": {"file_path": "PLAN.md", "content": "x"}}]}, {"text": "ok"}]}""")
        val h = start(project, env = mapOf("WAVE_PROVIDER" to "scripted", "WAVE_SCRIPT" to script.toString()))
        val (_, settingsLink) = page(h, View.SETTINGS)
        val (chat, link) = page(h, View.CHAT)
        chat.receive("""{"kind":"request","id":"c1","method":"${ProtocolTable.CHAT_OPEN}","params":{}}""")
        val session = await(link, "the session") { it["id"]?.asString == "c1" }["result"].asJsonObject["sessionId"].asString
        chat.receive("""{"kind":"request","id":"c2","method":"${ProtocolTable.CHAT_SEND}","params":{"sessionId":"$session","text":"plan"}}""")
        val question = await(link, "the permission question") { it["kind"].asString == "request" }
        assertEquals(ProtocolTable.CHAT_REQUEST_PERMISSION, question["method"].asString)
        assertEquals("Write", question["params"].asJsonObject["toolName"].asString)
        chat.receive("""{"kind":"request","id":"c3","method":"${ProtocolTable.CHAT_CANCEL}","params":{"sessionId":"$session"}}""")
        val withdrawn = await(link, "the withdrawal") { it["kind"].asString == "notification" && it["method"].asString == "\$/cancelRequest" }
        assertEquals(question["id"].asString, withdrawn["params"].asJsonObject["id"].asString)
        assertTrue(Files.notExists(project.resolve("PLAN.md")))
        assertTrue(settingsLink.envelopes().none { it["kind"].asString == "request" }, "the settings page was not asked")
    }

    @Test
    fun `a server that dies is restarted, its pages reload, a trust change is sent, Restart starts a fresh one`() {
        val h = start(project(), backoff = Backoff(delaysMs = List(5) { 50L }))
        val (_, link) = page(h, View.SETTINGS)
        val first = h.serverPid()!!
        ProcessHandle.of(first).get().destroyForcibly()
        waitUntil("a new server") { h.serverPid().let { it != null && it != first } }
        waitUntil("the page reloaded") { link.reloads == 1 }
        assertTrue(logs.any { it.startsWith("wavehost serve stopped (exit code") && "Restarting in 50 ms" in it }, "$logs")

        val second = h.serverPid()!!
        h.setTrusted(false).get()
        assertEquals(second, h.serverPid(), "the running server is told, not restarted")
        val (page, untrusted) = page(h, View.SETTINGS)
        page.receive("""{"kind":"request","id":"t1","method":"${ProtocolTable.HOOKS_LIST}","params":{}}""")
        assertEquals(false, await(untrusted, "the list") { it["id"]?.asString == "t1" }["result"].asJsonObject["trusted"].asBoolean)
        val third = h.serverPid()!!
        h.restart().get()
        assertNotEquals(third, h.serverPid())
        assertEquals(emptyList<String>(), ide.errors)
    }

    @Test
    fun `when serve gives up the page hears why (serverState), and the page's Restart starts a fresh server`() {
        // Restarts on their own are off (attempts 0): the page's Restart button is the way back.
        val h = start(project(), backoff = Backoff(delaysMs = emptyList()))
        val (page, link) = page(h, View.SETTINGS)
        fun states() = link.envelopes().filter { it["kind"].asString == "shell" && it["command"].asString == ShellCommands.SERVER_STATE }
            .map { it["args"].asJsonObject }
        val first = h.serverPid()!!
        ProcessHandle.of(first).get().destroyForcibly()
        waitUntil("serverState running false") { states().any { !it["running"].asBoolean } }
        val down = states().first { !it["running"].asBoolean }
        assertTrue(down["reason"].asString.startsWith("wavehost serve stopped"), down.toString())

        page.receive("""{"kind":"shell","command":"${ShellCommands.RESTART_SERVER}","args":{}}""")
        waitUntil("a fresh server") { h.serverPid().let { it != null && it != first } }
        waitUntil("the page reloaded") { link.reloads == 1 }
    }

    @Test
    fun `trust changes both ways reach the running server, and its pages are told the hooks changed`() {
        val h = start(project())
        val (page, link) = page(h, View.SETTINGS)
        fun trustedNow(id: String): Boolean {
            page.receive("""{"kind":"request","id":"$id","method":"${ProtocolTable.HOOKS_LIST}","params":{}}""")
            return await(link, "the list $id") { it["id"]?.asString == id }["result"].asJsonObject["trusted"].asBoolean
        }
        fun changedCount() = link.envelopes().count { it["kind"].asString == "notification" && it["method"].asString == ProtocolTable.HOOKS_CHANGED }
        assertEquals(true, trustedNow("a"))
        val pid = h.serverPid()

        val before = changedCount()
        h.setTrusted(false).get() // TrustedProjectsListener.onProjectUntrusted
        waitUntil("hooks/changed after untrust") { changedCount() > before }
        assertEquals(false, trustedNow("b"))
        val between = changedCount()
        h.setTrusted(true).get() // onProjectTrusted
        waitUntil("hooks/changed after trust") { changedCount() > between }
        assertEquals(true, trustedNow("c"))
        assertEquals(pid, h.serverPid(), "told, never restarted")
    }

    @Test
    fun `a Python without wavehost - the restarts give up and the user is told in plain words`() {
        assertEquals(
            "wavehost is not installed for $brokenPython (from the wavehost setting): " +
                "run `$brokenPython -m pip install wavehost`, or pick another interpreter in Settings › Tools › Wavehost. " +
                "It stopped 3 times in a row; run \"Wave: Restart Host\" to try again.",
            finalErrorWithoutWavehost(locale = "en"),
        )
    }

    @Test
    fun `in a Chinese IDE the plugin's own notification is in Chinese, the server's reason as it was said`() {
        assertEquals(
            "wavehost is not installed for $brokenPython (from the wavehost setting): " +
                "run `$brokenPython -m pip install wavehost`, or pick another interpreter in Settings › Tools › Wavehost. " +
                "已连续停止 3 次；运行“Wave: Restart Host”再试一次。",
            finalErrorWithoutWavehost(locale = "zh-CN"),
        )
    }

    private val brokenPython by lazy { tmp.resolve("py/python3") }

    /** The error the user is shown when the configured Python has no wavehost, with the IDE in [locale]. */
    private fun finalErrorWithoutWavehost(locale: String): String {
        val python = brokenPython
        Files.createDirectories(python.parent)
        Files.writeString(python, "#!/bin/sh\necho \"$python: No module named wavehost\" >&2\nexit 1\n")
        python.toFile().setExecutable(true)
        val config = HostConfig(
            launch = LaunchConfig(project(), interpreterSetting = python.toString()),
            locale = locale, trusted = true, assets = WebviewAssets.directory(tmp.resolve("dist")),
            backoff = Backoff(delaysMs = listOf(10L, 10L)),
            initializeTimeout = Duration.ofSeconds(5),
        )
        host = WaveHost(config, ide) { logs.add(it) }.also { it.start().get() }
        waitUntil("the final error") { ide.errors.isNotEmpty() }
        return ide.errors.single()
    }
}

class RecordingIde : IdeHost {
    val calls = CopyOnWriteArrayList<String>()
    val errors = CopyOnWriteArrayList<String>()

    override fun showDocument(path: Path, takeFocus: Boolean, line: Int?): CompletableFuture<Boolean> {
        calls.add(if (line == null) "showDocument $path" else "showDocument $path:$line")
        return CompletableFuture.completedFuture(true)
    }

    override fun showError(message: String) {
        errors.add(message)
    }

    override fun openChat() {
        calls.add("openChat")
    }

    override fun closeSettings(page: PageHandle) {
        calls.add("closeSettings")
    }

    override fun openSettings() {
        calls.add("openSettings")
    }

    override fun manageTrust() {
        calls.add("manageTrust")
    }
}

fun waitUntil(what: String, timeoutSeconds: Long = 30, condition: () -> Boolean) {
    val deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000
    while (!condition()) {
        if (System.nanoTime() > deadline) throw AssertionError("timed out after $timeoutSeconds s waiting for $what")
        Thread.sleep(25)
    }
}
