package dev.wavehost.jetbrains.preview

import com.google.gson.Gson
import com.google.gson.JsonElement
import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.HostConfig
import dev.wavehost.jetbrains.core.IdeHost
import dev.wavehost.jetbrains.core.OpenedPage
import dev.wavehost.jetbrains.core.WaveHost
import dev.wavehost.jetbrains.core.cef.CefPageLink
import dev.wavehost.jetbrains.core.cef.CefQueryBridge
import dev.wavehost.jetbrains.core.cef.WaveRequestHandler
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.theme.IdeTheme
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.PageResources
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.cef.CefClient
import org.cef.CefSettings
import org.cef.handler.CefDisplayHandlerAdapter
import org.cef.handler.CefLoadHandlerAdapter
import org.cef.browser.CefBrowser
import org.cef.browser.CefFrame
import org.cef.browser.CefMessageRouter
import org.cef.callback.CefQueryCallback
import org.cef.handler.CefMessageRouterHandlerAdapter
import java.awt.BorderLayout
import java.awt.Dimension
import java.awt.Rectangle
import java.awt.Robot
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import java.awt.image.BufferedImage
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import javax.imageio.ImageIO
import javax.swing.JFrame
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JSplitPane
import javax.swing.JTabbedPane
import javax.swing.JTextArea
import javax.swing.SwingUtilities
import javax.swing.WindowConstants

data class PreviewOptions(
    val project: Path,
    val webview: Path,
    val locale: String = "zh-CN",
    val theme: IdeTheme = Themes.light(),
    val python: String? = null,
    val command: List<String>? = null,
    val env: Map<String, String> = emptyMap(),
    val trusted: Boolean = true,
)

/** What the "IDE" was asked to do, in order (the tests read it). */
data class HostEvent(val seq: Long, val name: String, val detail: String)

/** A page in a JCEF browser of the preview window ([view] and [page] are null for a blank tab). */
class PreviewBrowser internal constructor(val view: View?, val client: CefClient, val browser: CefBrowser, val page: OpenedPage?, internal val loaded: CompletableFuture<Unit>)

/**
 * The standalone preview: a window that plays the IDE around the core — the settings page as an
 * editor tab, the chat as a tool window on the right, files from `window/showDocument` as editor
 * tabs — with the pages in real JCEF browsers and a real `wavehost serve` behind them.
 */
class PreviewShell(private val options: PreviewOptions, private val log: (String) -> Unit = { System.err.println("[wavehost] $it") }) : IdeHost, AutoCloseable {
    private val app = Jcef.app()
    val host = WaveHost(
        HostConfig(
            launch = LaunchConfig(
                projectDir = options.project,
                interpreterSetting = options.python,
                command = options.command,
                env = options.env,
            ),
            locale = options.locale,
            trusted = options.trusted,
            assets = WebviewAssets.directory(options.webview),
            theme = options.theme,
            clientName = "wavehost JetBrains preview",
        ),
        this,
        log,
    )
    val events = CopyOnWriteArrayList<HostEvent>()

    /** Errors the pages logged (a CSP violation shows up here). */
    val consoleErrors = CopyOnWriteArrayList<String>()
    private val seq = AtomicLong()
    private val browsers = CopyOnWriteArrayList<PreviewBrowser>()
    private val probes = ConcurrentHashMap<Long, CompletableFuture<JsonElement>>()
    private val probeIds = AtomicLong()
    lateinit var frame: JFrame
        private set
    private lateinit var editors: JTabbedPane
    private lateinit var split: JSplitPane
    private var chat: PreviewBrowser? = null

    fun start(): PreviewShell {
        onEdt {
            frame = JFrame("wavehost — ${options.project.fileName}").apply {
                defaultCloseOperation = WindowConstants.DISPOSE_ON_CLOSE
                preferredSize = Dimension(1280, 860)
            }
            editors = JTabbedPane()
            split = JSplitPane(JSplitPane.HORIZONTAL_SPLIT, editors, JPanel()).apply { resizeWeight = 1.0 }
            frame.contentPane.add(split, BorderLayout.CENTER)
            frame.pack()
            frame.setLocation(0, 0)
            frame.isVisible = true
            split.setDividerLocation(1.0)
        }
        host.start().get(60, TimeUnit.SECONDS)
        return this
    }

    fun settings(): PreviewBrowser? = browsers.lastOrNull { it.view == View.SETTINGS }

    fun chat(): PreviewBrowser? = chat

    /** "Wave: Open Hooks Settings": a settings tab. */
    fun openSettingsTab(): PreviewBrowser {
        val opened = newBrowser(View.SETTINGS)
        onEdt {
            editors.addTab("Hooks", opened.browser.uiComponent)
            editors.selectedIndex = editors.tabCount - 1
            // With the chat open and no tab before, the editor side had no width: a browser of
            // size 0 never loads (the chat's "Show in settings" opens this tab).
            if (chat != null && editors.tabCount == 1) split.setDividerLocation(0.5)
            frame.validate()
        }
        return opened
    }

    /** "Wave: Open Chat": the chat tool window, on the right. */
    fun openChatWindow(): PreviewBrowser {
        chat?.let { return it }
        val opened = newBrowser(View.CHAT)
        chat = opened
        onEdt {
            split.rightComponent = opened.browser.uiComponent
            split.setDividerLocation(if (editors.tabCount == 0) 0.0 else 0.5)
            frame.validate()
        }
        return opened
    }

    /** A tab with an empty page and no wavehost in it: what a JCEF browser costs by itself (the bench's baseline). */
    fun openBlankTab(): PreviewBrowser {
        val client = app.createClient()
        client.addMessageRouter(probeRouter())
        val loaded = loadedFuture(client)
        lateinit var browser: CefBrowser
        onEdt {
            browser = client.createBrowser(BLANK_PAGE, false, false)
            editors.addTab("Blank", browser.uiComponent)
            editors.selectedIndex = editors.tabCount - 1
            frame.validate()
        }
        return PreviewBrowser(null, client, browser, null, loaded).also { browsers.add(it) }
    }

    /** Completes when the browser's page has loaded for the first time (a script sent earlier could be lost). */
    private fun loadedFuture(client: CefClient): CompletableFuture<Unit> {
        val loaded = CompletableFuture<Unit>()
        client.addLoadHandler(object : CefLoadHandlerAdapter() {
            override fun onLoadEnd(browser: CefBrowser?, frame: CefFrame?, httpStatusCode: Int) {
                if (frame?.isMain == true) loaded.complete(Unit)
            }
        })
        return loaded
    }

    private fun probeRouter(): CefMessageRouter =
        CefMessageRouter.create(CefMessageRouter.CefMessageRouterConfig(PROBE, "${PROBE}Cancel")).apply { addHandler(ProbeHandler(), true) }

    private fun newBrowser(view: View): PreviewBrowser {
        val client = app.createClient()
        val router = CefMessageRouter.create()
        lateinit var opened: OpenedPage
        lateinit var browser: CefBrowser
        router.addHandler(CefQueryBridge { opened.handle }, true)
        client.addMessageRouter(router)
        client.addMessageRouter(probeRouter())
        val loaded = loadedFuture(client)
        client.addDisplayHandler(object : CefDisplayHandlerAdapter() {
            override fun onConsoleMessage(browser: CefBrowser?, level: CefSettings.LogSeverity, message: String, source: String?, line: Int): Boolean {
                if (level == CefSettings.LogSeverity.LOGSEVERITY_ERROR || level == CefSettings.LogSeverity.LOGSEVERITY_FATAL) {
                    consoleErrors.add("$message ($source:$line)")
                }
                return false
            }
        })
        onEdt {
            browser = client.createBrowser(PageResources.pageUrl(), false, false)
        }
        opened = host.openPage(view, CefPageLink(browser), Bridge.cefQueryPost())
        client.addRequestHandler(WaveRequestHandler(opened.resources) { url -> record("openExternal", url) })
        val result = PreviewBrowser(view, client, browser, opened, loaded)
        browsers.add(result)
        return result
    }

    // -- IdeHost --------------------------------------------------------------------------------

    override fun showDocument(path: Path, takeFocus: Boolean, line: Int?): CompletableFuture<Boolean> {
        record("showDocument", path.toString())
        if (line != null) record("showDocumentLine", line.toString())
        val done = CompletableFuture<Boolean>()
        SwingUtilities.invokeLater {
            val text = try {
                Files.readString(path)
            } catch (e: Exception) {
                done.complete(false)
                return@invokeLater
            }
            val area = JTextArea(text).apply { isEditable = false }
            editors.addTab(path.fileName.toString(), JScrollPane(area))
            if (takeFocus) editors.selectedIndex = editors.tabCount - 1
            done.complete(true)
        }
        return done
    }

    override fun openChat() {
        record("openChat", "")
        openChatWindow()
    }

    override fun closeSettings(page: PageHandle) {
        record("closeSettings", page.toString())
        browsers.firstOrNull { it.page?.handle === page }?.let(::closeTab)
    }

    /** Closes an editor tab and its browser (what closing the settings tab does). */
    fun closeTab(closing: PreviewBrowser) {
        if (!browsers.remove(closing)) return
        onEdt {
            editors.remove(closing.browser.uiComponent)
            frame.validate()
        }
        closing.page?.handle?.dispose()
        closeBrowser(closing)
    }

    /** Without setCloseAllowed a windowed JCEF browser defers its close to the window: its renderer would live on. */
    private fun closeBrowser(b: PreviewBrowser) {
        b.browser.setCloseAllowed()
        b.browser.close(true)
        b.client.dispose()
    }

    override fun openSettings() {
        record("openSettings", "")
        openSettingsTab()
    }

    /** The preview has no trust settings of its own: it records that the page asked. */
    override fun manageTrust() {
        record("manageTrust", "")
    }

    override fun showError(message: String) {
        record("error", message)
        log(message)
    }

    private fun record(name: String, detail: String) {
        events.add(HostEvent(seq.incrementAndGet(), name, detail))
    }

    // -- driving and looking (the tests and --screenshot) ----------------------------------------

    /**
     * Evaluates [expression] in the page (awaited if it is a promise) and returns its JSON value.
     * `deep(selector)` / `deepAll(selector)` find elements through shadow roots.
     */
    fun evaluate(target: PreviewBrowser, expression: String, timeoutSeconds: Long = 15): JsonElement {
        target.loaded.get(timeoutSeconds, TimeUnit.SECONDS)
        val id = probeIds.incrementAndGet()
        val future = CompletableFuture<JsonElement>()
        probes[id] = future
        val script = """
            (async () => {
              const deepAll = (sel, root = document) => {
                const found = [...root.querySelectorAll(sel)];
                for (const el of root.querySelectorAll("*")) if (el.shadowRoot) found.push(...deepAll(sel, el.shadowRoot));
                return found;
              };
              const deep = (sel) => deepAll(sel)[0] ?? null;
              let answer;
              try { const value = await (async () => ($expression))(); answer = { id: $id, ok: true, value: value === undefined ? null : value }; }
              catch (e) { answer = { id: $id, ok: false, value: String(e && e.stack || e) }; }
              window.$PROBE({ request: JSON.stringify(answer), onSuccess() {}, onFailure() {} });
            })();
        """.trimIndent()
        target.browser.executeJavaScript(script, PageResources.pageUrl(), 0)
        try {
            return future.get(timeoutSeconds, TimeUnit.SECONDS)
        } finally {
            probes.remove(id)
        }
    }

    /** Polls [expression] until it is truthy; returns its last value. */
    fun waitFor(target: PreviewBrowser, expression: String, timeoutSeconds: Long = 30, what: String = expression, pollMillis: Long = 100): JsonElement {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds)
        var last: JsonElement? = null
        while (System.nanoTime() < deadline) {
            last = try {
                evaluate(target, expression, 5)
            } catch (e: Exception) {
                null
            }
            if (last != null && truthy(last)) return last
            Thread.sleep(pollMillis)
        }
        throw AssertionError("timed out after $timeoutSeconds s waiting for $what (last: $last)")
    }

    /** Waits until [target] has painted twice more: what was rendered before this call is on screen. */
    fun painted(target: PreviewBrowser, timeoutSeconds: Long = 10, pollMillis: Long = 100) {
        waitFor(target, "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))", timeoutSeconds, "two painted frames", pollMillis)
    }

    /** A real mouse click (java.awt.Robot) in the middle of the element [selector] finds. */
    fun click(target: PreviewBrowser, selector: String) = clickElement(target, "deep(${Gson().toJson(selector)})", selector)

    /** A real mouse click in the middle of the element [element] (a JavaScript expression) evaluates to. */
    fun clickElement(target: PreviewBrowser, element: String, what: String = element) {
        val rect = waitFor(target, "(() => { const e = $element; if (!e) return null; " +
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); " +
            "return r.width > 0 ? {x: r.x + r.width / 2, y: r.y + r.height / 2} : null; })()", what = "a visible $what").asJsonObject
        val origin = onEdtValue { target.browser.uiComponent.locationOnScreen }
        val robot = Robot()
        robot.mouseMove(origin.x + rect["x"].asDouble.toInt(), origin.y + rect["y"].asDouble.toInt())
        robot.delay(50)
        robot.mousePress(InputEvent.BUTTON1_DOWN_MASK)
        robot.delay(30)
        robot.mouseRelease(InputEvent.BUTTON1_DOWN_MASK)
        robot.waitForIdle()
    }

    /** Real key presses (java.awt.Robot) for [text] (letters, digits, space, basic punctuation), into the focused element. */
    fun type(text: String) {
        val robot = Robot()
        for (ch in text) {
            val code = KeyEvent.getExtendedKeyCodeForChar(ch.code)
            require(code != KeyEvent.VK_UNDEFINED) { "cannot type $ch" }
            val shift = ch.isUpperCase()
            if (shift) robot.keyPress(KeyEvent.VK_SHIFT)
            robot.keyPress(code)
            robot.keyRelease(code)
            if (shift) robot.keyRelease(KeyEvent.VK_SHIFT)
            robot.delay(15)
        }
        robot.waitForIdle()
    }

    fun pressEnter() {
        val robot = Robot()
        robot.keyPress(KeyEvent.VK_ENTER)
        robot.keyRelease(KeyEvent.VK_ENTER)
        robot.waitForIdle()
    }

    /** The window as it is on screen, as a PNG. */
    fun screenshot(file: File): BufferedImage {
        val bounds = onEdtValue { Rectangle(frame.contentPane.locationOnScreen, frame.contentPane.size) }
        val image = Robot().createScreenCapture(bounds)
        file.absoluteFile.parentFile.mkdirs()
        ImageIO.write(image, "png", file)
        return image
    }

    override fun close() {
        for (b in browsers) {
            b.page?.handle?.dispose()
            closeBrowser(b)
        }
        browsers.clear()
        host.dispose()
        onEdt { frame.dispose() }
    }

    private inner class ProbeHandler : CefMessageRouterHandlerAdapter() {
        override fun onQuery(browser: CefBrowser, frame: CefFrame?, queryId: Long, request: String, persistent: Boolean, callback: CefQueryCallback): Boolean {
            val answer = JsonParser.parseString(request).asJsonObject
            val future = probes[answer["id"].asLong]
            if (answer["ok"].asBoolean) future?.complete(answer["value"]) else future?.completeExceptionally(IllegalStateException(answer["value"].asString))
            callback.success("")
            return true
        }
    }

    companion object {
        private const val PROBE = "wavePreviewProbe"
        private const val BLANK_PAGE = "data:text/html,<!doctype html><title>blank</title><p>blank</p>"

        fun truthy(value: JsonElement): Boolean = when {
            value.isJsonNull -> false
            value.isJsonPrimitive && value.asJsonPrimitive.isBoolean -> value.asBoolean
            value.isJsonPrimitive && value.asJsonPrimitive.isString -> value.asString.isNotEmpty()
            value.isJsonPrimitive && value.asJsonPrimitive.isNumber -> value.asDouble != 0.0
            else -> true
        }

        fun onEdt(block: () -> Unit) {
            if (SwingUtilities.isEventDispatchThread()) block() else SwingUtilities.invokeAndWait(block)
        }

        fun <T> onEdtValue(block: () -> T): T {
            var result: T? = null
            onEdt { result = block() }
            @Suppress("UNCHECKED_CAST")
            return result as T
        }
    }
}
