package dev.wavehost.jetbrains.core.theme

import com.google.gson.Gson

/**
 * The IDE's look as the glue reads it: colours by their IntelliJ UI key ("Panel.background", …,
 * see [IdeTheme.KEYS]) as `#rrggbb`, plus fonts and the high-contrast flag.
 */
data class IdeTheme(
    val colors: Map<String, String>,
    val highContrast: Boolean = false,
    val fontFamily: String? = null,
    val fontSizePx: Int? = null,
    val editorFontFamily: String? = null,
    val editorFontSizePx: Int? = null,
) {
    companion object {
        /** The UI keys the mapping reads; the glue asks the IDE for exactly these. */
        val KEYS: List<String> = listOf(
            EDITOR_BACKGROUND, EDITOR_FOREGROUND,
            "Panel.background", "Panel.foreground", "Label.foreground", "Label.disabledForeground",
            "Label.errorForeground", "Component.infoForeground", "Component.borderColor",
            "Component.focusColor", "Borders.color", "ToolWindow.background", "Link.activeForeground",
            "Counter.background", "Counter.foreground", "Button.default.startBackground",
            "Button.default.foreground", "Button.startBackground", "Button.foreground",
            "TextField.background", "TextField.foreground", "TabbedPane.underlineColor",
            "ProgressBar.progressColor", "ValidationTooltip.errorBackground",
            "ValidationTooltip.errorBorderColor", "ValidationTooltip.warningBackground",
            "ValidationTooltip.warningBorderColor",
        )

        /** The editor colour scheme's default background / foreground (not UI keys). */
        const val EDITOR_BACKGROUND = "editor.background"
        const val EDITOR_FOREGROUND = "editor.foreground"
    }
}

enum class ThemeKind(val cssName: String, val colorScheme: String) {
    LIGHT("light", "light"),
    DARK("dark", "dark"),
    HIGH_CONTRAST("high-contrast", "dark"),
}

/** A colour as 0..255 channels; only `#rgb` and `#rrggbb` (optionally with alpha, dropped) parse. */
internal data class Rgb(val r: Int, val g: Int, val b: Int) {
    val luminance: Double
        get() {
            fun lin(c: Int): Double = (c / 255.0).let { if (it <= 0.03928) it / 12.92 else Math.pow((it + 0.055) / 1.055, 2.4) }
            return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
        }

    fun mix(other: Rgb, amount: Double): Rgb = Rgb(
        (r + (other.r - r) * amount).toInt(),
        (g + (other.g - g) * amount).toInt(),
        (b + (other.b - b) * amount).toInt(),
    )

    override fun toString(): String = "#%02x%02x%02x".format(r, g, b)

    companion object {
        private val HEX = Regex("^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")

        fun parse(text: String?): Rgb? {
            val value = text?.trim() ?: return null
            if (!HEX.matches(value)) return null
            val hex = value.substring(1)
            return if (hex.length == 3) {
                Rgb(hex[0].digitToInt(16) * 17, hex[1].digitToInt(16) * 17, hex[2].digitToInt(16) * 17)
            } else {
                Rgb(hex.substring(0, 2).toInt(16), hex.substring(2, 4).toInt(16), hex.substring(4, 6).toInt(16))
            }
        }
    }
}

/**
 * The IDE's colours → the `--vscode-*` variables the webview uses. Pure: every variable gets a
 * value (the kind's default when the IDE has no colour for it), and nothing else is emitted.
 */
object ThemeMapping {
    fun kind(theme: IdeTheme): ThemeKind {
        val background = Rgb.parse(theme.colors[IdeTheme.EDITOR_BACKGROUND]) ?: Rgb.parse(theme.colors["Panel.background"])
        val dark = background != null && background.luminance < 0.2
        return when {
            theme.highContrast -> ThemeKind.HIGH_CONTRAST
            dark -> ThemeKind.DARK
            else -> ThemeKind.LIGHT
        }
    }

    fun cssVariables(theme: IdeTheme): Map<String, String> {
        val kind = kind(theme)
        val c = theme.colors
        fun color(vararg keys: String): String? = keys.firstNotNullOfOrNull { Rgb.parse(c[it]) }?.toString()
        val vars = LinkedHashMap(Defaults.of(kind))
        fun set(name: String, value: String?) {
            if (value != null) vars[name] = value
        }
        val background = color(IdeTheme.EDITOR_BACKGROUND, "Panel.background")
        val foreground = color("Label.foreground", "Panel.foreground", IdeTheme.EDITOR_FOREGROUND)
        val border = color("Borders.color", "Component.borderColor")
        val muted = color("Label.disabledForeground", "Component.infoForeground")
        set("--vscode-foreground", foreground)
        set("--vscode-descriptionForeground", color("Component.infoForeground", "Label.disabledForeground"))
        set("--vscode-errorForeground", color("Label.errorForeground"))
        set("--vscode-editor-background", background)
        set("--vscode-editor-foreground", color(IdeTheme.EDITOR_FOREGROUND, "Label.foreground"))
        set("--vscode-editorWidget-background", color("Panel.background"))
        set("--vscode-widget-border", border)
        set("--vscode-panel-border", border)
        set("--vscode-settings-headerBorder", border)
        set("--vscode-panel-background", color("ToolWindow.background", "Panel.background"))
        set("--vscode-focusBorder", color("Component.focusColor"))
        set("--vscode-textLink-foreground", color("Link.activeForeground"))
        set("--vscode-badge-background", color("Counter.background"))
        set("--vscode-badge-foreground", color("Counter.foreground"))
        set("--vscode-button-background", color("Button.default.startBackground"))
        set("--vscode-button-foreground", color("Button.default.foreground"))
        set("--vscode-button-secondaryBackground", color("Button.startBackground"))
        set("--vscode-button-secondaryForeground", color("Button.foreground"))
        set("--vscode-input-background", color("TextField.background"))
        set("--vscode-input-foreground", color("TextField.foreground", "Label.foreground"))
        set("--vscode-input-border", color("Component.borderColor"))
        set("--vscode-tab-activeForeground", foreground)
        set("--vscode-tab-inactiveForeground", muted)
        set("--vscode-panelTitle-activeBorder", color("TabbedPane.underlineColor", "Component.focusColor"))
        set("--vscode-panelTitle-activeForeground", foreground)
        set("--vscode-panelTitle-inactiveForeground", muted)
        set("--vscode-progressBar-background", color("ProgressBar.progressColor", "Component.focusColor"))
        set("--vscode-inputValidation-errorBackground", color("ValidationTooltip.errorBackground"))
        set("--vscode-inputValidation-errorBorder", color("ValidationTooltip.errorBorderColor"))
        set("--vscode-inputValidation-warningBackground", color("ValidationTooltip.warningBackground"))
        set("--vscode-inputValidation-warningBorder", color("ValidationTooltip.warningBorderColor"))
        // Derived: what the IDE has no key for, from the colours it has.
        val bg = Rgb.parse(vars["--vscode-editor-background"])!!
        val fg = Rgb.parse(vars["--vscode-foreground"])!!
        vars["--vscode-textCodeBlock-background"] = bg.mix(fg, 0.08).toString()
        Rgb.parse(vars["--vscode-button-background"])?.let {
            vars["--vscode-button-hoverBackground"] = it.mix(fg, 0.12).toString()
        }
        Rgb.parse(vars["--vscode-button-secondaryBackground"])?.let {
            vars["--vscode-button-secondaryHoverBackground"] = it.mix(fg, 0.12).toString()
        }
        if (kind == ThemeKind.HIGH_CONTRAST) {
            // High contrast: every control is outlined.
            vars["--vscode-button-border"] = vars["--vscode-focusBorder"]!!
        }
        theme.fontFamily?.let { vars["--vscode-font-family"] = cssFontFamily(it, "system-ui, sans-serif") }
        theme.fontSizePx?.takeIf { it in 6..72 }?.let { vars["--vscode-font-size"] = "${it}px" }
        theme.editorFontFamily?.let { vars["--vscode-editor-font-family"] = cssFontFamily(it, "monospace") }
        theme.editorFontSizePx?.takeIf { it in 6..72 }?.let { vars["--vscode-editor-font-size"] = "${it}px" }
        return vars
    }

    /** A font family name as a CSS value: quoted, anything that could end the value dropped. */
    internal fun cssFontFamily(name: String, fallback: String): String {
        val clean = name.filter { it.isLetterOrDigit() || it == ' ' || it == '-' || it == '_' }.trim()
        return if (clean.isEmpty()) fallback else "\"$clean\", $fallback"
    }

    /** JavaScript that applies the variables to `<html>` (an inline style wins over the page's defaults). */
    fun applyScript(theme: IdeTheme): String {
        val vars = Gson().toJson(cssVariables(theme))
        val kind = kind(theme)
        return "(function(v){var s=document.documentElement.style;for(var k in v){s.setProperty(k,v[k]);}" +
            "s.colorScheme=\"${kind.colorScheme}\";document.documentElement.dataset.theme=\"${kind.cssName}\";})($vars);"
    }
}

/** The kinds' defaults: VS Code's light and dark palettes (as in the webview's theme.css), and high contrast. */
internal object Defaults {
    private val common = mapOf(
        "--vscode-font-family" to "system-ui, -apple-system, \"Segoe UI\", \"Noto Sans CJK SC\", sans-serif",
        "--vscode-font-size" to "13px",
        "--vscode-editor-font-family" to "ui-monospace, \"DejaVu Sans Mono\", monospace",
        "--vscode-editor-font-size" to "12px",
        "--vscode-button-border" to "transparent",
    )

    private val light = mapOf(
        "--vscode-foreground" to "#3b3b3b", "--vscode-descriptionForeground" to "#6f6f6f",
        "--vscode-errorForeground" to "#c72e0f", "--vscode-editor-background" to "#ffffff",
        "--vscode-editor-foreground" to "#3b3b3b", "--vscode-editorWidget-background" to "#f8f8f8",
        "--vscode-widget-border" to "#e5e5e5", "--vscode-panel-border" to "#e5e5e5",
        "--vscode-panel-background" to "#f8f8f8", "--vscode-focusBorder" to "#005fb8",
        "--vscode-textLink-foreground" to "#005fb8", "--vscode-textCodeBlock-background" to "#f0f0f0",
        "--vscode-badge-background" to "#cccccc", "--vscode-badge-foreground" to "#3b3b3b",
        "--vscode-button-background" to "#005fb8", "--vscode-button-foreground" to "#ffffff",
        "--vscode-button-hoverBackground" to "#0258a8", "--vscode-button-secondaryBackground" to "#e5e5e5",
        "--vscode-button-secondaryForeground" to "#3b3b3b", "--vscode-button-secondaryHoverBackground" to "#cccccc",
        "--vscode-input-background" to "#ffffff", "--vscode-input-foreground" to "#3b3b3b",
        "--vscode-input-border" to "#cecece", "--vscode-settings-headerBorder" to "#e5e5e5",
        "--vscode-tab-activeForeground" to "#3b3b3b", "--vscode-tab-inactiveForeground" to "#868686",
        "--vscode-panelTitle-activeBorder" to "#005fb8", "--vscode-panelTitle-activeForeground" to "#3b3b3b",
        "--vscode-panelTitle-inactiveForeground" to "#6f6f6f", "--vscode-inputValidation-infoBackground" to "#e6f2fa",
        "--vscode-inputValidation-infoBorder" to "#0078d4", "--vscode-inputValidation-warningBackground" to "#fff8e1",
        "--vscode-inputValidation-warningBorder" to "#b89500", "--vscode-inputValidation-errorBackground" to "#fde7e9",
        "--vscode-inputValidation-errorBorder" to "#be1100", "--vscode-progressBar-background" to "#005fb8",
        "--vscode-testing-iconPassed" to "#388a34", "--vscode-testing-iconFailed" to "#c72e0f",
    )

    private val dark = mapOf(
        "--vscode-foreground" to "#cccccc", "--vscode-descriptionForeground" to "#9d9d9d",
        "--vscode-errorForeground" to "#f85149", "--vscode-editor-background" to "#1f1f1f",
        "--vscode-editor-foreground" to "#cccccc", "--vscode-editorWidget-background" to "#202020",
        "--vscode-widget-border" to "#313131", "--vscode-panel-border" to "#2b2b2b",
        "--vscode-panel-background" to "#181818", "--vscode-focusBorder" to "#0078d4",
        "--vscode-textLink-foreground" to "#4daafc", "--vscode-textCodeBlock-background" to "#2b2b2b",
        "--vscode-badge-background" to "#616161", "--vscode-badge-foreground" to "#f8f8f8",
        "--vscode-button-background" to "#0078d4", "--vscode-button-foreground" to "#ffffff",
        "--vscode-button-hoverBackground" to "#026ec1", "--vscode-button-secondaryBackground" to "#313131",
        "--vscode-button-secondaryForeground" to "#cccccc", "--vscode-button-secondaryHoverBackground" to "#3c3c3c",
        "--vscode-input-background" to "#313131", "--vscode-input-foreground" to "#cccccc",
        "--vscode-input-border" to "#3c3c3c", "--vscode-settings-headerBorder" to "#2b2b2b",
        "--vscode-tab-activeForeground" to "#ffffff", "--vscode-tab-inactiveForeground" to "#9d9d9d",
        "--vscode-panelTitle-activeBorder" to "#0078d4", "--vscode-panelTitle-activeForeground" to "#cccccc",
        "--vscode-panelTitle-inactiveForeground" to "#9d9d9d", "--vscode-inputValidation-infoBackground" to "#063b49",
        "--vscode-inputValidation-infoBorder" to "#007acc", "--vscode-inputValidation-warningBackground" to "#352a05",
        "--vscode-inputValidation-warningBorder" to "#b89500", "--vscode-inputValidation-errorBackground" to "#5a1d1d",
        "--vscode-inputValidation-errorBorder" to "#be1100", "--vscode-progressBar-background" to "#0078d4",
        "--vscode-testing-iconPassed" to "#73c991", "--vscode-testing-iconFailed" to "#f14c4c",
    )

    private val highContrast = dark + mapOf(
        "--vscode-foreground" to "#ffffff", "--vscode-descriptionForeground" to "#ffffff",
        "--vscode-errorForeground" to "#f48771", "--vscode-editor-background" to "#000000",
        "--vscode-editor-foreground" to "#ffffff", "--vscode-editorWidget-background" to "#0c141f",
        "--vscode-widget-border" to "#6fc3df", "--vscode-panel-border" to "#6fc3df",
        "--vscode-panel-background" to "#000000", "--vscode-focusBorder" to "#f38518",
        "--vscode-textLink-foreground" to "#21a6ff", "--vscode-badge-background" to "#000000",
        "--vscode-badge-foreground" to "#ffffff", "--vscode-button-background" to "#000000",
        "--vscode-button-foreground" to "#ffffff", "--vscode-button-secondaryBackground" to "#000000",
        "--vscode-button-secondaryForeground" to "#ffffff", "--vscode-input-background" to "#000000",
        "--vscode-input-foreground" to "#ffffff", "--vscode-input-border" to "#6fc3df",
        "--vscode-settings-headerBorder" to "#6fc3df", "--vscode-tab-activeForeground" to "#ffffff",
        "--vscode-tab-inactiveForeground" to "#ffffff", "--vscode-panelTitle-activeBorder" to "#f38518",
        "--vscode-panelTitle-activeForeground" to "#ffffff", "--vscode-panelTitle-inactiveForeground" to "#ffffff",
    )

    fun of(kind: ThemeKind): Map<String, String> = common + when (kind) {
        ThemeKind.LIGHT -> light
        ThemeKind.DARK -> dark
        ThemeKind.HIGH_CONTRAST -> highContrast
    }
}
