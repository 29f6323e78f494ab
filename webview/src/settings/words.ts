/** The inspector's results in the UI language: what the agent would do, each explain step. */

import { type Key, lang, t } from "../i18n";
import type { ExplainCase, ExplainStep, Outcome, PayloadProblemEntry } from "../protocol/generated";
import { errorData, eventSummary, plainReason } from "./model";

/** One line per effect of an interpreted hook result, in the order the session applies them. */
export function outcomeLines(outcome: Outcome): string[] {
  const lines: string[] = [];
  if (outcome.toolError) lines.push(t("outcome.blockedTool", { text: outcome.toolError }));
  else if (outcome.blocked) lines.push(t("outcome.blocked", { event: outcome.event }));
  if (outcome.permissionDecision) {
    const reason = outcome.permissionReason ? ` (${outcome.permissionReason})` : "";
    lines.push(t("outcome.permission", { decision: outcome.permissionDecision + reason }));
  }
  for (const text of outcome.metaMessages) lines.push(t("outcome.meta", { text }));
  for (const n of outcome.notices) lines.push(t("outcome.notice", { level: t(`notice.${n.level}`), text: n.text }));
  if (outcome.compactInstructions) lines.push(t("outcome.compact", { text: outcome.compactInstructions }));
  if (outcome.worktreePath) lines.push(t("outcome.worktree", { text: outcome.worktreePath }));
  for (const text of outcome.logs) lines.push(t("outcome.log", { text }));
  return lines.length ? lines : [t("outcome.nothing")];
}

export function stepText(step: ExplainStep, event: string, shortPath: (p: string) => string): string {
  const args: Record<string, string> = { ...step.args, event };
  if (args.path) args.path = shortPath(args.path);
  if (step.code === "event") args.summary = eventSummary(event, lang());
  if (step.code === "trusted") args.source = t(`tab.${step.args.source ?? "user"}` as Key);
  let key = `why.step.${step.code}.${step.status}`;
  if (step.code === "matcher" && step.status === "pass" && !step.args.field) key = "why.step.matcher.passAll";
  return t(key as Key, args);
}

export function caseText(c: ExplainCase): string {
  return t(`why.verdict.${c.verdict}` as Key, { hint: c.hint ?? "" });
}

/** What is wrong with an input, field by field, in the UI language. */
export function problemsText(problems: PayloadProblemEntry[]): string {
  const missing = problems.filter((p) => p.kind === "missing").map((p) => p.field);
  const said = missing.length ? [t("problem.missing", { fields: missing.join(t("problem.and")) })] : [];
  for (const p of problems) {
    if (p.kind === "type" && p.expected) said.push(t("problem.type", { field: p.field, expected: t(`expected.${p.expected}`) }));
    else if (p.kind === "choice") said.push(t("problem.choice", { field: p.field, choices: p.choices.map((c) => `"${c}"`).join(t("problem.or")) }));
    else if (p.kind === "other") said.push(t("problem.other", { field: p.field }));
  }
  return said.join(t("problem.join"));
}

/** A failed Test (or the request behind it) as one plain sentence: an input that does not fit
 * its event says what is wrong with it; anything else, why it failed. */
export function testErrorText(err: unknown, event: string): string {
  const data = errorData(err);
  if (data?.reason === "invalidPayload" && data.problems.length) return t("test.notThisEvent", { event, problems: problemsText(data.problems) });
  const reason = plainReason(err);
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1);
  return /[.。!?！？]$/.test(sentence) ? sentence : `${sentence}${lang() === "zh" ? "。" : "."}`;
}

/** Where JSON text stops being JSON: the offset of the first character a parser cannot take
 * (engines say it in their own words, some without a place). Null when it is JSON. */
export function jsonErrorAt(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const c of word) if (text[i++] !== c) (i--, fail());
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ":") fail();
          i++;
        }
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!number) fail();
    i += number![0].length;
  };
  try {
    value();
    ws();
    return i < text.length ? i : null;
  } catch (at) {
    return typeof at === "number" ? at : 0;
  }
}

/** Why an edited input is not a JSON object, as one sentence (with where it stops being JSON). */
export function inputProblem(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const at = jsonErrorAt(text);
    if (at === null) return t("test.invalidJsonHere");
    const before = text.slice(0, at);
    return t("test.invalidJsonAt", { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") });
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? null : t("test.notObject");
}
