#!/bin/bash
# Rebuilds av1_dec.wasm / av1_dec.js (committed next to this file; `npm
# install` does not run this). Needs Debian 12 with emscripten 3.1.6, meson,
# ninja and dav1d 1.5.1's source (Debian trixie's `dav1d` source package):
#
#   apt-get install emscripten meson ninja-build
#   # with a deb-src line for trixie in /etc/apt/sources.list.d/:
#   apt-get source --download-only dav1d=1.5.1-1 && tar xJf dav1d_1.5.1.orig.tar.xz
#   wasm/av1-dec/build.sh /path/to/dav1d-1.5.1
#
# dav1d is built as plain C (its hand-written assembly cannot target WASM),
# 8-bit and high bit depth, without tools or logging. The wrapper asks for one
# thread and one frame in flight, so dav1d never starts a thread (Workers
# have none). No filesystem, no eval (Workers forbid it).
set -euo pipefail
DAV1D=$(cd "${1:?usage: build.sh <dav1d-1.5.1 source dir> [work dir]}" && pwd)
WORK=${2:-/tmp/av1-dec-build}
HERE=$(cd "$(dirname "$0")" && pwd)
# Debian's emcc runs the system node, which does not look in /usr/share/nodejs for acorn.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

rm -rf "$WORK"
mkdir -p "$WORK"
cat > "$WORK/cross.txt" <<'CROSS'
[binaries]
c = 'emcc'
ar = 'emar'
strip = 'true'

[built-in options]
c_args = ['-O2']

[host_machine]
system = 'emscripten'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
CROSS

meson setup "$WORK/build" "$DAV1D" --cross-file "$WORK/cross.txt" --default-library=static --buildtype=release \
  -Denable_asm=false -Denable_tools=false -Denable_tests=false -Denable_examples=false \
  -Dlogging=false -Dbitdepths=8,16 -Dtrim_dsp=true > "$WORK/setup.log" 2>&1 || { tail -40 "$WORK/setup.log"; exit 1; }
ninja -C "$WORK/build" > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }

# The heap grows in small steps (2%, not emscripten's default 20%): it is
# counted in the isolate's 128 MB as it is, overshoot included.
emcc -O3 -DNDEBUG "$HERE/av1-dec.c" -I"$DAV1D/include" -I"$WORK/build/include" "$WORK/build/src/libdav1d.a" -o "$HERE/av1_dec.js" \
  -sERROR_ON_UNDEFINED_SYMBOLS=1 \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createAv1Dec -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sMEMORY_GROWTH_GEOMETRIC_STEP=0.02 -sMAXIMUM_MEMORY=128MB -sINITIAL_MEMORY=2MB -sTOTAL_STACK=1MB \
  -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0 \
  -sEXPORTED_FUNCTIONS=_dec_message,_dec_input,_dec_decode,_dec_info,_dec_plane,_dec_free,_dec_release \
  -sEXPORTED_RUNTIME_METHODS=HEAPU8
ls -l "$HERE/av1_dec.js" "$HERE/av1_dec.wasm"
