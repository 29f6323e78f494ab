# Sourced by the set-up and test scripts: `use_node` puts a Node.js 20+ (with npm) first on PATH
# for the rest of the script. The machine's own when it is new enough; else Node 24 from npm
# (scripts/node24), installing Debian's nodejs and npm first (as root) when there is no npm at
# all — a fresh Debian has none, and its Node 18 is too old to build the webview.
use_node() {
  local repo
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  if command -v node >/dev/null && command -v npm >/dev/null \
    && node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 20 ? 1 : 0)'; then
    return 0
  fi
  if ! command -v npm >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
      echo "the webview is built with Node.js 20+ and npm: install them (sudo apt-get install nodejs npm) and run this again" >&2
      return 1
    fi
    echo "setup: installing Debian's nodejs and npm (for Node 24 from npm; a minute)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  fi
  echo "setup: this Node.js is older than 20: using Node 24 from npm" >&2
  local node24
  node24=$(bash "$repo/scripts/node24") || return 1
  export PATH="$node24:$PATH"
}
