import "./theme.css";

import { WaveApp, type View } from "./app";
import { hostLocale, langFor, setLang } from "./i18n";
import { detectTransport } from "./transport/adapters";
import { RpcClient } from "./transport/rpc";

function initialView(): View {
  const fromShell = document.body.dataset.view ?? new URLSearchParams(location.search).get("view");
  return fromShell === "chat" ? "chat" : "settings";
}

const locale = hostLocale();
const lang = langFor(locale);
setLang(lang);
document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";

const rpc = new RpcClient(detectTransport());
const app = new WaveApp();
app.rpc = rpc;
app.view = initialView();
document.body.append(app);
// Tells the shell the page listens now (VS Code drops messages posted before that).
rpc.shell("ready", { view: app.view, locale });
