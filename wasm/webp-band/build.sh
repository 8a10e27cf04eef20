#!/bin/bash
# Rebuilds webp_band.wasm / webp_band.js (committed next to this file;
# `npm install` does not run this). Needs Debian 12's emscripten 3.1.6 and
# node-acorn, and libwebp 1.5.0's source (Debian trixie's `libwebp` package):
#
#   apt-get install emscripten node-acorn
#   # with a deb-src line for trixie in /etc/apt/sources.list.d/:
#   apt-get source --download-only libwebp=1.5.0-0.1 && tar xzf libwebp_1.5.0.orig.tar.gz
#   wasm/webp-band/build.sh /path/to/libwebp-1.5.0
#
# libwebp's SSE2 and SSE4.1 intrinsics are compiled to WASM SIMD through
# emscripten's x86 SIMD headers (-msimd128 -msse4.1); libwebp's cpu.c answers
# its feature checks from those flags under emscripten. No threads (Workers
# have none), no filesystem, no eval.
set -euo pipefail
SOURCE=$(cd "${1:?usage: build.sh <libwebp-1.5.0 source dir> [work dir]}" && pwd)
WORK=${2:-/tmp/webp-band-build}
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=${JOBS:-2}
SIMD=${SIMD:--msimd128 -msse4.1}
# Debian's emcc runs the system node, which does not look in /usr/share/nodejs for acorn.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

rm -rf "$WORK"
mkdir -p "$WORK/obj"
# libwebp is built from a patched copy (the source dir is left as it is):
# libwebp-vp8l-window.patch makes the lossless decoder keep a sliding window
# of about 1.6 M ARGB pixels instead of the whole picture;
# libwebp-token-pages.patch lets the encoder's token buffer take pages from
# the picture rows it has encoded once the heap is full (see README.md).
# `patch` stops the build if a patch does not apply exactly.
WEBP="$WORK/libwebp"
mkdir -p "$WEBP"
cp -R "$SOURCE/src" "$SOURCE/sharpyuv" "$WEBP/"
patch -d "$WEBP" -p1 --forward --fuzz=0 --no-backup-if-mismatch < "$HERE/libwebp-vp8l-window.patch"
grep -q 'window_pixels_' "$WEBP/src/dec/vp8li_dec.h"
patch -d "$WEBP" -p1 --forward --fuzz=0 --no-backup-if-mismatch < "$HERE/libwebp-token-pages.patch"
grep -q 'WebPBandNewTokenPage' "$WEBP/src/enc/token_enc.c"
# picture_csp_enc.c is compiled inside webp-band.c (which uses its static
# RGB->YUV helpers), so it stays out of the library.
SOURCES=$(cd "$WEBP" && ls src/dec/*.c src/dsp/*.c src/enc/*.c src/utils/*.c sharpyuv/*.c | grep -v 'src/enc/picture_csp_enc.c')
CFLAGS="-O3 $SIMD -DNDEBUG -I$WEBP -DWEBP_USE_THREAD=0 -DWEBP_DISABLE_STATS"
echo "$SOURCES" | xargs -P "$JOBS" -I{} sh -c 'emcc '"$CFLAGS"' -c "'"$WEBP"'/{}" -o "'"$WORK/obj"'/$(echo {} | tr / _).o"'
emar rcs "$WORK/libwebp-band.a" "$WORK"/obj/*.o

emcc $CFLAGS "$HERE/webp-band.c" "$WORK/libwebp-band.a" -o "$HERE/webp_band.js" \
  -sERROR_ON_UNDEFINED_SYMBOLS=1 \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createWebpBand -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sMEMORY_GROWTH_GEOMETRIC_STEP=0.02 -sMAXIMUM_MEMORY=72MB -sINITIAL_MEMORY=4MB -sTOTAL_STACK=512KB -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0 \
  -sEXPORTED_FUNCTIONS=_malloc,_free,_band_message,_enc_begin,_enc_buffer,_enc_rows,_enc_coef_buffer,_enc_coef_blocks,_enc_coef_done,_enc_finish,_enc_output,_enc_release,_enc_translucent,_enc_used_low_memory,_enc_token_road,_enc_token_heap_limit,_dec_input,_dec_open,_dec_open_lossless,_dec_wants,_dec_feed,_dec_feed_room,_dec_fed,_dec_width,_dec_height,_dec_window,_dec_rows,_dec_close \
  -sEXPORTED_RUNTIME_METHODS=HEAPU8
ls -l "$HERE/webp_band.js" "$HERE/webp_band.wasm"
