/**
 * Small things the page remembers across reloads and view switches (the last settings tab, chat
 * drafts): localStorage where the host allows it, else this page's memory.
 */

const memory = new Map<string, string>();

export function recall(key: string): string | null {
  try {
    const stored = globalThis.localStorage?.getItem(`wavehost:${key}`);
    if (stored !== null && stored !== undefined) return stored;
  } catch {
    /* storage refused (sandboxed webview): memory only */
  }
  return memory.get(key) ?? null;
}

export function remember(key: string, value: string | null): void {
  if (value === null) memory.delete(key);
  else memory.set(key, value);
  try {
    if (value === null) globalThis.localStorage?.removeItem(`wavehost:${key}`);
    else globalThis.localStorage?.setItem(`wavehost:${key}`, value);
  } catch {
    /* memory only */
  }
}
