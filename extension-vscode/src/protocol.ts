/**
 * What the extension knows of the wavehost protocol: all of it generated from the server's method
 * table (webview/src/protocol/generated.ts). No method name is spelled out in this extension.
 */

import {
  LAUNCH_POLICY,
  METHODS,
  PROTOCOL_METHODS,
  ROUTING,
  SHELL_COMMANDS,
  SHELL_TEXTS,
} from "../../webview/src/protocol/generated";

export { LAUNCH_POLICY, METHODS, ROUTING, SHELL_COMMANDS as SHELL, SHELL_TEXTS };
export { parseEnvelope } from "../../webview/src/transport/envelope";
export type { Envelope, ErrorObject, RequestId } from "../../webview/src/transport/envelope";

type Table = typeof PROTOCOL_METHODS;
type Row = Table[keyof Table];

function names(keep: (row: Row, name: string) => boolean): ReadonlySet<string> {
  return new Set((Object.entries(PROTOCOL_METHODS) as [string, Row][]).filter(([n, m]) => keep(m, n)).map(([n]) => n));
}

/** Methods only the shell itself sends, the table's `shellOnly` (a page must not grant itself trust). */
export const SHELL_ONLY = names((m) => m.shellOnly);
/** What a page may ask the server: the relay's allow-list. */
export const PAGE_REQUESTS = names((m) => m.direction === "clientToServer" && !m.shellOnly);
/** Server → client notifications, relayed to the pages they concern. */
export const SERVER_NOTIFICATIONS = names((m) => m.direction === "serverToClient" && m.kind === "notification");
/** Server → client requests, asked of a page (a permission question) and answered by it. */
export const SERVER_REQUESTS = names((m) => m.direction === "serverToClient" && m.kind === "request");
