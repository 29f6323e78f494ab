package dev.wavehost.jetbrains.core

import com.google.gson.JsonElement
import dev.wavehost.jetbrains.core.lsp.WaveLauncherBuilder
import dev.wavehost.jetbrains.core.protocol.Direction
import dev.wavehost.jetbrains.core.protocol.Kind
import dev.wavehost.jetbrains.core.protocol.Protocol
import dev.wavehost.jetbrains.core.protocol.ProtocolTable
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import kotlin.io.path.extension
import kotlin.io.path.invariantSeparatorsPathString
import kotlin.io.path.readText

class ProtocolTableTest {
    @Test
    fun `the generated table matches what the server's protocol schema generates now`() {
        val script = REPO.resolve("extension-jetbrains/scripts/gen_protocol.py")
        val process = ProcessBuilder(PYTHON.toString(), script.toString(), "--check").redirectErrorStream(true).start()
        val output = process.inputStream.bufferedReader().readText()
        assertTrue(process.waitFor(60, TimeUnit.SECONDS))
        // On failure: run `.venv/bin/python extension-jetbrains/scripts/gen_protocol.py` and review the diff.
        assertEquals(0, process.exitValue(), output)
    }

    @Test
    fun `the relay's allow-lists come from the table, by direction and kind`() {
        for (m in ProtocolTable.METHODS) {
            val pageMaySend = m.direction == Direction.CLIENT_TO_SERVER && m.kind == Kind.REQUEST && m.name != ProtocolTable.WORKSPACE_SET_TRUSTED
            assertEquals(pageMaySend, Protocol.isPageRequest(m.name), m.name)
            assertEquals(m.direction == Direction.SERVER_TO_CLIENT && m.kind == Kind.NOTIFICATION, Protocol.isServerNotification(m.name), m.name)
            assertEquals(m.direction == Direction.SERVER_TO_CLIENT && m.kind == Kind.REQUEST, Protocol.isServerRequest(m.name), m.name)
        }
        assertTrue(Protocol.isPageRequest(ProtocolTable.HOOKS_LIST))
        assertFalse(Protocol.isPageRequest("initialize"))
        assertFalse(Protocol.isServerNotification("window/logMessage"))
    }

    @Test
    fun `lsp4j gets every table method declared with JSON params and results`() {
        val declared = WaveLauncherBuilder.tableMethods()
        assertEquals(ProtocolTable.METHODS.map { it.name }.toSet(), declared.keys)
        for (m in ProtocolTable.METHODS) {
            val rpc = declared.getValue(m.name)
            assertEquals(m.kind == Kind.NOTIFICATION, rpc.isNotification, m.name)
            assertEquals(listOf(JsonElement::class.java), rpc.parameterTypes.toList(), m.name)
            if (m.kind == Kind.REQUEST) assertEquals(JsonElement::class.java, rpc.returnType, m.name)
        }
    }

    @Test
    fun `no Kotlin source outside the generated table spells a method name`() {
        val generated = "core/src/main/kotlin/dev/wavehost/jetbrains/core/protocol/ProtocolTable.kt"
        val root = REPO.resolve("extension-jetbrains")
        // Any string literal that starts with the methods' prefix, or is a method name.
        val needles = ProtocolTable.METHODS.map { "\"${it.name}\"" } + ("\"" + "wave" + "/")
        val offenders = Files.walk(root).use { paths ->
            paths.filter { it.extension == "kt" && "/target/" !in it.invariantSeparatorsPathString }
                .filter { !it.invariantSeparatorsPathString.endsWith(generated) }
                .toList()
                .filter { file -> file.readText().let { text -> needles.any { it in text } } }
                .map { it.toString() }
        }
        assertEquals(emptyList<String>(), offenders)
        assertTrue(Files.walk(root).use { p -> p.filter { it.extension == "kt" }.count() } > 10, "the sources were found")
    }
}
