package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.protocol.LanguageRule
import dev.wavehost.jetbrains.core.protocol.ShellTexts

/**
 * What the plugin itself tells the user (notifications, the pages' "server down" reason), in the
 * UI language the documented rule (LanguageRule, generated from wavehost.language) picks from the
 * IDE's language — the pages' language. The texts are the server's (ShellTexts, generated from
 * wavehost.protocol.shell_texts); none is written here.
 */
object ShellText {
    /** The locale's primary subtag if it is one of the rule's languages, else the fallback. */
    fun languageOf(locale: String?): String {
        val trimmed = locale?.trim()
        if (trimmed.isNullOrEmpty()) return LanguageRule.UNSET
        val primary = trimmed.replace('_', '-').substringBefore('-').lowercase()
        return LanguageRule.LANGUAGES.firstOrNull { it == primary } ?: LanguageRule.FALLBACK
    }

    /** The text [key] in [locale]'s language, its `{name}`s filled from [values]. */
    fun of(locale: String?, key: String, values: Map<String, Any> = emptyMap()): String {
        val text = ShellTexts.TEXTS.getValue(languageOf(locale)).getValue(key)
        return Regex("""\{(\w+)\}""").replace(text) { match ->
            values[match.groupValues[1]]?.toString() ?: match.value
        }
    }
}
