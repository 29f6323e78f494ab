/**
 * Start-up timings in the log, as the clock read them: `timing: <step> at <epoch ms>`, each step
 * the first time it happens in this extension host (one window). bench/vscode.py lines them up
 * against the moment the user pressed Enter on the command, to show where the time goes.
 */

/** The steps, in the order they usually happen. */
export const STEPS = {
  extensionHostStarted: "extension host started",
  activated: "activated",
  serverSpawned: "server spawned",
  serverInitialized: "server initialized",
  firstListAnswered: "first list answered",
  settingsCommand: "settings command",
  settingsPanelCreated: "settings panel created",
  settingsPageReady: "settings page ready",
  settingsPageAsked: "settings page asked for the list",
  settingsPageAnswered: "settings page got the list",
} as const;

export type Step = (typeof STEPS)[keyof typeof STEPS];

export class Timeline {
  private readonly seen = new Set<Step>();

  constructor(private readonly log: (line: string) => void) {}

  /** Logs `step` with the time it happened (default: now), the first time only. */
  mark(step: Step, at: number = Date.now()): void {
    if (this.seen.has(step)) return;
    this.seen.add(step);
    this.log(`timing: ${step} at ${Math.round(at)}`);
  }
}
