#!/usr/bin/env bash
# Re-creates vendor/ from the published crates plus vendor/patches/ (see vendor/README.md).
#
#   scripts/vendor.sh                      every crate listed in vendor/checksums
#   scripts/vendor.sh NAME                 only that crate
#   scripts/vendor.sh diff NAME            rewrite NAME's last patch from vendor/NAME/
#                                          (after editing the sources there)
#   scripts/vendor.sh checksum NAME VER    print the sha256 of a published version,
#                                          for its line in vendor/checksums
#
# The .crate archive comes from cargo's cache, else `cargo fetch` downloads it (cargo
# checks it against the registry index); this script then checks it against
# vendor/checksums. Needs cargo, tar, sha256sum, patch and diff.
# tests/it/vendor.rs checks the result: `cargo test vendor`.
set -euo pipefail
shopt -s nullglob

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENDOR=$ROOT/vendor
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

die() {
  echo "vendor.sh: $*" >&2
  exit 1
}

# The published NAME-VERSION.crate in cargo's cache (downloaded there if missing).
archive() {
  local name=$1 version=$2 home=${CARGO_HOME:-$HOME/.cargo}
  local hits=("$home"/registry/cache/*/"$name-$version.crate")
  if [ ${#hits[@]} -eq 0 ]; then
    # A throwaway package that depends on exactly this version; the lock file keeps
    # every other crate at the version cardstock already uses.
    local p=$WORK/fetch-$name-$version
    mkdir -p "$p/src"
    : >"$p/src/lib.rs"
    printf '[package]\nname = "vendor-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[workspace]\n\n[dependencies]\n%s = "=%s"\n' \
      "$name" "$version" >"$p/Cargo.toml"
    cp "$ROOT/Cargo.lock" "$p/"
    cargo fetch --quiet --manifest-path "$p/Cargo.toml" || die "cargo could not fetch $name $version"
    hits=("$home"/registry/cache/*/"$name-$version.crate")
  fi
  [ ${#hits[@]} -gt 0 ] || die "cargo left no $name-$version.crate in $home/registry/cache"
  echo "${hits[0]}"
}

# The line of vendor/checksums for NAME: "NAME VERSION SHA256 PATCH..."
entry() {
  local line
  line=$(grep -E "^$1 " "$VENDOR/checksums") || die "vendor/checksums lists no crate $1"
  echo "$line"
}

# The files vendor/ keeps of a crate: Cargo.toml, README.md, LICENSE*, src/, icc/ (and the
# .rej files of hunks that failed to apply, until someone resolves them).
keep() {
  local from=$1 to=$2 f
  mkdir -p "$to"
  for f in "$from"/Cargo.toml "$from"/README.md "$from"/LICENSE* "$from"/*.rej; do
    if [ -e "$f" ]; then cp "$f" "$to/"; fi
  done
  cp -R "$from/src" "$to/src"
  # krilla's sources include its ICC profiles from icc/ (include_bytes!).
  if [ -d "$from/icc" ]; then cp -R "$from/icc" "$to/icc"; fi
}

# unpack NAME VERSION SHA DIR: the published crate, checked, unpacked into DIR.
unpack() {
  local name=$1 version=$2 sha=$3 dir=$4 file got
  file=$(archive "$name" "$version")
  got=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || die "$file has sha256 $got, vendor/checksums says $sha"
  mkdir -p "$WORK/raw-$name"
  tar -xzf "$file" -C "$WORK/raw-$name"
  keep "$WORK/raw-$name/$name-$version" "$dir"
}

# apply DIR PATCH: one patch of vendor/patches/ applied inside DIR; 1 if a hunk failed
# (patch leaves the failed hunks next to the file, as FILE.rej).
apply() {
  patch --quiet --forward --no-backup-if-mismatch -p1 -d "$1" -i "$VENDOR/patches/$2"
}

# recreate NAME: vendor/NAME/ = published crate + its patches, kept files only.
recreate() {
  local line name version sha patches p failed=()
  line=$(entry "$1")
  read -r name version sha patches <<<"$line"
  local tree=$WORK/tree-$name
  unpack "$name" "$version" "$sha" "$tree"
  for p in $patches; do
    apply "$tree" "$p" || failed+=("$p")
  done
  rm -rf "${VENDOR:?}/$name"
  keep "$tree" "$VENDOR/$name"
  if [ ${#failed[@]} -gt 0 ]; then
    die "$name $version: ${failed[*]} did not apply cleanly. Finish the failed hunks" \
      "(vendor/$name/**/*.rej) by hand in vendor/$name/, delete the .rej files, then run" \
      "scripts/vendor.sh diff $name"
  fi
  echo "vendor/$name: $name $version + $patches"
}

# rediff NAME: rewrite NAME's last patch as the difference between the published crate
# (with the patches before it) and vendor/NAME/.
rediff() {
  local line name version sha patches p last
  line=$(entry "$1")
  read -r name version sha patches <<<"$line"
  last=${patches##* }
  [ -n "$last" ] || die "vendor/checksums lists no patch for $name"
  local base=$WORK/diff/$name-$version
  unpack "$name" "$version" "$sha" "$base"
  for p in $patches; do
    [ "$p" = "$last" ] || apply "$base" "$p" || die "$p does not apply to $name $version"
  done
  mkdir -p "$WORK/diff/patched"
  cp -R "$VENDOR/$name" "$WORK/diff/patched/$name"
  # diff exits 1 when the trees differ; drop the time stamps from the file headers.
  (cd "$WORK/diff" && diff -Nru "$name-$version" "patched/$name" || [ $? -eq 1 ]) |
    awk '/^diff /{h=2; print; next} h>0 && /^(---|\+\+\+) /{sub(/\t.*/, ""); h--} {print}' \
      >"$VENDOR/patches/$last"
  echo "vendor/patches/$last: $(grep -c '^@@' "$VENDOR/patches/$last") hunks"
}

case "${1:-}" in
diff)
  [ $# -eq 2 ] || die "usage: scripts/vendor.sh diff NAME"
  rediff "$2"
  ;;
checksum)
  [ $# -eq 3 ] || die "usage: scripts/vendor.sh checksum NAME VERSION"
  sha256sum "$(archive "$2" "$3")" | cut -d' ' -f1
  ;;
"")
  grep -vE '^(#|$)' "$VENDOR/checksums" | while read -r name _; do recreate "$name"; done
  ;;
*)
  [ $# -eq 1 ] || die "usage: scripts/vendor.sh [NAME | diff NAME | checksum NAME VERSION]"
  recreate "$1"
  ;;
esac
