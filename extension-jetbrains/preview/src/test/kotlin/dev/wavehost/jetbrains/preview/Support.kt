package dev.wavehost.jetbrains.preview

import com.google.gson.GsonBuilder
import com.google.gson.JsonElement
import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.theme.IdeTheme
import org.junit.jupiter.api.extension.AfterEachCallback
import org.junit.jupiter.api.extension.ExtensionContext
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/** The repository (for its .venv and the built webview); surefire passes it in. */
val REPO: Path = Path.of(System.getProperty("wavehost.repo") ?: "../..").toAbsolutePath().normalize()
val PYTHON: Path = REPO.resolve(".venv/bin/python")
val WEBVIEW: Path = System.getenv("WAVEHOST_WEBVIEW_DIST")?.let { Path.of(it) } ?: REPO.resolve("webview/dist")
val SCREENSHOTS: File = REPO.resolve("extension-jetbrains/preview/target/screenshots").toFile()

/** A home directory and a project of real files, removed afterwards. */
class Workspace : AutoCloseable {
    val root: Path = Files.createTempDirectory("wavehost-jcef-")
    val home: Path = Files.createDirectories(root.resolve("home"))
    val project: Path = Files.createDirectories(root.resolve("my-app"))
    val userSettings: Path get() = home.resolve(".wave/settings.json")
    val projectSettings: Path get() = project.resolve(".wave/settings.json")

    fun pluginHooks(name: String): Path = home.resolve(".wave/plugins/$name/hooks/hooks.json")

    fun write(path: Path, json: String): Path {
        Files.createDirectories(path.parent)
        Files.writeString(path, GsonBuilder().setPrettyPrinting().create().toJson(JsonParser.parseString(json)) + "\n")
        return path
    }

    fun read(path: Path): JsonElement = JsonParser.parseString(Files.readString(path))

    override fun close() {
        root.toFile().deleteRecursively()
    }
}

/**
 * What every JCEF test has: a [Workspace] and the preview shell on it, both closed after the test.
 * Register it with `@JvmField @RegisterExtension val preview = PreviewFixture()`.
 */
class PreviewFixture : AfterEachCallback {
    val ws = Workspace()
    private var shell: PreviewShell? = null

    /** Starts the preview (one per test) on [ws]: `wavehost serve` is running when it returns. */
    fun start(theme: IdeTheme = Themes.light(), env: Map<String, String> = emptyMap(), locale: String = "zh-CN"): PreviewShell {
        check(shell == null) { "one preview per test" }
        return PreviewShell(
            PreviewOptions(
                project = ws.project,
                webview = WEBVIEW,
                locale = locale,
                theme = theme,
                python = PYTHON.toString(),
                env = mapOf("HOME" to ws.home.toString()) + env,
            ),
        ).start().also { shell = it }
    }

    override fun afterEach(context: ExtensionContext) {
        try {
            shell?.close()
        } finally {
            ws.close()
        }
    }
}

/** The JavaScript string literal of [text]. */
fun js(text: String): String = com.google.gson.Gson().toJson(text)
