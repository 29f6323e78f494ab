/** A real `wavehost serve` subprocess (the repository's .venv), spoken to over vscode-jsonrpc. */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { type MessageConnection, StreamMessageReader, StreamMessageWriter, createMessageConnection } from "vscode-jsonrpc/node";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PYTHON = join(REPO, ".venv", "bin", "python");

export function temp(name: string): string {
  return mkdtempSync(join(tmpdir(), `wavehost-unit-${name}-`));
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

export interface Served {
  connection: MessageConnection;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts and initializes a server for `project` with HOME `home`. `listen` registers handlers
 * before the connection listens (a request the server sends early finds them).
 */
export async function serve(
  home: string,
  project: string,
  env: Record<string, string> = {},
  listen: (connection: MessageConnection) => void = () => {},
): Promise<Served> {
  const child = spawn(PYTHON, ["-m", "wavehost", "serve", "--stdio"], {
    env: { ...process.env, HOME: home, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  listen(connection);
  connection.onRequest(() => null); // workDoneProgress/create and the like
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities: { window: { showDocument: { support: true } } },
    initializationOptions: { projectDir: project, trusted: true },
  });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    child,
    async stop() {
      await connection.sendRequest("shutdown").catch(() => undefined);
      await connection.sendNotification("exit").catch(() => undefined);
      connection.dispose();
      child.kill();
    },
  };
}
