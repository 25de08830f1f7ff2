#!/usr/bin/env bash
# Makes the demo video provider's clips (services/video/assets/demo/), once; they are committed.
# Needs ffmpeg with libx264 and the DejaVu fonts (Debian: apt-get install ffmpeg fonts-dejavu-core).
# Each is 4 seconds at 24 fps, 720p in one orientation: a slow gradient, "demo clip" and the
# running time, so a player shows it moving; about 40 KB each.
set -euo pipefail
out="$(dirname "$0")/../services/video/assets/demo"
fonts=/usr/share/fonts/truetype/dejavu
make_clip() { # name width height
  local w=$2 h=$3 big=$(( ($2 < $3 ? $2 : $3) / 10 ))
  ffmpeg -v error -y -f lavfi \
    -i "gradients=size=${w}x${h}:rate=24:duration=4:speed=0.03:c0=0x0f172a:c1=0x4f46e5:nb_colors=2:seed=7" \
    -vf "drawtext=fontfile=${fonts}/DejaVuSans-Bold.ttf:text='demo clip':fontcolor=white:fontsize=${big}:x=(w-text_w)/2:y=(h-text_h)/2-${big}/2,drawtext=fontfile=${fonts}/DejaVuSans.ttf:text='%{pts\:hms}':fontcolor=white:fontsize=$(( big * 5 / 9 )):x=(w-text_w)/2:y=h/2+${big}" \
    -c:v libx264 -preset veryslow -crf 32 -pix_fmt yuv420p -movflags +faststart -an -map_metadata -1 -fflags +bitexact \
    "$out/$1.mp4"
}
make_clip 720p-16x9 1280 720
make_clip 720p-9x16 720 1280
ls -l "$out"
