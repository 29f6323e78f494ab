/**
 * zh-CN and English strings. The host locale picks one by the server's rule (LANGUAGE_RULE,
 * generated from `wavehost.language`): the same rule picks the language of the prompts the
 * server prefills, so the page and the prompts never disagree.
 */

import { LANGUAGE_RULE } from "./protocol/generated";

export type Lang = (typeof LANGUAGE_RULE.languages)[number];

const zh = {
  "tab.user": "用户级钩子",
  "tab.project": "项目级钩子",
  "tab.plugin": "插件钩子",
  "settings.title": "钩子",
  "settings.loading": "正在加载钩子…",
  "settings.loadFailed": "无法加载钩子列表：{reason}",
  "settings.retry": "重试",
  "settings.project": "当前项目：{name}",
  "settings.untrusted": "此工作区未受信任：项目级钩子会列出，但不会运行。",
  "new.user": "新增用户级钩子",
  "new.project": "新增项目级钩子",
  "empty.user": "还没有用户级钩子。点击「新增用户级钩子」，用自然语言描述即可创建。",
  "empty.project": "当前项目还没有项目级钩子。点击「新增项目级钩子」，用自然语言描述即可创建。",
  "empty.plugin": "没有插件提供钩子。",
  "row.matcher": "匹配器",
  "row.matcherAll": "全部",
  "row.command": "命令",
  "row.timeout": "超时 {seconds} 秒",
  "row.async": "异步",
  "row.asyncRewake": "异步（可唤醒）",
  "row.plugin": "插件：{name}",
  "row.untrusted": "未受信任：不会运行",
  "row.readOnly": "只读",
  "row.dialect": "格式：{name}",
  "row.disabled": "已禁用：不会运行",
  "row.kind.prompt": "提示（询问用户）",
  "row.kind.context": "静态上下文",
  "row.file": "配置文件",
  "row.edit": "编辑",
  "row.delete": "删除",
  "row.editLabel": "编辑钩子 {name}",
  "row.deleteLabel": "删除钩子 {name}",
  "files.problems": "配置问题",
  "files.fileError": "配置文件错误",
  "delete.title": "删除钩子",
  "delete.body": "将从配置文件中删除钩子「{name}」：",
  "delete.irreversible": "此操作会直接修改配置文件，且不经过 AI。",
  "delete.cancel": "取消",
  "delete.confirm": "确认删除",
  "delete.done": "已删除钩子「{name}」。",
  "delete.failed": "删除钩子「{name}」失败：{reason}",
  "reason.notFound": "配置文件里已找不到这个钩子（可能已被修改或删除），列表已重新加载",
  "reason.readOnly": "配置文件是只读的，无法修改",
  "reason.conflict": "配置文件在列表加载后被改动过，为避免删错，没有删除；列表已重新加载，请确认后再试",
  "reason.permissionDenied": "没有写入配置文件的权限",
  "reason.malformedConfig": "配置文件不是合法的 JSON，无法安全地修改",
  "reason.ioError": "读写配置文件时出错",
  "reason.unknownPath": "这个文件不在钩子列表中",
  "reason.timeout": "wavehost 没有及时响应",
  "reason.closed": "与 wavehost 的连接已断开",
  "edit.openFailed": "无法打开配置文件：{reason}",
  "chat.title": "对话",
  "chat.placeholder": "给 Wave 发消息（Enter 发送，Shift+Enter 换行）",
  "chat.send": "发送",
  "chat.cancel": "停止",
  "chat.compact": "压缩对话",
  "chat.compacting": "正在压缩对话…",
  "chat.compacted": "对话已压缩，模型从以下摘要继续：",
  "chat.compactFailed": "压缩没有完成，对话保持原样。",
  "chat.new": "新对话",
  "chat.newTitle": "结束本会话（停止其后台任务）并开始新对话",
  "chat.running": "正在运行…",
  "chat.queued": "排队中",
  "chat.empty": "开始对话吧。",
  "chat.you": "你",
  "chat.assistant": "Wave",
  "chat.unavailable": "对话不可用：{reason}",
  "chat.sendFailed": "发送失败：{reason}",
  "tool.pending": "等待中",
  "tool.running": "运行中",
  "tool.success": "成功",
  "tool.error": "失败",
  "tool.cancelled": "已取消",
  "tool.input": "输入",
  "tool.result": "结果",
  "notice.info": "提示",
  "notice.warning": "警告",
  "notice.error": "错误",
  "permission.title": "允许 {tool} 吗？",
  "permission.allow": "允许",
  "permission.deny": "拒绝",
  "permission.always": "始终允许",
  "permission.reason": "钩子说明：{reason}",
  "question.title": "Wave 有问题要问你",
  "question.other": "其他（自己填写）",
  "question.answer": "你的回答",
  "question.send": "回答",
  "question.dismiss": "不回答",
  "viewer.title": "配置文件（只读）",
  "viewer.close": "关闭",
  "settings.open": "钩子设置",
  "connection.closed": "与 wavehost 的连接已断开：{reason}",
} as const;

export type Key = keyof typeof zh;

const en: Record<Key, string> = {
  "tab.user": "User hooks",
  "tab.project": "Project hooks",
  "tab.plugin": "Plugin hooks",
  "settings.title": "Hooks",
  "settings.loading": "Loading hooks…",
  "settings.loadFailed": "Could not load the hooks: {reason}",
  "settings.retry": "Retry",
  "settings.project": "Current project: {name}",
  "settings.untrusted": "This workspace is not trusted: project hooks are listed but do not run.",
  "new.user": "New user hook",
  "new.project": "New project hook",
  "empty.user": "No user hooks yet. Choose “New user hook” and describe one in your own words.",
  "empty.project":
    "This project has no hooks yet. Choose “New project hook” and describe one in your own words.",
  "empty.plugin": "No plugin provides hooks.",
  "row.matcher": "Matcher",
  "row.matcherAll": "all",
  "row.command": "Command",
  "row.timeout": "timeout {seconds} s",
  "row.async": "async",
  "row.asyncRewake": "async (can wake the agent)",
  "row.plugin": "Plugin: {name}",
  "row.untrusted": "untrusted: will not run",
  "row.readOnly": "read-only",
  "row.dialect": "Format: {name}",
  "row.disabled": "disabled: will not run",
  "row.kind.prompt": "prompt (asks you)",
  "row.kind.context": "static context",
  "row.file": "Config file",
  "row.edit": "Edit",
  "row.delete": "Delete",
  "row.editLabel": "Edit hook {name}",
  "row.deleteLabel": "Delete hook {name}",
  "files.problems": "Configuration problems",
  "files.fileError": "Config file error",
  "delete.title": "Delete hook",
  "delete.body": "The hook “{name}” will be removed from its config file:",
  "delete.irreversible": "This edits the config file directly, without the AI.",
  "delete.cancel": "Cancel",
  "delete.confirm": "Delete",
  "delete.done": "Deleted hook “{name}”.",
  "delete.failed": "Could not delete hook “{name}”: {reason}",
  "reason.notFound":
    "the hook is no longer in its config file (it was changed or removed); the list was reloaded",
  "reason.readOnly": "the config file is read-only",
  "reason.conflict":
    "the config file changed since the list was loaded, so nothing was deleted; the list was reloaded, check it and try again",
  "reason.permissionDenied": "no permission to write the config file",
  "reason.malformedConfig": "the config file is not valid JSON, so it cannot be changed safely",
  "reason.ioError": "the config file could not be read or written",
  "reason.unknownPath": "that file is not in the hooks list",
  "reason.timeout": "wavehost did not answer in time",
  "reason.closed": "the connection to wavehost is closed",
  "edit.openFailed": "Could not open the config file: {reason}",
  "chat.title": "Chat",
  "chat.placeholder": "Message Wave (Enter to send, Shift+Enter for a new line)",
  "chat.send": "Send",
  "chat.cancel": "Stop",
  "chat.compact": "Compact",
  "chat.compacting": "Compacting the conversation…",
  "chat.compacted": "The conversation was compacted; the model continues from this summary:",
  "chat.compactFailed": "Compaction did not complete; the conversation is unchanged.",
  "chat.new": "New chat",
  "chat.newTitle": "End this session (its background work stops) and start a new one",
  "chat.running": "Running…",
  "chat.queued": "Queued",
  "chat.empty": "Start a conversation.",
  "chat.you": "You",
  "chat.assistant": "Wave",
  "chat.unavailable": "Chat is unavailable: {reason}",
  "chat.sendFailed": "Could not send: {reason}",
  "tool.pending": "pending",
  "tool.running": "running",
  "tool.success": "done",
  "tool.error": "failed",
  "tool.cancelled": "cancelled",
  "tool.input": "Input",
  "tool.result": "Result",
  "notice.info": "Info",
  "notice.warning": "Warning",
  "notice.error": "Error",
  "permission.title": "Allow {tool}?",
  "permission.allow": "Allow",
  "permission.deny": "Deny",
  "permission.always": "Always allow",
  "permission.reason": "Hook says: {reason}",
  "question.title": "Wave has a question for you",
  "question.other": "Other (type your own)",
  "question.answer": "Your answer",
  "question.send": "Answer",
  "question.dismiss": "Don't answer",
  "viewer.title": "Config file (read-only)",
  "viewer.close": "Close",
  "settings.open": "Hook settings",
  "connection.closed": "The connection to wavehost is closed: {reason}",
};

const tables: Record<Lang, Record<Key, string>> = { zh, en };

export function langFor(locale: string | null | undefined): Lang {
  const trimmed = locale?.trim();
  if (!trimmed) return LANGUAGE_RULE.unset;
  const primary = trimmed.replace(/_/g, "-").split("-")[0]!.toLowerCase();
  return LANGUAGE_RULE.languages.find((l) => l === primary) ?? LANGUAGE_RULE.fallback;
}

let current: Lang = "en";

export function setLang(lang: Lang): void {
  current = lang;
}

/** Render in `locale` from now on (the page's `<html lang>` follows). */
export function applyLocale(locale: string, doc: Document = document): Lang {
  current = langFor(locale);
  doc.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  return current;
}

export function lang(): Lang {
  return current;
}

export function t(key: Key, vars: Record<string, string | number> = {}, as: Lang = current): string {
  return tables[as][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/**
 * The host locale: `<html data-locale>` (shells set it), then `?locale=`, then the browser's.
 */
export function hostLocale(doc: Document = document, nav: Navigator = navigator): string {
  const fromShell = doc.documentElement.dataset.locale;
  if (fromShell) return fromShell;
  const fromQuery = new URLSearchParams(doc.location?.search ?? "").get("locale");
  return fromQuery || nav.language || "en";
}

export const STRINGS = tables;
