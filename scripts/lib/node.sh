# Node.js 24 for every script: the machine's node when it is 24 or newer, else a copy
# installed from the npm registry into .tools/ (the machines here carry Node 20).
NODE24_VERSION="24.21.0"

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

use_node24() {
  local root="$1"
  if command -v node >/dev/null && [ "$(node_major node)" -ge 24 ]; then return 0; fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "vellum: no Node 24 package for $(uname -m)" >&2; return 1 ;;
  esac
  local pkg="node-linux-$arch"
  local bin="$root/.tools/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ] || [ "$("$bin/node" -v)" != "v$NODE24_VERSION" ]; then
    command -v npm >/dev/null || { echo "vellum: npm is needed once to install Node $NODE24_VERSION" >&2; return 1; }
    echo "Installing Node $NODE24_VERSION into .tools/ ..." >&2
    mkdir -p "$root/.tools"
    npm install --prefix "$root/.tools" --no-save --no-audit --no-fund --loglevel=error "$pkg@$NODE24_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
  # Native add-ons must build against Node 24's headers, which ship in the same package.
  export npm_config_nodedir="$root/.tools/node_modules/$pkg"
}
