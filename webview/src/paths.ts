/**
 * Paths as people read them: relative to the project, or `~/…` under the home folder. The
 * absolute path stays what the page sends and copies (the server needs it), and is shown on hover.
 */

function under(path: string, root: string | null | undefined): string | null {
  if (!root) return null;
  const base = root.endsWith("/") || root.endsWith("\\") ? root.slice(0, -1) : root;
  if (path === base) return "";
  const sep = path.charAt(base.length);
  return path.startsWith(base) && (sep === "/" || sep === "\\") ? path.slice(base.length + 1) : null;
}

export function displayPath(path: string, project: string | null | undefined, home: string | null | undefined): string {
  const inProject = under(path, project);
  if (inProject !== null) return inProject || ".";
  const inHome = under(path, home);
  if (inHome !== null) return inHome ? `~/${inHome}` : "~";
  return path;
}
