package dev.wavehost.jetbrains.core

import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.launcher.PluginLayout
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import dev.wavehost.jetbrains.core.protocol.ShellCommands
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/**
 * The plugin's launch, exactly: the zip's layout as scripts/package-jetbrains makes it (the
 * server bundle in [PluginLayout.SERVER]), the interpreter found as the plugin finds it (PATH
 * here), the server started by [WaveHost] through the bundle's launcher. A real SessionStart hook
 * writes down the environment and the `sys.path` a Python it starts gets.
 */
class BundleLaunchTest {
    @TempDir
    lateinit var tmp: Path
    private var host: WaveHost? = null

    @AfterEach
    fun stop() {
        host?.dispose()
    }

    /** The layout scripts/test-jetbrains made before this Maven run (`-Dwavehost.layout`). */
    private fun layout(): Path {
        val given = System.getProperty("wavehost.layout")?.takeIf { it.isNotBlank() }
            ?: REPO.resolve("extension-jetbrains/plugin/build/layout").toString()
        return Path.of(given)
    }

    @Test
    fun `the plugin starts exactly the bundle of its zip, and a hook's Python inherits none of it`() {
        val bundle = PluginLayout.bundleIn(layout())
        assertNotNull(bundle, "no server bundle in ${layout()}/${PluginLayout.SERVER}: run bash scripts/package-jetbrains")
        val project = Files.createDirectories(tmp.resolve("my-app/.wave")).parent
        val seen = Files.createDirectories(tmp.resolve("seen"))
        val hook = "env > '$seen/env.txt'; python3 -c 'import json, sys; print(json.dumps(sys.path))' > '$seen/path.json'"
        Files.writeString(
            project.resolve(".wave/settings.json"),
            """{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": ${com.google.gson.Gson().toJson(hook)}}]}]}}""",
        )
        val script = tmp.resolve("turns.json")
        Files.writeString(script, """{"turns": [{"text": "hello"}]}""")
        val home = Files.createDirectories(tmp.resolve("home"))
        Files.createDirectories(tmp.resolve("dist/assets"))
        Files.writeString(tmp.resolve("dist/assets/webview.js"), "")
        val env = mapOf("HOME" to home.toString(), "WAVE_PROVIDER" to "scripted", "WAVE_SCRIPT" to script.toString())
        val config = HostConfig(
            launch = LaunchConfig(project, bundle = bundle, env = env), // the interpreter: PATH, as in an IDE
            locale = "en",
            trusted = true,
            assets = WebviewAssets.directory(tmp.resolve("dist")),
        )
        val logs = mutableListOf<String>()
        val h = WaveHost(config, RecordingIde()) { synchronized(logs) { logs.add(it) } }.also { host = it }
        h.start().get()
        val pid = h.serverPid()
        assertNotNull(pid, "the server did not start: $logs")
        val command = ProcessHandle.of(pid!!).get().info().arguments().orElse(emptyArray()).toList()
        assertEquals(listOf(bundle!!.resolve("launch.py").toString(), "serve", "--stdio"), command)

        val link = FakePage()
        val page = h.openPage(View.CHAT, link, Bridge.cefQueryPost()).handle
        page.receive("""{"kind":"shell","command":"${ShellCommands.READY}","args":{}}""")
        page.receive("""{"kind":"request","id":"c1","method":"${ProtocolTable.CHAT_OPEN}","params":{}}""")
        waitUntil("the SessionStart hook's report", 60) { Files.exists(seen.resolve("path.json")) && Files.size(seen.resolve("path.json")) > 0 }

        val environment = Files.readAllLines(seen.resolve("env.txt"))
        assertTrue(environment.none { it.startsWith("PYTHONPATH=") && bundle.toString() in it }, "PYTHONPATH into the bundle: $environment")
        assertTrue(environment.any { it.startsWith("CLAUDE_PROJECT_DIR=") }, "a hook's environment: $environment")
        val path = JsonParser.parseString(Files.readString(seen.resolve("path.json"))).asJsonArray.map { it.asString }
        assertFalse(path.any { bundle.toString() in it }, "a hook's python3 sees the bundle: $path")
    }
}
