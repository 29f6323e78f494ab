package dev.wavehost.jetbrains.core

import dev.wavehost.jetbrains.core.protocol.ShellTexts
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class ShellTextTest {
    @Test
    fun `the IDE's language picks the plugin's texts by the documented rule`() {
        for (locale in listOf("zh-CN", "zh-TW", "zh_CN", "ZH")) assertEquals("zh", ShellText.languageOf(locale), locale)
        for (locale in listOf("en", "en_GB", "fr", "de-DE", "no", "", " ", null)) {
            assertEquals("en", ShellText.languageOf(locale), "$locale")
        }
    }

    @Test
    fun `a notification is worded in that language with its values filled in`() {
        val values = mapOf("reason" to "The server stopped.", "count" to 5)
        assertEquals(
            "The server stopped. 已连续停止 5 次；运行“Wave: Restart Host”再试一次。",
            ShellText.of("zh-CN", ShellTexts.GAVE_UP, values),
        )
        assertEquals(
            "The server stopped. It stopped 5 times in a row; run \"Wave: Restart Host\" to try again.",
            ShellText.of("fr-FR", ShellTexts.GAVE_UP, values),
        )
        assertEquals("wavehost 正在重启。", ShellText.of("zh-Hans-CN", ShellTexts.RESTARTING_HOST))
    }
}
