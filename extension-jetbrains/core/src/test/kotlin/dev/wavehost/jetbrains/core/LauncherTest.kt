package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.launcher.Backoff
import dev.wavehost.jetbrains.core.launcher.Interpreter
import dev.wavehost.jetbrains.core.launcher.InterpreterSource
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.launcher.LaunchException
import dev.wavehost.jetbrains.core.launcher.ServerLauncher
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
    fun `the command runs python -m wavehost serve in the project with the bundled libraries first on PYTHONPATH`() {
        val python = Interpreter(Path.of("/usr/bin/python3"), InterpreterSource.PATH)
        val libs = tmp.resolve("libs")
        val builder = ServerLauncher.processBuilder(LaunchConfig(project, bundledLibs = libs, env = mapOf("PYTHONPATH" to "/x", "HOME" to "/h")), python)
        assertEquals(listOf("/usr/bin/python3", "-m", "wavehost", "serve"), builder.command())
        assertEquals(project.toFile(), builder.directory())
        assertEquals("$libs${File.pathSeparator}/x", builder.environment()["PYTHONPATH"])
        assertEquals("/h", builder.environment()["HOME"])
        assertEquals(listOf("a", "b"), ServerLauncher.processBuilder(LaunchConfig(project, command = listOf("a", "b")), null).command())
    }

    @Test
    fun `why the server stopped, in plain words`() {
        val python = Interpreter(Path.of("/usr/bin/python3"), InterpreterSource.PROJECT_SDK)
        assertEquals(
            "wavehost is not installed for /usr/bin/python3 (from the project's Python SDK): run `/usr/bin/python3 -m pip install wavehost`, " +
                "or pick another interpreter in Settings › Tools › Wavehost.",
            ServerLauncher.explainExit(1, "Traceback…\n/usr/bin/python3: No module named wavehost\n", python) { "3.12" },
        )
        assertEquals(
            "/usr/bin/python3 is Python 3.9; wavehost needs Python 3.11 or newer. Pick another interpreter in Settings › Tools › Wavehost.",
            ServerLauncher.explainExit(1, "SyntaxError: invalid syntax", python) { "3.9" },
        )
        assertEquals(
            "wavehost serve stopped (exit code 3): RuntimeError: boom",
            ServerLauncher.explainExit(3, "Traceback (most recent call last):\nRuntimeError: boom\n\n", python) { "3.12" },
        )
        assertEquals("wavehost serve stopped (exit code 137).", ServerLauncher.explainExit(137, "", null))
    }

    @Test
    fun `the version of a real interpreter is asked from it`() {
        val old = executable(tmp.resolve("old/python3"), "#!/bin/sh\necho 3.9\n")
        assertEquals("3.9", ServerLauncher.pythonVersion(old))
        assertNull(ServerLauncher.pythonVersion(tmp.resolve("none/python3")))
        val real = ServerLauncher.pythonVersion(PYTHON)!!
        assertEquals(3, real.split('.')[0].toInt())
    }

    @Test
    fun `restarts back off 1, 2, 4, 8, 16 s and then give up, a long healthy run starts the count again`() {
        val backoff = Backoff()
        assertEquals(listOf(1L, 2L, 4L, 8L, 16L), (1..5).map { backoff.delay(it)!!.seconds })
        assertNull(backoff.delay(6))
        assertEquals(Duration.ofSeconds(30), Backoff(attempts = 10).delay(9))
        assertEquals(3, backoff.failuresAfter(2, Duration.ofSeconds(5)))
        assertEquals(1, backoff.failuresAfter(4, Duration.ofMinutes(5)))
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
