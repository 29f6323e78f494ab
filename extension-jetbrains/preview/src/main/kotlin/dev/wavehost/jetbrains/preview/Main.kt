package dev.wavehost.jetbrains.preview

import dev.wavehost.jetbrains.core.relay.View
import java.io.File
import java.nio.file.Path
import java.util.concurrent.CountDownLatch
import kotlin.system.exitProcess

private const val USAGE = """usage: jetbrains-preview --project DIR [--dark] [--chat] [--screenshot FILE]
                         [--locale L] [--home DIR] [--bench N] [--python PYTHON] [--webview DIST]

Opens the settings page (with --chat also the chat) for DIR in a JCEF window, relaying to a real
`wavehost serve`, as the JetBrains plugin does. With --screenshot it waits until the page has
rendered, writes the PNG and exits. --locale: the pages' locale (what an IDE's language would be). --home gives the server another home (user settings,
plugins). --bench N opens the settings tab N times, prints the timings and memory as JSON, exits."""

private class Args(argv: Array<String>) {
    var project: Path? = null
    var dark = false
    var chat = false
    var screenshot: File? = null
    var locale = "en" // scripts/jetbrains-preview passes the environment's, by wavehost's rule
    var python: String? = null
    var webview: Path? = null
    var home: Path? = null
    var bench: Int? = null

    init {
        val it = argv.iterator()
        fun value(flag: String): String = if (it.hasNext()) it.next() else fail("$flag needs a value")
        while (it.hasNext()) {
            when (val arg = it.next()) {
                "--project" -> project = Path.of(value(arg))
                "--dark" -> dark = true
                "--chat" -> chat = true
                "--screenshot" -> screenshot = File(value(arg))
                "--locale" -> locale = value(arg)
                "--python" -> python = value(arg)
                "--webview" -> webview = Path.of(value(arg))
                "--home" -> home = Path.of(value(arg))
                "--bench" -> bench = value(arg).toIntOrNull()?.takeIf { n -> n > 0 } ?: fail("--bench needs a positive number")
                "-h", "--help" -> { println(USAGE); exitProcess(0) }
                else -> fail("unknown argument: $arg")
            }
        }
    }
}

private fun fail(message: String): Nothing {
    System.err.println("jetbrains-preview: $message\n\n$USAGE")
    exitProcess(2)
}

fun main(argv: Array<String>) {
    val args = Args(argv)
    val project = args.project?.toAbsolutePath()?.normalize() ?: fail("--project is required")
    if (!project.toFile().isDirectory) fail("not a directory: $project")
    val webview = args.webview ?: System.getenv("WAVEHOST_WEBVIEW_DIST")?.let { Path.of(it) } ?: fail("--webview is required")
    val shell = try {
        PreviewShell(
            PreviewOptions(
                project = project,
                webview = webview,
                locale = args.locale,
                theme = if (args.dark) Themes.dark() else Themes.light(),
                python = args.python,
                env = args.home?.let { mapOf("HOME" to it.toAbsolutePath().toString()) }.orEmpty(),
            ),
        ).start()
    } catch (e: IllegalArgumentException) {
        fail(e.message ?: e.toString())
    }
    args.bench?.let { runs ->
        val status = try {
            println(Bench.run(shell, runs))
            System.out.flush()
            0
        } catch (e: Throwable) {
            System.err.println("jetbrains-preview: the bench failed: ${e.message}")
            1
        }
        shell.close()
        Jcef.removeCache()
        Runtime.getRuntime().halt(status)
    }
    val settings = shell.openSettingsTab()
    val chat = if (args.chat) shell.openChatWindow() else null
    val screenshot = args.screenshot
    if (screenshot == null) {
        val closed = CountDownLatch(1)
        PreviewShell.onEdt {
            shell.frame.addWindowListener(object : java.awt.event.WindowAdapter() {
                override fun windowClosed(e: java.awt.event.WindowEvent?) = closed.countDown()
            })
        }
        closed.await()
        shell.close()
        exitProcess(0)
    }
    val status = try {
        Rendered.settings(shell, settings)
        chat?.let { Rendered.chat(shell, it) }
        shell.screenshot(screenshot)
        // The language the page rendered in (its <html lang>): what the locale rule chose.
        val lang = shell.evaluate(settings, "document.documentElement.lang").asString
        println("wrote ${screenshot.absolutePath} (pages in $lang)")
        System.out.flush()
        0
    } catch (e: Throwable) {
        System.err.println("jetbrains-preview: the page did not render: ${e.message}")
        shell.screenshot(File(screenshot.path.removeSuffix(".png") + "-failed.png"))
        1
    }
    shell.close()
    Jcef.removeCache()
    // Chromium's threads do not end on their own; the JVM exits with the status.
    Runtime.getRuntime().halt(status)
}

/** When a page counts as rendered: its data arrived and was painted. */
object Rendered {
    fun settings(shell: PreviewShell, page: PreviewBrowser) {
        check(page.view == View.SETTINGS)
        shell.waitFor(page, "deep('[data-testid=count-user]') !== null", 60, "the hooks list")
        shell.painted(page)
    }

    fun chat(shell: PreviewShell, page: PreviewBrowser) {
        check(page.view == View.CHAT)
        shell.waitFor(page, "(() => { const b = deep('[data-action=send]'); return b !== null && !b.hasAttribute('disabled'); })()", 60, "the chat session")
        shell.painted(page)
    }
}
