#!/bin/bash
# Rebuilds inflate_band.wasm / inflate_band.js (committed next to this file;
# `npm install` does not run this). Needs Debian 12's emscripten 3.1.6 and
# node-acorn, and zlib 1.3.1's source (Debian trixie's `zlib` source
# package, `zlib_1.3.dfsg+really1.3.1.orig.tar.gz`):
#
#   apt-get install emscripten node-acorn
#   # with a deb-src line for trixie in /etc/apt/sources.list.d/:
#   apt-get source --download-only zlib && tar xzf zlib_1.3.dfsg+really1.3.1.orig.tar.gz
#   wasm/inflate/build.sh /path/to/zlib-1.3.1
#
# Only inflate and what it links (Adler-32 and CRC-32 are referenced by
# inflate.c even for raw Deflate). No filesystem, no threads, no eval.
set -euo pipefail
ZLIB=$(cd "${1:?usage: build.sh <zlib-1.3.1 source dir>}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
# Debian's emcc runs the system node, which does not look in /usr/share/nodejs for acorn.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

emcc -O3 -msimd128 -DNDEBUG -I"$ZLIB" "$HERE/inflate-band.c" \
  "$ZLIB/inflate.c" "$ZLIB/inftrees.c" "$ZLIB/inffast.c" "$ZLIB/zutil.c" "$ZLIB/adler32.c" "$ZLIB/crc32.c" \
  -o "$HERE/inflate_band.js" \
  -sERROR_ON_UNDEFINED_SYMBOLS=1 \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createInflateBand -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=1MB -sMAXIMUM_MEMORY=4MB -sTOTAL_STACK=64KB -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0 \
  -sEXPORTED_FUNCTIONS=_inf_open,_inf_close,_inf_input,_inf_output,_inf_feed,_inf_step,_inf_ended,_inf_left,_inf_message \
  -sEXPORTED_RUNTIME_METHODS=HEAPU8
ls -l "$HERE/inflate_band.js" "$HERE/inflate_band.wasm"
