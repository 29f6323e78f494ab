package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.relay.View
import dev.wavehost.jetbrains.core.web.Bridge
import dev.wavehost.jetbrains.core.web.PageResources
import dev.wavehost.jetbrains.core.web.WebviewAssets
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

class WebResourcesTest {
    @TempDir
    lateinit var dist: Path

    private fun resources(view: View = View.SETTINGS, locale: String = "zh-CN"): PageResources {
        Files.createDirectories(dist.resolve("assets/fonts"))
        Files.writeString(dist.resolve("assets/webview.js"), "console.log(1)")
        Files.writeString(dist.resolve("assets/webview.css"), "body{}")
        Files.writeString(dist.resolve("assets/fonts/a.woff2"), "w")
        Files.writeString(dist.resolve("secret.txt"), "no")
        return PageResources(WebviewAssets.directory(dist), view, locale) { Bridge.script(Bridge.cefQueryPost()) }
    }

    @Test
    fun `the page is written by the shell - strict CSP, locale, view, bridge before the module`() {
        val r = resources(View.CHAT)
        val page = r.serve("GET", "https://wavehost.local/index.html")
        assertEquals(200, page.status)
        val html = page.body.decodeToString()
        assertTrue("<html data-locale=\"zh-CN\" data-shell=\"jetbrains\">" in html, html)
        assertTrue("<body data-view=\"chat\">" in html)
        assertTrue(html.indexOf("/bridge.js") in 0 until html.indexOf("/assets/webview.js"))
        assertTrue("content=\"${PageResources.CSP}\"" in html)
        assertEquals(PageResources.CSP, page.headers["Content-Security-Policy"])
        assertTrue("'unsafe-inline'" !in PageResources.CSP && "'unsafe-eval'" !in PageResources.CSP)
        assertEquals("text/html; charset=utf-8", page.headers["Content-Type"])
    }

    @Test
    fun `a locale that is not a locale becomes en`() {
        assertTrue("data-locale=\"en\"" in resources(locale = "\"><script>").html())
        assertTrue("data-locale=\"zh-TW\"" in resources(locale = "zh_TW").html())
    }

    @Test
    fun `assets are served by name, anything else, other origins, other methods and escapes are 404`() {
        val r = resources()
        assertEquals("console.log(1)", r.serve("GET", "https://wavehost.local/assets/webview.js?v=1").body.decodeToString())
        assertEquals("text/javascript; charset=utf-8", r.serve("GET", "https://wavehost.local/assets/webview.js").headers["Content-Type"])
        assertEquals("font/woff2", r.serve("GET", "https://wavehost.local/assets/fonts/a.woff2").mimeType)
        for (url in listOf(
            "https://wavehost.local/assets/../secret.txt", "https://wavehost.local/assets/%2e%2e/secret.txt",
            "https://wavehost.local/secret.txt", "https://wavehost.local/assets//webview.js", "https://wavehost.local/assets/missing.js",
            "https://wavehost.local.evil/assets/webview.js", "https://example.com/assets/webview.js", "file:///etc/passwd",
        )) {
            assertEquals(404, r.serve("GET", url).status, url)
        }
        assertEquals(404, r.serve("POST", "https://wavehost.local/index.html").status)
        assertTrue(r.serve("GET", "https://wavehost.local/bridge.js").body.decodeToString().contains("__waveJetBrainsBridge"))
    }

    @Test
    fun `a dist without a build is refused with what to run`() {
        val error = assertThrows<IllegalArgumentException> { WebviewAssets.directory(dist.resolve("nothing")) }
        assertTrue("the webview is not built" in error.message!!)
    }

    @Test
    fun `envelopes are delivered as JSON text in a string literal that cannot end the script`() {
        val envelope = com.google.gson.JsonObject().apply { addProperty("text", "a\u2028b\"); alert(1); (\"</script>") }
        val script = Bridge.dispatchScript(envelope.toString())
        assertTrue(script.startsWith("window.dispatchEvent(new MessageEvent(\"message\", { data: \""), script)
        assertTrue("\u2028" !in script)
        assertEquals(envelope, FakePage.envelopeOf(script))
        assertThrows<IllegalArgumentException> { Bridge.cefQueryPost("x); alert(1") }
    }

    @Test
    fun `navigation stays on the page's origin`() {
        assertTrue(PageResources.isInternal("https://wavehost.local/index.html"))
        assertTrue(!PageResources.isInternal("https://wavehost.local.example.com/"))
        assertTrue(!PageResources.isInternal("https://github.com/"))
    }
}
