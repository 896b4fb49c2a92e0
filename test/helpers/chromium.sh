#!/usr/bin/env bash
# Debian's Chromium as the browser tests start it (test/helpers/browser.ts): the arguments as given,
# but every `--disable-features=` list merged into one. Chromium reads only the last of several such
# switches, and playwright-core passes its own list before the caller's arguments: merged, both apply.
# PARAPH_CHROMIUM_BINARY is the binary to start (test/helpers/system-tools.ts).
disabled=()
args=()
for arg in "$@"; do
  case "$arg" in
    (--disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    (*) args+=("$arg") ;;
  esac
done
if [ "${#disabled[@]}" -gt 0 ]; then
  args+=("--disable-features=$(IFS=,; echo "${disabled[*]}")")
fi
exec "${PARAPH_CHROMIUM_BINARY:?the Chromium binary to start}" "${args[@]}"
