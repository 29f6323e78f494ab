package dev.wavehost.jetbrains.preview

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import java.io.File
import java.nio.file.Files

/**
 * The chat tool window in real JCEF: a turn with the scripted provider (the model's turns come
 * from a file) through a real `wavehost serve`, real hook processes, real key presses and clicks.
 */
class ChatToolWindowTest {
    @JvmField
    @RegisterExtension
    val preview = PreviewFixture()
    private val ws = preview.ws

    @Test
    fun `a chat turn fires a blocking PreToolUse hook and shows it, and the permission question reaches the chat page`() {
        Files.createDirectories(ws.project.resolve("build"))
        ws.write(ws.projectSettings, """{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "echo ran > \"${'$'}WAVE_PROJECT_DIR/hook-ran\"; echo 'Refusing rm -rf' >&2; exit 2"}]}]}}""")
        val script = ws.write(ws.root.resolve("turns.json"), """{"turns": [
            {"text": "先清理 **build** 目录。", "tool_calls": [{"name": "Bash", "input": {"command": "rm -rf build"}}]},
            {"text": "钩子拦下了。我把计划写下来。", "tool_calls": [{"name": "Write", "input": {"file_path": "PLAN.md", "content": "# Plan\n"}}]},
            {"text": "完成：PLAN.md 已写好。"}]}""")
        val s = preview.start(env = mapOf("WAVE_PROVIDER" to "scripted", "WAVE_SCRIPT" to script.toString()))
        val chat = s.openChatWindow()
        Rendered.chat(s, chat)

        s.click(chat, "textarea")
        s.type("clean up then write a plan")
        s.pressEnter()

        // Write needs a yes in the default permission mode: the server asks the page of this session.
        s.waitFor(chat, "deep('[data-testid=permission]')?.innerText.includes('Write') === true", 60, "the permission question")
        s.screenshot(File(SCREENSHOTS, "jcef-chat-permission.png"))
        s.click(chat, "[data-testid=permission] [data-action=allow]")
        s.waitFor(chat, "deep('.log')?.innerText.includes('完成：PLAN.md 已写好。') === true", 60, "the last reply")

        val bash = "deep('.tool[data-tool=Bash]')"
        eventually {
            assertEquals("blocked", s.evaluate(chat, "$bash.getAttribute('data-status')").asString) // refused by a hook: it never ran
            assertEquals("PreToolUse:Bash hook error: Refusing rm -rf", s.evaluate(chat, "$bash.querySelector('[data-testid=tool-error]').innerText").asString)
            val blockedBy = s.evaluate(chat, "$bash.querySelector('[data-testid=blocked-by]').innerText").asString
            assertTrue("PreToolUse:Bash" in blockedBy && "Refusing rm -rf" in blockedBy, blockedBy) // names the hook
            assertEquals("success", s.evaluate(chat, "deep('.tool[data-tool=Write]').getAttribute('data-status')").asString)
        }
        assertEquals("ran\n", Files.readString(ws.project.resolve("hook-ran")), "the hook ran as a real process")
        assertTrue(Files.isDirectory(ws.project.resolve("build")), "the blocked command did not run")
        assertEquals("# Plan\n", Files.readString(ws.project.resolve("PLAN.md")))
        eventually {
            assertEquals("build", s.evaluate(chat, "deep('.markdown strong').innerText").asString)
        }
        s.screenshot(File(SCREENSHOTS, "jcef-chat-turn-blocked-hook.png"))

        // "Show in settings" on the hook that blocked: the relay has the shell open a settings tab
        // and, once that page is ready, tells it the row (showView {settings, hookId}).
        s.clickElement(chat, "$bash.querySelector('[data-action=show-hook]')", "Show in settings")
        waitUntil { s.settings() != null }
        val settings = s.settings()!!
        s.waitFor(settings, "deep('li.hook[data-revealed]')?.innerText.includes('Refusing rm -rf') === true", 60, "the revealed row")
        assertTrue(s.events.any { it.name == "openSettings" })
        eventually {
            assertEquals("true", s.evaluate(settings, "deep('[role=tab][data-source=project]').getAttribute('aria-selected')").asString)
        }
        s.screenshot(File(SCREENSHOTS, "jcef-chat-show-in-settings.png"))
        assertEquals(emptyList<String>(), s.consoleErrors)
    }

    @Test
    fun `in an untrusted project the chat says its hooks are not running and offers the IDE trust settings`() {
        ws.write(ws.projectSettings, """{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}""")
        val script = ws.write(ws.root.resolve("turns.json"), """{"turns": [{"text": "好。"}]}""")
        val s = preview.start(env = mapOf("WAVE_PROVIDER" to "scripted", "WAVE_SCRIPT" to script.toString()), trusted = false)
        val chat = s.openChatWindow()
        Rendered.chat(s, chat)
        val line = "deep('[data-testid=hooks-off]')"
        s.waitFor(chat, "$line?.innerText.includes('项目级钩子没有在运行（1 个）：此工作区未受信任。') === true", 60, "the hooks-off line")
        s.screenshot(File(SCREENSHOTS, "jcef-chat-hooks-off-untrusted.png"))
        s.clickElement(chat, "$line.querySelector('[data-action=hooks-trust]')", "Trust this workspace")
        waitUntil { s.events.any { it.name == "manageTrust" } }
        assertEquals(emptyList<String>(), s.consoleErrors)
    }
}
