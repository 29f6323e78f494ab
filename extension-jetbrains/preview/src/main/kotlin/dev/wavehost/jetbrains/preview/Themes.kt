package dev.wavehost.jetbrains.preview

import com.google.gson.JsonParser
import dev.wavehost.jetbrains.core.theme.IdeTheme

/** Colour tables as an IDE reports them (IntelliJ Light and Darcula), for the preview and its tests. */
object Themes {
    fun light(): IdeTheme = load("light")

    fun dark(): IdeTheme = load("darcula")

    private fun load(name: String): IdeTheme {
        val text = Themes::class.java.getResourceAsStream("/themes/$name.json")!!.use { it.readBytes().decodeToString() }
        val colors = JsonParser.parseString(text).asJsonObject.entrySet()
            .filter { !it.key.startsWith("_") }
            .associate { it.key to it.value.asString }
        return IdeTheme(colors)
    }
}
