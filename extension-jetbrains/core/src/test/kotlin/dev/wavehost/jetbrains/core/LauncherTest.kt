package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.launcher.Backoff
import dev.wavehost.jetbrains.core.launcher.Interpreter
import dev.wavehost.jetbrains.core.launcher.InterpreterSource
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.launcher.LaunchException
import dev.wavehost.jetbrains.core.launcher.PluginLayout
import dev.wavehost.jetbrains.core.launcher.ServerLauncher
import dev.wavehost.jetbrains.core.protocol.LaunchPolicy
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** Discovery over real directories with real executables (small shell scripts standing in for Pythons). */
class LauncherTest {
    @TempDir
    lateinit var tmp: Path

    private fun executable(path: Path, body: String = "#!/bin/sh\nexit 0\n"): Path {
        Files.createDirectories(path.parent)
        Files.writeString(path, body)
        path.toFile().setExecutable(true)
        return path
    }

    private val project get() = Files.createDirectories(tmp.resolve("project"))

    @Test
    fun `the setting wins, then the project's SDK, then python3 on PATH`() {
        val setting = executable(tmp.resolve("custom/python"))
        val venv = tmp.resolve("venv")
        executable(venv.resolve("bin/python3"))
        val onPath = executable(tmp.resolve("bin/python3"))
        val path = tmp.resolve("bin").toString()

        assertEquals(Interpreter(setting, InterpreterSource.SETTING),
            ServerLauncher.discover(LaunchConfig(project, interpreterSetting = setting.toString(), projectSdk = venv.toString()), path))
        assertEquals(Interpreter(venv.resolve("bin/python3"), InterpreterSource.PROJECT_SDK),
            ServerLauncher.discover(LaunchConfig(project, interpreterSetting = "  ", projectSdk = venv.toString()), path))
        assertEquals(Interpreter(onPath, InterpreterSource.PATH),
            ServerLauncher.discover(LaunchConfig(project, projectSdk = tmp.resolve("no-such-sdk").toString()), "/nonexistent${File.pathSeparator}$path"))
    }

    @Test
    fun `a setting that points nowhere is an error in plain words, never replaced by another Python`() {
        executable(tmp.resolve("bin/python3"))
        val error = assertThrows<LaunchException> {
            ServerLauncher.discover(LaunchConfig(project, interpreterSetting = "/opt/py/missing"), tmp.resolve("bin").toString())
        }
        assertEquals(
            "The Python interpreter set in Settings › Tools › Wavehost (/opt/py/missing) does not exist or cannot be run. " +
                "Pick another one there, or clear the setting to use the project's Python SDK.",
            error.message,
        )
    }

    @Test
    fun `no Python anywhere says what to do`() {
        val error = assertThrows<LaunchException> { ServerLauncher.discover(LaunchConfig(project), tmp.resolve("empty").toString()) }
        assertEquals(
            "wavehost needs Python 3.11 or newer, and none was found: set one in Settings › Tools › Wavehost, " +
                "give the project a Python SDK, or put python3 on PATH.",
            error.message,
        )
    }

    @Test
    fun `the command runs the bundle's launcher in the project, and never sets PYTHONPATH`() {
        val python = Interpreter(Path.of("/usr/bin/python3"), InterpreterSource.PATH)
        val bundle = tmp.resolve("plugin/lib/server")
        val env = mapOf("HOME" to "/h")
        val builder = ServerLauncher.processBuilder(LaunchConfig(project, bundle = bundle, env = env), python)
        assertEquals(listOf("/usr/bin/python3", "$bundle/launch.py", "serve", "--stdio"), builder.command())
        assertEquals(project.toFile(), builder.directory())
        assertEquals(System.getenv("PYTHONPATH"), builder.environment()["PYTHONPATH"]) // as the IDE had it
        assertEquals("/h", builder.environment()["HOME"])
        // Without a bundle (development): an interpreter that has wavehost installed.
        assertEquals(listOf("/usr/bin/python3", "-m", "wavehost", "serve", "--stdio"), ServerLauncher.processBuilder(LaunchConfig(project), python).command())
        assertEquals(listOf("a", "b"), ServerLauncher.processBuilder(LaunchConfig(project, command = listOf("a", "b")), null).command())
    }

    @Test
    fun `the plugin's bundle is the lib-server folder of its zip when it holds the launcher`() {
        val plugin = tmp.resolve("wavehost")
        assertNull(PluginLayout.bundleIn(plugin))
        executable(plugin.resolve("lib/server/launch.py"), "")
        assertEquals(plugin.resolve("lib/server"), PluginLayout.bundleIn(plugin))
    }

    @Test
    fun `why the server stopped, in plain words`() {
        val python = Interpreter(Path.of("/usr/bin/python3"), InterpreterSource.PROJECT_SDK)
        assertEquals(
            "wavehost is not installed for /usr/bin/python3 (from the project's Python SDK): run `/usr/bin/python3 -m pip install wavehost`, " +
                "or pick another interpreter in Settings › Tools › Wavehost.",
            ServerLauncher.explainExit(1, "Traceback…\n/usr/bin/python3: No module named wavehost\n", python, bundled = false),
        )
        // The bundle's launcher says itself why an interpreter cannot run it: its last line.
        val sentence = "wavehost needs CPython 3.11 to 3.14; /usr/bin/python3 is CPython 3.9, too old: choose a CPython 3.11 to 3.14 …"
        assertEquals(sentence, ServerLauncher.explainExit(LaunchPolicy.UNUSABLE_EXIT, "$sentence\n", python, bundled = true))
        assertEquals(
            "wavehost serve stopped (exit code 3): RuntimeError: boom",
            ServerLauncher.explainExit(3, "Traceback (most recent call last):\nRuntimeError: boom\n\n", python, bundled = false),
        )
        assertEquals("wavehost serve stopped (exit code 137).", ServerLauncher.explainExit(137, "", null, bundled = true))
    }

    @Test
    fun `restarts back off 1, 2, 4, 8, 16 s and then give up, a long healthy run starts the count again`() {
        val backoff = Backoff()
        assertEquals(listOf(1L, 2L, 4L, 8L, 16L), (1..5).map { backoff.delay(it)!!.seconds })
        assertNull(backoff.delay(6))
        assertEquals(Duration.ofMillis(7), Backoff(delaysMs = listOf(5, 7)).delay(2))
        assertEquals(3, backoff.failuresAfter(2, Duration.ofSeconds(5)))
        assertEquals(1, backoff.failuresAfter(4, Duration.ofMinutes(1)))
    }
}

class SettingsSchemaTest {
    @TempDir
    lateinit var tmp: Path

    @Test
    fun `the schema applies to the wave settings files only`() {
        assertEquals(true, dev.wavehost.jetbrains.core.launcher.SettingsSchema.applies("/p/.wave/settings.json"))
        assertEquals(true, dev.wavehost.jetbrains.core.launcher.SettingsSchema.applies("C:\\p\\.wave\\settings.local.json"))
        assertEquals(false, dev.wavehost.jetbrains.core.launcher.SettingsSchema.applies("/p/.wave/hooks/settings.json.bak"))
        assertEquals(false, dev.wavehost.jetbrains.core.launcher.SettingsSchema.applies("/p/settings.json"))
    }

    @Test
    fun `the schema comes from the interpreter that runs the server, or not at all`() {
        val python = tmp.resolve("python3")
        Files.writeString(python, "#!/bin/sh\n[ \"$1 $2 $3\" = \"-m wavehost settings-schema\" ] && echo '{\"type\": \"object\"}' && exit 0\nexit 2\n")
        python.toFile().setExecutable(true)
        val config = LaunchConfig(tmp, interpreterSetting = python.toString())
        assertEquals("{\"type\": \"object\"}\n", dev.wavehost.jetbrains.core.launcher.SettingsSchema.fetch(config))
        Files.writeString(python, "#!/bin/sh\necho 'usage: wavehost' >&2\nexit 2\n")
        assertNull(dev.wavehost.jetbrains.core.launcher.SettingsSchema.fetch(config))
    }
}
