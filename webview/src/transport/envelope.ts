/**
 * The webview ↔ shell envelope, identical in every shell (docs/architecture.md, "Protocol"):
 *
 *   page → shell  {kind:"request", id, method, params}      a custom LSP request to relay
 *   shell → page  {kind:"response", id, result | error}     its answer
 *   shell → page  {kind:"notification", method, params}     a server notification
 *   shell → page  {kind:"request", id, method, params}      a server→client request (permission)
 *   page → shell  {kind:"response", id, result | error}     the page's answer to it
 *   both ways     {kind:"shell", command, args}             shell-local actions
 *
 * Shell commands the page sends: `closeSettings`, `openChat {prefill}`, `ready`.
 * Shell commands a shell sends: `showView {view}`, `prefill {text}`, `showFile {path, content}`
 * (browser mode's read-only viewer for `window/showDocument`), `setLocale {locale}`.
 */

export type RequestId = string | number;

export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface RequestEnvelope {
  kind: "request";
  id: RequestId;
  method: string;
  params: unknown;
}

export interface ResponseEnvelope {
  kind: "response";
  id: RequestId;
  result?: unknown;
  error?: ErrorObject;
}

export interface NotificationEnvelope {
  kind: "notification";
  method: string;
  params: unknown;
}

export interface ShellEnvelope {
  kind: "shell";
  command: string;
  args?: Record<string, unknown>;
}

export type Envelope = RequestEnvelope | ResponseEnvelope | NotificationEnvelope | ShellEnvelope;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Accepts an envelope as an object or as its JSON text; anything else is `null`. */
export function parseEnvelope(raw: unknown): Envelope | null {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!isObject(value)) return null;
  const id = value.id;
  const validId = typeof id === "string" || typeof id === "number";
  switch (value.kind) {
    case "request":
      return validId && typeof value.method === "string" ? (value as unknown as Envelope) : null;
    case "response":
      return validId ? (value as unknown as Envelope) : null;
    case "notification":
      return typeof value.method === "string" ? (value as unknown as Envelope) : null;
    case "shell":
      return typeof value.command === "string" ? (value as unknown as Envelope) : null;
    default:
      return null;
  }
}
