#!/bin/bash
# Rebuilds av1_still_enc.wasm / av1_still_enc.js (committed next to this file;
# `npm install` does not run this). Needs Debian 12 with emscripten 3.1.6,
# cmake, python3, node-acorn, and libaom 3.12.1's source:
#
#   apt-get install emscripten cmake python3 node-acorn
#   # with a deb-src line for trixie in /etc/apt/sources.list.d/:
#   apt-get source --download-only aom=3.12.1-1+deb13u1 && tar xzf aom_3.12.1.orig.tar.gz
#   wasm/av1-still/build.sh /path/to/aom-3.12.1
#
# libaom's x86 SSE2/SSSE3/SSE4.1 intrinsics are compiled to WASM SIMD through
# emscripten's SSE headers (-msimd128). aom's hand-written .asm cannot target
# WASM: it is skipped, and fix-rtcd.py points every function that only had an
# .asm version (or whose intrinsics call .asm helpers) back to its C version.
# Two functions aom has only as AVX2 or .asm get SSE versions of ours (simd/).
# Output is bit-identical to a plain C build of the same aom, about 2x faster.
set -euo pipefail
AOM_SOURCE=$(cd "${1:?usage: build.sh <aom-3.12.1 source dir> [work dir]}" && pwd)
WORK=${2:-/tmp/av1-still-build}
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=${JOBS:-2}
# Debian's emcc runs the system node, which does not look in /usr/share/nodejs for acorn.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

SRC=$WORK/aom-src
BUILD=$WORK/aom-build
rm -rf "$SRC" "$BUILD"
mkdir -p "$WORK"
cp -a "$AOM_SOURCE" "$SRC"
cd "$SRC"

# Patch 1: no nasm/yasm for an emscripten build (its detection is a FATAL_ERROR otherwise).
sed -i 's/^if(AOM_TARGET_CPU STREQUAL "x86" OR AOM_TARGET_CPU STREQUAL "x86_64")$/if(NOT EMSCRIPTEN AND (AOM_TARGET_CPU STREQUAL "x86" OR AOM_TARGET_CPU STREQUAL "x86_64"))/' \
  build/cmake/aom_configure.cmake
grep -q 'if(NOT EMSCRIPTEN AND (AOM_TARGET_CPU' build/cmake/aom_configure.cmake

# Patch 2: add_asm_library() does nothing: the .asm sources are skipped.
sed -i 's/^function(add_asm_library lib_name asm_sources)$/&\n  return() # wasm: .asm sources cannot be built, skip them/' \
  build/cmake/aom_optimization.cmake
grep -q 'wasm: .asm sources' build/cmake/aom_optimization.cmake

# Patch 3: no x87 control-word inline asm (fldcw/fstcw) in aom_encoder.c.
sed -i 's/^#if AOM_ARCH_X86 || AOM_ARCH_X86_64$/#if (AOM_ARCH_X86 || AOM_ARCH_X86_64) \&\& !defined(__EMSCRIPTEN__)/' \
  aom/src/aom_encoder.c
grep -q '!defined(__EMSCRIPTEN__)' aom/src/aom_encoder.c

# Patch 4: the static rtcd headers include aom_ports/x86.h (cpuid inline asm)
# only for x86_simd_caps(), unused without runtime CPU detection.
perl -0pi -e 's|#include "aom_ports/x86.h"\n|#ifndef __EMSCRIPTEN__\n#include "aom_ports/x86.h"\n#else\n#define x86_simd_caps() 0 /* wasm: no cpuid; static dispatch only */\n#endif\n|' \
  build/cmake/rtcd.pl
grep -q 'wasm: no cpuid' build/cmake/rtcd.pl

# Patch 5: a grid tile is a frame of its own, and aom's screen-content detection
# (a share of 16x16 blocks with 2-4 luma values) then judges the tile, not the
# picture: a tile of sky counts as a screenshot and gets palette and IntraBC
# searches (slower, no smaller). aom_still_screen_content lets the caller pass
# the decision instead: -1, aom decides from the frame, as before; else a mask
# of bit 0 screen-content tools (palette), bit 1 IntraBC, bit 2 the frame's
# screen-content type (aom sets the three apart too, by stricter rules).
perl -0pi -e 's|(void av1_set_screen_content_options\(AV1_COMP \*cpi, FeatureFlags \*features\) \{\n(.*?\n)  if \(cpi->oxcf.mode == REALTIME\) \{)|int aom_still_screen_content = -1;\n\n$1|s' av1/encoder/encoder.c
perl -0pi -e 's|(  if \(cpi->oxcf.mode == REALTIME\) \{\n    features->allow_screen_content_tools = features->allow_intrabc = 0;\n    return;\n  \}\n)|  if (aom_still_screen_content >= 0) {\n    features->allow_screen_content_tools = aom_still_screen_content & 1;\n    features->allow_intrabc = (aom_still_screen_content >> 1) & 1;\n    cpi->use_screen_content_tools = features->allow_screen_content_tools;\n    cpi->is_screen_content_type = (aom_still_screen_content >> 2) & 1;\n    return;\n  }\n\n$1|' av1/encoder/encoder.c
grep -q 'features->allow_intrabc = (aom_still_screen_content >> 1) & 1;' av1/encoder/encoder.c
grep -q '^int aom_still_screen_content = -1;' av1/encoder/encoder.c

# Patch 6: two SSE intrinsics files of ours (simd/) where aom has only AVX2 or
# .asm: the intra partition CNN's convolution (bit-identical to C, see the
# file) and aom_subtract_block. Added to aom's SSE2 source lists; the CNN gets
# an sse2 specialisation in the rtcd definitions.
cp "$HERE/simd/cnn_sse2.c" av1/encoder/x86/cnn_sse2.c
cp "$HERE/simd/subtract_sse2.c" aom_dsp/x86/subtract_sse2.c
sed -i 's|^list(APPEND AOM_AV1_ENCODER_INTRIN_SSE2$|&\n            "${AOM_ROOT}/av1/encoder/x86/cnn_sse2.c"|' av1/av1.cmake
sed -i '0,/^  list(APPEND AOM_DSP_ENCODER_INTRIN_SSE2$/s||&\n              "${AOM_ROOT}/aom_dsp/x86/subtract_sse2.c"|' aom_dsp/aom_dsp.cmake
sed -i 's|^    specialize qw/av1_cnn_convolve_no_maxpool_padding_valid neon/;$|    specialize qw/av1_cnn_convolve_no_maxpool_padding_valid neon sse2/;|' av1/common/av1_rtcd_defs.pl
grep -q 'cnn_sse2.c' av1/av1.cmake
grep -q 'subtract_sse2.c' aom_dsp/aom_dsp.cmake
grep -q 'av1_cnn_convolve_no_maxpool_padding_valid neon sse2' av1/common/av1_rtcd_defs.pl

# Patch 7: a grid tile is a frame of its own, and aom picks its size-dependent
# speed features (partition limits, ML partition models, transform pruning)
# from the frame's shorter side: a 286-pixel tile gets the thorough search
# meant for small videos. aom_still_picture_side lets the caller name the whole
# picture's shorter side, so each tile is searched as the single frame would be
# (0: the frame's own side, as before).
perl -0pi -e 's|(#include "av1/encoder/speed_features.h"\n)|$1\n// wasm still-picture grid tiles: size-dependent decisions follow the whole\n// picture'"'"'s shorter side when it is set (0: the frame'"'"'s own).\nextern int aom_still_picture_side;\n#define STILL_DECISION_SIDE(cm) \\\n  (aom_still_picture_side > 0 ? aom_still_picture_side : AOMMIN((cm)->width, (cm)->height))\n|' av1/encoder/encoder.h
sed -i 's/^int aom_still_screen_content = -1;$/&\nint aom_still_picture_side = 0;/' av1/encoder/encoder.c
for f in speed_features partition_strategy partition_search rdopt encodeframe; do
  sed -i 's/AOMMIN(cm->width, cm->height)/STILL_DECISION_SIDE(cm)/g' "av1/encoder/$f.c"
  grep -q 'STILL_DECISION_SIDE(cm)' "av1/encoder/$f.c"
done
grep -q '^extern int aom_still_picture_side;' av1/encoder/encoder.h
grep -q '^int aom_still_picture_side = 0;' av1/encoder/encoder.c

# 32-bit "x86" matches wasm32's pointer size. ENABLE_MMX stays on: aom's cpu.cmake
# turns off every later flavour once one is off (MMX adds no code here).
# emscripten 3.1.6 has no AVX/AVX2 and no usable SSE4.2 crc32. Encoder only,
# 8-bit only, single-threaded (Workers have no threads).
mkdir -p "$BUILD"
cd "$BUILD"
emcmake cmake "$SRC" \
  -DAOM_TARGET_CPU=x86 -DCONFIG_RUNTIME_CPU_DETECT=0 \
  -DENABLE_SSE4_2=0 -DENABLE_AVX=0 -DENABLE_AVX2=0 \
  -DCMAKE_C_FLAGS=-msimd128 -DCMAKE_CXX_FLAGS=-msimd128 \
  -DCONFIG_MULTITHREAD=0 -DCONFIG_AV1_DECODER=0 -DCONFIG_AV1_HIGHBITDEPTH=0 \
  -DENABLE_DOCS=0 -DENABLE_EXAMPLES=0 -DENABLE_TESTS=0 -DENABLE_TOOLS=0 \
  -DCMAKE_BUILD_TYPE=Release -DCONFIG_WEBM_IO=0 -DCONFIG_TUNE_VMAF=0 -DCONFIG_TUNE_BUTTERAUGLI=0 \
  > cmake.log 2>&1 || { tail -50 cmake.log; exit 1; }

# Build, point the rtcd defines away from skipped .asm, rebuild until stable.
make -j"$JOBS" aom > build1.log 2>&1 || { grep -B3 -A3 'error' build1.log | head -60; exit 1; }
for pass in 1 2 3; do
  python3 "$HERE/fix-rtcd.py" "$BUILD" > "fix-rtcd.$pass.log"
  tail -1 "fix-rtcd.$pass.log"
  make -j"$JOBS" aom > "build-fix.$pass.log" 2>&1 || { tail -40 "build-fix.$pass.log"; exit 1; }
  if python3 "$HERE/fix-rtcd.py" "$BUILD" --check > fix-check.log; then break; fi
  [ "$pass" = 3 ] && { cat fix-check.log; exit 1; }
done

# The wrapper and Emscripten glue: ES module factory, no filesystem, no eval
# (Workers forbid it); the Worker passes the precompiled module in.
emcc -O3 -msimd128 "$HERE/av1-still.c" -I"$SRC" -I"$BUILD" "$BUILD/libaom.a" -o "$HERE/av1_still_enc.js" \
  -sERROR_ON_UNDEFINED_SYMBOLS=1 \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createAv1StillEncoder -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0 \
  -sEXPORTED_FUNCTIONS=_malloc,_free,_still_encode,_still_output,_still_message,_still_release \
  -sEXPORTED_RUNTIME_METHODS=HEAPU8
ls -l "$HERE/av1_still_enc.js" "$HERE/av1_still_enc.wasm"
