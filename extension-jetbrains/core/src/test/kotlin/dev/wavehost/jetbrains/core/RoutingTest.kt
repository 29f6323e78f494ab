package dev.wavehost.jetbrains.core

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.Routing
import dev.wavehost.jetbrains.core.protocol.ShellCommands
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.Relay
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory
import java.nio.file.Files
import java.nio.file.Path
import java.util.UUID

/**
 * The routing scenarios (tests/routing/scenarios.json, the file every shell's tests run) against
 * the JetBrains relay: the core's WaveHost with a real `wavehost serve` behind it, each page a
 * [FakePage] that records the scripts the relay runs in it (what JCEF's executeJavaScript runs).
 */
class RoutingTest {
    private val file = JsonParser.parseString(Files.readString(REPO.resolve("tests/routing/scenarios.json"))).asJsonObject

    @TestFactory
    fun `the routing scenarios against the JetBrains relay and a real wavehost serve`(): List<DynamicTest> =
        file["scenarios"].asJsonArray.map { it.asJsonObject }.map { scenario ->
            DynamicTest.dynamicTest(scenario["name"].asString) {
                val root = Files.createTempDirectory("wavehost-routing-")
                val run = Run(root)
                try {
                    for ((number, step) in scenario["steps"].asJsonArray.map { it.asJsonObject }.withIndex()) {
                        try {
                            run.step(step)
                        } catch (e: Throwable) {
                            throw AssertionError("step ${number + 1} $step: ${e.message}", e)
                        }
                    }
                } finally {
                    run.host.dispose()
                    root.toFile().deleteRecursively()
                }
            }
        }

    private inner class Page(val handle: PageHandle, val link: FakePage) {
        val taken = HashSet<Int>()
        var mark = 0
        var question: JsonObject? = null
        val snapshots = HashMap<String, JsonObject>()
        private var ids = 0

        /** The first envelope no earlier wait took that [wanted] accepts (waiting for it). */
        fun wait(what: String, wanted: (JsonObject) -> Boolean): JsonObject {
            var found: JsonObject? = null
            try {
                waitUntil(what) {
                    val inbox = link.envelopes()
                    val index = inbox.indices.firstOrNull { it !in taken && wanted(inbox[it]) }
                    if (index != null) {
                        taken.add(index)
                        found = inbox[index]
                    }
                    index != null
                }
            } catch (e: AssertionError) {
                throw AssertionError("${e.message}; the page got ${link.envelopes()}")
            }
            return found!!
        }

        fun request(method: String, params: JsonObject): JsonObject {
            val id = "r${++ids}"
            val request = JsonObject().apply {
                addProperty("kind", "request")
                addProperty("id", id)
                addProperty("method", method)
                add("params", params)
            }
            handle.receive(request.toString())
            val response = wait("answer to $method") { it["kind"].asString == "response" && it["id"].asString == id }
            assertFalse(response.has("error"), response.toString())
            return response["result"].asJsonObject
        }
    }

    private inner class Run(val root: Path) {
        val project: Path = Files.createDirectories(root.resolve("my-app"))
        val host: WaveHost
        private val sessions = HashMap<String, String>()
        private val pages = HashMap<String, Page>()

        init {
            val home = Files.createDirectories(root.resolve("home"))
            Files.createDirectories(root.resolve("dist/assets"))
            Files.writeString(root.resolve("dist/assets/webview.js"), "")
            val script = root.resolve("script.json")
            Files.writeString(script, file["script"].toString().replace("{project}", project.toString()))
            val env = mapOf("HOME" to home.toString(), "WAVE_PROVIDER" to "scripted", "WAVE_SCRIPT" to script.toString())
            val config = HostConfig(
                launch = LaunchConfig(project, interpreterSetting = PYTHON.toString(), env = env),
                locale = "en",
                trusted = true,
                assets = WebviewAssets.directory(root.resolve("dist")),
            )
            host = WaveHost(config, RecordingIde()).also { it.start().get() }
        }

        fun session(name: String): String = sessions.getOrPut(name) { UUID.randomUUID().toString() }

        fun page(name: String): Page = pages.getOrPut(name) {
            val link = FakePage()
            val handle = host.openPage(View.CHAT, link, Bridge.cefQueryPost()).handle
            handle.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
            Page(handle, link)
        }

        fun about(envelope: JsonObject, name: String): Boolean =
            (envelope["params"] as? JsonObject)?.get("sessionId")?.takeIf { it.isJsonPrimitive }?.asString == session(name)

        private fun params(vararg pairs: Pair<String, Any>) = JsonObject().apply {
            for ((key, value) in pairs) {
                when (value) {
                    is String -> addProperty(key, value)
                    is Boolean -> addProperty(key, value)
                    else -> error("not a JSON primitive: $value")
                }
            }
        }

        fun step(step: JsonObject) {
            fun arg(verb: String) = step[verb].asString
            if (step.has("file")) {
                val target = project.resolve(arg("file"))
                if (step.has("absent")) assertFalse(Files.exists(target)) else assertEquals(arg("content"), Files.readString(target))
                return
            }
            val name = arg("page")
            val page = page(name)
            when {
                step.has("open") -> {
                    val open = params("sessionId" to session(arg("open")), "create" to true)
                    if (step.has("pageId")) open.addProperty(Routing.PAGE_ID, arg("pageId"))
                    val snapshot = page.request(ProtocolTable.CHAT_OPEN, open)
                    assertEquals(session(arg("open")), snapshot["sessionId"].asString)
                    page.snapshots[arg("open")] = snapshot
                }
                step.has("send") -> page.request(ProtocolTable.CHAT_SEND, params("sessionId" to session(arg("send")), "text" to "go"))
                step.has("cancel") -> page.request(ProtocolTable.CHAT_CANCEL, params("sessionId" to session(arg("cancel"))))
                step.has("close") -> page.request(ProtocolTable.CHAT_CLOSE, params("sessionId" to session(arg("close"))))
                step.has("asked") -> {
                    val asked = page.wait("permission question") {
                        it["kind"].asString == "request" && it["method"].asString == ProtocolTable.CHAT_REQUEST_PERMISSION && about(it, arg("asked"))
                    }
                    assertFalse(asked["params"].asJsonObject.has(Routing.PAGE_IDS))
                    page.question = asked
                }
                step.has("allow") -> {
                    val answer = JsonObject().apply {
                        addProperty("kind", "response")
                        add("id", page.question!!["id"])
                        add("result", params("allow" to true))
                    }
                    page.handle.receive(answer.toString())
                }
                step.has("withdrawn") -> {
                    val id = page.question!!["id"].asString
                    page.wait("withdrawal") {
                        it["kind"].asString == "notification" && it["method"].asString == Relay.CANCEL_METHOD &&
                            it["params"].asJsonObject["id"].asString == id
                    }
                }
                step.has("idle") -> page.wait("idle update") {
                    it["kind"].asString == "notification" && it["method"].asString == ProtocolTable.CHAT_UPDATED &&
                        about(it, arg("idle")) && it["params"].asJsonObject["status"]?.takeIf { s -> s.isJsonPrimitive }?.asString == "idle"
                }
                step.has("pending") -> assertEquals(1, page.snapshots.getValue(arg("pending"))["pendingPermissions"].asJsonArray.size())
                step.has("answer") -> {
                    val question = page.snapshots.getValue(arg("answer"))["pendingPermissions"].asJsonArray.single().asJsonObject
                    val answer = params("sessionId" to session(arg("answer")), "toolUseId" to question["toolUseId"].asString, "allow" to true)
                    assertTrue(page.request(ProtocolTable.CHAT_ANSWER_PERMISSION, answer)["answered"].asBoolean)
                }
                step.has("quiet") -> {
                    page.request(ProtocolTable.HOOKS_LIST, JsonObject())
                    val heard = page.link.envelopes().drop(page.mark).filter { about(it, arg("quiet")) }
                    assertEquals(emptyList<JsonObject>(), heard, "the page heard of ${arg("quiet")}")
                }
                step.has("gone") -> {
                    page.handle.dispose()
                    pages.remove(name)
                    return
                }
                else -> error("unknown step $step")
            }
            page.mark = page.link.envelopes().size
        }
    }
}
