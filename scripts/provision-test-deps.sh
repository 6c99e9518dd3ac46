#!/usr/bin/env bash
# Installs what the test suite needs from the machine's package manager, when it is missing, and says so.
# `npm test` runs this first (pretest), so the README's test command passes on a fresh Debian machine with nothing
# installed by hand. Each step is skipped when its tool is already there.
#
# - Debian's Chromium: the web components and the console are tested in a real browser, driven by playwright-core
#   (Playwright's own browser download cannot work on these machines).
# - Debian's PostgreSQL server: the PostgreSQL store is tested against a real server that the tests start as a
#   throwaway cluster (test/support/postgres); any installed major version does (Debian 12's is 15).
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "airlock tests: installing Debian packages the tests need: ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "airlock tests: apt-get is not here; install ${missing[*]} with your package manager, then run npm test again" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "airlock tests: installing ${missing[*]} needs root; run as root or with sudo available" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
echo "airlock tests: installed ${missing[*]}" >&2
