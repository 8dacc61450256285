#!/usr/bin/env bash
# Builds the hsdis plugin HotSpot needs to print C2's machine code (-XX:+PrintAssembly,
# -XX:CompileCommand=print), from OpenJDK's src/utils/hsdis and the system's capstone. JDK builds do not ship the plugin; `bench` shows the Java variants' machine code
# beside the C twins' wherever it finds one (docs/formats-code.md).
#
#   scripts/hsdis.sh HSDIS_SOURCES [OUT_DIR]
#
# HSDIS_SOURCES is OpenJDK's src/utils/hsdis directory (hsdis.h and capstone/hsdis-capstone.c
# are what is used). This script downloads nothing: get the sources with git, e.g.
#
#   git clone --depth 1 --filter=blob:none --sparse https://github.com/openjdk/jdk /tmp/jdk
#   git -C /tmp/jdk sparse-checkout set src/utils/hsdis
#   scripts/hsdis.sh /tmp/jdk/src/utils/hsdis
#
# Needs gcc and capstone's headers (Debian: apt-get install libcapstone-dev; tried with 4.0.2).
# OpenJDK's binutils backend is not built here (not tried). OUT_DIR defaults to target/hsdis,
# where corescope looks; the plugin there is a build output, never committed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { echo "usage: scripts/hsdis.sh HSDIS_SOURCES [OUT_DIR] (OpenJDK's src/utils/hsdis; see the script's header)" >&2; exit 2; }
fail() { echo "scripts/hsdis.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 2 ] || usage
src=$1
out=${2:-$root/target/hsdis}
[ -f "$src/hsdis.h" ] || fail "$src has no hsdis.h: give OpenJDK's src/utils/hsdis directory"
[ "$(uname -m)" = x86_64 ] || fail "only x86_64 (hsdis-amd64.so) is built here, not $(uname -m)"
command -v gcc > /dev/null || fail "gcc not found (apt-get install gcc)"
mkdir -p "$out"

[ -f "$src/capstone/hsdis-capstone.c" ] || fail "$src/capstone/hsdis-capstone.c not found"
[ -f /usr/include/capstone/capstone.h ] || fail "capstone's headers not found (apt-get install libcapstone-dev)"
gcc -O2 -shared -fPIC -std=gnu99 -I/usr/include/capstone -I"$src" \
  -DCAPSTONE_ARCH=CS_ARCH_X86 -DCAPSTONE_MODE=CS_MODE_64 \
  "$src/capstone/hsdis-capstone.c" -lcapstone -o "$out/hsdis-amd64.so"

nm -D "$out/hsdis-amd64.so" | grep -q ' T decode_instructions_virtual$' \
  || fail "$out/hsdis-amd64.so does not export decode_instructions_virtual (HotSpot's entry point since JDK 9)"
echo "$out/hsdis-amd64.so (capstone)"
