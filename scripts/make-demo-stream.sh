#!/bin/sh
# Makes the demo HLS stream kept in apps/server/assets/demo-stream (served at /demo/stream/ outside
# production). Run once by hand (needs ffmpeg); neither `npm start` nor `npm test` needs it.
# 40 s of a test pattern with a tone: H.264 baseline 300 kbit/s, AAC 64 kbit/s, 2 s segments (20).
set -eu
out="$(dirname "$0")/../apps/server/assets/demo-stream"
mkdir -p "$out"
rm -f "$out"/*.ts "$out"/*.m3u8
ffmpeg -hide_banner -loglevel error \
  -f lavfi -i testsrc=size=640x360:rate=25:duration=40 \
  -f lavfi -i sine=frequency=440:sample_rate=44100:duration=40 \
  -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -b:v 300k -maxrate 300k -bufsize 600k \
  -g 50 -keyint_min 50 -sc_threshold 0 \
  -c:a aac -b:a 64k -ac 2 \
  -f hls -hls_time 2 -hls_list_size 0 -hls_playlist_type vod \
  -hls_segment_filename "$out/segment-%02d.ts" "$out/index.m3u8"
# The same segments as byte ranges (EXT-X-BYTERANGE, each the whole file): the P2P integrity test checks
# verification of byte-range segments on it.
{
  printf '#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
  for f in "$out"/segment-*.ts; do
    printf '#EXTINF:2.000000,\n#EXT-X-BYTERANGE:%s@0\n%s\n' "$(wc -c <"$f" | tr -d ' ')" "$(basename "$f")"
  done
  printf '#EXT-X-ENDLIST\n'
} >"$out/byterange.m3u8"
# The same picture and tone as DASH (fMP4, SegmentTemplate with $Number$, 2 s segments, video and audio
# in adaptation sets of their own): the Shaka and byte-accounting tests play it.
rm -rf "$out/dash"
mkdir -p "$out/dash"
(cd "$out/dash" && ffmpeg -hide_banner -loglevel error \
  -f lavfi -i testsrc=size=640x360:rate=25:duration=40 \
  -f lavfi -i sine=frequency=440:sample_rate=44100:duration=40 \
  -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -b:v 300k -maxrate 300k -bufsize 600k \
  -g 50 -keyint_min 50 -sc_threshold 0 \
  -c:a aac -b:a 64k -ac 2 \
  -f dash -seg_duration 2 -use_template 1 -use_timeline 0 -adaptation_sets 'id=0,streams=v id=1,streams=a' \
  -init_seg_name 'init-$RepresentationID$.m4s' -media_seg_name 'chunk-$RepresentationID$-$Number%03d$.m4s' \
  manifest.mpd)
du -sh "$out"
