package dev.wavehost.jetbrains.preview

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import javax.imageio.ImageIO

/**
 * `bash scripts/jetbrains-preview … --screenshot FILE` as a user runs it: its own JVM and JCEF,
 * a real `wavehost serve`; it waits for the rendered page, writes the PNG and exits 0. Runs after
 * `package` (failsafe), because the script runs the packaged preview jar.
 */
class PreviewScriptIT {
    @TempDir
    lateinit var tmp: Path

    private class Run(val exit: Int, val stdout: String, val stderr: String)

    private fun preview(vararg args: String, env: Map<String, String> = emptyMap()): Run {
        val out = tmp.resolve("stdout.txt").toFile()
        val err = tmp.resolve("stderr.txt").toFile()
        val builder = ProcessBuilder(listOf("bash", REPO.resolve("scripts/jetbrains-preview").toString()) + args)
            .redirectOutput(out).redirectError(err)
        // What the tests decide for themselves: the locale, the model provider.
        builder.environment().keys.removeAll(listOf("LC_ALL", "LC_MESSAGES", "WAVE_PROVIDER", "WAVE_SCRIPT", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"))
        builder.environment().putAll(env)
        val process = builder.start()
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.descendants().forEach { it.destroyForcibly() }
            process.destroyForcibly()
            throw AssertionError("the preview did not exit within 300 s: ${err.readText().takeLast(3000)}")
        }
        return Run(process.exitValue(), out.readText(), err.readText())
    }

    @Test
    fun `--screenshot waits for the rendered settings page, writes a real PNG and exits 0`() {
        val ws = Workspace().also { it.root.toFile().deleteOnExit() }
        try {
            ws.write(ws.projectSettings, """{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}""")
            val png = tmp.resolve("shots/settings-dark.png")
            val run = preview("--project", ws.project.toString(), "--home", ws.home.toString(), "--dark", "--screenshot", png.toString())
            assertEquals(0, run.exit, run.stderr.takeLast(3000))
            assertTrue("wrote ${png.toAbsolutePath()}" in run.stdout, run.stdout)
            val image = ImageIO.read(png.toFile()) ?: throw AssertionError("not a PNG: $png")
            assertTrue(image.width >= 800 && image.height >= 600, "${image.width}x${image.height}")
            val colours = HashSet<Int>()
            for (x in 0 until image.width step 4) for (y in 0 until image.height step 4) colours.add(image.getRGB(x, y))
            assertTrue(colours.size > 20, "a rendered page has text and controls, not ${colours.size} colours")
            assertTrue(luminance(image.getRGB(image.width / 2, image.height / 2)) < 0.2, "--dark paints the page dark")
            Files.copy(png, File(SCREENSHOTS, "preview-script-dark.png").toPath().also { Files.createDirectories(it.parent) }, java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        } finally {
            ws.close()
        }
    }

    @Test
    fun `--chat without a model provider replays the demo's scripted turns, says so, and renders the chat`() {
        val ws = Workspace().also { it.root.toFile().deleteOnExit() }
        try {
            val png = tmp.resolve("shots/chat.png")
            val run = preview("--project", ws.project.toString(), "--home", ws.home.toString(), "--chat", "--screenshot", png.toString())
            assertEquals(0, run.exit, run.stderr.takeLast(3000))
            assertTrue("No model provider is configured: the chat replays examples/demo-project/demo-chat.json." in run.stdout, run.stdout)
            assertTrue("wrote ${png.toAbsolutePath()}" in run.stdout, run.stdout)
        } finally {
            ws.close()
        }
    }

    @Test
    fun `without --locale the pages speak the environment's language by the one rule, C is English`() {
        val ws = Workspace().also { it.root.toFile().deleteOnExit() }
        try {
            for ((lang, rendered) in listOf("zh_CN.UTF-8" to "zh-CN", "C.UTF-8" to "en")) {
                val png = tmp.resolve("shots/locale-$rendered.png")
                val run = preview("--project", ws.project.toString(), "--home", ws.home.toString(), "--screenshot", png.toString(), env = mapOf("LANG" to lang))
                assertEquals(0, run.exit, run.stderr.takeLast(3000))
                assertTrue("wrote ${png.toAbsolutePath()} (pages in $rendered)" in run.stdout, "LANG=$lang: ${run.stdout}")
            }
        } finally {
            ws.close()
        }
    }

    @Test
    fun `a project that is not a directory is refused with exit 2 and the reason`() {
        val run = preview("--project", tmp.resolve("nowhere").toString(), "--screenshot", tmp.resolve("x.png").toString())
        assertEquals(2, run.exit)
        assertTrue("jetbrains-preview: not a directory: ${tmp.resolve("nowhere")}" in run.stderr, run.stderr)
        assertTrue(Files.notExists(tmp.resolve("x.png")))
    }
}
