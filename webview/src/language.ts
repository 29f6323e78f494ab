/**
 * The locale → UI language rule (LANGUAGE_RULE, generated from `wavehost.language`), applied: the
 * pages render in this language, and the IDE shells word their own notifications in it.
 */

import { LANGUAGE_RULE } from "./protocol/generated";

export type Lang = (typeof LANGUAGE_RULE.languages)[number];

export function langFor(locale: string | null | undefined): Lang {
  const trimmed = locale?.trim();
  if (!trimmed) return LANGUAGE_RULE.unset;
  const primary = trimmed.replace(/_/g, "-").split("-")[0]!.toLowerCase();
  return LANGUAGE_RULE.languages.find((l) => l === primary) ?? LANGUAGE_RULE.fallback;
}
