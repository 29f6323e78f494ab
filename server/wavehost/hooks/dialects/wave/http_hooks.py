"""Claude Code's `http` hooks: the payload POSTed to a URL, the reply read as a command's stdout.

As Claude Code 2.1.197 does it: the body is exactly what a command hook reads on stdin (without
its newline), `Content-Type: application/json` plus the hook's `headers`, where `$VAR` / `${VAR}`
are filled in only for names in its `allowedEnvVars` (narrowed by the user's
`httpHookAllowedEnvVars`; any other becomes empty). No redirects are followed, no proxy is used.
A 2xx with an empty body is success, a 2xx with JSON is read like a command's stdout (so an http
hook blocks only through its JSON), anything else — another status, a body that is not JSON, a
refused connection — is a non-blocking error. A URL outside the user's `allowedHttpHookUrls` is
never called. The reply is read up to the cap of a command's output.
"""

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from wavehost.hooks.calls import Call, answered, failed
from wavehost.hooks.config import DiagnosticCode, HandlerSpec, HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import DEFAULT_TIMEOUT, HookContext, HookRun
from wavehost.plumbing.children import OUTPUT_CAP

log = logging.getLogger(__name__)

_VARIABLE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)")
_UNSAFE = re.compile(r"[\r\n\x00]")  # a header value must not carry another header
_PREVIEW = 200  # characters of a body that is not JSON the error quotes


@dataclass(frozen=True)
class HttpPolicy:
    """What the user's settings allow http hooks (None: no restriction)."""

    allowed_urls: tuple[str, ...] | None = None  # `allowedHttpHookUrls`
    allowed_env_vars: frozenset[str] | None = None  # `httpHookAllowedEnvVars`


@dataclass(frozen=True)
class HttpSpec(HandlerSpec):
    url: str
    headers: tuple[tuple[str, str], ...] = ()
    env_vars: frozenset[str] = frozenset()  # the names its headers may read (after the policy)
    blocked: str | None = None  # why it is never called (a URL the user does not allow)

    def identity(self) -> tuple[str, ...]:
        return (self.url,)  # Claude Code: http hooks are the same hook by URL


def read(
    raw: Mapping[str, Any], policy: HttpPolicy
) -> dict[str, Any] | tuple[str, str, DiagnosticCode]:
    """An http entry's fields for its `HookHandler`, or (field, message, code)."""
    url = raw.get("url")
    if not isinstance(url, str) or not url.strip():
        return "url", '"url" must be a non-empty string', "emptyText"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "url", f'"url" must be an http:// or https:// URL, not {url!r}', "notUrl"
    headers = raw.get("headers", {})
    if not isinstance(headers, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        return "headers", '"headers" must be an object of strings', "notStringMap"
    names = raw.get("allowedEnvVars", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return "allowedEnvVars", '"allowedEnvVars" must be a list of strings', "notStringList"
    env_vars = frozenset(names)
    if policy.allowed_env_vars is not None:
        env_vars &= policy.allowed_env_vars
    blocked = None
    if policy.allowed_urls is not None and not any(
        url_matches(url, pattern) for pattern in policy.allowed_urls
    ):
        blocked = f"HTTP hook blocked: {url} does not match any pattern in allowedHttpHookUrls"
    spec = HttpSpec(url, tuple(headers.items()), env_vars, blocked)
    return {"command": url, "spec": spec}


def make_call(handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext) -> Call:
    async def run() -> HookRun:
        return await post(handler, stdin, context)

    return Call(run, handler.timeout or DEFAULT_TIMEOUT)


def header_value(value: str, allowed: frozenset[str], env: Mapping[str, str]) -> str:
    """A header with its `$VAR`s filled in from the hook's environment, allowed names only."""

    def fill(found: re.Match[str]) -> str:
        name = found[1] or found[2]
        if name not in allowed:
            log.warning("http hook header: $%s is not in allowedEnvVars, left empty", name)
            return ""
        return env.get(name, "")

    return _UNSAFE.sub("", _VARIABLE.sub(fill, value))


async def post(handler: HookHandler, stdin: bytes, context: HookContext) -> HookRun:
    spec = handler.spec
    assert isinstance(spec, HttpSpec)
    if spec.blocked is not None:
        return failed(handler, spec.blocked)
    import aiohttp  # only a session with http hooks pays for it

    env = context.env_for(handler, claude=True)
    headers = {"Content-Type": "application/json"}
    headers |= {name: header_value(value, spec.env_vars, env) for name, value in spec.headers}
    body = stdin.removesuffix(b"\n")  # exactly the JSON a command hook reads
    timeout = aiohttp.ClientTimeout(total=None)  # the hook's own timeout bounds the call
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(spec.url, data=body, headers=headers, allow_redirects=False) as reply,
        ):
            raw = await reply.content.read(OUTPUT_CAP)
            status = reply.status
    except (aiohttp.ClientError, OSError, ValueError) as err:
        return failed(
            handler, f"HTTP hook request to {spec.url} failed: {err or type(err).__name__}"
        )
    if not 200 <= status < 300:
        return failed(handler, f"HTTP {status} from {spec.url}")
    text = raw.decode("utf-8", errors="replace").strip()
    if text and not text.startswith("{"):
        preview = text if len(text) <= _PREVIEW else text[:_PREVIEW] + "…"
        return failed(
            handler, f"HTTP hook must return JSON, but got non-JSON response body: {preview}"
        )
    return answered(handler, 0, text)


_WILDCARD = "zzwildcardzz"


def url_matches(url: str, pattern: str) -> bool:
    """Whether `url` is one `allowedHttpHookUrls` allows, as Claude Code matches a pattern: `*`
    alone is any URL; otherwise `*` is a wildcard in the scheme, host (any label run), port and
    path; a pattern without a path allows every path of its host."""
    if pattern == "*":
        return True
    target = urlsplit(url)
    shape = urlsplit(pattern.replace("*", _WILDCARD))
    if not shape.hostname:
        flat = re.escape(pattern).replace(r"\*", "[^/]*")
        plain = f"{target.scheme}://{target.netloc}{target.path}"
        return re.fullmatch(flat, plain + (f"?{target.query}" if target.query else "")) is not None
    if _WILDCARD not in shape.scheme and shape.scheme != target.scheme:
        return False
    host = re.escape(shape.hostname.rstrip(".")).replace(_WILDCARD, "[^/]*")
    if not re.fullmatch(host, (target.hostname or "").rstrip("."), re.IGNORECASE):
        return False
    any_port = _WILDCARD in shape.netloc.rsplit(":", 1)[-1] or (
        _WILDCARD in shape.hostname and ":" not in shape.netloc
    )
    try:
        if not any_port and shape.port != target.port:
            return False
    except ValueError:
        return False
    if shape.path in ("", "/") and not shape.query and not pattern.endswith("/"):
        return True
    wanted = shape.path + (f"?{shape.query}" if shape.query else "")
    path = re.escape(wanted).replace(_WILDCARD, ".*")
    actual = target.path + (f"?{target.query}" if target.query else "")
    return re.fullmatch(path, actual) is not None
