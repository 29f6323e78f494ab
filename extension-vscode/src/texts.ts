/**
 * What the extension itself tells the user (notifications, their buttons), in the UI language the
 * documented rule picks from VS Code's display language — the pages' language. The texts are the
 * server's (SHELL_TEXTS, generated from wavehost.protocol.shell_texts); none is written here.
 */

import { langFor } from "../../webview/src/language";
import { SHELL_TEXTS } from "./protocol";

export type ShellTextKey = keyof (typeof SHELL_TEXTS)["en"];

/** The text `key` in `locale`'s language, its `{name}`s filled from `values`. */
export function shellText(
  locale: string | null | undefined,
  key: ShellTextKey,
  values: Record<string, string | number> = {},
): string {
  const text: string = SHELL_TEXTS[langFor(locale)][key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
