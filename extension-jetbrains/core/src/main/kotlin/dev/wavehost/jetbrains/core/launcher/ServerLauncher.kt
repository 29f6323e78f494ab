package dev.wavehost.jetbrains.core.launcher

import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import dev.wavehost.jetbrains.core.protocol.LaunchPolicy
import java.time.Duration

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
    /**
     * The server bundle the plugin ships (the zip's [PluginLayout.SERVER], made by
     * scripts/package-jetbrains): started as `<python> BUNDLE/launch.py serve --stdio`, whose
     * launcher checks the interpreter and puts the bundle on `sys.path` in the server process
     * only (hooks and the Bash tool never inherit it). Null: `<python> -m wavehost serve`, an
     * interpreter with wavehost installed (development).
     */
    val bundle: Path? = null,
    /** A whole command instead of the above (tests). */
    val command: List<String>? = null,
    val env: Map<String, String> = emptyMap(),
)

/** Where the plugin's zip keeps what the shared build steps made (scripts/package-jetbrains). */
object PluginLayout {
    /** The server bundle, under the plugin's folder. */
    const val SERVER = "lib/server"

    /** The plugin's bundle, if the plugin at [pluginDir] ships one. */
    fun bundleIn(pluginDir: Path): Path? =
        pluginDir.resolve(SERVER).takeIf { Files.isRegularFile(it.resolve(LaunchPolicy.LAUNCHER)) }
}

/** A launch problem, in words a user can act on. */
class LaunchException(message: String) : Exception(message)

const val SETTINGS_PATH = "Settings › Tools › Wavehost"

object ServerLauncher {
    private val SERVE = listOf("serve", "--stdio")
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

    /** How to run the `wavehost` command line: the bundle's launcher, else `-m wavehost`. */
    fun wavehost(config: LaunchConfig, interpreter: Interpreter): List<String> {
        val python = interpreter.path.toString()
        val bundle = config.bundle ?: return listOf(python, "-m", "wavehost")
        return listOf(python, bundle.resolve(LaunchPolicy.LAUNCHER).toString())
    }

    /**
     * The command line and environment of `wavehost serve` (or of another wavehost command, [args]):
     * through the bundle's launcher, never with a PYTHONPATH of ours.
     */
    fun processBuilder(config: LaunchConfig, interpreter: Interpreter?, args: List<String> = SERVE): ProcessBuilder {
        val command = config.command ?: (wavehost(config, interpreter!!) + args)
        val builder = ProcessBuilder(command).directory(config.projectDir.toFile())
        val env = builder.environment()
        env.putAll(config.env)
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        return builder
    }

    /**
     * Why the server stopped, in plain words: the bundle's launcher says itself, in its last
     * line, why an interpreter cannot run the bundle (too old, not CPython, another machine).
     */
    fun explainExit(exitCode: Int, stderrTail: String, interpreter: Interpreter?, bundled: Boolean): String {
        val python = interpreter?.path?.toString() ?: "the configured command"
        val last = stderrTail.lines().map { it.trim() }.lastOrNull { it.isNotEmpty() }
        if (bundled && exitCode == LaunchPolicy.UNUSABLE_EXIT && last != null) return last
        if (Regex("No module named '?wavehost").containsMatchIn(stderrTail)) {
            return "wavehost is not installed for $python (from ${interpreter?.source?.words ?: "the command"}): " +
                "run `$python -m pip install wavehost`, or pick another interpreter in $SETTINGS_PATH."
        }
        return "wavehost serve stopped (exit code $exitCode)" + (last?.let { ": $it" } ?: ".")
    }

    fun cannotStart(command: List<String>, error: Exception): String =
        "wavehost serve could not be started (${command.first()}): ${error.message ?: error.javaClass.simpleName}. " +
            "Check the interpreter in $SETTINGS_PATH."

}

/**
 * Restart with back-off, by the one policy both IDE shells follow ([LaunchPolicy], generated
 * from `wavehost protocol-schema`): after the n-th unexpected exit in a row wait [delaysMs]`[n-1]`,
 * past its end give up; a server that ran for [stable] counts as healthy again.
 */
data class Backoff(
    val delaysMs: List<Long> = LaunchPolicy.RESTART_DELAYS_MS,
    val stable: Duration = Duration.ofMillis(LaunchPolicy.STABLE_MS),
) {
    /** The wait before restart number [failuresInRow] (1-based), or null to give up. */
    fun delay(failuresInRow: Int): Duration? = delaysMs.getOrNull(failuresInRow - 1)?.let { Duration.ofMillis(it) }

    /** The failure count after a run of [ranFor] that ended unexpectedly. */
    fun failuresAfter(previous: Int, ranFor: Duration): Int = if (ranFor >= stable) 1 else previous + 1
}
