package dev.wavehost.jetbrains.plugin

import com.intellij.openapi.actionSystem.AnActionEvent
import com.intellij.openapi.project.DumbAwareAction

class OpenSettingsAction : DumbAwareAction() {
    override fun actionPerformed(e: AnActionEvent) {
        e.project?.let { WaveProjectService.of(it).openSettings() }
    }
}

class OpenChatAction : DumbAwareAction() {
    override fun actionPerformed(e: AnActionEvent) {
        e.project?.let { WaveProjectService.of(it).openChat() }
    }
}

class RestartHostAction : DumbAwareAction() {
    override fun actionPerformed(e: AnActionEvent) {
        e.project?.let { WaveProjectService.of(it).host.restart() }
    }
}
