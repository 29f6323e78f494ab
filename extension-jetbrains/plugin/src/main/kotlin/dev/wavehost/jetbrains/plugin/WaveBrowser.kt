package dev.wavehost.jetbrains.plugin

import com.intellij.ide.BrowserUtil
import com.intellij.openapi.Disposable
import com.intellij.openapi.util.Disposer
import com.intellij.ui.jcef.JBCefBrowser
import com.intellij.ui.jcef.JBCefBrowserBase
import com.intellij.ui.jcef.JBCefJSQuery
import dev.wavehost.jetbrains.core.cef.CefPageLink
import dev.wavehost.jetbrains.core.cef.WaveRequestHandler
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.web.PageResources
import javax.swing.JComponent

/**
 * One page in a JBCefBrowser: JBCefJSQuery is the page's `__waveJetBrainsBridge`, the core's
 * request handler serves `https://wavehost.local/`, everything else is the core's.
 */
class WaveBrowser(service: WaveProjectService, view: View) : Disposable {
    private val browser = JBCefBrowser.createBuilder().setOffScreenRendering(false).build()

    // Created before the page loads: JCEF cannot add a query to a browser that already runs.
    private val query = JBCefJSQuery.create(browser as JBCefBrowserBase)
    val page: PageHandle
    val component: JComponent get() = browser.component

    init {
        val opened = service.host.openPage(view, CefPageLink(browser.cefBrowser), "function (json) { ${query.inject("json")} }")
        page = opened.handle
        query.addHandler { json ->
            page.receive(json)
            null
        }
        browser.jbCefClient.addRequestHandler(WaveRequestHandler(opened.resources) { BrowserUtil.browse(it) }, browser.cefBrowser)
        browser.loadURL(PageResources.pageUrl())
        Disposer.register(this, query)
        Disposer.register(this, browser)
    }

    override fun dispose() {
        page.dispose()
    }
}
