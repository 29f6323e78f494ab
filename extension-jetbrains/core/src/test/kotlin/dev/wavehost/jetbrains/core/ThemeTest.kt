package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.theme.IdeTheme
import dev.wavehost.jetbrains.core.theme.ThemeKind
import dev.wavehost.jetbrains.core.theme.ThemeMapping
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

class ThemeTest {
    private val darcula = IdeTheme(
        mapOf(
            IdeTheme.EDITOR_BACKGROUND to "#2b2b2b", IdeTheme.EDITOR_FOREGROUND to "#a9b7c6",
            "Panel.background" to "#3c3f41", "Label.foreground" to "#bbbbbb",
            "Button.default.startBackground" to "#365880", "Borders.color" to "#4c4e50",
        ),
    )

    @Test
    fun `a dark colour table maps to dark variables from the IDE's own colours`() {
        val vars = ThemeMapping.cssVariables(darcula)
        assertEquals(ThemeKind.DARK, ThemeMapping.kind(darcula))
        assertEquals("#2b2b2b", vars["--vscode-editor-background"])
        assertEquals("#a9b7c6", vars["--vscode-editor-foreground"])
        assertEquals("#bbbbbb", vars["--vscode-foreground"])
        assertEquals("#3c3f41", vars["--vscode-editorWidget-background"])
        assertEquals("#365880", vars["--vscode-button-background"])
        assertEquals("#4c4e50", vars["--vscode-widget-border"])
        // What the table lacks comes from the dark defaults, never the light ones.
        assertEquals("#313131", vars["--vscode-input-background"])
    }

    @Test
    fun `a light table maps to light, an empty one gives the light defaults`() {
        val light = IdeTheme(mapOf(IdeTheme.EDITOR_BACKGROUND to "#ffffff", "Label.foreground" to "#000000"))
        assertEquals(ThemeKind.LIGHT, ThemeMapping.kind(light))
        assertEquals("#000000", ThemeMapping.cssVariables(light)["--vscode-foreground"])
        assertEquals("#ffffff", ThemeMapping.cssVariables(IdeTheme(emptyMap()))["--vscode-editor-background"])
    }

    @Test
    fun `high contrast outlines the controls`() {
        val hc = IdeTheme(mapOf(IdeTheme.EDITOR_BACKGROUND to "#000000", "Component.focusColor" to "#ffd700"), highContrast = true)
        val vars = ThemeMapping.cssVariables(hc)
        assertEquals(ThemeKind.HIGH_CONTRAST, ThemeMapping.kind(hc))
        assertEquals("#ffd700", vars["--vscode-button-border"])
        assertEquals("#6fc3df", vars["--vscode-widget-border"])
        assertEquals("transparent", ThemeMapping.cssVariables(darcula)["--vscode-button-border"])
    }

    @Test
    fun `every variable the webview's theme defines gets a value, and nothing else`() {
        val css = Files.readString(REPO.resolve("webview/src/theme.css"))
        val defined = Regex("(--vscode-[A-Za-z0-9-]+):").findAll(css).map { it.groupValues[1] }.toSet()
        assertTrue(defined.size > 30)
        for (theme in listOf(darcula, IdeTheme(emptyMap()), IdeTheme(emptyMap(), highContrast = true))) {
            assertEquals(defined, ThemeMapping.cssVariables(theme).keys)
        }
    }

    @Test
    fun `colours that do not parse are ignored, font names cannot break out of the value`() {
        val odd = IdeTheme(
            mapOf(IdeTheme.EDITOR_BACKGROUND to "red;}body{x", "Label.foreground" to "#12"),
            fontFamily = "JetBrains Mono\"; } * { color: red", fontSizePx = 14, editorFontSizePx = 999,
        )
        val vars = ThemeMapping.cssVariables(odd)
        assertEquals("#ffffff", vars["--vscode-editor-background"])
        assertEquals("#3b3b3b", vars["--vscode-foreground"])
        assertEquals("\"JetBrains Mono    color red\", system-ui, sans-serif", vars["--vscode-font-family"])
        assertEquals("14px", vars["--vscode-font-size"])
        assertEquals("12px", vars["--vscode-editor-font-size"])
    }

    @Test
    fun `the script that applies a theme sets the variables and the colour scheme on html`() {
        val script = ThemeMapping.applyScript(darcula)
        assertTrue("\"--vscode-editor-background\":\"#2b2b2b\"" in script, script)
        assertTrue("s.colorScheme=\"dark\"" in script)
        assertFalse("</" in script)
    }
}
