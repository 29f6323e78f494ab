package dev.wavehost.jetbrains.core.launcher

import java.util.concurrent.TimeUnit

/** The JSON Schema of `.wave/settings*.json`, as the Python package ships it (`wavehost settings-schema`). */
object SettingsSchema {
    private const val MAX_BYTES = 2 * 1024 * 1024
    private val FILE = Regex("(^|/)\\.wave/settings(\\.[A-Za-z0-9_-]+)?\\.json$")

    /** The files the schema describes: `.wave/settings.json`, `.wave/settings.local.json`. */
    fun applies(path: String): Boolean = FILE.containsMatchIn(path.replace('\\', '/'))

    /** Asks the same Python that runs the server; null if it cannot say (bounded in time and size). */
    fun fetch(config: LaunchConfig): String? = try {
        val interpreter = if (config.command == null) ServerLauncher.discover(config) else null
        val builder = ServerLauncher.processBuilder(config, interpreter, listOf("settings-schema"))
        // A whole command given (tests) is `… serve`: the same program, asked for the schema.
        config.command?.let { builder.command(it.dropLast(1) + "settings-schema") }
        val process = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start()
        val bytes = process.inputStream.use { it.readNBytes(MAX_BYTES + 1) }
        val done = process.waitFor(20, TimeUnit.SECONDS)
        if (!done) process.destroyForcibly()
        bytes.takeIf { done && process.exitValue() == 0 && it.size <= MAX_BYTES }?.decodeToString()?.takeIf { it.trimStart().startsWith("{") }
    } catch (e: Exception) {
        null
    }
}
