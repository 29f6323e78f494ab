package dev.wavehost.jetbrains.core.web

import com.google.gson.GsonBuilder

/**
 * The page's JetBrains transport (webview/src/transport/adapters.ts): before the page's script
 * runs, `window.__waveJetBrainsBridge = { postMessage(json) }` exists; the shell answers by
 * dispatching a window `message` event whose `data` is the envelope's JSON text.
 */
object Bridge {
    private val gson = GsonBuilder().disableHtmlEscaping().create()

    /**
     * The bridge script (served as `/bridge.js`, a classic script that runs before the page's
     * module). [postFunction] is a JavaScript function expression taking the JSON text: over a
     * `JBCefJSQuery` it is `function(json){ <query.inject("json")> }`, over a `CefMessageRouter`
     * [cefQueryPost]. [initialScript] runs first (the theme).
     */
    fun script(postFunction: String, initialScript: String = ""): String = """
        |(function () {
        |  "use strict";
        |  $initialScript
        |  var post = $postFunction;
        |  var bridge = Object.freeze({ postMessage: function (json) { post(String(json)); } });
        |  Object.defineProperty(window, "__waveJetBrainsBridge", { value: bridge, writable: false, configurable: false });
        |})();
        |""".trimMargin()

    /** A `postFunction` over JCEF's message router (`window.cefQuery`, or a renamed query function). */
    fun cefQueryPost(queryFunction: String = "cefQuery"): String {
        require(Regex("^[A-Za-z_$][A-Za-z0-9_$]*$").matches(queryFunction)) { "not a JavaScript name: $queryFunction" }
        return "function (json) { window.$queryFunction({ request: json, persistent: false, " +
            "onSuccess: function () {}, onFailure: function (code, message) { console.error(\"wavehost bridge: \" + message); } }); }"
    }

    /** JavaScript that delivers one envelope (its JSON text) to the page. */
    fun dispatchScript(json: String): String =
        "window.dispatchEvent(new MessageEvent(\"message\", { data: ${jsString(json)} }));"

    /** A JavaScript string literal (JSON escaping, plus U+2028/U+2029 which JSON allows raw). */
    fun jsString(text: String): String =
        gson.toJson(text).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
}
