package dev.wavehost.jetbrains.preview

import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.theme.IdeTheme
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import java.io.File
import java.nio.file.Files

/**
 * The settings tab in real JCEF: the core serves the built webview from its scheme, relays to a
 * real `wavehost serve` on real files, and the page is driven with real mouse clicks (Robot).
 */
class SettingsTabTest {
    @JvmField
    @RegisterExtension
    val preview = PreviewFixture()
    private val ws = preview.ws

    /** User: 1 hook (+ plugin fmt enabled); project: 3 hooks; plugin fmt: 1 hook. */
    private fun standardWorkspace() {
        ws.write(ws.userSettings, """{"enabledPlugins": {"fmt": true}, "hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "notify-send done", "timeout": 5}]}]}}""")
        ws.write(ws.projectSettings, """{"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
              {"type": "command", "command": "./guard.sh", "description": "Refuses rm -rf"},
              {"type": "command", "command": "./audit.sh"}]}],
            "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./lint.sh", "async": true}]}]}}""")
        ws.write(ws.pluginHooks("fmt"), """{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": "prettier --write"}]}]}}""")
    }

    /** The preview with a settings tab whose hooks list has rendered. */
    private fun open(theme: IdeTheme = Themes.light()): Pair<PreviewShell, PreviewBrowser> {
        val s = preview.start(theme)
        val page = s.openSettingsTab()
        Rendered.settings(s, page)
        return s to page
    }

    private fun text(s: PreviewShell, page: PreviewBrowser, expression: String): String = s.evaluate(page, expression).asString

    private fun rowExpr(source: String, containing: String) =
        "deepAll('[role=tabpanel][data-source=$source] li.hook').find(li => li.textContent.includes(${js(containing)}))"

    @Test
    fun `lists the hooks by source with counts, rows and read-only plugin rows`() {
        standardWorkspace()
        val (s, page) = open()
        eventually {
            assertEquals("1", text(s, page, "deep('[data-testid=count-user]').textContent.trim()"))
            assertEquals("3", text(s, page, "deep('[data-testid=count-project]').textContent.trim()"))
            assertEquals("1", text(s, page, "deep('[data-testid=count-plugin]').textContent.trim()"))
            val headers = s.evaluate(page, "deepAll('[role=tab][data-source]').map(h => h.textContent.replace(/\\s+/g, ' ').trim())").asJsonArray.map { it.asString }
            assertEquals(listOf("用户级钩子 1", "项目级钩子 3", "插件钩子 1"), headers)
            val userRow = text(s, page, "${rowExpr("user", "notify-send")}.innerText")
            assertTrue("notify-send done" in userRow && "超时 5 秒" in userRow && "~/.wave/settings.json" in userRow, userRow)
            // The path is shown as people read it (under ~), the absolute one on hover.
            assertEquals(ws.userSettings.toString(), text(s, page, "${rowExpr("user", "notify-send")}.querySelector('[data-testid=row-path]').title"))
        }

        s.click(page, "[role=tab][data-source=project]")
        s.waitFor(page, "${rowExpr("project", "./guard.sh")}?.checkVisibility() === true", what = "the project rows")
        eventually {
            val projectRows = s.evaluate(page, "deepAll('[role=tabpanel][data-source=project] li.hook').map(li => li.innerText)").asJsonArray.map { it.asString }
            assertEquals(3, projectRows.size)
            // Rows are grouped by event: the event heads its group.
            val groups = s.evaluate(page, "deepAll('[role=tabpanel][data-source=project] [data-testid=group]').map(h => h.innerText)").asJsonArray.map { it.asString }
            assertTrue(groups.size == 2 && "PreToolUse：2 个" in groups[0] && "PostToolUse：1 个" in groups[1], groups.toString())
            assertTrue("匹配器: Bash" in projectRows[0] && "Refuses rm -rf" in projectRows[0], projectRows[0])
            assertTrue("Write|Edit" in projectRows[2] && "异步" in projectRows[2], projectRows[2])
        }
        s.screenshot(File(SCREENSHOTS, "jcef-settings-project-tab.png"))

        s.click(page, "[role=tab][data-source=plugin]")
        s.waitFor(page, "${rowExpr("plugin", "prettier")}?.checkVisibility() === true", what = "the plugin row")
        eventually {
            assertTrue("插件：fmt" in text(s, page, "${rowExpr("plugin", "prettier")}.innerText"))
            // Read-only: nothing that changes it (no Edit/Delete); looking into it (Test, Why) stays.
            val actions = s.evaluate(page, "[...${rowExpr("plugin", "prettier")}.querySelectorAll('[data-action]')].map(b => b.dataset.action)").asJsonArray.map { it.asString }
            assertEquals(listOf("test", "why"), actions)
        }
        assertEquals(emptyList<String>(), s.consoleErrors)
    }

    @Test
    fun `delete through the dialog removes exactly that entry from the file on disk`() {
        standardWorkspace()
        val before = ws.read(ws.projectSettings)
        val (s, page) = open()
        s.click(page, "[role=tab][data-source=project]")
        s.clickElement(page, "${rowExpr("project", "./guard.sh")}?.querySelector('[data-action=delete]')", "guard.sh's Delete")
        s.waitFor(page, "deep('[data-testid=delete-dialog]')?.open === true", what = "the delete dialog")
        eventually {
            assertEquals(ws.projectSettings.toString(), text(s, page, "deep('[data-testid=delete-path]').textContent"))
        }
        assertEquals(before, ws.read(ws.projectSettings), "nothing changes before the confirmation")
        s.screenshot(File(SCREENSHOTS, "jcef-settings-delete-dialog.png"))

        s.click(page, "[data-testid=delete-dialog] [data-action=confirm]")
        s.waitFor(page, "deep('[data-testid=count-project]')?.textContent.trim() === '2'", what = "the list without the hook")
        val expected = before.deepCopy().also {
            it.asJsonObject["hooks"].asJsonObject["PreToolUse"].asJsonArray[0].asJsonObject["hooks"].asJsonArray.remove(0)
        }
        assertEquals(expected, ws.read(ws.projectSettings))
        // The toast is its own render, which may follow the list's: waited for, not read once.
        val said = "已从 .wave/settings.json 删除钩子「PreToolUse (Bash)」。"
        s.waitFor(page, "deep('[data-testid=toast-title]')?.textContent.trim() === ${js(said)}", what = "the deletion's toast")
        assertEquals(JsonParser.parseString(Files.readString(ws.userSettings)), ws.read(ws.userSettings))
        s.painted(page) // the toast's render may still be reaching the screen
        s.screenshot(File(SCREENSHOTS, "jcef-settings-after-delete.png"))
    }

    @Test
    fun `Edit calls showDocument before the settings tab is closed, then prefills the chat`() {
        standardWorkspace()
        val (s, page) = open()
        s.click(page, "[role=tab][data-source=project]")
        s.clickElement(page, "${rowExpr("project", "./guard.sh")}?.querySelector('[data-action=edit]')", "guard.sh's Edit")
        val chat = waitForChat(s)
        s.waitFor(chat, "deep('textarea')?.value.includes('帮我编辑钩子：把<事件/匹配/命令/超时>改成<新内容>') === true", what = "the edit prefill")
        waitUntil { s.events.any { it.name == "closeSettings" } }
        val names = s.events.map { it.name }
        val shown = s.events.first { it.name == "showDocument" }
        assertEquals(ws.projectSettings.toString(), shown.detail)
        // At the hook's own entry: the line of guard.sh's object in the file.
        val guard = Files.readAllLines(ws.projectSettings).indexOfFirst { "./guard.sh" in it }
        val at = s.events.first { it.name == "showDocumentLine" }.detail.toInt()
        assertTrue(at in (guard - 1)..(guard + 1), "opened at line $at, guard.sh is on line ${guard + 1}")
        assertTrue(names.indexOf("showDocument") < names.indexOf("openChat"), "showDocument before openChat: $names")
        assertTrue(names.indexOf("openChat") < names.indexOf("closeSettings"), "closeSettings is the page's last message: $names")
        assertEquals(null, s.settings(), "the settings tab is closed")
        s.screenshot(File(SCREENSHOTS, "jcef-edit-opens-file-and-chat.png"))
    }

    @Test
    fun `the MCP servers list is beside the hooks and Open config file shows the server's file`() {
        standardWorkspace()
        ws.write(ws.project.resolve(".mcp.json"), """{"mcpServers": {"memory": {"command": "memory-server", "args": ["--stdio"]}}}""")
        ws.write(ws.userSettings, """{"mcpServers": {"tickets": {"type": "http", "url": "${'$'}{TICKETS_URL}/mcp"}}}""")
        val (s, page) = open()
        s.waitFor(page, "deepAll('[data-testid=mcp-server]').length === 2", what = "the MCP servers list")
        val memory = "deepAll('[data-testid=mcp-server]').find(li => li.dataset.name === 'memory')"
        eventually {
            val statuses = s.evaluate(page, "deepAll('[data-testid=mcp-server]').map(li => li.dataset.name + ' ' + li.dataset.status)").asJsonArray.map { it.asString }
            assertEquals(listOf("tickets invalid", "memory notStarted"), statuses)
            assertTrue("尚未启动（聊天会话启动它）" in text(s, page, "$memory.innerText"))
        }
        s.evaluate(page, "($memory.scrollIntoView(), true)")
        s.painted(page)
        s.screenshot(File(SCREENSHOTS, "jcef-settings-mcp-servers.png"))
        s.clickElement(page, "$memory.querySelector('[data-action=open-mcp]')", "memory's Open config file")
        waitUntil { s.events.any { it.name == "showDocument" } }
        assertEquals(ws.project.resolve(".mcp.json").toString(), s.events.first { it.name == "showDocument" }.detail)
        assertEquals(emptyList<String>(), s.consoleErrors)
    }

    @Test
    fun `New opens the chat with the prefill`() {
        standardWorkspace()
        val (s, page) = open()
        s.click(page, "[role=tab][data-source=project]")
        s.clickElement(page, "deep('[data-action=new]')", "New project hook") // the toolbar's, for the tab shown
        val chat = waitForChat(s)
        s.waitFor(chat, "deep('textarea')?.value === ${js("帮我在【my-app】新建钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>")}", what = "the new-hook prefill")
        waitUntil { s.events.any { it.name == "closeSettings" } }
        assertTrue(s.events.none { it.name == "showDocument" })
        val names = s.events.map { it.name }
        assertTrue(names.indexOf("openChat") < names.indexOf("closeSettings"), "closeSettings is the page's last message: $names")
        s.screenshot(File(SCREENSHOTS, "jcef-new-opens-chat.png"))
    }

    @Test
    fun `a dark colour table turns the page dark, and a theme change is pushed to the open page`() {
        standardWorkspace()
        val (s, page) = open(Themes.dark())
        eventually {
            assertEquals("rgb(43, 43, 43)", text(s, page, "getComputedStyle(document.body).backgroundColor"))
            assertEquals("dark", text(s, page, "document.documentElement.dataset.theme"))
        }
        val dark = s.screenshot(File(SCREENSHOTS, "jcef-settings-dark.png"))
        assertTrue(luminance(dark.getRGB(dark.width / 2, dark.height / 2)) < 0.2, "the painted page is dark")

        s.host.setTheme(Themes.light())
        s.waitFor(page, "getComputedStyle(document.body).backgroundColor === 'rgb(255, 255, 255)'", what = "the light theme")
        Rendered.settings(s, page)
        val light = s.screenshot(File(SCREENSHOTS, "jcef-settings-light-after-switch.png"))
        assertTrue(luminance(light.getRGB(light.width / 2, light.height / 2)) > 0.8, "the painted page is light")
        assertEquals(emptyList<String>(), s.consoleErrors)
    }

    private fun waitForChat(s: PreviewShell): PreviewBrowser {
        waitUntil { s.chat() != null }
        val chat = s.chat()!!
        assertEquals(View.CHAT, chat.view)
        return chat
    }
}

fun waitUntil(timeoutSeconds: Long = 30, condition: () -> Boolean) {
    val deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000
    while (!condition()) {
        if (System.nanoTime() > deadline) throw AssertionError("timed out after $timeoutSeconds s")
        Thread.sleep(50)
    }
}

fun luminance(rgb: Int): Double {
    val r = (rgb shr 16) and 0xff
    val g = (rgb shr 8) and 0xff
    val b = rgb and 0xff
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0
}
