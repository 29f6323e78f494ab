/**
 * Why hooks the user has do not run for a session, read from the hooks list (what the engine
 * would load now), and the chat's words for it. Pure: the line itself is `hooks-status`.
 */

import { t } from "../i18n";
import { displayPath } from "../paths";
import { type HooksList, bySource, diagnosticLine, dialectTitle } from "../settings/model";

/** Why hooks the user has do not run, the gravest first. */
export type HooksOff =
  | { kind: "disabled"; file: string }
  | { kind: "broken"; file: string; line: number | null }
  | { kind: "untrusted"; hooks: number }
  | { kind: "dialectOff"; dialect: string; hooks: number; file: string };

/** Every reason in force, gravest first: all hooks off, then whole files lost, then the rest. */
export function hooksOff(list: HooksList): HooksOff[] {
  const found: HooksOff[] = [];
  if (list.hooksDisabledBy) found.push({ kind: "disabled", file: list.hooksDisabledBy });
  const views = bySource(list);
  for (const view of Object.values(views)) {
    for (const broken of view.brokenFiles) {
      if (broken.file.untrusted) continue; // an untrusted file would not run anyway: said below
      found.push({ kind: "broken", file: broken.file.path, line: diagnosticLine(broken.diagnostic) });
    }
  }
  const inert = list.hooks.filter((h) => h.untrusted).length;
  if (!list.trusted && inert) found.push({ kind: "untrusted", hooks: inert });
  for (const off of list.dialectsOff) {
    if (off.hooks) found.push({ kind: "dialectOff", dialect: dialectTitle(off.dialect), hooks: off.hooks, file: off.file });
  }
  return found;
}

/** The line's words for one reason. */
export function offText(off: HooksOff, project: string | null, home: string | null): string {
  const file = (path: string) => displayPath(path, project, home);
  switch (off.kind) {
    case "disabled":
      return t("hooksOff.disabled", { file: file(off.file) });
    case "broken":
      return off.line === null ? t("hooksOff.broken", { file: file(off.file) }) : t("hooksOff.brokenAt", { file: file(off.file), line: off.line });
    case "untrusted":
      return t("hooksOff.untrusted", { n: off.hooks });
    case "dialectOff":
      return t("hooksOff.dialectOff", { n: off.hooks, dialect: off.dialect, file: file(off.file) });
  }
}
