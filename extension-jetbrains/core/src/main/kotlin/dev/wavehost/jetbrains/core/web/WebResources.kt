package dev.wavehost.jetbrains.core.web

import dev.wavehost.jetbrains.core.relay.View
import java.io.IOException
import java.io.InputStream
import java.nio.file.Files
import java.nio.file.LinkOption
import java.nio.file.Path

/** Where the built webview comes from: `webview/dist` in development, the plugin's jar when installed. */
fun interface WebviewAssets {
    /** The bytes of `assets/<path>` (already checked to be a plain relative path), or null. */
    fun read(path: String): ByteArray?

    companion object {
        const val MAX_BYTES = 32 * 1024 * 1024

        /** A built `dist/` directory (it must hold `assets/webview.js`); symlinks are not followed. */
        fun directory(dist: Path): WebviewAssets {
            val root = dist.resolve("assets")
            require(Files.isRegularFile(root.resolve("webview.js"))) {
                "the webview is not built: ${root.resolve("webview.js")} is missing (run scripts/setup, or npm run build in webview/)"
            }
            return WebviewAssets { path ->
                val file = root.resolve(path)
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_BYTES) null
                else Files.readAllBytes(file)
            }
        }

        /** Resources packaged under [prefix] (e.g. `/webview/assets`) next to [anchor]'s class. */
        fun classpath(anchor: Class<*>, prefix: String): WebviewAssets = WebviewAssets { path ->
            anchor.getResourceAsStream("$prefix/$path")?.use { readBounded(it) }
        }

        private fun readBounded(input: InputStream): ByteArray? {
            val bytes = input.readNBytes(MAX_BYTES + 1)
            return if (bytes.size > MAX_BYTES) null else bytes
        }
    }
}

/** One response of the custom scheme. */
class Resource(val status: Int, val mimeType: String, val body: ByteArray, val headers: Map<String, String>)

/**
 * What `https://wavehost.local/` serves to one page: `/index.html` (written here, never taken from
 * the bundle), `/bridge.js` (that page's transport) and the bundle's `/assets/…`. Everything else
 * is 404; only GET. `file://` cannot host the page (module scripts fail on CORS there).
 */
class PageResources(
    private val assets: WebviewAssets,
    private val view: View,
    locale: String,
    private val bridgeScript: () -> String,
) {
    private val locale = safeLocale(locale)

    fun serve(method: String, url: String): Resource {
        if (method != "GET") return notFound()
        if (!url.startsWith(ORIGIN + "/")) return notFound()
        val path = url.substring(ORIGIN.length).substringBefore('#').substringBefore('?')
        return when {
            path == "/" || path == "/index.html" -> ok("text/html", html().toByteArray())
            path == "/bridge.js" -> ok("text/javascript", bridgeScript().toByteArray())
            path.startsWith("/assets/") -> asset(path.removePrefix("/assets/"))
            else -> notFound()
        }
    }

    private fun asset(path: String): Resource {
        val segments = path.split('/')
        if (segments.any { it.isEmpty() || it == "." || it == ".." || !SEGMENT.matches(it) }) return notFound()
        val bytes = try {
            assets.read(path)
        } catch (e: IOException) {
            null
        } ?: return notFound()
        return ok(mimeType(path), bytes)
    }

    /** The page: the bundle's two fixed asset names under the strict CSP; the bridge script runs first. */
    fun html(): String = """
        |<!doctype html>
        |<html data-locale="$locale" data-shell="jetbrains">
        |  <head>
        |    <meta charset="utf-8">
        |    <meta http-equiv="Content-Security-Policy" content="$CSP">
        |    <meta name="viewport" content="width=device-width, initial-scale=1">
        |    <title>wavehost</title>
        |    <link rel="icon" href="data:,">
        |    <link rel="stylesheet" href="$ORIGIN/assets/webview.css">
        |    <script src="$ORIGIN/bridge.js"></script>
        |    <script type="module" src="$ORIGIN/assets/webview.js"></script>
        |  </head>
        |  <body data-view="${view.id}"></body>
        |</html>
        |""".trimMargin()

    companion object {
        const val ORIGIN = "https://wavehost.local"

        /** The same policy as the other shells: only this origin's scripts and styles; no inline script, no eval, no network. */
        const val CSP = "default-src 'none'; script-src $ORIGIN; style-src $ORIGIN; img-src $ORIGIN data:; " +
            "font-src $ORIGIN; connect-src 'none'; base-uri 'none'; form-action 'none'"

        fun pageUrl(): String = "$ORIGIN/index.html"

        /** True for the page's own origin; any other navigation leaves the page (the IDE opens it externally). */
        fun isInternal(url: String): Boolean = url == ORIGIN || url.startsWith("$ORIGIN/")

        private val SEGMENT = Regex("^[A-Za-z0-9._-]{1,128}$")
        private val LOCALE = Regex("^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,3}$")

        fun safeLocale(locale: String): String = locale.replace('_', '-').takeIf { LOCALE.matches(it) } ?: "en"

        private fun ok(mime: String, body: ByteArray) = Resource(200, mime, body, headers(mime))

        private fun notFound() = Resource(404, "text/plain", ByteArray(0), headers("text/plain"))

        private fun headers(mime: String): Map<String, String> = mapOf(
            "Content-Type" to if (mime.startsWith("text/")) "$mime; charset=utf-8" else mime,
            "Content-Security-Policy" to CSP,
            "X-Content-Type-Options" to "nosniff",
            "Cache-Control" to "no-store",
            "Access-Control-Allow-Origin" to ORIGIN,
        )

        fun mimeType(path: String): String = when (path.substringAfterLast('.', "").lowercase()) {
            "js", "mjs" -> "text/javascript"
            "css" -> "text/css"
            "json", "map" -> "application/json"
            "svg" -> "image/svg+xml"
            "png" -> "image/png"
            "woff2" -> "font/woff2"
            "woff" -> "font/woff"
            "ttf" -> "font/ttf"
            else -> "application/octet-stream"
        }
    }
}
