// One AV1 still picture from RGBA pixels, with libaom, for the Worker's AVIF
// writer (src/engines/images/codecs/av1-still.ts). The AVIF container is
// written in TypeScript; this file only turns pixels into an AV1 temporal
// unit (temporal delimiter, sequence header, frame), the payload of one AVIF
// image item.
//
// The encoder settings are libavif 1.x's for a single image (what jSquash's
// encoder and avifenc use): all-intra usage, constant quality (AOM_Q) with
// cq-level = quantizer and the full 0..63 range, cpu-used = speed, tune SSIM,
// post-processing filters skipped, lossless when the quantizer is 0. Colour is
// converted like libavif's own RGB-to-YUV path: BT.601 matrix, full range,
// 4:2:0 chroma as the mean of each 2x2 block.
//
// Built by build.sh (emscripten, libaom with SSE intrinsics compiled to WASM
// SIMD). Exports a tiny C API; the caller copies the result out before the
// next call.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "aom/aom_encoder.h"
#include "aom/aomcx.h"

// From build.sh's patch 5: -1 lets aom detect screen content in the frame;
// 0..7 imposes the caller's decision (grid tiles follow their picture): bit 0
// screen-content tools (palette), bit 1 IntraBC, bit 2 screen-content type.
extern int aom_still_screen_content;
// From build.sh's patch 7: 0 lets aom choose its size-dependent speed features
// from this frame's shorter side; a grid tile passes its whole picture's.
extern int aom_still_picture_side;

enum Kind { COLOR_420 = 0, COLOR_444 = 1, ALPHA = 2 };

static uint8_t *output;
static size_t output_length;
static char message[300];

EMSCRIPTEN_KEEPALIVE uint8_t *still_output(void) { return output; }
EMSCRIPTEN_KEEPALIVE const char *still_message(void) { return message; }

/** Frees the last result (the caller has copied it). */
EMSCRIPTEN_KEEPALIVE void still_release(void) {
  free(output);
  output = NULL;
  output_length = 0;
}

static int fail(aom_codec_ctx_t *ctx, const char *what) {
  const char *detail = ctx ? aom_codec_error_detail(ctx) : NULL;
  snprintf(message, sizeof message, "%s: %s%s%s", what, ctx ? aom_codec_error(ctx) : "out of memory", detail ? ": " : "",
           detail ? detail : "");
  return -1;
}

static int append(const void *data, size_t length) {
  uint8_t *grown = realloc(output, output_length + length);
  if (!grown) return 0;
  output = grown;
  memcpy(output + output_length, data, length);
  output_length += length;
  return 1;
}

/** Appends the frame packets the last aom_codec_encode() produced; 0 when out of memory. */
static int collect(aom_codec_ctx_t *ctx) {
  aom_codec_iter_t iter = NULL;
  const aom_codec_cx_pkt_t *pkt;
  while ((pkt = aom_codec_get_cx_data(ctx, &iter)) != NULL) {
    if (pkt->kind == AOM_CODEC_CX_FRAME_PKT && !append(pkt->data.frame.buf, pkt->data.frame.sz)) {
      fail(NULL, "output");
      return 0;
    }
  }
  return 1;
}

static inline uint8_t clamp8(int v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }

// BT.601 in 16-bit fixed point: Kr 0.299, Kg 0.587, Kb 0.114 (the three sum to
// 65536). Cb = (B - Y) / 1.772, Cr = (R - Y) / 1.402.
#define KR 19595
#define KG 38470
#define KB 7471
#define CB_R (-11059)
#define CB_G (-21709)
#define CB_B 32768
#define CR_R 32768
#define CR_G (-27439)
#define CR_B (-5329)

static void fill_luma(const uint8_t *rgba, int w, int h, aom_image_t *img) {
  for (int y = 0; y < h; y++) {
    const uint8_t *p = rgba + (size_t)y * w * 4;
    uint8_t *row = img->planes[AOM_PLANE_Y] + (size_t)y * img->stride[AOM_PLANE_Y];
    for (int x = 0; x < w; x++, p += 4) row[x] = (uint8_t)((KR * p[0] + KG * p[1] + KB * p[2] + 32768) >> 16);
  }
}

/** Chroma of each (1 << shift)-square block: the mean of its pixels' Cb/Cr (edge blocks may be smaller). */
static void fill_chroma(const uint8_t *rgba, int w, int h, int shift, aom_image_t *img) {
  const int cw = (w + (1 << shift) - 1) >> shift, ch = (h + (1 << shift) - 1) >> shift;
  for (int cy = 0; cy < ch; cy++) {
    uint8_t *u = img->planes[AOM_PLANE_U] + (size_t)cy * img->stride[AOM_PLANE_U];
    uint8_t *v = img->planes[AOM_PLANE_V] + (size_t)cy * img->stride[AOM_PLANE_V];
    const int y0 = cy << shift, y1 = y0 + (1 << shift) < h ? y0 + (1 << shift) : h;
    for (int cx = 0; cx < cw; cx++) {
      const int x0 = cx << shift, x1 = x0 + (1 << shift) < w ? x0 + (1 << shift) : w;
      int r = 0, g = 0, b = 0, n = 0;
      for (int y = y0; y < y1; y++) {
        const uint8_t *p = rgba + ((size_t)y * w + x0) * 4;
        for (int x = x0; x < x1; x++, p += 4, n++) r += p[0], g += p[1], b += p[2];
      }
      // Sums of n pixels: divide by n * 65536 with rounding, around 128.
      const int64_t scale = (int64_t)n << 16;
      const int64_t cb = (int64_t)CB_R * r + (int64_t)CB_G * g + (int64_t)CB_B * b;
      const int64_t cr = (int64_t)CR_R * r + (int64_t)CR_G * g + (int64_t)CR_B * b;
      u[cx] = clamp8((int)((cb + 128 * scale + scale / 2) / scale));
      v[cx] = clamp8((int)((cr + 128 * scale + scale / 2) / scale));
    }
  }
}

static void fill_alpha(const uint8_t *rgba, int w, int h, aom_image_t *img) {
  for (int y = 0; y < h; y++) {
    const uint8_t *p = rgba + (size_t)y * w * 4 + 3;
    uint8_t *row = img->planes[AOM_PLANE_Y] + (size_t)y * img->stride[AOM_PLANE_Y];
    for (int x = 0; x < w; x++, p += 4) row[x] = *p;
  }
  // libaom still reads the chroma planes of a monochrome picture: keep them neutral.
  const int ch = (h + 1) >> 1;
  for (int plane = AOM_PLANE_U; plane <= AOM_PLANE_V; plane++) memset(img->planes[plane], 128, (size_t)ch * img->stride[plane]);
}

/**
 * Encodes `rgba` (width * height * 4 bytes) as one AV1 still: the colour
 * (kind 0: 4:2:0, kind 1: 4:4:4) or the alpha channel (kind 2: monochrome,
 * full range). quantizer 0..63 (0 = lossless coding), speed 0..9.
 * screen: -1 lets aom decide from this picture whether to use its screen-
 * content tools (palette, IntraBC); a mask 0..7 decides it (for grid tiles).
 * side: 0, or the shorter side of the picture this frame is a grid tile of, so
 * aom searches the tile as it would search that whole picture.
 * Returns the payload length (read it at still_output()), or -1 with the reason
 * at still_message().
 */
EMSCRIPTEN_KEEPALIVE int still_encode(const uint8_t *rgba, int width, int height, int kind, int quantizer, int speed, int screen, int side) {
  still_release();
  message[0] = 0;
  if (width < 1 || height < 1 || kind < COLOR_420 || kind > ALPHA || quantizer < 0 || quantizer > 63 || speed < 0 || speed > 9 ||
      screen < -1 || screen > 7 || side < 0) {
    snprintf(message, sizeof message, "invalid arguments");
    return -1;
  }
  aom_codec_iface_t *iface = aom_codec_av1_cx();
  struct aom_codec_enc_cfg cfg;
  if (aom_codec_enc_config_default(iface, &cfg, AOM_USAGE_ALL_INTRA) != AOM_CODEC_OK) return fail(NULL, "config");
  cfg.rc_end_usage = AOM_Q;
  cfg.g_profile = kind == COLOR_444 ? 1 : 0;
  cfg.g_bit_depth = AOM_BITS_8;
  cfg.g_input_bit_depth = 8;
  cfg.g_w = (unsigned)width;
  cfg.g_h = (unsigned)height;
  cfg.g_threads = 1;
  // One frame: still_picture and reduced_still_picture_header in the sequence header.
  cfg.g_limit = 1;
  cfg.g_lag_in_frames = 0;
  cfg.kf_mode = AOM_KF_DISABLED;
  cfg.kf_max_dist = 0;
  cfg.rc_min_quantizer = 0;
  cfg.rc_max_quantizer = 63;
  cfg.monochrome = kind == ALPHA;

  aom_image_t *img = aom_img_alloc(NULL, kind == COLOR_444 ? AOM_IMG_FMT_I444 : AOM_IMG_FMT_I420, (unsigned)width, (unsigned)height, 16);
  if (!img) return fail(NULL, "image");
  img->range = AOM_CR_FULL_RANGE;
  img->monochrome = kind == ALPHA;
  if (kind == ALPHA) {
    fill_alpha(rgba, width, height, img);
  } else {
    fill_luma(rgba, width, height, img);
    fill_chroma(rgba, width, height, kind == COLOR_444 ? 0 : 1, img);
    img->mc = AOM_CICP_MC_BT_601;
  }

  aom_still_screen_content = screen;
  aom_still_picture_side = side;
  aom_codec_ctx_t ctx;
  if (aom_codec_enc_init(&ctx, iface, &cfg, 0) != AOM_CODEC_OK) {
    aom_img_free(img);
    return fail(&ctx, "init");
  }
  int ok = aom_codec_control(&ctx, AOME_SET_CQ_LEVEL, quantizer) == AOM_CODEC_OK &&
           aom_codec_control(&ctx, AOME_SET_CPUUSED, speed) == AOM_CODEC_OK &&
           aom_codec_control(&ctx, AV1E_SET_COLOR_RANGE, AOM_CR_FULL_RANGE) == AOM_CODEC_OK &&
           aom_codec_control(&ctx, AV1E_SET_SKIP_POSTPROC_FILTERING, 1) == AOM_CODEC_OK &&
           aom_codec_control(&ctx, AOME_SET_TUNING, AOM_TUNE_SSIM) == AOM_CODEC_OK;
  if (ok && quantizer == 0) ok = aom_codec_control(&ctx, AV1E_SET_LOSSLESS, 1) == AOM_CODEC_OK;
  if (ok && kind != ALPHA) ok = aom_codec_control(&ctx, AV1E_SET_MATRIX_COEFFICIENTS, AOM_CICP_MC_BT_601) == AOM_CODEC_OK;
  // Packets must be collected after each aom_codec_encode() call: the next call drops them.
  int result = -1;
  if (!ok) {
    fail(&ctx, "control");
  } else if (aom_codec_encode(&ctx, img, 0, 1, 0) != AOM_CODEC_OK || !collect(&ctx) ||
             aom_codec_encode(&ctx, NULL, 0, 0, 0) != AOM_CODEC_OK || !collect(&ctx)) {
    if (!message[0]) fail(&ctx, "encode");
  } else if (!output_length) {
    snprintf(message, sizeof message, "encode: the encoder returned no frame");
  } else {
    result = (int)output_length;
  }
  aom_codec_destroy(&ctx);
  aom_img_free(img);
  if (result < 0) still_release();
  return result;
}
