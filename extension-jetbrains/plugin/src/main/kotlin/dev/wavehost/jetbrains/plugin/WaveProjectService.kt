package dev.wavehost.jetbrains.plugin

import com.intellij.DynamicBundle
import com.intellij.ide.impl.isTrusted
import com.intellij.ide.plugins.PluginManagerCore
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.service
import com.intellij.openapi.diagnostic.logger
import com.intellij.openapi.extensions.PluginId
import com.intellij.openapi.fileEditor.FileEditorManager
import com.intellij.openapi.fileEditor.OpenFileDescriptor
import com.intellij.openapi.options.ShowSettingsUtil
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.guessProjectDir
import com.intellij.openapi.roots.ProjectRootManager
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.openapi.wm.ToolWindowManager
import dev.wavehost.jetbrains.core.HostConfig
import dev.wavehost.jetbrains.core.IdeHost
import dev.wavehost.jetbrains.core.WaveHost
import dev.wavehost.jetbrains.core.launcher.LaunchConfig
import dev.wavehost.jetbrains.core.launcher.PluginLayout
import dev.wavehost.jetbrains.core.relay.PageHandle
import dev.wavehost.jetbrains.core.web.WebviewAssets
import java.nio.file.Path
import java.util.concurrent.CompletableFuture

/** One project's wavehost: the core's [WaveHost], and the IDE actions it asks for. */
@Service(Service.Level.PROJECT)
class WaveProjectService(private val project: Project) : IdeHost, Disposable {
    private val log = logger<WaveProjectService>()

    fun launchConfig() = LaunchConfig(
        projectDir = Path.of(project.guessProjectDir()?.path ?: project.basePath!!),
        interpreterSetting = WaveSettings.instance().state.python,
        projectSdk = ProjectRootManager.getInstance(project).projectSdk?.takeIf { "Python" in it.sdkType.name }?.homePath,
        bundle = bundle(),
    )

    val host: WaveHost by lazy {
        WaveHost(
            HostConfig(
                launch = launchConfig(),
                locale = DynamicBundle.getLocale().toLanguageTag(),
                trusted = project.isTrusted(),
                assets = WebviewAssets.classpath(WaveProjectService::class.java, "/webview/assets"),
                theme = IdeThemeReader.read(),
            ),
            this,
        ) { log.info(it) }.also { it.start() }
    }

    /**
     * The server bundle the plugin's zip ships (scripts/package-jetbrains lays it out; the Gradle
     * build packs it): the server starts through its launcher, exactly that bundle.
     */
    private fun bundle(): Path? = PluginManagerCore.getPlugin(PluginId.getId("dev.wavehost"))
        ?.pluginPath?.let { PluginLayout.bundleIn(it) }

    override fun showDocument(path: Path, takeFocus: Boolean, line: Int?): CompletableFuture<Boolean> {
        val shown = CompletableFuture<Boolean>()
        ApplicationManager.getApplication().invokeLater {
            val file = LocalFileSystem.getInstance().refreshAndFindFileByNioFile(path)
            if (file == null) {
                shown.complete(false)
            } else {
                val at = if (line != null) OpenFileDescriptor(project, file, line - 1, 0) else OpenFileDescriptor(project, file)
                FileEditorManager.getInstance(project).openTextEditor(at, takeFocus)
                shown.complete(true)
            }
        }
        return shown
    }

    override fun openChat() = ApplicationManager.getApplication().invokeLater {
        ToolWindowManager.getInstance(project).getToolWindow(CHAT_TOOL_WINDOW)?.show()
    }

    override fun closeSettings(page: PageHandle) = ApplicationManager.getApplication().invokeLater {
        val manager = FileEditorManager.getInstance(project)
        manager.allEditors.filterIsInstance<SettingsEditor>().filter { it.browser.page === page }.forEach { manager.closeFile(it.file) }
    }

    /** One settings tab, like VS Code's panel: an open one is brought to the front (a chat's "Show in settings" row goes to it). */
    override fun openSettings() = ApplicationManager.getApplication().invokeLater {
        val manager = FileEditorManager.getInstance(project)
        val open = manager.allEditors.filterIsInstance<SettingsEditor>().firstOrNull()
        manager.openFile(open?.file ?: SettingsFile(), true)
    }

    /** The IDE's Trusted Locations page (Settings | Build, Execution, Deployment): where a project
     *  opened in safe mode is trusted; the TrustListener then tells the server. */
    override fun manageTrust() = ApplicationManager.getApplication().invokeLater {
        ShowSettingsUtil.getInstance().showSettingsDialog(project, "Trusted Locations")
    }

    override fun showError(message: String) {
        NotificationGroupManager.getInstance().getNotificationGroup("Wavehost")
            .createNotification("wavehost", message, NotificationType.ERROR).notify(project)
    }

    override fun dispose() {
        host.dispose()
    }

    companion object {
        const val CHAT_TOOL_WINDOW = "Wave"

        fun of(project: Project): WaveProjectService = project.service()
    }
}
