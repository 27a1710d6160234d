#!/bin/sh
# Renders the committed hicolor PNGs from wirebench.svg (run after editing the SVG; the build does not need it).
# Needs ImageMagick (convert) or librsvg (rsvg-convert).
set -eu
cd "$(dirname "$0")"
for s in 16 24 32 48 64 128 256; do
    if command -v rsvg-convert >/dev/null 2>&1; then
        rsvg-convert -w "$s" -h "$s" wirebench.svg -o "wirebench-$s.png"
    else
        convert -background none -density 384 wirebench.svg -resize "${s}x${s}" -depth 8 -strip "wirebench-$s.png"
    fi
done
