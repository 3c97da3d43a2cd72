#!/usr/bin/env bash
# The print test reads its PDF with poppler's pdftotext and pdfinfo; installs Debian's package when root.
set -u
if command -v pdftotext >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's poppler-utils package (pdftotext) for the print test..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null && exit 0
fi
echo "No pdftotext found: install poppler-utils (apt-get install poppler-utils) for the print test." >&2
exit 1
