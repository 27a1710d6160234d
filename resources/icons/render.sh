#!/bin/sh
# Renders the committed hicolor PNGs from wirebench.svg (run after editing the SVG; the build does not need it).
# Needs ImageMagick (convert; librsvg's rsvg-convert is used for the PNGs when present).
set -eu
cd "$(dirname "$0")"
for s in 16 24 32 48 64 128 256; do
    if command -v rsvg-convert >/dev/null 2>&1; then
        rsvg-convert -w "$s" -h "$s" wirebench.svg -o "wirebench-$s.png"
    else
        convert -background none -density 384 wirebench.svg -resize "${s}x${s}" -depth 8 -strip "wirebench-$s.png"
    fi
done
# The Windows installer's and executable's icon, from the PNGs above.
convert wirebench-16.png wirebench-24.png wirebench-32.png wirebench-48.png wirebench-64.png \
    wirebench-128.png wirebench-256.png wirebench.ico
