#!/usr/bin/env bash
# Compiles the C twins in native/src/ into one shared library, libcorescope.so,
# in the folder given as $1 (the Maven build passes target/classes/native, so the
# jar carries it). Called by the Maven build (exec-maven-plugin, process-classes).
#
# Without a C compiler this is not an error: it writes UNAVAILABLE there with the
# reason, the Java build goes on, and every "native" benchmark row says why it is
# missing.
set -u
out=${1:?usage: native/build.sh OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
rm -f "$out/UNAVAILABLE" "$out/libcorescope.so"

unavailable() {
  printf '%s\n' "$1" > "$out/UNAVAILABLE"
  echo "[native] C twins not built: $1" >&2
  exit 0
}

cc=${CC:-}
if [ -z "$cc" ]; then
  for c in cc gcc clang; do
    if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
  done
fi
[ -n "$cc" ] || unavailable "no C compiler found (looked for \$CC, cc, gcc, clang); install one, e.g. apt-get install gcc"

shopt -s nullglob
sources=("$here"/src/*.c)
[ ${#sources[@]} -gt 0 ] || unavailable "no C sources in native/src"

# -O2 like a distribution kernel build; -fno-inline for the twins is set per
# function with __attribute__((noinline)) where the seed's code was not inlined.
# -fno-semantic-interposition: a call from one twin to another inside this library is a
# direct call, not one through the PLT (the kernel is not PIC and has no PLT; with the
# default, every cs_* call from a timed loop went through a PLT stub). Data shared inside
# the library (timerbase.c's __per_cpu_offset[]) is marked hidden in the source, so it is
# addressed relative to the instruction pointer, not loaded from the GOT first.
if ! log=$("$cc" -std=gnu11 -O2 -fPIC -fno-semantic-interposition -shared -Wall -Wextra -pthread \
           -I"$here/include" -o "$out/libcorescope.so" "${sources[@]}" 2>&1); then
  printf '%s\n' "$log" >&2
  unavailable "$cc failed to compile native/src (see the build log)"
fi
[ -z "$log" ] || printf '%s\n' "$log" >&2
echo "[native] built $out/libcorescope.so with $cc" >&2
