/** The hooks list as the settings page shows it: by source tab, with labels. Pure functions. */

import { type Lang, t } from "../i18n";
import { ConnectionClosedError, RemoteError, RequestTimeoutError } from "../transport/rpc";
import {
  HOOK_EVENTS,
  SETTINGS_ERROR_REASONS,
  type ConfigFileEntry,
  type DiagnosticEntry,
  type HookEntry,
  type HooksListResult,
  type SettingsErrorData,
} from "../protocol/generated";

export type Source = HookEntry["source"];
export const SOURCES: readonly Source[] = ["user", "project", "plugin"];

export interface SourceView {
  source: Source;
  hooks: HookEntry[];
  files: ConfigFileEntry[];
  /** File errors and invalid entries of this source's files, each with its path. */
  problems: DiagnosticEntry[];
  editable: boolean;
}

export function bySource(list: HooksListResult): Record<Source, SourceView> {
  const out = {} as Record<Source, SourceView>;
  for (const source of SOURCES) {
    const files = list.configFiles.filter((f) => f.source === source);
    const paths = new Set(files.map((f) => f.path));
    const problems: DiagnosticEntry[] = files
      .filter((f) => f.error)
      .map((f) => ({ path: f.path, pointer: null, message: f.error ?? "" }));
    for (const d of list.diagnostics) {
      const duplicate = problems.some((p) => p.path === d.path && p.message === d.message);
      if (paths.has(d.path) && !duplicate) problems.push(d);
    }
    out[source] = {
      source,
      hooks: list.hooks.filter((h) => h.source === source),
      files,
      problems,
      editable: source !== "plugin",
    };
  }
  return out;
}

/** Diagnostics whose file belongs to no listed config file (still shown, never dropped). */
export function orphanProblems(list: HooksListResult): DiagnosticEntry[] {
  const known = new Set(list.configFiles.map((f) => f.path));
  return list.diagnostics.filter((d) => !known.has(d.path));
}

/** Whose hook format a row's file is in, as the page names it. */
export const DIALECT_NAMES: Record<HookEntry["dialect"], string> = {
  wave: "Wave",
  copilot: "Copilot CLI",
  snow: "Snow CLI",
};

export function eventSummary(event: string, lang: Lang): string {
  const entry = HOOK_EVENTS[event];
  return entry ? entry[lang] : "";
}

/** How people name a hook in dialogs: `Event` or `Event (matcher)`. */
export function hookName(hook: HookEntry): string {
  return hook.matcher ? `${hook.event} (${hook.matcher})` : hook.event;
}

export function canChange(hook: HookEntry): boolean {
  return hook.source !== "plugin" && !hook.readOnly;
}

const REASONS: ReadonlySet<string> = new Set(SETTINGS_ERROR_REASONS);

/** A failed request in plain words (the server's reason, not a stack or a JSON-RPC code). */
export function plainReason(err: unknown, lang?: Lang): string {
  if (err instanceof RequestTimeoutError) return t("reason.timeout", {}, lang);
  if (err instanceof ConnectionClosedError) return t("reason.closed", {}, lang);
  if (err instanceof RemoteError) {
    const data = err.data as Partial<SettingsErrorData> | undefined;
    if (data && typeof data.reason === "string" && REASONS.has(data.reason)) {
      return t(`reason.${data.reason}` as Parameters<typeof t>[0], {}, lang);
    }
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
