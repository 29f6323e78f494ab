package dev.wavehost.jetbrains.core.cef

import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.relay.PageLink
import dev.wavehost.jetbrains.core.web.PageResources
import dev.wavehost.jetbrains.core.web.Resource
import org.cef.browser.CefBrowser
import org.cef.browser.CefFrame
import org.cef.callback.CefCallback
import org.cef.callback.CefQueryCallback
import org.cef.handler.CefMessageRouterHandlerAdapter
import org.cef.handler.CefRequestHandlerAdapter
import org.cef.handler.CefResourceHandler
import org.cef.handler.CefResourceHandlerAdapter
import org.cef.handler.CefResourceRequestHandler
import org.cef.handler.CefResourceRequestHandlerAdapter
import org.cef.misc.BoolRef
import org.cef.misc.IntRef
import org.cef.misc.StringRef
import org.cef.network.CefRequest
import org.cef.network.CefResponse

/*
 * The JCEF side of a page, over the plain JCEF API (org.cef.*) that both jcefmaven and the IDE's
 * JCEF provide: the IDE glue attaches the request handler to its JBCefBrowser's client and feeds
 * JBCefJSQuery messages to the page; the standalone preview uses a CefMessageRouter instead.
 */

/** The page's browser as the relay sees it. */
class CefPageLink(private val browser: CefBrowser) : PageLink {
    override fun execute(script: String) = browser.executeJavaScript(script, PageResources.pageUrl(), 0)

    override fun reload() = browser.reload()
}

/**
 * Serves `https://wavehost.local/` from [resources]; a navigation anywhere else is cancelled and
 * handed to [openExternal] (the IDE opens it in the system browser); other origins load nothing.
 */
class WaveRequestHandler(private val resources: PageResources, private val openExternal: (String) -> Unit) : CefRequestHandlerAdapter() {
    override fun onBeforeBrowse(browser: CefBrowser?, frame: CefFrame?, request: CefRequest, userGesture: Boolean, isRedirect: Boolean): Boolean {
        if (PageResources.isInternal(request.url)) return false
        if (userGesture) openExternal(request.url)
        return true
    }

    override fun getResourceRequestHandler(
        browser: CefBrowser?, frame: CefFrame?, request: CefRequest, isNavigation: Boolean, isDownload: Boolean,
        requestInitiator: String?, disableDefaultHandling: BoolRef?,
    ): CefResourceRequestHandler = resourceHandler

    private val resourceHandler = object : CefResourceRequestHandlerAdapter() {
        override fun onBeforeResourceLoad(browser: CefBrowser?, frame: CefFrame?, request: CefRequest): Boolean =
            !PageResources.isInternal(request.url) && !request.url.startsWith("data:") // true cancels: nothing else loads

        override fun getResourceHandler(browser: CefBrowser?, frame: CefFrame?, request: CefRequest): CefResourceHandler =
            ResourceHandler(resources.serve(request.method ?: "GET", request.url))
    }
}

/** One response, streamed to CEF. */
private class ResourceHandler(private val resource: Resource) : CefResourceHandlerAdapter() {
    private var offset = 0

    override fun processRequest(request: CefRequest, callback: CefCallback): Boolean {
        callback.Continue()
        return true
    }

    override fun getResponseHeaders(response: CefResponse, responseLength: IntRef, redirectUrl: StringRef?) {
        response.status = resource.status
        response.statusText = if (resource.status == 200) "OK" else "Not Found"
        response.mimeType = resource.mimeType
        response.setHeaderMap(resource.headers)
        responseLength.set(resource.body.size)
    }

    override fun readResponse(dataOut: ByteArray, bytesToRead: Int, bytesRead: IntRef, callback: CefCallback): Boolean {
        val left = resource.body.size - offset
        if (left <= 0) {
            bytesRead.set(0)
            return false
        }
        val n = minOf(left, bytesToRead, dataOut.size)
        System.arraycopy(resource.body, offset, dataOut, 0, n)
        offset += n
        bytesRead.set(n)
        return true
    }
}

/** `window.cefQuery` → the page's relay handle (the preview's stand-in for JBCefJSQuery). */
class CefQueryBridge(private val pageOf: (CefBrowser) -> PageHandle?) : CefMessageRouterHandlerAdapter() {
    override fun onQuery(browser: CefBrowser, frame: CefFrame?, queryId: Long, request: String, persistent: Boolean, callback: CefQueryCallback): Boolean {
        val page = pageOf(browser) ?: return false
        page.receive(request)
        callback.success("")
        return true
    }
}
