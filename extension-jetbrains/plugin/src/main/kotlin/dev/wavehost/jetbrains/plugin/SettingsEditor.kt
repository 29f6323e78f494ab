package dev.wavehost.jetbrains.plugin

import com.intellij.openapi.fileEditor.FileEditor
import com.intellij.openapi.fileEditor.FileEditorPolicy
import com.intellij.openapi.fileEditor.FileEditorProvider
import com.intellij.openapi.fileEditor.FileEditorState
import com.intellij.openapi.fileTypes.PlainTextFileType
import com.intellij.openapi.project.DumbAware
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.Disposer
import com.intellij.openapi.util.UserDataHolderBase
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.testFramework.LightVirtualFile
import dev.wavehost.jetbrains.core.relay.View
import java.beans.PropertyChangeListener
import javax.swing.JComponent

/** The light virtual file "Wave Hooks" whose editor is the settings page. */
class SettingsFile : LightVirtualFile(WavehostBundle.message("settings.tab"), PlainTextFileType.INSTANCE, "") {
    init {
        isWritable = false
    }
}

class SettingsEditorProvider : FileEditorProvider, DumbAware {
    override fun accept(project: Project, file: VirtualFile): Boolean = file is SettingsFile

    override fun createEditor(project: Project, file: VirtualFile): FileEditor = SettingsEditor(project, file)

    override fun getEditorTypeId(): String = "wavehost-settings"

    override fun getPolicy(): FileEditorPolicy = FileEditorPolicy.HIDE_DEFAULT_EDITOR
}

class SettingsEditor(project: Project, private val virtualFile: VirtualFile) : UserDataHolderBase(), FileEditor {
    val browser = WaveBrowser(WaveProjectService.of(project), View.SETTINGS)

    init {
        Disposer.register(this, browser)
    }

    override fun getComponent(): JComponent = browser.component

    override fun getPreferredFocusedComponent(): JComponent = browser.component

    override fun getName(): String = WavehostBundle.message("settings.tab")

    override fun getFile(): VirtualFile = virtualFile

    override fun setState(state: FileEditorState) {}

    override fun isModified(): Boolean = false

    override fun isValid(): Boolean = true

    override fun addPropertyChangeListener(listener: PropertyChangeListener) {}

    override fun removePropertyChangeListener(listener: PropertyChangeListener) {}

    override fun dispose() {}
}
