#!/bin/sh
# Rebuilds the CMYK output profiles in assets/icc/ from freely licensed
# characterization data (Debian's icc-profiles-free: the FOGRA and CGATS TR 00x
# measurement sets, Zlib licence) with ArgyllCMS's colprof. Needs:
#   apt-get install argyll icc-profiles-free
# Takes several minutes of CPU a profile. The profiles are committed, so neither a
# build nor a test needs argyll; run this only to change them (docs/print-shops.md).
#
#   scripts/icc-profiles.sh            # both profiles
#   scripts/icc-profiles.sh fogra39    # one of them
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
data=/usr/share/color/icc
out="$here/assets/icc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name, characterization set, total ink limit (%), description
profile() {
    name=$1 set=$2 limit=$3 desc=$4
    cp "$data/$set.ti3" "$work/$name.ti3"
    # -qm: medium quality tables; -kr: black from a ramp (none at white, all at
    # black); -l: the total ink limit; -S: perceptual table gamut-mapped from sRGB
    # (what cardstock converts from); -cmt -dpp: a monitor in a typical room to a
    # print viewed in a practical reflection booth; -nc: no measurement data in
    # the profile (smaller).
    (cd "$work" && colprof -qm -kr -l"$limit" -S "$data/sRGB.icc" -cmt -dpp -nc \
        -D "$desc" \
        -C "Made by cardstock from $set ($5); Zlib licence, see LICENSE" \
        "$name" >"$name.log")
    cp "$work/$name.icc" "$out/$name.icc"
    echo "assets/icc/$name.icc: $(wc -c <"$out/$name.icc") bytes"
}

want=${1:-all}
if [ "$want" = all ] || [ "$want" = gracol ]; then
    profile cardstock-gracol-tr006-240 TR006 240 \
        "cardstock GRACoL coated (CGATS TR 006), 240% ink" "ANSI CGATS TR 006-2007"
fi
if [ "$want" = all ] || [ "$want" = fogra39 ]; then
    profile cardstock-fogra39-300 FOGRA39L 300 \
        "cardstock FOGRA39 coated (ISO 12647-2), 300% ink" "Fogra, FOGRA39L"
fi
