#!/usr/bin/env bash
# Finds a Chromium for the browser tests (CONTRACT §1); installs Debian's package when root.
set -u
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if node -e "const p=require('@playwright/test').chromium.executablePath(); process.exit(require('fs').existsSync(p)?0:1)" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium package for the browser tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && exit 0
fi
echo "No Chromium found: install Debian's 'chromium' package (apt-get install chromium) or set CHROMIUM_PATH." >&2
exit 1
