#!/usr/bin/env bash
# The reverse-proxy test runs the README's nginx and Caddy configurations; installs Debian's packages when root.
set -u
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }
if have nginx && have caddy; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's nginx and caddy packages for the reverse-proxy test..."
  # The test runs each as the current user with its own configuration; no system service is wanted.
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx caddy >/dev/null && exit 0
fi
echo "No nginx or caddy found: install Debian's nginx and caddy packages (apt-get install nginx caddy) for the reverse-proxy test." >&2
exit 1
