package dev.wavehost.jetbrains.preview

import com.google.gson.JsonArray
import com.google.gson.JsonObject
import java.nio.file.Files
import java.nio.file.Path

/**
 * `jetbrains-preview --bench N` (what bench/jetbrains.py runs): the time from "open the settings
 * tab" to its hooks list rendered, N times after one warm-up, against a blank JCEF tab opened the
 * same way in the same run (what a browser costs by itself); then the memory of the JCEF
 * processes with one settings tab open. Prints one JSON object; the statistics are the caller's.
 */
object Bench {
    private const val POLL_MILLIS = 5L

    fun run(shell: PreviewShell, runs: Int): JsonObject {
        require(runs > 0) { "--bench needs a positive number of runs" }
        val settings = times(shell, runs) {
            shell.openSettingsTab().also { shell.waitFor(it, "deep('[data-testid=count-user]') !== null", 60, "the hooks list", POLL_MILLIS) }
        }
        val blank = times(shell, runs) {
            shell.openBlankTab().also { shell.waitFor(it, "document.readyState === 'complete' && document.body !== null", 60, "the blank page", POLL_MILLIS) }
        }
        Rendered.settings(shell, shell.openSettingsTab())
        settle()
        val memory = Memory.of(ProcessHandle.current(), exclude = shell.host.serverPid())
        return JsonObject().apply {
            add("settingsTabMillis", settings)
            add("blankTabMillis", blank)
            add("memory", memory)
        }
    }

    /** Closed tabs' processes take a moment to end: wait (at most 10 s) until the process count holds for a second. */
    private fun settle() {
        val deadline = System.nanoTime() + 10_000_000_000
        var last = -1L
        while (System.nanoTime() < deadline) {
            val now = ProcessHandle.current().descendants().count()
            if (now == last) return
            last = now
            Thread.sleep(1000)
        }
    }

    /**
     * [runs] + 1 openings, the first (cold) left out: milliseconds from the call that opens the tab
     * (the browser is created inside it) to its content loaded and painted twice; then it is closed.
     */
    private fun times(shell: PreviewShell, runs: Int, open: () -> PreviewBrowser): JsonArray {
        val result = JsonArray()
        repeat(runs + 1) { i ->
            val started = System.nanoTime()
            val page = open()
            shell.painted(page, pollMillis = POLL_MILLIS)
            val elapsed = System.nanoTime() - started
            if (i > 0) result.add(elapsed / 1_000_000.0)
            shell.closeTab(page)
        }
        return result
    }
}

/** Resident memory of a process tree from /proc (Linux): RSS per process, and PSS, which shares shared pages out fairly. */
object Memory {
    private val TYPE = Regex("--type=([a-z-]+)")
    fun of(root: ProcessHandle, exclude: Long?): JsonObject {
        val excluded = exclude?.let { pid -> ProcessHandle.of(pid).map { h -> setOf(pid) + h.descendants().map { it.pid() }.toList() }.orElse(setOf(pid)) }.orEmpty()
        val processes = JsonArray()
        var helpersRss = 0L
        var helpersPss = 0L
        for (p in listOf(root) + root.descendants().toList()) {
            if (p.pid() in excluded) continue
            val rss = kib(Path.of("/proc/${p.pid()}/status"), "VmRSS:") ?: continue
            val pss = kib(Path.of("/proc/${p.pid()}/smaps_rollup"), "Pss:")
            val name = runCatching { Files.readString(Path.of("/proc/${p.pid()}/comm")).trim() }.getOrDefault("?")
            // Chromium rewrites its command line (one string, spaces), so the type is searched for.
            val type = runCatching { Files.readString(Path.of("/proc/${p.pid()}/cmdline")) }.getOrDefault("")
                .let { TYPE.find(it)?.groupValues?.get(1) }
            if (p != root) {
                helpersRss += rss
                helpersPss += pss ?: rss
            }
            processes.add(JsonObject().apply {
                addProperty("pid", p.pid())
                addProperty("name", name)
                addProperty("type", if (p == root) "jvm" else type ?: "other")
                addProperty("rssKiB", rss)
                pss?.let { addProperty("pssKiB", it) }
            })
        }
        return JsonObject().apply {
            add("processes", processes)
            addProperty("jcefHelpersRssKiB", helpersRss)
            addProperty("jcefHelpersPssKiB", helpersPss)
        }
    }

    private fun kib(file: Path, key: String): Long? = runCatching {
        Files.readAllLines(file).firstOrNull { it.startsWith(key) }?.removePrefix(key)?.trim()?.removeSuffix("kB")?.trim()?.toLong()
    }.getOrNull()
}
