/** The hooks list as the settings page shows it: by source tab, grouped by event. Pure functions. */

import { type Key, type Lang, t } from "../i18n";
import {
  CHAT_ERROR_REASONS,
  DIALECTS,
  HOOK_EVENTS,
  SETTINGS_ERROR_REASONS,
  type ChatErrorData,
  type ConfigFileEntry,
  type DiagnosticEntry,
  type HookEntry,
  type HooksListResult,
  type OverlapEntry,
  type SettingsErrorData,
} from "../protocol/generated";
import { ConnectionClosedError, RemoteError, RequestTimeoutError } from "../transport/rpc";

export type Source = NonNullable<HookEntry["source"]>;
export const SOURCES: readonly Source[] = ["user", "project", "plugin"];

/** A listed hook as the page reads it: its wire row (`HookEntry`, compact) filled in from its
 * config file and the defaults, every field there. */
export interface HookRow {
  id: string;
  source: Source;
  /** Its config file (absolute). */
  path: string;
  pointer: string;
  readOnly: boolean;
  event: string;
  catalogueEvent: string;
  matcher: string | null;
  if: string | null;
  type: NonNullable<HookEntry["type"]>;
  command: string;
  timeout: number | null;
  async: boolean | null;
  asyncRewake: boolean | null;
  statusMessage: string | null;
  description: string | null;
  plugin: string | null;
  dialect: NonNullable<HookEntry["dialect"]>;
  untrusted: boolean | null;
  disabled: boolean | null;
}

/** The hooks list with its rows filled in (`listOf`). */
export type HooksList = Omit<HooksListResult, "hooks"> & { hooks: HookRow[] };

/** A wire row filled in: what it leaves out is its file's (`configFiles[file]`), or the default;
 * a field it has (null included) is its own. */
export function rowOf(entry: HookEntry, files: readonly ConfigFileEntry[]): HookRow {
  const file = entry.file === undefined || entry.file === null ? undefined : files[entry.file];
  const mine = <T>(value: T | undefined, fromFile: T): T => (value === undefined ? fromFile : value);
  return {
    id: entry.id,
    source: mine(entry.source ?? undefined, file?.source ?? "user"),
    path: mine(entry.path ?? undefined, file?.path ?? ""),
    pointer: entry.pointer,
    readOnly: mine(entry.readOnly ?? undefined, file?.readOnly ?? true),
    event: entry.event,
    catalogueEvent: entry.catalogueEvent ?? entry.event,
    matcher: entry.matcher ?? null,
    if: entry.if ?? null,
    type: entry.type ?? "command",
    command: entry.command,
    timeout: entry.timeout ?? null,
    async: entry.async ?? null,
    asyncRewake: entry.asyncRewake ?? null,
    statusMessage: entry.statusMessage ?? null,
    description: entry.description ?? null,
    plugin: mine(entry.plugin, file?.plugin ?? null),
    dialect: mine(entry.dialect ?? undefined, file?.dialect ?? "wave"),
    untrusted: mine(entry.untrusted, file?.untrusted ?? null),
    disabled: entry.disabled ?? null,
  };
}

/** The list the server answered, its rows filled in. */
export function listOf(wire: HooksListResult): HooksList {
  return { ...wire, hooks: wire.hooks.map((h) => rowOf(h, wire.configFiles)) };
}

/** A config file of this source that cannot be read or parsed: none of its hooks run. */
export interface BrokenFile {
  file: ConfigFileEntry;
  diagnostic: DiagnosticEntry | null;
}

/** A listed row: a hook, or an entry that was skipped (shown where it is, with why). */
export type Row = { kind: "hook"; hook: HookRow } | { kind: "broken"; diagnostic: DiagnosticEntry; source: Source };

/** The rows of one moment: every dialect's hooks of the catalogue event they run on (a Copilot
 * `preToolUse` hook beside a Wave `PreToolUse` one), in file order. */
export interface EventGroup {
  /** The catalogue event (a `HOOK_EVENTS` key), or an unknown name as the file spells it. */
  event: string;
  rows: Row[];
}

export interface SourceView {
  source: Source;
  hooks: HookRow[];
  files: ConfigFileEntry[];
  brokenFiles: BrokenFile[];
  /** Skipped entries, shown in place among the rows. */
  broken: DiagnosticEntry[];
  /** Everything else wrong in this source's files (not about one entry or the whole file). */
  problems: DiagnosticEntry[];
  editable: boolean;
}

/** The source a diagnostic belongs to: the source of its file (plugins: by folder). */
function sourceOf(list: HooksList, path: string): Source | null {
  return list.configFiles.find((f) => f.path === path)?.source ?? null;
}

export function bySource(list: HooksList): Record<Source, SourceView> {
  const out = {} as Record<Source, SourceView>;
  for (const source of SOURCES) {
    const files = list.configFiles.filter((f) => f.source === source);
    const mine = list.diagnostics.filter((d) => sourceOf(list, d.path) === source);
    const fileLevel = (d: DiagnosticEntry) => d.pointer === null && files.some((f) => f.path === d.path && f.error);
    out[source] = {
      source,
      hooks: list.hooks.filter((h) => h.source === source),
      files,
      brokenFiles: files
        .filter((f) => f.error)
        .map((file) => ({ file, diagnostic: mine.find((d) => d.path === file.path && d.pointer === null) ?? null })),
      broken: mine.filter((d) => d.entry !== null),
      problems: mine.filter((d) => d.entry === null && !fileLevel(d)),
      editable: source !== "plugin",
    };
  }
  return out;
}

/** Diagnostics whose file belongs to no listed config file (still shown, never dropped). */
export function orphanProblems(list: HooksList): DiagnosticEntry[] {
  return list.diagnostics.filter((d) => sourceOf(list, d.path) === null);
}

/** The words for what is wrong with a file that cannot be used, from its diagnostic. */
function fileProblemKey(broken: BrokenFile): Key {
  const code = broken.diagnostic?.code;
  if (code === "invalidJson" || code === "trailingComma" || code === "missingComma") return "tab.fileInvalidJson";
  if (code === "notAnObject") return "tab.fileWrongShape";
  return "tab.fileUnreadable";
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/** Whether a tab has anything wrong to show: a file that cannot be used, a skipped entry, a
 * problem of its files. */
export function hasProblem(view: SourceView): boolean {
  return view.brokenFiles.length + view.broken.length + view.problems.length > 0;
}

/** What a tab's badge says: its hook count, and what is wrong by name — the one file that does
 * not parse among several, how many entries were skipped. `label`: the whole tab as a screen
 * reader says it ("User hooks, 1"). */
export function tabBadge(view: SourceView, tabName = ""): { text: string; problem: boolean; label: string } {
  const count = String(view.hooks.length);
  const text = [count];
  const said = [count];
  if (view.brokenFiles.length === 1) {
    const what = t(fileProblemKey(view.brokenFiles[0]!), { file: baseName(view.brokenFiles[0]!.file.path) });
    text.push(`⚠ ${what}`);
    said.push(what);
  } else if (view.brokenFiles.length > 1) {
    const what = t("tab.filesBroken", { n: view.brokenFiles.length });
    text.push(`⚠ ${what}`);
    said.push(what);
  }
  const problems = view.broken.length + view.problems.length;
  if (problems) {
    text.push(`⚠ ${problems}`);
    said.push(problems === 1 ? t("tab.oneProblem") : t("tab.problems", { n: problems }));
  }
  const problem = hasProblem(view);
  if (problem && !view.hooks.length) {
    text.shift(); // "⚠ settings.json: invalid JSON", not "0 · ⚠ …"
    said.shift();
  }
  const label = [tabName, ...said].filter(Boolean).join(", ");
  return { text: text.join(" · "), problem, label };
}

/** The tab to open: the first with something wrong (the page opens where the problem is), else
 * the remembered one, else the first with something to show. */
export function initialTab(views: Record<Source, SourceView>, remembered: string | null): Source {
  const troubled = SOURCES.find((s) => hasProblem(views[s]));
  if (troubled) return troubled;
  if (remembered && (SOURCES as readonly string[]).includes(remembered)) return remembered as Source;
  const busy = (v: SourceView) => v.hooks.length > 0;
  return SOURCES.find((s) => busy(views[s])) ?? "user";
}

export interface Filter {
  query: string;
  event: string;
}

/** The catalogue event a row runs on (a skipped entry: the one its event name means, else the
 * name as written). */
export function rowEvent(row: Row): string {
  if (row.kind === "hook") return row.hook.catalogueEvent;
  const entry = row.diagnostic.entry;
  return entry?.catalogueEvent ?? entry?.event ?? "";
}

function rowText(row: Row): string {
  if (row.kind === "hook") {
    const h = row.hook;
    return [h.event, h.catalogueEvent, h.matcher ?? "", h.command, h.description ?? "", h.plugin ?? ""].join("\n");
  }
  const e = row.diagnostic.entry;
  return [e?.event ?? "", e?.matcher ?? "", e?.command ?? "", row.diagnostic.message].join("\n");
}

function rowPlace(row: Row): { path: string; pointer: string } {
  // (`?? ""`: a shell's own listing may leave a hook's pointer out)
  return row.kind === "hook" ? { path: row.hook.path, pointer: row.hook.pointer ?? "" } : { path: row.diagnostic.path, pointer: row.diagnostic.pointer ?? "" };
}

/** JSON pointers in document order: segment by segment, array indexes as numbers. (Read in
 * place, nothing split: a listing of thousands of hooks is checked pair by pair.) */
export function comparePointers(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a[i] === b[i]) i++;
  const from = a.lastIndexOf("/", i - 1) + 1; // the segment they differ in starts here in both
  const x = a.slice(from, until(a, from));
  const y = b.slice(from, until(b, from));
  if (x === y) return segments(a, from) - segments(b, from); // one is the other and more
  const m = Number(x);
  const k = Number(y);
  if (x !== "" && y !== "" && Number.isInteger(m) && Number.isInteger(k)) return m - k;
  return x < y ? -1 : 1;
}

/** Where the segment starting at `from` ends. */
function until(s: string, from: number): number {
  const end = s.indexOf("/", from);
  return end < 0 ? s.length : end;
}

/** How many segments start at or after `from`. */
function segments(s: string, from: number): number {
  let count = 1;
  for (let i = s.indexOf("/", from); i >= 0; i = s.indexOf("/", i + 1)) count++;
  return count;
}

/** A tab's rows as its files have them: files in listing order, entries in document order (the
 * server lists them so: then nothing is sorted, only checked). */
function inFileOrder(view: SourceView): Row[] {
  const fileRank = new Map(view.files.map((f, i) => [f.path, i]));
  const rows: Row[] = [
    ...view.hooks.map((hook): Row => ({ kind: "hook", hook })),
    ...view.broken.map((diagnostic): Row => ({ kind: "broken", diagnostic, source: view.source })),
  ];
  type Placed = { row: Row; rank: number; path: string; pointer: string };
  const placed = rows.map((row): Placed => {
    const { path, pointer } = rowPlace(row);
    return { row, rank: fileRank.get(path) ?? view.files.length, path, pointer };
  });
  const byPlace = (a: Placed, b: Placed) => a.rank - b.rank || (a.path === b.path ? 0 : a.path.localeCompare(b.path)) || comparePointers(a.pointer, b.pointer);
  const sorted = placed.every((p, i) => i === 0 || byPlace(placed[i - 1]!, p) <= 0);
  return (sorted ? placed : placed.sort(byPlace)).map(({ row }) => row);
}

/** A tab's rows made ready for filtering, once per listing: in file order, with their events and
 * (made at the first filter by words) their lower-case search texts. A filter is then a scan of
 * strings: nothing is sorted or read again. */
export interface RowIndex {
  rows: Row[];
  events: string[];
  /** The events for the event filter, in the order of their groups. */
  choices: string[];
  text(): string[];
}

const indexes = new WeakMap<SourceView, RowIndex>();

export function indexRows(view: SourceView): RowIndex {
  let index = indexes.get(view);
  if (!index) {
    const rows = inFileOrder(view);
    const events = rows.map(rowEvent);
    const choices = new Set(events);
    choices.delete("");
    let text: string[] | null = null;
    index = { rows, events, choices: [...choices].sort(byCatalogue), text: () => (text ??= rows.map((r) => rowText(r).toLowerCase())) };
    indexes.set(view, index);
  }
  return index;
}

/** Rows of one tab that pass the filter, one group per catalogue event (catalogue order,
 * unknown events last); in a group, rows stand where they are in their files, broken entries
 * among them. */
export function groupRows(view: SourceView, filter: Filter): EventGroup[] {
  const index = indexRows(view);
  const { rows, events } = index;
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = words.length ? index.text() : [];
  const groups = new Map<string, Row[]>();
  for (let i = 0; i < rows.length; i++) {
    const event = events[i]!;
    if (filter.event && event !== filter.event) continue;
    if (words.length && !words.every((w) => text[i]!.includes(w))) continue;
    let group = groups.get(event);
    if (!group) groups.set(event, (group = []));
    group.push(rows[i]!);
  }
  return [...groups.entries()].map(([event, rows]) => ({ event, rows })).sort((a, b) => byCatalogue(a.event, b.event));
}

/** The events of a tab's rows for the event filter, in the order of their groups. */
export function eventsOf(view: SourceView): string[] {
  return indexRows(view).choices;
}

const ORDER = new Map(Object.keys(HOOK_EVENTS).map((e, i) => [e, i]));

/** Catalogue order (unknown events last), then by name. */
function byCatalogue(a: string, b: string): number {
  const rank = (e: string) => ORDER.get(e) ?? ORDER.size;
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** The dialects of a group's hooks that a session runs with another dialect's on one call: what
 * the group's note says ("On a Bash call, Wave and Copilot CLI hooks both run"). */
export function overlapOf(list: HooksList, group: EventGroup): OverlapEntry | null {
  const overlap = list.overlaps.find((o) => o.event === group.event);
  if (!overlap) return null;
  const here = group.rows.some((r) => r.kind === "hook" && overlap.dialects.includes(runtimeDialect(r.hook)));
  return here ? overlap : null;
}

/** The dialect that runs a hook (a Claude Code file's hooks run as Wave's). */
function runtimeDialect(hook: HookRow): OverlapEntry["dialects"][number] {
  return hook.dialect === "claude" ? "wave" : hook.dialect;
}

/** Whose hook format a row's file is in, as the page names it (the dialect registry's). */
export function dialectTitle(dialect: HookRow["dialect"]): string {
  return DIALECTS[dialect].title;
}

/** The chip text of a hook that runs no command: a `prompt` hook asks the model in Claude Code's
 * format, the user in Snow's (the dialect registry says which). */
export function kindKey(hook: { type: Exclude<HookRow["type"], "command">; dialect: HookRow["dialect"] }) {
  const asksModel = hook.type === "prompt" && DIALECTS[hook.dialect].promptHook === "model";
  return asksModel ? ("row.kind.modelPrompt" as const) : (`row.kind.${hook.type}` as const);
}

export function eventSummary(event: string, lang: Lang): string {
  const entry = HOOK_EVENTS[event];
  return entry ? entry[lang] : "";
}

/** How people name a hook in dialogs: `Event` or `Event (matcher)`. */
export function hookName(hook: { event: string; matcher: string | null }): string {
  return hook.matcher ? `${hook.event} (${hook.matcher})` : hook.event;
}

/**
 * A screen-reader name per row, unique in the list: event and matcher, then the command, then
 * the file; a number if even that is shared (two identical entries in one file).
 */
export function rowNames(hooks: HookRow[], shortPath: (path: string) => string): Map<string, string> {
  const firsts = hooks.map((h) => `${hookName(h)} · ${h.command.length > 60 ? `${h.command.slice(0, 57)}…` : h.command}`);
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const first of firsts) counts.set(first, (counts.get(first) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const [i, h] of hooks.entries()) {
    const first = firsts[i]!;
    let name = counts.get(first)! > 1 ? `${first} · ${shortPath(h.path)}` : first;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1) name = `${name} (${n})`;
    names.set(h.id, name);
  }
  return names;
}

/** Two listings of one hook say the same about it (every field is a plain value). */
export function sameHook(a: HookRow, b: HookRow): boolean {
  const keys = Object.keys(a) as (keyof HookRow)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

export function canChange(hook: HookRow): boolean {
  return hook.source !== "plugin" && !hook.readOnly;
}

/** A diagnostic in the UI language (from its code and args; the server's words if it has none). */
export function diagnosticText(d: DiagnosticEntry, lang?: Lang): string {
  const args: Record<string, string> = { ...d.args, message: d.message };
  if (d.code === "unknownEvent" && d.args.suggestion) return t("diag.unknownEventSuggest", args, lang);
  return t(`diag.${d.code}` as Key, args, lang);
}

/** The 1-based line a file-level diagnostic points at, if it knows one. */
export function diagnosticLine(d: DiagnosticEntry | null): number | null {
  const line = Number(d?.args.line);
  return Number.isInteger(line) && line > 0 ? line : null;
}

const REASONS: ReadonlySet<string> = new Set(SETTINGS_ERROR_REASONS);

export function errorData(err: unknown): SettingsErrorData | null {
  if (!(err instanceof RemoteError)) return null;
  const data = err.data as Partial<SettingsErrorData> | undefined;
  return data && typeof data.reason === "string" && REASONS.has(data.reason) ? (data as SettingsErrorData) : null;
}

/** A failed request in plain words (the server's reason, not a stack or a JSON-RPC code). */
export function plainReason(err: unknown, lang?: Lang): string {
  if (err instanceof RequestTimeoutError) return t("reason.timeout", {}, lang);
  if (err instanceof ConnectionClosedError) return t("reason.closed", {}, lang);
  const data = errorData(err);
  if (data) return t(`reason.${data.reason}` as Key, {}, lang);
  const chat = chatReason(err);
  if (chat) {
    // The server's sentence says what exactly (which provider, which file): kept as the detail.
    const reason = t(`reason.${chat.reason}`, {}, lang);
    return t("reason.withDetail", { reason, detail: chat.message }, lang);
  }
  return err instanceof Error ? err.message : String(err);
}

const CHAT_REASONS: ReadonlySet<string> = new Set(CHAT_ERROR_REASONS);

/** Why a chat request failed (`ChatErrorData.reason`) and the server's words, when it said. */
function chatReason(err: unknown): { reason: ChatErrorData["reason"]; message: string } | null {
  if (!(err instanceof RemoteError)) return null;
  const reason = (err.data as Partial<ChatErrorData> | undefined)?.reason;
  return typeof reason === "string" && CHAT_REASONS.has(reason) ? { reason, message: err.message } : null;
}

/** What to do about a failed settings request, if there is something to say. */
export function whatToDo(err: unknown, lang?: Lang): string | undefined {
  const data = errorData(err);
  return data ? t(`todo.${data.reason}` as Key, {}, lang) : undefined;
}

/** The server's own message (it names the file); shown next to the translated reason. */
export function serverMessage(err: unknown): string | undefined {
  return err instanceof RemoteError ? err.message : undefined;
}
