/** The extension's command ids (public: people bind keys to them; package.json declares them). */
export const COMMANDS = {
  openSettings: "wavehost.openSettings",
  openChat: "wavehost.openChat",
  restartServer: "wavehost.restartServer",
  showLog: "wavehost.showLog",
} as const;
