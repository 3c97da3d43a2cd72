#!/usr/bin/env bash
# The lowest supported Node line stays true (issue 44): on Node 22, a copy of this checkout is
# installed (npm ci compiles the native addons for it), built and started with `npm start`; a user
# signs up, makes a project and opens its board. Prints "smoke on Node 22: ok" or what failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
source scripts/ci/node-runtime.sh 22
export npm_config_build_from_source=true
# The checkout's files as they are in the working tree (a local run checks uncommitted work too).
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work"
cd "$work"
npm ci --no-audit --no-fund --loglevel=error >"$work/install.log" 2>&1 || { tail -n 30 "$work/install.log"; exit 1; }
npm run build --silent >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; exit 1; }
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
PORT=$port HOST=127.0.0.1 DATABASE_PATH="$work/data/storymap.db" RATE_LIMIT=off LOG_LEVEL=warn npm start >"$work/server.log" 2>&1 &
server_pid=$!
if ! BASE="http://127.0.0.1:$port" node "$root/scripts/ci/smoke-journey.mjs"; then
  echo "the server's log:"; tail -n 30 "$work/server.log"
  exit 1
fi
echo "smoke on Node $(node --version): ok"
