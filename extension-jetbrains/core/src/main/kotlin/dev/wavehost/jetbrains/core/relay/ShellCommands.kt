package dev.wavehost.jetbrains.core.relay

/** The shell-local commands of the envelope (`{kind:"shell", command, args}`). */
object ShellCommands {
    // page → shell
    const val READY = "ready"
    const val CLOSE_SETTINGS = "closeSettings"
    const val OPEN_CHAT = "openChat"
    const val OPEN_SETTINGS = "openSettings"

    // shell → page
    const val PREFILL = "prefill"
}
