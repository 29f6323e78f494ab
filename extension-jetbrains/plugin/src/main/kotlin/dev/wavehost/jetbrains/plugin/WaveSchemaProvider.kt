package dev.wavehost.jetbrains.plugin

import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.testFramework.LightVirtualFile
import com.jetbrains.jsonSchema.extension.JsonSchemaFileProvider
import com.jetbrains.jsonSchema.extension.JsonSchemaProviderFactory
import com.jetbrains.jsonSchema.extension.SchemaType
import dev.wavehost.jetbrains.core.launcher.SettingsSchema

/** `.wave/settings*.json` is checked against the schema the Python package ships (`wavehost settings-schema`). */
class WaveSchemaProviderFactory : JsonSchemaProviderFactory {
    override fun getProviders(project: Project): List<JsonSchemaFileProvider> = listOf(WaveSchemaProvider(project))
}

private class WaveSchemaProvider(private val project: Project) : JsonSchemaFileProvider {
    private val schema: VirtualFile? by lazy {
        SettingsSchema.fetch(WaveProjectService.of(project).launchConfig())?.let { LightVirtualFile("wavehost-settings.schema.json", it) }
    }

    override fun isAvailable(file: VirtualFile): Boolean = SettingsSchema.applies(file.path)

    override fun getName(): String = "wavehost settings"

    override fun getSchemaFile(): VirtualFile? = schema

    override fun getSchemaType(): SchemaType = SchemaType.embeddedSchema
}
