/**
 * Decisions the extension makes when it starts the server, kept free of the `vscode` module so
 * they are tested on their own: which command runs, which folder is the project, what the user
 * is told when the server cannot start or stops, how long to wait before restarting it (the
 * numbers: LAUNCH_POLICY, generated from the server's one policy).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

import { LAUNCH_POLICY } from "./protocol";

/** launch.py's exit status for "this interpreter cannot run the bundle" (one policy, generated). */
export const UNUSABLE = LAUNCH_POLICY.unusableExit;

export interface LaunchSettings {
  /** `wavehost.serverCommand`: overrides everything when not empty. */
  serverCommand: readonly string[];
  /** `wavehost.interpreter`. */
  interpreter: string;
  /** The Python extension's active interpreter, when that extension is installed. */
  pythonExtension?: string | undefined;
}

export interface Launch {
  command: string;
  args: string[];
  /** Whether it runs the server bundled in the extension (server/launch.py). */
  bundled: boolean;
  /** Where the interpreter came from, for the log and for error messages. */
  origin: "wavehost.serverCommand" | "wavehost.interpreter" | "the Python extension" | "PATH";
}

export function chooseLaunch(settings: LaunchSettings, extensionDir: string): Launch {
  const custom = settings.serverCommand.filter((part) => part.trim() !== "");
  if (custom.length > 0) {
    return { command: custom[0]!, args: custom.slice(1), bundled: false, origin: "wavehost.serverCommand" };
  }
  // The bundle's launcher checks the interpreter and puts the bundle on sys.path inside the
  // server process only: hooks and the Bash tool never inherit a PYTHONPATH into it.
  const launcher = join(extensionDir, "server", LAUNCH_POLICY.launcher);
  const serve = [launcher, "serve", "--stdio"];
  if (settings.interpreter.trim() !== "") {
    return { command: settings.interpreter.trim(), args: serve, bundled: true, origin: "wavehost.interpreter" };
  }
  if (settings.pythonExtension) {
    return { command: settings.pythonExtension, args: serve, bundled: true, origin: "the Python extension" };
  }
  return { command: "python3", args: serve, bundled: true, origin: "PATH" };
}

export interface Folder {
  name: string;
  path: string;
}

export interface Project {
  /** The session root given to the server; null: no folder is open. */
  dir: string | null;
  /** Why this one, in words (logged; shown in the status bar's tooltip). */
  why: string;
}

/** The workspace folder of the active editor, else the first folder; none when no folder is open. */
export function chooseProject(folders: readonly Folder[], activeEditorFolder?: string): Project {
  const active = folders.find((f) => f.path === activeEditorFolder);
  if (active) {
    return { dir: active.path, why: `${active.name}: the folder of the active editor` };
  }
  const first = folders[0];
  if (!first) return { dir: null, why: "no folder is open: only user hooks are listed" };
  const why = folders.length > 1 ? `${first.name}: the first of ${folders.length} folders` : first.name;
  return { dir: first.path, why };
}

export interface Exit {
  code: number | null;
  signal: string | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: NodeJS.ErrnoException | undefined;
  /** The last lines the server wrote to stderr. */
  stderr: string;
}

export function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.at(-1) ?? "";
}

/** Whether restarting would fail the same way (the interpreter cannot run wavehost at all). */
export function isPermanent(launch: Launch, exit: Exit): boolean {
  return exit.spawnError !== undefined || (launch.bundled && exit.code === UNUSABLE);
}

/** One plain sentence for the user, never a stack trace. */
export function failureSentence(launch: Launch, exit: Exit): string {
  if (exit.spawnError?.code === "ENOENT") {
    const fix = launch.bundled
      ? `install Python 3.11 or newer, or set "wavehost.interpreter" to one`
      : `check the setting "wavehost.serverCommand"`;
    return `wavehost could not start: "${launch.command}" (from ${launch.origin}) was not found; ${fix}.`;
  }
  if (exit.spawnError) {
    return `wavehost could not start "${launch.command}" (from ${launch.origin}): ${exit.spawnError.message}.`;
  }
  if (launch.bundled && exit.code === UNUSABLE && lastLine(exit.stderr)) {
    return lastLine(exit.stderr); // launch.py's own sentence, which says what to do
  }
  const how = exit.signal ? `was killed (${exit.signal})` : `stopped (exit code ${exit.code})`;
  const said = lastLine(exit.stderr);
  return `The wavehost server ${how}${said ? `: ${said}` : ""}.`;
}

/**
 * Milliseconds to wait before restart number `attempt` (1-based) after crashes in a row; null:
 * give up and wait for the user. The one policy both IDE shells follow (LAUNCH_POLICY).
 */
export function restartDelay(attempt: number): number | null {
  return LAUNCH_POLICY.restartDelaysMs[attempt - 1] ?? null;
}

/**
 * Starts the server process and keeps the tail of its stderr (each line also goes to `log`), so
 * that a failure can be explained in one sentence.
 */
export function startServer(
  launch: Launch,
  options: { cwd: string | undefined; env: NodeJS.ProcessEnv },
  log: (line: string) => void,
): { child: ChildProcess; exited: Promise<Exit> } {
  const child = spawn(launch.command, launch.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let tail = "";
  let spawnError: NodeJS.ErrnoException | undefined;
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
    for (const line of chunk.split("\n")) if (line.trim()) log(line);
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once("error", (err: NodeJS.ErrnoException) => {
      spawnError = err;
      resolve({ code: null, signal: null, spawnError, stderr: tail });
    });
    child.once("exit", (code, signal) => {
      // stderr may still hold the last sentence: let it drain first.
      const done = () => resolve({ code, signal, spawnError, stderr: tail });
      if (child.stderr && !child.stderr.readableEnded) child.stderr.once("end", done);
      else done();
    });
  });
  return { child, exited };
}
