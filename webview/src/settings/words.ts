/** The inspector's results in the UI language: what the agent would do, each explain step. */

import { type Key, t } from "../i18n";
import type { ExplainCase, ExplainStep, Outcome } from "../protocol/generated";
import { eventSummary } from "./model";
import { lang } from "../i18n";

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
