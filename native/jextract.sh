#!/usr/bin/env bash
# Regenerates the libc FFM bindings in src/affinity/java/dev/corescope/sys/ffi
# from native/include/corescope_libc.h, limited to native/jextract-symbols.txt.
# Generated files are never edited by hand: change the header or the symbol list and rerun.
set -euo pipefail

if ! command -v jextract >/dev/null 2>&1; then
  echo "error: jextract not found on PATH; build it from source (github.com/openjdk/jextract, needs JDK 25 and libclang-14-dev) and put its launcher on PATH." >&2
  exit 1
fi

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

out_dir="src/affinity/java/dev/corescope/sys/ffi"
rm -rf "$out_dir"

jextract \
  --target-package dev.corescope.sys.ffi \
  --header-class-name LibC \
  --output src/affinity/java \
  @native/jextract-symbols.txt \
  native/include/corescope_libc.h

echo "generated: $(find "$out_dir" -name '*.java' | wc -l) files in $out_dir"
