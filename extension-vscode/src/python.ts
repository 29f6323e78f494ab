/**
 * The Python extension's active interpreter (ms-python.python), when that extension is installed.
 * Its API: `exports.environments.getActiveEnvironmentPath()` and `resolveEnvironment(...)`
 * (the published `@vscode/python-extension` shape, read without depending on that package).
 */

import * as vscode from "vscode";

interface EnvironmentPath {
  path: string;
}
interface ResolvedEnvironment {
  executable?: { uri?: vscode.Uri };
}
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
  };
}

export const PYTHON_EXTENSION = "ms-python.python";

export async function interpreterOfPythonExtension(log: vscode.LogOutputChannel): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION);
  if (!extension) return undefined;
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const environments = api?.environments;
    if (!environments) return undefined;
    const active = environments.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
    const resolved = await environments.resolveEnvironment(active);
    return resolved?.executable?.uri?.fsPath ?? active.path;
  } catch (err) {
    log.warn(`the Python extension did not give an interpreter: ${(err as Error).message}`);
    return undefined;
  }
}
