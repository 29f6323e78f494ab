"""A hook's `if`: one Claude Code permission rule (`Bash(git *)`, `Edit(*.ts)`, `Read`) the tool
call must match for the hook to start at all. Claude Code's semantics, as its hooks see them:

- `Tool` alone, `Tool()` or `Tool(*)`: every call of that tool. Legacy names count as the new
  ones (`Task` is `Agent`). Only the tool events (PreToolUse, PostToolUse, PostToolUseFailure,
  PermissionRequest) have a tool: on any other event a hook with `if` never runs.
- `Bash(…)`: the command is parsed (tree-sitter's bash grammar, as Claude Code does) into its
  simple commands — each side of `&&`, `||`, `;`, `|`, inside `( )`, `{ }`, `$( )` and backticks
  — each as its words with quotes resolved and leading `NAME=value` assignments dropped; the rule
  holds if any of them matches. A command that cannot be parsed, or uses what this reading does
  not follow (loops, conditionals, functions, here-documents, `[[ ]]`, process substitution,
  `${…}`, a command name or redirect that is itself computed), starts the hook: a guard must not
  be skipped because its command was unusual. A command whose words hold what cannot be resolved
  without running it — `$( )`, backticks, a `$VAR` other than the shell's own (`$HOME`, `$PWD`,
  `$?`, …) — starts the hook when the rule is more specific than a command name (`Bash(git
  push *)` for `echo $(git log -1)`: Claude Code fails open); a bare name (`Bash(git *)`,
  `Bash(git:*)`) still matches the commands read, those inside `$( )` included.
- `Read` / `Edit` / `Write(…)`: the pattern against the whole `file_path`; `Glob` / `Grep(…)`:
  against the search `pattern`. Any other tool with a pattern: never.
- Patterns: `*` is any run of characters (newlines too), `\\*` a literal `*`, `\\\\` a backslash;
  the whole text must match. A lone `*` at the end after a space also allows nothing at all
  (`git *` matches `git`). `prefix:*` (Bash only) is `prefix` alone or followed by a space.
"""

import functools
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wavehost.hooks import patterns, tools
from wavehost.hooks import payloads as p

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

TOOL_PAYLOADS = (
    p.PreToolUseInput,
    p.PostToolUseInput,
    p.PostToolUseFailureInput,
    p.PermissionRequestInput,
)


@dataclass(frozen=True, slots=True)
class IfRule:
    text: str  # as written
    tool: str
    content: str | None  # None: every call of the tool

    def holds(self, payload: p.HookInput) -> bool:
        """Whether the hook may start for this payload."""
        if not isinstance(payload, TOOL_PAYLOADS):
            return False
        if _canonical(payload.tool_name) != self.tool:
            return False
        if self.content is None:
            return True
        matcher = _INPUT_MATCHERS.get(self.tool)
        return matcher is not None and matcher(self.content, payload.tool_input)


def parse_rule(text: str) -> IfRule:
    """`Tool` or `Tool(content)`, `\\(` and `\\)` escaping parentheses in the content. Anything
    else (no closing parenthesis at the end, no tool name) is a tool name as a whole."""
    opening, closing = _unescaped(text, "("), _unescaped(text, ")", last=True)
    if opening <= 0 or closing != len(text) - 1 or closing < opening:
        return IfRule(text, _canonical(text), None)
    content = text[opening + 1 : closing]
    tool = _canonical(text[:opening])
    if content in ("", "*"):
        return IfRule(text, tool, None)
    unescaped = content.replace("\\(", "(").replace("\\)", ")").replace("\\\\", "\\")
    return IfRule(text, tool, unescaped)


def _canonical(tool: str) -> str:
    return tools.LEGACY_NAMES.get(tool, tool)


def _unescaped(text: str, char: str, *, last: bool = False) -> int:
    """Index of the first (or last) `char` not escaped by an odd run of backslashes; -1: none."""
    found = -1
    for index, current in enumerate(text):
        if current != char:
            continue
        backslashes = len(text[:index]) - len(text[:index].rstrip("\\"))
        if backslashes % 2 == 0:
            found = index
            if not last:
                break
    return found


@functools.lru_cache(maxsize=256)
def _wildcard(pattern: str) -> patterns.Pattern | None:
    """The rule's pattern as a bounded regex (`*` runs of a hostile rule cost linear time);
    None when it is over the patterns' budget (then it matches nothing)."""
    pattern = pattern.strip()
    parts: list[str] = []
    stars = 0
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and pattern[index + 1 : index + 2] in ("*", "\\"):
            parts.append(re.escape(pattern[index + 1]))
            index += 2
            continue
        if char == "*":
            parts.append(".*")
            stars += 1
        else:
            parts.append(re.escape(char))
        index += 1
    regex = "".join(parts)
    if stars == 1 and regex.endswith(r"\ .*"):  # `git *` also matches bare `git`
        regex = regex[: -len(r"\ .*")] + "(?: .*)?"
    try:
        return patterns.compile(regex, re.DOTALL, "fullmatch")
    except patterns.PatternError as err:
        log.warning("an if rule's pattern %r is not used: %s", pattern[:200], err)
        return None


def matches_wildcard(pattern: str, text: str) -> bool:
    compiled = _wildcard(pattern)
    return compiled is not None and compiled.test(text)


def _matches_command(pattern: str, command: str) -> bool:
    prefix = pattern[:-2] if pattern.endswith(":*") and len(pattern) > 2 else None
    if prefix is not None:
        return command == prefix or command.startswith(prefix + " ")
    return matches_wildcard(pattern, command)


# A rule that names only a command (`git *`, `git*`, `git:*`): Claude Code matches it even when
# the command has parts it cannot resolve (its words are still read).
_BARE = re.compile(r"[^\s*?\[]+\s?\*")


def _bare(pattern: str) -> bool:
    if pattern.endswith(":*") and len(pattern) > 2:
        return not any(c.isspace() for c in pattern[:-2])
    return _BARE.fullmatch(pattern) is not None


InputMatcher = Callable[[str, dict[str, Any]], bool]


def _command(name: str) -> InputMatcher:
    """A pattern against the shell command in field `name`, as Claude Code reads a command."""

    def matches(pattern: str, tool_input: dict[str, Any]) -> bool:
        command = tool_input.get(name)
        if not isinstance(command, str):
            return False
        reading = read_command(command)
        if reading is None:
            return True  # cannot tell: the hook runs
        if reading.dynamic and not _bare(pattern):
            return True  # what it really runs is known only when it runs: the hook runs
        return any(_matches_command(pattern, c) for c in reading.commands)

    return matches


def _field(name: str) -> InputMatcher:
    def matches(pattern: str, tool_input: dict[str, Any]) -> bool:
        value = tool_input.get(name)
        return isinstance(value, str) and matches_wildcard(pattern, value)

    return matches


# What a pattern is matched against: each tool's `if_field` (the catalogue's); a shell command is
# read into its simple commands
_INPUT_MATCHERS: dict[str, InputMatcher] = {
    tool.name: (_command if tool.shell else _field)(tool.if_field)
    for tool in tools.TOOLS
    if tool.if_field is not None
}


# -- Bash commands ----------------------------------------------------------------------------


class _UnfollowedError(Exception):
    """The command uses something this reading does not follow."""


# Nodes that only hold commands and operators: their commands are read one by one.
_CONTAINERS = frozenset(
    {
        "program",
        "list",
        "pipeline",
        "redirected_statement",
        "subshell",
        "compound_statement",
        "negated_command",
    }
)
_IGNORED = frozenset(
    {"comment", "&&", "||", ";", ";;", "|", "|&", "&", "(", ")", "{", "}", "!", "\n"}
)
_REDIRECTS = frozenset({"file_redirect", "herestring_redirect"})


@functools.cache
def _parser() -> "Parser":
    # Loaded on the first `Bash(…)` rule checked: most sessions never need it.
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


# The shell's own variables, which Claude Code resolves without running anything.
KNOWN_VARIABLES = frozenset(
    {
        *("HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "PATH", "HOSTNAME", "UID", "EUID"),
        *("PPID", "RANDOM", "SECONDS", "LINENO", "TMPDIR", "BASH_VERSION", "BASHPID", "SHLVL"),
        *("HISTFILE", "IFS", "?", "$", "!", "#", "0", "-"),
    }
)
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution", "expansion"})


@dataclass(frozen=True, slots=True)
class CommandReading:
    commands: tuple[str, ...]  # each simple command, its words joined by spaces
    dynamic: bool  # a word holds `$( )`, backticks or a `$VAR` known only when it runs


@functools.lru_cache(maxsize=8)  # every `if` hook of one Bash call reads the same command
def read_command(command: str) -> CommandReading | None:
    """`command` read as Claude Code reads it, or None if it cannot be (a syntax error, or a
    construct this reading does not follow)."""
    tree = _parser().parse(command.encode("utf-8", "replace"))  # (a lone surrogate: "?")
    if tree.root_node.has_error:
        return None
    reader = _Commands()
    try:
        return CommandReading(tuple(reader.read(tree.root_node)), reader.dynamic)
    except (_UnfollowedError, RecursionError):  # thousands of nested $( ): the hook runs
        return None


def simple_commands(command: str) -> tuple[str, ...] | None:
    """Each simple command of `command` as its words joined by spaces, or None if it cannot be
    read."""
    reading = read_command(command)
    return None if reading is None else reading.commands


class _Commands:
    def __init__(self) -> None:
        self.dynamic = False

    def read(self, node: "Node") -> Iterator[str]:
        kind = node.type
        if kind in _CONTAINERS:
            for child in node.children:
                if child.type not in _IGNORED:
                    yield from self.read(child)
        elif kind == "variable_assignment":  # `A=$(cmd)` alone
            yield from self.inner(node)
        elif kind in _REDIRECTS:  # `> out`; `> $(cmd)`: a target known only when it runs
            _static(node)
            yield from self.inner(node)
        elif kind in ("command", "declaration_command", "unset_command"):
            words: list[str] = []
            for child in node.children:
                if child.type == "variable_assignment" and not words:
                    yield from self.inner(child)  # `A=$(cmd) git …` still runs cmd
                elif child.type in _REDIRECTS:
                    _static(child)
                    yield from self.inner(child)
                elif child.type == "command_name":  # `$CMD push`: who knows what runs
                    _static(child)
                    words.append(_text(child.children[0]))
                    yield from self.inner(child)
                else:  # (a here-document or `<( )` among the words: `inner` gives up)
                    words.append(_text(child))
                    self.dynamic = self.dynamic or _dynamic(child)
                    yield from self.inner(child)
            yield " ".join(words)
        else:  # loops, conditionals, functions, here-documents, [[ ]], (( )) …
            raise _UnfollowedError(kind)

    def inner(self, node: "Node") -> Iterator[str]:
        """The commands of the `$( )` and backticks anywhere inside a word (or the node)."""
        if node.type == "command_substitution":
            for inner in node.children:
                if inner.type not in ("$(", ")", "`", *_IGNORED):
                    yield from self.read(inner)
        elif node.type in ("process_substitution", "heredoc_redirect", "expansion"):
            raise _UnfollowedError(node.type)  # (`${…}`: Claude Code does not follow it either)
        else:
            for child in node.children:
                yield from self.inner(child)


def _dynamic(node: "Node") -> bool:
    """Whether a word holds what is known only when it runs: `$( )`, backticks, an unknown
    `$VAR`."""
    if node.type == "command_substitution":
        return True
    if node.type == "simple_expansion":
        name = (node.text or b"").decode("utf-8", "replace")[1:]
        return name not in KNOWN_VARIABLES
    return any(_dynamic(child) for child in node.children)


def _static(node: "Node") -> None:
    """A command name or redirect target that is computed when it runs: unreadable."""
    if _dynamic(node) or _has(node, _SUBSTITUTIONS):
        raise _UnfollowedError(node.type)


def _has(node: "Node", kinds: frozenset[str]) -> bool:
    return node.type in kinds or any(_has(child, kinds) for child in node.children)


def _text(node: "Node") -> str:
    """A word as the command receives it: quotes and escapes resolved; expansions as written."""
    raw = (node.text or b"").decode("utf-8", "replace")
    kind = node.type
    if kind == "raw_string":
        return raw[1:-1]
    if kind == "word":
        return re.sub(r"\\(.)", r"\1", raw, flags=re.DOTALL)
    if kind == "string":
        return "".join(_in_double_quotes(child) for child in node.children if child.type != '"')
    if kind == "concatenation":
        return "".join(_text(child) for child in node.children)
    return raw


def _in_double_quotes(node: "Node") -> str:
    raw = (node.text or b"").decode("utf-8", "replace")
    if node.type == "string_content":
        return re.sub(r'\\([$`"\\\n])', r"\1", raw)
    return raw
