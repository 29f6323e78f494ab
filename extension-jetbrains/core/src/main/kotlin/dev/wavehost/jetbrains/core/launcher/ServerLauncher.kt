package dev.wavehost.jetbrains.core.launcher

import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** Where the Python interpreter came from, in the order they are tried. */
enum class InterpreterSource(val words: String) {
    SETTING("the wavehost setting"),
    PROJECT_SDK("the project's Python SDK"),
    PATH("PATH"),
}

data class Interpreter(val path: Path, val source: InterpreterSource)

/** What starting `wavehost serve` needs; the glue fills it from settings and the project. */
data class LaunchConfig(
    val projectDir: Path,
    /** Settings › Tools › Wavehost › Python interpreter (blank: not set). */
    val interpreterSetting: String? = null,
    /** The project's Python SDK home, passed in by the glue (null: none). */
    val projectSdk: String? = null,
    /** The libraries the plugin bundles (the shared bundling script's output): put first on PYTHONPATH. */
    val bundledLibs: Path? = null,
    /** A whole command instead of `<python> -m wavehost serve` (development, tests). */
    val command: List<String>? = null,
    val env: Map<String, String> = emptyMap(),
)

/** A launch problem, in words a user can act on. */
class LaunchException(message: String) : Exception(message)

const val SETTINGS_PATH = "Settings › Tools › Wavehost"

object ServerLauncher {
    private val windows = System.getProperty("os.name").lowercase().startsWith("windows")
    private val pathNames = if (windows) listOf("python.exe", "python3.exe") else listOf("python3", "python")

    /**
     * The interpreter: the setting, else the project's SDK, else `python3` on PATH. A setting that
     * points nowhere is an error (it is never silently replaced by another Python).
     */
    fun discover(
        config: LaunchConfig,
        pathVariable: String? = System.getenv("PATH"),
        executable: (Path) -> Boolean = { Files.isRegularFile(it) && Files.isExecutable(it) },
    ): Interpreter {
        val setting = config.interpreterSetting?.trim().orEmpty()
        if (setting.isNotEmpty()) {
            val path = Path.of(setting)
            if (!executable(path)) {
                throw LaunchException(
                    "The Python interpreter set in $SETTINGS_PATH ($setting) does not exist or cannot be run. " +
                        "Pick another one there, or clear the setting to use the project's Python SDK.",
                )
            }
            return Interpreter(path, InterpreterSource.SETTING)
        }
        config.projectSdk?.trim()?.takeIf { it.isNotEmpty() }?.let { sdk ->
            sdkExecutable(Path.of(sdk), executable)?.let { return Interpreter(it, InterpreterSource.PROJECT_SDK) }
        }
        for (dir in pathVariable.orEmpty().split(File.pathSeparatorChar).filter { it.isNotBlank() }) {
            for (name in pathNames) {
                val candidate = Path.of(dir, name)
                if (executable(candidate)) return Interpreter(candidate, InterpreterSource.PATH)
            }
        }
        throw LaunchException(
            "wavehost needs Python 3.11 or newer, and none was found: set one in $SETTINGS_PATH, " +
                "give the project a Python SDK, or put python3 on PATH.",
        )
    }

    /** An SDK home is the interpreter itself or a virtualenv / installation directory. */
    private fun sdkExecutable(sdk: Path, executable: (Path) -> Boolean): Path? {
        if (executable(sdk)) return sdk
        val inside = if (windows) listOf("python.exe", "Scripts/python.exe") else listOf("bin/python3", "bin/python")
        return inside.map { sdk.resolve(it) }.firstOrNull(executable)
    }

    /** The command line and environment of `wavehost serve`. */
    fun processBuilder(config: LaunchConfig, interpreter: Interpreter?): ProcessBuilder {
        val command = config.command ?: listOf(interpreter!!.path.toString(), "-m", "wavehost", "serve")
        val builder = ProcessBuilder(command).directory(config.projectDir.toFile())
        val env = builder.environment()
        env.putAll(config.env)
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        config.bundledLibs?.let { libs ->
            env["PYTHONPATH"] = listOfNotNull(libs.toString(), env["PYTHONPATH"]?.takeIf { it.isNotEmpty() })
                .joinToString(File.pathSeparator)
        }
        return builder
    }

    /**
     * Why the server stopped, in plain words: from what it wrote to stderr and, for an interpreter
     * that may be too old, from asking it its version.
     */
    fun explainExit(
        exitCode: Int,
        stderrTail: String,
        interpreter: Interpreter?,
        versionOf: (Path) -> String? = ::pythonVersion,
    ): String {
        val python = interpreter?.path?.toString() ?: "the configured command"
        if (Regex("No module named '?wavehost").containsMatchIn(stderrTail)) {
            return "wavehost is not installed for $python (from ${interpreter?.source?.words ?: "the command"}): " +
                "run `$python -m pip install wavehost`, or pick another interpreter in $SETTINGS_PATH."
        }
        if (interpreter != null) {
            val version = versionOf(interpreter.path)
            val parts = version?.split('.')?.mapNotNull { it.toIntOrNull() }
            if (parts != null && parts.size >= 2 && (parts[0] < 3 || (parts[0] == 3 && parts[1] < 11))) {
                return "$python is Python $version; wavehost needs Python 3.11 or newer. " +
                    "Pick another interpreter in $SETTINGS_PATH."
            }
        }
        val last = stderrTail.lines().map { it.trim() }.lastOrNull { it.isNotEmpty() }
        return "wavehost serve stopped (exit code $exitCode)" + (last?.let { ": $it" } ?: ".")
    }

    fun cannotStart(command: List<String>, error: Exception): String =
        "wavehost serve could not be started (${command.first()}): ${error.message ?: error.javaClass.simpleName}. " +
            "Check the interpreter in $SETTINGS_PATH."

    fun pythonVersion(python: Path): String? = try {
        val process = ProcessBuilder(python.toString(), "-c", "import sys; print('%d.%d' % sys.version_info[:2])")
            .redirectErrorStream(true).start()
        val finished = process.waitFor(10, TimeUnit.SECONDS)
        if (!finished) {
            process.destroyForcibly()
            null
        } else {
            process.inputStream.bufferedReader().readText().trim().takeIf { process.exitValue() == 0 }
        }
    } catch (e: java.io.IOException) {
        null
    }
}

/**
 * Restart with back-off: after an unexpected exit wait 1 s, 2 s, 4 s, … (at most [max]); after
 * [attempts] failures in a row give up. A server that ran for [stable] counts as healthy again.
 */
data class Backoff(
    val first: Duration = Duration.ofSeconds(1),
    val max: Duration = Duration.ofSeconds(30),
    val attempts: Int = 5,
    val stable: Duration = Duration.ofSeconds(60),
) {
    /** The wait before restart number [failuresInRow] (1-based), or null to give up. */
    fun delay(failuresInRow: Int): Duration? {
        if (failuresInRow > attempts) return null
        val millis = first.toMillis() shl (failuresInRow - 1).coerceAtMost(20)
        return Duration.ofMillis(millis.coerceAtMost(max.toMillis()))
    }

    /** The failure count after a run of [ranFor] that ended unexpectedly. */
    fun failuresAfter(previous: Int, ranFor: Duration): Int = if (ranFor >= stable) 1 else previous + 1
}
