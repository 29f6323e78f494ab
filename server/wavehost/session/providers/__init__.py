"""Model providers, and how a session picks one: flag, then environment, then settings.

`WAVE_PROVIDER` / `WAVE_MODEL` in the environment, `provider` / `model` in the settings files
(user, project, local: the most specific wins). With none of these, a provider whose API key is
set is used. `scripted` replays the JSON file named by `--script` or `WAVE_SCRIPT`.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wavehost import environment
from wavehost.hooks.settings_files import read_settings
from wavehost.session.providers.base import Provider, ProviderError
from wavehost.session.providers.scripted import ScriptedProvider, load_script

PROVIDERS = ("anthropic", "openai", "scripted")
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-5", "openai": "gpt-4.1", "scripted": "scripted"}
API_KEYS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
CHAT_KEYS = ("provider", "model", "script")


@dataclass(frozen=True)
class ProviderChoice:
    provider: str
    model: str
    script: Path | None = None


def chat_settings(
    project_dir: Path, home: Path | None = None, *, trusted: bool = True
) -> dict[str, Any]:
    """`provider`, `model` and `script` from the settings files, the most specific file winning;
    an untrusted project's files count for nothing. Unreadable files are skipped (the hook
    configuration reports them)."""
    settings = read_settings(project_dir, home=home, trusted=trusted)
    return {key: value for key in CHAT_KEYS if (value := settings.value(key)) is not None}


def choose(
    provider: str | None,
    model: str | None,
    script: Path | None,
    settings: Mapping[str, Any],
    env: Mapping[str, str] | None = None,
) -> ProviderChoice:
    env = environment.started_with() if env is None else env
    name = provider or env.get("WAVE_PROVIDER") or settings.get("provider")
    if not name:
        name = next((p for p, key in API_KEYS.items() if env.get(key)), None)
    if not name:
        raise ProviderError(
            'no model provider: pass --provider, set WAVE_PROVIDER, put "provider" in '
            "settings, or set ANTHROPIC_API_KEY / OPENAI_API_KEY"
        )
    if name not in PROVIDERS:
        raise ProviderError(f"unknown provider {name!r} (one of {', '.join(PROVIDERS)})")
    chosen_model = model or env.get("WAVE_MODEL") or settings.get("model") or DEFAULT_MODELS[name]
    script_path = script or (Path(env["WAVE_SCRIPT"]) if env.get("WAVE_SCRIPT") else None)
    if script_path is None and isinstance(settings.get("script"), str):
        script_path = Path(settings["script"])
    if name == "scripted" and script_path is None:
        raise ProviderError("the scripted provider needs a script: --script FILE or WAVE_SCRIPT")
    return ProviderChoice(name, str(chosen_model), script_path)


# What each API accepts as a credential (Anthropic's takes a bearer token too).
CREDENTIALS = {
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
    "openai": ("OPENAI_API_KEY",),
}


def make_provider(choice: ProviderChoice, env: Mapping[str, str] | None = None) -> Provider:
    """The provider; its key from `env` (default: the environment wavehost started with)."""
    env = environment.started_with() if env is None else env
    if choice.provider == "scripted":
        assert choice.script is not None
        return ScriptedProvider(load_script(choice.script), choice.model)
    # Checked here, not by the API at the first request.
    if not any(env.get(name) for name in CREDENTIALS[choice.provider]):
        raise ProviderError(
            f"the {choice.provider} provider needs an API key: set {API_KEYS[choice.provider]}, "
            'or choose another provider (--provider, WAVE_PROVIDER or "provider" in settings)'
        )
    if choice.provider == "anthropic":
        from wavehost.session.providers.anthropic_messages import AnthropicProvider

        return AnthropicProvider(choice.model, env)
    from wavehost.session.providers.openai_chat import OpenAIProvider

    return OpenAIProvider(choice.model, env)


__all__ = [
    "PROVIDERS",
    "Provider",
    "ProviderChoice",
    "ProviderError",
    "chat_settings",
    "choose",
    "make_provider",
]
