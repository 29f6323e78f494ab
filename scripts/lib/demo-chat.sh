# Sourced by scripts/demo and scripts/jetbrains-preview: `demo_chat_unless_configured REPO` — with
# no model provider configured (WAVE_PROVIDER, ANTHROPIC_API_KEY, OPENAI_API_KEY), the chat
# replays the demo project's scripted conversation, and says so.
demo_chat_unless_configured() {
  if [ -z "${WAVE_PROVIDER:-}${ANTHROPIC_API_KEY:-}${OPENAI_API_KEY:-}" ]; then
    export WAVE_PROVIDER=scripted WAVE_SCRIPT="$1/examples/demo-project/demo-chat.json"
    echo "No model provider is configured: the chat replays examples/demo-project/demo-chat.json."
  fi
}
