package dev.wavehost.jetbrains.plugin

import com.intellij.openapi.project.DumbAware
import com.intellij.openapi.project.Project
import com.intellij.openapi.wm.ToolWindow
import com.intellij.openapi.wm.ToolWindowFactory
import com.intellij.ui.content.ContentFactory
import dev.wavehost.jetbrains.core.relay.View

class ChatToolWindowFactory : ToolWindowFactory, DumbAware {
    override fun createToolWindowContent(project: Project, toolWindow: ToolWindow) {
        val browser = WaveBrowser(WaveProjectService.of(project), View.CHAT)
        val content = ContentFactory.getInstance().createContent(browser.component, "", false)
        content.setDisposer(browser)
        toolWindow.contentManager.addContent(content)
    }
}
