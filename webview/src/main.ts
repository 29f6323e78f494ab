import "./theme.css";

import { WaveApp, type View } from "./app";
import { applyLocale, hostLocale } from "./i18n";
import { SHELL_COMMANDS } from "./protocol/generated";
import { detectTransport } from "./transport/adapters";
import { RpcClient } from "./transport/rpc";

function initialView(): View {
  const fromShell = document.body.dataset.view ?? new URLSearchParams(location.search).get("view");
  return fromShell === "chat" ? "chat" : "settings";
}

const locale = hostLocale();
applyLocale(locale);

const rpc = new RpcClient(detectTransport());
const app = new WaveApp();
app.rpc = rpc;
app.view = initialView();
document.body.append(app);
// Tells the shell the page listens now (VS Code drops messages posted before that).
rpc.shell(SHELL_COMMANDS.READY, { view: app.view, locale });
