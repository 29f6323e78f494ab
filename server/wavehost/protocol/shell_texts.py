"""What the IDE shells themselves tell the user (notifications, their buttons), in every UI
language: written once here, generated into TypeScript (`SHELL_TEXTS`) and Kotlin (`ShellTexts`)
by `wavehost protocol-schema`'s `shellTexts`, as the method table is.

A shell picks the language by the one rule (wavehost.language) from the locale it gives the pages
(the IDE's display language), so its own notifications speak as its pages do. `{name}` marks a
value the shell fills in; the server's or the system's sentence put into `{reason}` or `{error}`
stays as it was said (it names files and commands), as the pages' error details do.
"""

from typing import Final

from wavehost.language import Language

SHELL_TEXTS: Final[dict[Language, dict[str, str]]] = {
    "en": {
        # The server stopped unasked; the shell restarts it after a wait.
        "restarting": "{reason} Restarting it in {seconds} s; your chat is kept.",
        # The server stopped too often in a row: no more restarts until the user asks.
        "gaveUp": "{reason} It stopped {count} times in a row; "
        'run "Wave: Restart Host" to try again.',
        # The server process started but the LSP connection could not be made.
        "didNotStart": "wavehost did not start: {error}",
        # A page asked while no server runs.
        "stopped": 'wavehost is stopped: run "Wave: Restart Host".',
        "notReady": 'wavehost is not ready yet: run "Wave: Restart Host".',
        # The server is stopped on purpose (the pages are told why).
        "restartingHost": "wavehost is restarting.",
        "stoppedHost": "wavehost was stopped.",
        # Buttons of the notifications.
        "showLog": "Show Log",
        "openSettings": "Open Settings",
    },
    "zh": {
        "restarting": "{reason} 将在 {seconds} 秒后重启；你的对话会保留。",
        "gaveUp": "{reason} 已连续停止 {count} 次；运行“Wave: Restart Host”再试一次。",
        "didNotStart": "wavehost 未能启动：{error}",
        "stopped": "wavehost 已停止：运行“Wave: Restart Host”。",
        "notReady": "wavehost 尚未就绪：运行“Wave: Restart Host”。",
        "restartingHost": "wavehost 正在重启。",
        "stoppedHost": "wavehost 已停止。",
        "showLog": "显示日志",
        "openSettings": "打开设置",
    },
}
