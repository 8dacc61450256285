#!/usr/bin/env bash
# Redraws the pictures under docs/img/ with corescope itself, from topology trees in the
# repository (hwloc's test trees, BSD-licensed, under src/test/resources/fixtures/topology).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p docs/img

# name of the picture, then the tree it is drawn from
draw() {
  local picture=$1 tree=$2
  tar -xjf "src/test/resources/fixtures/topology/$tree.tar.bz2" -C "$work"
  local dir
  dir=$(find "$work" -maxdepth 2 -type d -path "*$tree*" | head -n 1)
  [ -n "$dir" ] || dir=$work
  ./run.sh topology --root "$dir" --format svg > "$work/$picture.svg"
  mv "$work/$picture.svg" "docs/img/$picture.svg"
  echo "drew docs/img/$picture.svg from $tree"
  rm -rf "${work:?}"/*
}

draw topology 16em64t-4s2c2t-offlines
draw topology-arm 128arm-2pa2n8cluster4co
