package dev.wavehost.jetbrains.preview

import com.jetbrains.plugin.structure.base.plugin.PluginCreationFail
import com.jetbrains.plugin.structure.base.plugin.PluginCreationSuccess
import com.jetbrains.plugin.structure.intellij.plugin.IdePlugin
import com.jetbrains.plugin.structure.intellij.plugin.IdePluginManager
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.fail
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** plugin.xml as JetBrains' own parser and validator (structure-intellij) reads it. */
class PluginXmlTest {
    @TempDir
    lateinit var tmp: Path

    private val resources = REPO.resolve("extension-jetbrains/plugin/src/main/resources")

    /** The plugin as the IDE sees it: a directory with the jar's META-INF (the Gradle build adds since-build). */
    private fun load(pluginXml: String = Files.readString(resources.resolve("META-INF/plugin.xml"))): Any {
        val meta = Files.createDirectories(tmp.resolve("wavehost/META-INF"))
        Files.writeString(meta.resolve("plugin.xml"), pluginXml.replace("<idea-plugin>", "<idea-plugin>\n  <version>0.1.0</version>\n  <idea-version since-build=\"252\"/>"))
        Files.copy(resources.resolve("META-INF/wavehost-json.xml"), meta.resolve("wavehost-json.xml"))
        return IdePluginManager.createManager().createPlugin(tmp.resolve("wavehost"))
    }

    @Test
    fun `plugin-xml is a valid plugin descriptor with the extensions the glue provides`() {
        val result = load()
        if (result is PluginCreationFail<*>) fail("plugin.xml is invalid: ${result.errorsAndWarnings}")
        val plugin = (result as PluginCreationSuccess<*>).plugin as IdePlugin
        assertEquals("dev.wavehost", plugin.pluginId)
        assertEquals("Wavehost", plugin.pluginName)
        assertEquals(emptyList<Any>(), result.unacceptableWarnings)
        val extensions = plugin.extensions.keys
        assertTrue(extensions.containsAll(listOf("com.intellij.fileEditorProvider", "com.intellij.toolWindow")), "$extensions")
        assertTrue(plugin.dependencies.any { it.id == "com.intellij.modules.json" && it.isOptional })
    }

    @Test
    fun `the validator would catch a broken descriptor`() {
        val result = load(Files.readString(resources.resolve("META-INF/plugin.xml")).replace("<id>dev.wavehost</id>", "").replace("<name>Wavehost</name>", ""))
        assertTrue(result is PluginCreationFail<*>, "a descriptor without id and name is refused")
    }
}
