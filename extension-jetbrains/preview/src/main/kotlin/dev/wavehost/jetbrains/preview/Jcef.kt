package dev.wavehost.jetbrains.preview

import me.friwi.jcefmaven.CefAppBuilder
import me.friwi.jcefmaven.MavenCefAppHandlerAdapter
import org.cef.CefApp
import org.cef.CefSettings
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/**
 * One JCEF runtime per JVM (Chromium cannot start twice), from jcefmaven. The natives jar is on
 * the class path, so jcefmaven unpacks it into [installDir] once and never downloads anything.
 */
object Jcef {
    private var app: CefApp? = null
    private var rootCache: File? = null

    /** Removes this JVM's Chromium profile (a JVM that halts runs no shutdown hook: it calls this). */
    fun removeCache() {
        rootCache?.deleteRecursively()
    }

    /** `$WAVEHOST_JCEF_DIR`, else `~/.cache/wavehost/jcef-<version>`. */
    fun defaultInstallDir(): File = System.getenv("WAVEHOST_JCEF_DIR")?.takeIf { it.isNotBlank() }?.let(::File)
        ?: Path.of(System.getProperty("user.home"), ".cache", "wavehost", "jcef-146.0.10").toFile()

    @Synchronized
    fun app(installDir: File = defaultInstallDir()): CefApp = app ?: build(installDir).also { app = it }

    private fun build(installDir: File): CefApp {
        val builder = CefAppBuilder()
        builder.setInstallDir(installDir)
        builder.setMirrors(emptyList()) // never download: the natives come from the class path
        builder.setProgressHandler { _, _ -> }
        builder.cefSettings.windowless_rendering_enabled = false
        builder.cefSettings.log_severity = CefSettings.LogSeverity.LOGSEVERITY_ERROR
        builder.cefSettings.cache_path = null
        // Chromium's profile lock lives under its root cache path (default: one per user): a
        // second JCEF on the machine at the same moment — another test run, the preview script —
        // would fail to initialise. Each JVM gets its own, removed when it exits.
        val root = Files.createTempDirectory("wavehost-jcef-root-").toFile()
        rootCache = root
        Runtime.getRuntime().addShutdownHook(Thread { removeCache() })
        builder.cefSettings.root_cache_path = root.absolutePath
        // Software rendering under Xvfb; root needs --no-sandbox; no background traffic of its own.
        builder.addJcefArgs(
            "--disable-gpu", "--disable-gpu-compositing", "--no-sandbox", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
        )
        builder.setAppHandler(object : MavenCefAppHandlerAdapter() {})
        return builder.build()
    }
}
