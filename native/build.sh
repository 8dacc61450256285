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
common=(-std=gnu11 -O2 -fPIC -fno-semantic-interposition -Wall -Wextra -pthread -I"$here/include")
# Code layout: cpumask.c is compiled twice, at two alignments, so a speed difference can be
# told from one that code placement alone makes (layout "align64": the symbols as written;
# "align32": every symbol suffixed _align32). Every other source is compiled once.
align64=(-falign-functions=64 -falign-loops=64)
align32=(-falign-functions=32 -falign-jumps=1 -falign-loops=1 -DCS_LAYOUT=_align32)
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
log=""
compile() { # output, then flags and source
  local o=$1; shift
  local l
  if ! l=$("$cc" "${common[@]}" "$@" -c -o "$objs/$o" 2>&1); then
    printf '%s\n' "$l" >&2
    unavailable "$cc failed to compile native/src (see the build log)"
  fi
  log+=$l
}
for src in "${sources[@]}"; do
  base=$(basename "$src" .c)
  if [ "$base" = cpumask ]; then
    compile cpumask-align64.o "${align64[@]}" "$src"
    compile cpumask-align32.o "${align32[@]}" "$src"
  else
    compile "$base.o" "$src"
  fi
done
if ! l=$("$cc" -shared -pthread -o "$out/libcorescope.so" "$objs"/*.o 2>&1); then
  printf '%s\n' "$l" >&2
  unavailable "$cc failed to link libcorescope.so (see the build log)"
fi
log+=$l
[ -z "$log" ] || printf '%s\n' "$log" >&2

# Seed 000's code size as bloat-o-meter measured it: kernel-like callers of
# cpumask_any_but(), before (CS_NEW=0) and after (CS_NEW=1) the patch, at NR_CPUS=64 and
# 4096, compiled into relocatable objects whose symbol tables CpumaskFamily reads, once per
# build of a matrix a kernel is made with. Not linked: -mcmodel=kernel code cannot go into a
# shared library. A flag this compiler does not take is left out of its build, and
# kernel/builds.tsv records the compiler and each build's flags as used.
mkdir -p "$out/kernel"
rm -f "$out"/kernel/*.o "$out/kernel/builds.tsv"
# arch/x86/Makefile and the top Makefile's x86-64 flags (CONFIG_MITIGATION_RETPOLINE,
# CONFIG_MITIGATION_RETHUNK, CONFIG_X86_KERNEL_IBT, CONFIG_STACKPROTECTOR_STRONG)
kernel=(-fno-pic -mcmodel=kernel -mno-red-zone -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
        -mpreferred-stack-boundary=3 -mskip-rax-setup -mtune=generic -falign-jumps=1 -falign-loops=1
        -fno-strict-aliasing -fno-common -fno-strict-overflow -fno-stack-check -fconserve-stack
        -fno-delete-null-pointer-checks -fno-asynchronous-unwind-tables -fcf-protection=branch
        -mindirect-branch=thunk-extern -mindirect-branch-register -mfunction-return=thunk-extern -fno-jump-tables
        -fstack-protector-strong -mstack-protector-guard-reg=gs -mstack-protector-guard-symbol=__ref_stack_chk_guard)
takes() { "$cc" -Werror "$@" -c -x c /dev/null -o /dev/null >/dev/null 2>&1; }
supported() { # the flags of "$@" this compiler takes, one per line
  local f
  for f in "$@"; do
    if takes -fno-pic -mcmodel=kernel "$f"; then printf '%s\n' "$f"; fi
  done
}
mapfile -t kernel < <(supported "${kernel[@]}")
mapfile -t ftrace < <(supported -pg -mfentry -mrecord-mcount)
mapfile -t framep < <(supported -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)
builds=("kernel-O2|-O2 ${kernel[*]}"
        "kernel-Os|-Os ${kernel[*]}"
        "kernel-O2-ftrace|-O2 ${kernel[*]} ${ftrace[*]}"
        "kernel-O2-frame-pointer|-O2 ${kernel[*]} ${framep[*]}"
        "plain-O2|-O2 -fno-pic -mcmodel=kernel -mno-red-zone -fno-asynchronous-unwind-tables")
printf 'compiler\t%s\n' "$("$cc" --version 2>/dev/null | head -n 1)" > "$out/kernel/builds.tsv"
for b in "${builds[@]}"; do
  name=${b%%|*}
  read -r -a flags <<< "${b#*|}"
  for nr in 64 4096; do
    for v in old new; do
      [ "$v" = new ] && n=1 || n=0
      if ! l=$("$cc" -std=gnu11 "${flags[@]}" -Wall -Wextra -DNR_CPUS=$nr -DCS_NEW=$n -c \
               -o "$out/kernel/cpumask_callers_${name}_${nr}_$v.o" "$here/kernel/cpumask_callers.c" 2>&1); then
        printf '%s\n' "$l" >&2
        echo "[native] kernel-like callers not built for $name (its code size rows will say so)" >&2
        rm -f "$out"/kernel/cpumask_callers_"${name}"_*.o
        continue 3
      fi
      [ -z "$l" ] || printf '%s\n' "$l" >&2
    done
  done
  printf 'build\t%s\t%s\n' "$name" "${flags[*]}" >> "$out/kernel/builds.tsv"
done
echo "[native] built $out/libcorescope.so with $cc" >&2
