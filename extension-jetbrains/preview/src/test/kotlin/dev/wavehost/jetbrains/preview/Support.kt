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

/**
 * Runs [check] until it passes, at most [seconds]: a page renders in steps (a row's parts are
 * components of their own), so a read right after an action may see the step before the state it
 * checks. Reads wait for that state here, as the browser tests' polls do; the last failure is thrown.
 */
fun eventually(seconds: Long = 30, check: () -> Unit) {
    val deadline = System.nanoTime() + seconds * 1_000_000_000
    while (true) {
        try {
            check()
            return
        } catch (e: Throwable) {
            // An assertion not met yet, or a read of an element not rendered yet (the page's
            // script threw); anything else (a timeout, a bug) is not waited out.
            val notYet = e is AssertionError || e is java.util.concurrent.ExecutionException
            if (!notYet || System.nanoTime() > deadline) throw e
            Thread.sleep(100)
        }
    }
}

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
    fun start(theme: IdeTheme = Themes.light(), env: Map<String, String> = emptyMap(), locale: String = "zh-CN", trusted: Boolean = true): PreviewShell {
        check(shell == null) { "one preview per test" }
        return PreviewShell(
            PreviewOptions(
                project = ws.project,
                webview = WEBVIEW,
                locale = locale,
                theme = theme,
                python = PYTHON.toString(),
                env = mapOf("HOME" to ws.home.toString()) + env,
                trusted = trusted,
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
