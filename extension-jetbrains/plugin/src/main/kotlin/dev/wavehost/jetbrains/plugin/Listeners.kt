package dev.wavehost.jetbrains.plugin

import com.intellij.ide.trustedProjects.TrustedProjectsListener
import com.intellij.ide.ui.LafManager
import com.intellij.ide.ui.LafManagerListener
import com.intellij.openapi.editor.colors.EditorColorsManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManager
import dev.wavehost.jetbrains.core.theme.IdeTheme
import javax.swing.UIManager

/** The IDE's colour table for the core's theme mapping: exactly the keys it asks for. */
object IdeThemeReader {
    fun read(): IdeTheme {
        val scheme = EditorColorsManager.getInstance().globalScheme
        val colors = IdeTheme.KEYS.mapNotNull { key ->
            val color = when (key) {
                IdeTheme.EDITOR_BACKGROUND -> scheme.defaultBackground
                IdeTheme.EDITOR_FOREGROUND -> scheme.defaultForeground
                else -> UIManager.getColor(key)
            } ?: return@mapNotNull null
            key to "#%02x%02x%02x".format(color.red, color.green, color.blue)
        }.toMap()
        val laf = LafManager.getInstance().currentUIThemeLookAndFeel
        val font = UIManager.getFont("Label.font")
        return IdeTheme(
            colors,
            highContrast = laf?.name?.contains("High contrast", ignoreCase = true) == true,
            fontFamily = font?.family,
            fontSizePx = font?.size,
            editorFontFamily = scheme.editorFontName,
            editorFontSizePx = scheme.editorFontSize,
        )
    }
}

/** A theme change is pushed to every open page of every project. */
class ThemeListener : LafManagerListener {
    override fun lookAndFeelChanged(source: LafManager) {
        val theme = IdeThemeReader.read()
        for (project in ProjectManager.getInstance().openProjects) WaveProjectService.of(project).host.setTheme(theme)
    }
}

/** Workspace trust changed, either way (trusted, or back in safe mode): the running server is told. */
class TrustListener : TrustedProjectsListener {
    override fun onProjectTrusted(project: Project) {
        WaveProjectService.of(project).host.setTrusted(true)
    }

    override fun onProjectUntrusted(project: Project) {
        WaveProjectService.of(project).host.setTrusted(false)
    }
}
