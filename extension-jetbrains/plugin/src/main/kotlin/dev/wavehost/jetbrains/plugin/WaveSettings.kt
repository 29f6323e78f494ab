package dev.wavehost.jetbrains.plugin

import com.intellij.DynamicBundle
import com.intellij.openapi.components.PersistentStateComponent
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.State
import com.intellij.openapi.components.Storage
import com.intellij.openapi.components.service
import com.intellij.openapi.options.BoundConfigurable
import com.intellij.openapi.ui.DialogPanel
import com.intellij.ui.dsl.builder.bindText
import com.intellij.ui.dsl.builder.panel
import org.jetbrains.annotations.PropertyKey

/** Settings › Tools › Wavehost: the Python interpreter (blank: discovered). */
@Service(Service.Level.APP)
@State(name = "Wavehost", storages = [Storage("wavehost.xml")])
class WaveSettings : PersistentStateComponent<WaveSettings.State> {
    class State {
        var python: String = ""
    }

    private var state = State()

    override fun getState(): State = state

    override fun loadState(loaded: State) {
        state = loaded
    }

    companion object {
        fun instance(): WaveSettings = service()
    }
}

class WaveConfigurable : BoundConfigurable("Wavehost") {
    override fun createPanel(): DialogPanel = panel {
        row(WavehostBundle.message("settings.python")) {
            textField().bindText(WaveSettings.instance().state::python)
        }
    }
}

object WavehostBundle : DynamicBundle("messages.WavehostBundle") {
    fun message(@PropertyKey(resourceBundle = "messages.WavehostBundle") key: String, vararg params: Any): String = getMessage(key, *params)
}
