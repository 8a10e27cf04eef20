// Lossy WebP in bands, for pictures too big to exist whole as RGBA in a
// Worker (src/engines/images/webp/).
//
// Encoder: the picture lives only as libwebp's own YUV 4:2:0 planes (plus an
// alpha plane when the source may have alpha), filled from RGBA rows as they
// arrive in stored order. Each stored row is one line of the upright picture
// (a row, or a column for orientations 5-8), so EXIF orientation is applied
// while filling and no upright RGBA copy exists. Rows go in two lines at a
// time so every 2x2 chroma block is complete, through libwebp's own RGB to
// YUV conversion (its static helpers, from picture_csp_enc.c included below:
// the planes are byte-identical to what WebPPictureImportRGBA would make).
//
// Decoder: a VP8 (lossy) bitstream, with or without ALPH, decoded a few
// macroblock rows per call through libwebp's internal row API (what
// VP8Decode's frame loop does, made resumable) with our VP8Io put callback
// doing libwebp's fancy upsampling into a small RGBA window. A lossless
// (VP8L) bitstream is decoded by libwebp's VP8L decoder, patched here
// (libwebp-vp8l-window.patch) to keep a sliding window of about 1.6 M ARGB
// pixels (what backward references can reach, a million pixels back, and
// slack) instead of the whole picture; its rows are handed out 16 at a time
// as they are finished, through libwebp's public crop window, into the same
// RGBA window: no whole ARGB or RGBA picture exists.
//
// Alpha, when the picture has translucent pixels, is compressed here from
// the plane (alpha_payload, below) before the frame is encoded without it,
// and the container (VP8X, ALPH, VP8) is put together here.

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

// libwebp's RGB->YUV(A) helpers are static: this file takes the whole
// translation unit (build.sh leaves picture_csp_enc.c out of the library).
#include "src/enc/picture_csp_enc.c"

#include "src/dec/vp8i_dec.h"
#include "src/dec/vp8li_dec.h"
#include "src/dec/webpi_dec.h"
#include "src/utils/bit_writer_utils.h"
#include "src/utils/huffman_encode_utils.h"
#include "src/dsp/lossless_common.h"
#include "src/dsp/dsp.h"
#include "src/webp/decode.h"
#include "src/webp/encode.h"

static const char* message = "";

const char* band_message(void) { return message; }

// ---------------------------------------------------------------------------
// Encoder

typedef struct {
  WebPPicture pic;
  int width, height;      // stored order
  int orientation;
  int transposed;         // stored rows are upright columns (5..8)
  int line_reversed;      // stored row y is upright line (lines - 1 - y)
  int pos_reversed;       // stored column x is at (len - 1 - x) along its line
  int lines, len;         // upright lines (rows or columns) and their length
  int alpha;              // the source may have alpha: rows are checked
  int translucent;        // some pixel was (the plane goes before the frame is encoded)
  uint8_t* a_mem;         // the alpha plane, allocated at the first translucent
                          // pixel (an opaque RGBA source costs no plane, and
                          // libwebp then writes no ALPH chunk)
  int next_y;             // next stored row expected
  uint8_t* rows;          // JS writes bands of stored rows here
  size_t rows_size;
  uint8_t* stash;         // a stored row waiting for its partner line
  int stash_y;
  uint8_t* line_a;        // upright line 2k (RGBA)
  uint8_t* line_b;        // upright line 2k+1, right after it (one allocation:
                          // libwebp's AccumulateRGB* reads it at an offset)
  uint16_t* tmp_rgb;
  uint8_t* y_tmp;         // two lines of Y, then U, V, A, for the transposed scatter
  uint8_t* uv_tmp;
  uint8_t* a_tmp;
  WebPMemoryWriter out;
  int have_out;
} Encoder;

static Encoder E;
// Coefficients handed over for enc_coef_blocks (below): the steps, then the blocks.
static int16_t* coef_buf;
static size_t coef_cap;

static void enc_free_work(void) {
  free(E.rows);
  free(E.stash);
  free(E.line_a);
  free(E.tmp_rgb);
  free(E.y_tmp);
  free(E.uv_tmp);
  free(E.a_tmp);
  E.rows = E.stash = E.line_a = E.line_b = E.y_tmp = E.uv_tmp = E.a_tmp = NULL;
  E.tmp_rgb = NULL;
  E.rows_size = 0;
}

static void free_alpha(void) {
  free(E.a_mem);
  E.a_mem = NULL;
  E.pic.a = NULL;
}

void enc_release(void) {
  enc_free_work();
  free(coef_buf);
  coef_buf = NULL;
  coef_cap = 0;
  free_alpha();
  WebPPictureFree(&E.pic);
  if (E.have_out) WebPMemoryWriterClear(&E.out);
  E.have_out = 0;
}

int enc_begin(int width, int height, int orientation, int alpha) {
  enc_release();
  if (width <= 0 || height <= 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
    message = "picture size out of WebP's range";
    return 0;
  }
  if (orientation < 1 || orientation > 8) orientation = 1;
  static const int kTransposed[9] = {0, 0, 0, 0, 0, 1, 1, 1, 1};
  static const int kLineRev[9] = {0, 0, 0, 1, 1, 0, 1, 1, 0};
  static const int kPosRev[9] = {0, 0, 1, 1, 0, 0, 0, 1, 1};
  E.width = width;
  E.height = height;
  E.orientation = orientation;
  E.transposed = kTransposed[orientation];
  E.line_reversed = kLineRev[orientation];
  E.pos_reversed = kPosRev[orientation];
  E.lines = height;
  E.len = width;
  E.alpha = alpha;
  E.translucent = 0;
  E.next_y = 0;
  E.stash_y = -1;
  if (!WebPPictureInit(&E.pic)) {
    message = "libwebp version mismatch";
    return 0;
  }
  E.pic.use_argb = 0;
  E.pic.colorspace = WEBP_YUV420;
  E.pic.width = E.transposed ? height : width;
  E.pic.height = E.transposed ? width : height;
  if (!WebPPictureAlloc(&E.pic)) {
    message = "out of memory for the picture planes";
    return 0;
  }
  const size_t line_bytes = (size_t)width * 4;
  const int uv_len = (width + 1) >> 1;
  E.stash = malloc(line_bytes);
  E.line_a = malloc(2 * line_bytes);
  E.line_b = E.line_a ? E.line_a + line_bytes : NULL;
  E.tmp_rgb = malloc(4 * sizeof(uint16_t) * uv_len);
  E.y_tmp = malloc(2 * (size_t)width);
  E.uv_tmp = malloc(2 * (size_t)uv_len);
  E.a_tmp = malloc(2 * (size_t)width);
  if (!E.stash || !E.line_a || !E.line_b || !E.tmp_rgb || !E.y_tmp || !E.uv_tmp || !E.a_tmp) {
    enc_release();
    message = "out of memory for the line buffers";
    return 0;
  }
  WebPInitConvertARGBToYUV();
  InitGammaTables();
  WebPInitAlphaProcessing();
  return 1;
}

/** A buffer for `rows` stored rows of RGBA, valid until the next call. */
uint8_t* enc_buffer(int rows) {
  const size_t need = (size_t)rows * E.width * 4;
  if (need > E.rows_size) {
    free(E.rows);
    E.rows = malloc(need);
    E.rows_size = E.rows ? need : 0;
    if (!E.rows) message = "out of memory for a band";
  }
  return E.rows;
}

// A stored row as one upright line, in line order.
static void to_line(const uint8_t* row, uint8_t* line) {
  if (!E.pos_reversed) {
    memcpy(line, row, (size_t)E.len * 4);
    return;
  }
  const uint32_t* src = (const uint32_t*)row;
  uint32_t* dst = (uint32_t*)line;
  for (int i = 0, j = E.len - 1; i < E.len; ++i, --j) dst[i] = src[j];
}

static int ensure_alpha_plane(void) {
  if (E.pic.a) return 1;
  const size_t size = (size_t)E.pic.width * E.pic.height;
  E.a_mem = malloc(size);
  if (!E.a_mem) return 0;
  memset(E.a_mem, 0xff, size);  // lines before this one were opaque
  E.pic.a = E.a_mem;
  E.pic.a_stride = E.pic.width;
  E.pic.colorspace = WEBP_YUV420A;
  E.translucent = 1;
  return 1;
}

/** 1 once some pixel written so far is translucent (the picture has an alpha plane). */
int enc_translucent(void) { return E.translucent; }

// Lines k2 (= 2k) and k2 + 1 (b == NULL when k2 is the last, odd-count line):
// libwebp's ImportYUVAFromRGBA for one row pair, written to the planes.
static int emit_pair(int k2, const uint8_t* a, const uint8_t* b) {
  WebPPicture* const p = &E.pic;
  const int len = E.len;
  const int uv_len = (len + 1) >> 1;
  const int stride = b ? (int)(E.len * 4) : 0;  // line_b follows line_a
  const int k = k2 >> 1;
  uint8_t* ya = E.transposed ? E.y_tmp : p->y + (size_t)k2 * p->y_stride;
  uint8_t* yb = E.transposed ? E.y_tmp + len : ya + p->y_stride;
  uint8_t* u = E.transposed ? E.uv_tmp : p->u + (size_t)k * p->uv_stride;
  uint8_t* v = E.transposed ? E.uv_tmp + uv_len : p->v + (size_t)k * p->uv_stride;
  uint8_t* aa = E.a_tmp;  // alpha lines, copied into the plane when translucent
  uint8_t* ab = E.a_tmp + len;
  int has_alpha = 0;

  ConvertRowToY(a, a + 1, a + 2, 4, ya, len, NULL);
  if (b) ConvertRowToY(b, b + 1, b + 2, 4, yb, len, NULL);
  if (E.alpha) {
    has_alpha = WebPExtractAlpha(a + 3, 0, len, 1, aa, 0) == 0;
    if (b) has_alpha |= WebPExtractAlpha(b + 3, 0, len, 1, ab, 0) == 0;
  }
  if (has_alpha) {
    AccumulateRGBA(a, a + 1, a + 2, a + 3, stride, E.tmp_rgb, len);
  } else {
    AccumulateRGB(a, a + 1, a + 2, 4, stride, E.tmp_rgb, len);
  }
  WebPConvertRGBA32ToUV(E.tmp_rgb, u, v, uv_len);
  if (has_alpha && !ensure_alpha_plane()) {
    message = "out of memory for the alpha plane";
    return 0;
  }

  if (!E.transposed) {
    if (has_alpha) {
      memcpy(p->a + (size_t)k2 * p->a_stride, aa, len);
      if (b) memcpy(p->a + (size_t)(k2 + 1) * p->a_stride, ab, len);
    }
    return 1;
  }
  // Upright columns k2 and k2 + 1: a strided scatter into the planes.
  uint8_t* py = p->y + k2;
  for (int i = 0; i < len; ++i, py += p->y_stride) {
    py[0] = ya[i];
    if (b) py[1] = yb[i];
  }
  uint8_t* pu = p->u + k;
  uint8_t* pv = p->v + k;
  for (int i = 0; i < uv_len; ++i, pu += p->uv_stride, pv += p->uv_stride) {
    *pu = u[i];
    *pv = v[i];
  }
  if (has_alpha) {
    uint8_t* pa = p->a + k2;
    for (int i = 0; i < len; ++i, pa += p->a_stride) {
      pa[0] = aa[i];
      if (b) pa[1] = ab[i];
    }
  }
  return 1;
}

/** Takes `rows` stored rows from enc_buffer(); 1 when done well. */
int enc_rows(int rows) {
  const size_t row_bytes = (size_t)E.width * 4;
  if (!E.pic.y || E.next_y + rows > E.height) {
    message = "more rows than the picture has";
    return 0;
  }
  for (int i = 0; i < rows; ++i) {
    const int y = E.next_y++;
    const uint8_t* row = E.rows + i * row_bytes;
    const int line = E.line_reversed ? E.lines - 1 - y : y;
    const int partner = line ^ 1;
    if (partner >= E.lines) {  // the last line of an odd count, alone
      to_line(row, E.line_a);
      if (!emit_pair(line, E.line_a, NULL)) return 0;
    } else if (E.stash_y < 0) {  // its partner is the next stored row
      memcpy(E.stash, row, row_bytes);
      E.stash_y = y;
    } else {
      const int stash_line = E.line_reversed ? E.lines - 1 - E.stash_y : E.stash_y;
      const uint8_t* first = stash_line < line ? E.stash : row;
      const uint8_t* second = stash_line < line ? row : E.stash;
      to_line(first, E.line_a);
      to_line(second, E.line_b);
      if (!emit_pair(line & ~1, E.line_a, E.line_b)) return 0;
      E.stash_y = -1;
    }
  }
  return 1;
}

// ---------------------------------------------------------------------------
// A 4:2:0 or 4:2:2 YCbCr JPEG's own samples straight into the planes: JS
// hands over one component's blocks at a time (64 quantised coefficients
// each, in the zig-zag order of the file), after the component's 64
// quantisation steps, in the buffer enc_coef_buffer() gives. Each block is
// dequantised, inverse transformed and scaled from JPEG's full range to
// VP8's studio range, and written where the orientation puts it; 4:2:2
// chroma (full height) is averaged two rows into one on the way. There is
// no chroma upsampling and no RGB: the picture never leaves YCbCr.

static int coef_ready;
// kBasisT[u][x] = C(u)/2 * cos((2x+1) u pi / 16), C(0) = 1/sqrt(2), C(u) = 1:
// the 8-point inverse DCT as a sum over u of coefficient times row u.
static float kBasisT[8][8] __attribute__((aligned(16)));
// Natural (row-major) position of zig-zag index k.
static const uint8_t kZigzagToNatural[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// JPEG's full range (0..255) to VP8's studio range, folded into the
// transform: a sample s = f + 128 becomes lo + (s - base) * scale, rounded.
// Luma 0..255 to 16..235, chroma 128 +- 128 to 128 +- 112 (16..240).
typedef struct {
  float scale;   // applied to the dequantised coefficients
  float offset;  // what f * scale is added to (with 0.5 for rounding)
  int lo, hi;    // the range's ends
} StudioRange;
static const StudioRange kStudio[2] = {
    {219.0f / 255, 16 + 128 * 219.0f / 255 + 0.5f, 16, 235},
    {224.0f / 255, 128 + 0.5f, 16, 240},
};

static void coef_init(void) {
  if (coef_ready) return;
  for (int u = 0; u < 8; ++u) {
    const double c = u == 0 ? sqrt(0.5) : 1.0;
    for (int x = 0; x < 8; ++x) kBasisT[u][x] = (float)(c / 2 * cos((2 * x + 1) * u * M_PI / 16));
  }
  coef_ready = 1;
}

/** Room for the steps and `blocks` blocks of 64 coefficients, valid until the next call. */
int16_t* enc_coef_buffer(int blocks) {
  const size_t need = (size_t)(blocks + 1) * 64 * sizeof(int16_t);
  if (need > coef_cap) {
    free(coef_buf);
    coef_buf = malloc(need);
    coef_cap = coef_buf ? need : 0;
    if (!coef_buf) message = "out of memory for a band of coefficients";
  }
  return coef_buf;
}

// One block (zig-zag order) to 64 studio-range samples, row-major. `steps`
// are the quantisation steps times the range's scale. Separable float IDCT
// on WASM SIMD (a row of 8 is two f32x4), over the rows that have a
// coefficient: most blocks of a photo have one to three.
static void block_samples(const int16_t* zz, const float* steps, const StudioRange* r, uint8_t* out) {
  float c[64] __attribute__((aligned(16)));
  for (int i = 0; i < 64; i += 4) wasm_v128_store(c + i, wasm_f32x4_splat(0));
  int row_mask = 0, ac = 0;
  for (int k0 = 0; k0 < 64; k0 += 8) {
    // Eight zig-zag positions at once: past the last coefficient all are 0.
    if (!wasm_v128_any_true(wasm_v128_load(zz + k0))) continue;
    for (int k = k0; k < k0 + 8; ++k) {
      if (!zz[k]) continue;
      const int n = kZigzagToNatural[k];
      c[n] = zz[k] * steps[k];
      row_mask |= 1 << (n >> 3);
      ac |= k;
    }
  }
  if (!ac) {  // only DC: a flat block (f = F00 / 8)
    const int v = (int)(c[0] / 8 + r->offset);  // offset > 0: truncation rounds
    memset(out, v < r->lo ? r->lo : v > r->hi ? r->hi : v, 64);
    return;
  }
  // Rows: t[v] = sum over u of c[v][u] * basis row u.
  v128_t t[8][2];
  int rows[8], nrows = 0;
  for (int v = 0; v < 8; ++v) {
    if (!(row_mask & (1 << v))) continue;
    const float* cr = c + v * 8;
    v128_t a0 = wasm_f32x4_splat(0), a1 = a0;
    for (int u = 0; u < 8; ++u) {
      if (cr[u] == 0) continue;
      const v128_t cu = wasm_f32x4_splat(cr[u]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(cu, wasm_v128_load(&kBasisT[u][0])));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(cu, wasm_v128_load(&kBasisT[u][4])));
    }
    t[nrows][0] = a0;
    t[nrows][1] = a1;
    rows[nrows++] = v;
  }
  // Columns: out[y] = offset + sum over v of basis(v, y) * t[v], rounded,
  // clamped to the range, 8 bytes a row.
  const v128_t offset = wasm_f32x4_splat(r->offset);
  const v128_t lo = wasm_i16x8_splat((int16_t)r->lo), hi = wasm_i16x8_splat((int16_t)r->hi);
  for (int y = 0; y < 8; ++y) {
    v128_t a0 = offset, a1 = offset;
    for (int i = 0; i < nrows; ++i) {
      const v128_t b = wasm_f32x4_splat(kBasisT[rows[i]][y]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(b, t[i][0]));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(b, t[i][1]));
    }
    v128_t s = wasm_i16x8_narrow_i32x4(wasm_i32x4_trunc_sat_f32x4(a0), wasm_i32x4_trunc_sat_f32x4(a1));
    s = wasm_i16x8_min(wasm_i16x8_max(s, lo), hi);
    wasm_v128_store64_lane(out + y * 8, wasm_u8x16_narrow_i16x8(s, s), 0);
  }
}

// The samples of a block whose top-left stored sample is (x0, y0) in a
// stored plane of cw x ch, placed upright (h: the block's rows, at most 8).
static void put_block(uint8_t* plane, int stride, const uint8_t* px, int x0, int y0, int cw, int ch, int rows) {
  const int w = cw - x0 < 8 ? cw - x0 : 8;
  const int h = ch - y0 < rows ? ch - y0 : rows;
  if (E.orientation == 1) {
    uint8_t* dst = plane + (size_t)y0 * stride + x0;
    if (w == 8) {  // a constant size: a plain 8-byte store, not a call
      for (int j = 0; j < h; ++j) memcpy(dst + (size_t)j * stride, px + j * 8, 8);
    } else {
      for (int j = 0; j < h; ++j) memcpy(dst + (size_t)j * stride, px + j * 8, w);
    }
    return;
  }
  for (int j = 0; j < h; ++j) {
    const int y = y0 + j;
    const int line = E.line_reversed ? ch - 1 - y : y;
    for (int i = 0; i < w; ++i) {
      const int x = x0 + i;
      const int pos = E.pos_reversed ? cw - 1 - x : x;
      const size_t at = E.transposed ? (size_t)pos * stride + line : (size_t)line * stride + pos;
      plane[at] = px[j * 8 + i];
    }
  }
}

/**
 * Takes the buffer's steps and `block_rows` rows of `blocks_wide` blocks of
 * component `plane` (0 Y, 1 Cb, 2 Cr; Y at the picture's size, Cb and Cr at
 * half of it, rounded up, or for `full_height` chroma (4:2:2) half its width
 * and all its rows), starting at block row `block_row`. The picture was
 * begun without alpha. 1 when done well.
 */
int enc_coef_blocks(int plane, int block_row, int block_rows, int blocks_wide, int full_height) {
  if (!E.pic.y || E.alpha || plane < 0 || plane > 2) {
    message = "coefficients for a picture not begun for them";
    return 0;
  }
  coef_init();
  const int halve = plane != 0 && full_height;  // two rows of the block make one
  const int cw = plane == 0 ? E.width : (E.width + 1) >> 1;
  const int ch = plane == 0 ? E.height : (E.height + 1) >> 1;  // rows placed
  const int src_rows = halve ? E.height : ch;                 // rows the blocks cover
  const int rows_per_block_row = plane == 0 || full_height ? 8 : 16;  // picture rows
  uint8_t* base = plane == 0 ? E.pic.y : plane == 1 ? E.pic.u : E.pic.v;
  const int stride = plane == 0 ? E.pic.y_stride : E.pic.uv_stride;
  const StudioRange* studio = &kStudio[plane == 0 ? 0 : 1];
  float steps[64];
  for (int k = 0; k < 64; ++k) steps[k] = (uint16_t)coef_buf[k] * studio->scale;
  // Bands come in order, Y, Cb then Cr; the rows count once Cr has come (a
  // chroma block row covers 16 rows).
  if (plane == 2 && block_row * rows_per_block_row != E.next_y) {
    message = "coefficient bands out of order";
    return 0;
  }
  const int16_t* blocks = coef_buf + 64;
  uint8_t px[64];
  for (int r = 0; r < block_rows; ++r) {
    const int src_y0 = (block_row + r) * 8;
    if (src_y0 >= src_rows) break;
    for (int b = 0; b < blocks_wide; ++b) {
      const int x0 = b * 8;
      if (x0 >= cw) break;
      block_samples(blocks + ((size_t)r * blocks_wide + b) * 64, steps, studio, px);
      if (!halve) {
        put_block(base, stride, px, x0, src_y0, cw, ch, 8);
        continue;
      }
      // Rows 2j and 2j + 1 averaged, as libwebp averages RGB rows; a last
      // odd row stands alone.
      // (u8x16 avgr rounds up: (a + b + 1) >> 1.)
      for (int j = 0; j < 4; ++j) {
        const v128_t two = wasm_v128_load(px + 16 * j);
        const int has_pair = src_y0 + 2 * j + 1 < src_rows;
        const v128_t avg = has_pair ? wasm_u8x16_avgr(two, wasm_i64x2_shuffle(two, two, 1, 0)) : two;
        wasm_v128_store64_lane(px + 8 * j, avg, 0);
      }
      put_block(base, stride, px, x0, src_y0 / 2, cw, ch, 4);
    }
  }
  if (plane == 2) {
    const int done = (block_row + block_rows) * rows_per_block_row;
    E.next_y = done < E.height ? done : E.height;
  }
  return 1;
}

// The chroma planes filtered by [1 6 1] / 8 across and down: what decoding
// the JPEG with libjpeg's fancy upsampling and averaging each 2x2 back (the
// RGB road, and cwebp reading the JPEG) does to them, so files stay the size
// cwebp's are. In place, a line of each plane kept.
static void smooth_plane(uint8_t* plane, int stride, int w, int h, int across, int down) {
  uint8_t* above = malloc((size_t)w * 2);
  if (!above) return;  // left sharp: still a valid picture
  uint8_t* cur = above + w;
  for (int y = 0; y < h; ++y) {
    uint8_t* row = plane + (size_t)y * stride;
    const uint8_t* below = y + 1 < h ? row + stride : row;
    memcpy(cur, row, w);
    const uint8_t* up = y > 0 ? above : cur;
    // Down first (the rows as they were), then across.
    if (down) {
      for (int x = 0; x < w; ++x) row[x] = (uint8_t)((up[x] + 6 * cur[x] + below[x] + 4) >> 3);
    }
    memcpy(above, cur, w);
    if (!across) continue;
    // Across, on the vertically filtered row.
    int left = row[0];
    for (int x = 0; x < w; ++x) {
      const int c = row[x];
      const int right = x + 1 < w ? row[x + 1] : c;
      row[x] = (uint8_t)((left + 6 * c + right + 4) >> 3);
      left = c;
    }
  }
  free(above);
}

/**
 * After the last band of coefficients: the chroma as the RGB road would have
 * it. 4:2:2 chroma was upsampled only across there (libwebp averaged its
 * rows as the two-row average above), so it is filtered only across; the
 * axes are the stored picture's (`across_only` then filters the upright
 * picture's columns when orientations 5-8 turned it).
 */
void enc_coef_done(int across_only) {
  const int w = (E.pic.width + 1) >> 1;
  const int h = (E.pic.height + 1) >> 1;
  const int down = !across_only || E.transposed;
  const int across = !across_only || !E.transposed;
  smooth_plane(E.pic.u, E.pic.uv_stride, w, h, across, down);
  smooth_plane(E.pic.v, E.pic.uv_stride, w, h, across, down);
}

static int used_low_memory = 0;

/** 1 when the last enc_finish() had to use libwebp's low-memory mode. */
int enc_used_low_memory(void) { return used_low_memory; }

// ---------------------------------------------------------------------------
// Token pages (libwebp-token-pages.patch calls these).
//
// libwebp's token loop reads each macroblock row of the planes once, in
// order, and records its tokens; on big noisy pictures the tokens outgrow
// the heap cap (24 MP of heavy grain: 46 MB of tokens beside 36 MB of
// planes). Rows already encoded are not read again in that pass, so once
// malloc holds TOKEN_HEAP_BYTES of pages (or has no room), a page is carved
// from the spent rows of Y, then U, then V (three prefixes that grow as the
// loop moves down). The file is still the one libwebp writes with enough
// memory. The picture is then no longer whole, so this is allowed only on
// the last pass, with partition 0 on course to fit (a restart reads the
// picture again). Should the spent rows run short (tokens denser than the
// rows they come from), the loop settles the probabilities from the
// macroblocks so far, writes out their tokens and codes the rest straight
// away: a valid file, within a few percent of cwebp's.

// Token pages malloc may hold before spent rows take over. Below the heap
// cap on purpose: a 24 MP encode then peaks at 66 MiB instead of the 72 MiB
// cap (the planes, these pages, libwebp's own state), and the rest of the
// tokens costs nothing. Photos of up to about 2.4 bytes of tokens a pixel
// keep every token (cwebp's bytes); denser ones run short of spent rows
// near the end and code the rest at once.
#define TOKEN_HEAP_BYTES (24u << 20)

static struct {
  int may_overwrite;      // the loop's word for the rows spent so far
  uint8_t* end[3];        // Y, U, V: the end of the spent rows
  uint8_t* next[3];       // the first byte not yet given to a page
  size_t page_bytes;      // libwebp's page size (one size an encode)
  size_t heap_bytes;      // token pages now in malloc'd memory
  size_t heap_limit;      // the most malloc'd token bytes (0: as the heap allows)
  int pages;              // pages carved from spent rows in this encode
  int direct;             // the loop coded its last rows without tokens
} T = {.heap_limit = TOKEN_HEAP_BYTES};

static size_t plane_bytes(int plane) {
  return plane == 0 ? (size_t)E.pic.y_stride * E.pic.height : (size_t)E.pic.uv_stride * ((E.pic.height + 1) >> 1);
}

static uint8_t* plane_start(int plane) { return plane == 0 ? E.pic.y : plane == 1 ? E.pic.u : E.pic.v; }

static int owns_page(const void* page) {
  const uint8_t* at = (const uint8_t*)page;
  for (int p = 0; p < 3; ++p) {
    if (plane_start(p) && at >= plane_start(p) && at < plane_start(p) + plane_bytes(p)) return 1;
  }
  return 0;
}

int WebPBandPassStart(void) {
  if (T.pages > 0) return 0;
  for (int p = 0; p < 3; ++p) T.next[p] = T.end[p] = plane_start(p);
  T.may_overwrite = 0;
  T.direct = 0;
  return 1;
}

void* WebPBandNewTokenPage(size_t bytes) {
  T.page_bytes = bytes;
  if (!T.heap_limit || T.heap_bytes + bytes <= T.heap_limit) {
    void* page = malloc(bytes);
    if (page) {
      T.heap_bytes += bytes;
      return page;
    }
  }
  if (!T.may_overwrite) return NULL;
  for (int p = 0; p < 3; ++p) {
    uint8_t* at = (uint8_t*)(((uintptr_t)T.next[p] + 7) & ~(uintptr_t)7);
    if (at + bytes <= T.end[p]) {
      T.next[p] = at + bytes;
      ++T.pages;
      return at;
    }
  }
  return NULL;
}

void WebPBandFreeTokenPage(void* page) {
  if (page == NULL || owns_page(page)) return;
  T.heap_bytes -= T.page_bytes;
  free(page);
}

void WebPBandRowsSpent(int mb_rows, int may_overwrite) {
  for (int p = 0; p < 3; ++p) {
    const size_t bytes = (size_t)mb_rows * (p == 0 ? 16 * (size_t)E.pic.y_stride : 8 * (size_t)E.pic.uv_stride);
    T.end[p] = plane_start(p) + (bytes < plane_bytes(p) ? bytes : plane_bytes(p));
  }
  T.may_overwrite = may_overwrite;
}

// One macroblock records at most 7,400 tokens (384 coefficients of 19 at
// most, and a first token per block).
#define MB_TOKENS_MAX 8192

int WebPBandTokenRoom(int tokens_left_in_page) {
  if (T.pages == 0 || tokens_left_in_page >= MB_TOKENS_MAX) return 1;
  if (T.may_overwrite) {
    for (int p = 0; p < 3; ++p) {
      const uint8_t* at = (const uint8_t*)(((uintptr_t)T.next[p] + 7) & ~(uintptr_t)7);
      if (at + T.page_bytes <= T.end[p]) return 1;
    }
  }
  T.direct = 1;
  return 0;
}

/**
 * Where the last enc_finish() kept libwebp's tokens: 0 all in the heap, 1
 * partly in the picture's spent rows, 2 so, and its last rows coded without
 * tokens.
 */
int enc_token_road(void) { return T.pages == 0 ? 0 : T.direct ? 2 : 1; }

/** Tests: the token bytes malloc may hold (TOKEN_HEAP_BYTES until set; 0: up to the heap cap), to reach every road on small pictures. */
void enc_token_heap_limit(int bytes) { T.heap_limit = bytes > 0 ? (size_t)bytes : 0; }

// ---------------------------------------------------------------------------
// The alpha plane, compressed without a second picture. libwebp's own alpha
// coder (alpha_enc.c) spreads the plane into an ARGB picture and runs its
// whole lossless encoder on it: 14 bytes a pixel of heap even at effort 0.
// This writes the same kind of ALPH chunk (a headerless VP8L stream, alpha
// values in green behind an identity color-indexing transform, which lets
// libwebp decode it with one byte a pixel) straight from the plane: the
// plane's prediction filter is applied on the fly, one prefix code group,
// and backward references that repeat the pixel to the left (runs) or the
// row above. Two passes of the same parse: counts, then the bits. Its heap
// is the output alone.

#define ALPHA_MIN_COPY 8       // shorter repeats are cheaper as literals
#define ALPHA_MAX_COPY 4096    // the longest copy VP8L codes
#define GREEN_CODES (256 + 24)  // literals and length prefixes
#define DIST_CODES 40
// VP8L's short distance codes tried, and their distances: the pixel to the
// left (runs), above, above-left and above-right.
static const int kPlaneCodes[4] = {2, 1, 3, 4};

typedef struct {
  const uint8_t* a;
  int w, filter;
  size_t n;
} AlphaSource;

// The filtered value at index i (WebP's alpha filters: libwebp's
// filters.c, the spec's edge rules), computed from the unfiltered plane.
static WEBP_INLINE uint8_t filtered_at(const AlphaSource* s, size_t i) {
  const uint8_t* p = s->a + i;
  if (s->filter == WEBP_FILTER_NONE) return *p;
  const size_t w = (size_t)s->w;
  const int x = (int)(i % w);
  int pred;
  if (i == 0) {
    pred = 0;
  } else if (i < w) {
    pred = p[-1];
  } else if (x == 0) {
    pred = p[-(ptrdiff_t)w];
  } else if (s->filter == WEBP_FILTER_HORIZONTAL) {
    pred = p[-1];
  } else if (s->filter == WEBP_FILTER_VERTICAL) {
    pred = p[-(ptrdiff_t)w];
  } else {
    const int g = p[-1] + p[-(ptrdiff_t)w] - p[-(ptrdiff_t)w - 1];
    pred = g < 0 ? 0 : g > 255 ? 255 : g;
  }
  return (uint8_t)(*p - pred);
}

// How many values from i on repeat the value `dist` back (at most the copy limit).
static int repeat_length(const AlphaSource* s, size_t i, size_t dist) {
  if (i < dist) return 0;
  size_t k = 0;
  while (k < ALPHA_MAX_COPY && i + k < s->n && filtered_at(s, i + k) == filtered_at(s, i + k - dist)) ++k;
  return (int)k;
}

// One step of the parse at i: a literal (answers 0) or a copy (its length, and the plane code).
static int alpha_step(const AlphaSource* s, size_t i, int* plane_code) {
  const size_t w = (size_t)s->w;
  const size_t dists[4] = {1, w, w + 1, w - 1};
  int best = 0;
  for (int k = 0; k < 4 && best < ALPHA_MAX_COPY; ++k) {
    if (k == 3 && w < 2) break;
    const int len = repeat_length(s, i, dists[k]);
    if (len > best) {
      best = len;
      *plane_code = kPlaneCodes[k];
    }
  }
  return best < ALPHA_MIN_COPY ? 0 : best;
}

typedef struct {
  uint8_t lengths[GREEN_CODES];
  uint16_t codes[GREEN_CODES];
  HuffmanTreeCode code;
  int single;  // the one symbol used, whose code clear_if_one_symbol() emptied; else -1
} PrefixCode;

static void build_code(uint32_t* counts, int num, PrefixCode* pc, HuffmanTree* tree, uint8_t* rle) {
  pc->code.num_symbols = num;
  pc->code.code_lengths = pc->lengths;
  pc->code.codes = pc->codes;
  VP8LCreateHuffmanTree(counts, 15, rle, tree, &pc->code);
}

// A code with one symbol is read with no bits (libwebp's ClearHuffmanTreeIfOnlyOneSymbol).
static void clear_if_one_symbol(PrefixCode* pc) {
  int used = 0;
  pc->single = -1;
  for (int k = 0; k < pc->code.num_symbols; ++k) {
    if (pc->lengths[k]) {
      ++used;
      pc->single = k;
    }
  }
  if (used > 1) {
    pc->single = -1;
    return;
  }
  memset(pc->lengths, 0, sizeof(pc->lengths));
  memset(pc->codes, 0, sizeof(pc->codes));
}

// A code with one symbol (< 256): VP8L's simple form.
static void put_single_symbol_code(VP8LBitWriter* bw, int symbol) {
  VP8LPutBits(bw, 1, 1);  // simple
  VP8LPutBits(bw, 0, 1);  // one symbol
  if (symbol <= 1) {
    VP8LPutBits(bw, 0, 1);
    VP8LPutBits(bw, symbol, 1);
  } else {
    VP8LPutBits(bw, 1, 1);
    VP8LPutBits(bw, symbol, 8);
  }
}

// libwebp's StoreHuffmanCode (vp8l_enc.c, static there): the simple form
// for one or two symbols under 256, else code lengths coded by a code.
static void put_code(VP8LBitWriter* bw, const PrefixCode* pc, HuffmanTree* tree, HuffmanTreeToken* tokens) {
  static const uint8_t kStorageOrder[CODE_LENGTH_CODES] = {17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const HuffmanTreeCode* code = &pc->code;
  int count = 0, symbols[2] = {0, 0};
  if (pc->single >= 0) {  // its lengths were cleared for writing the data
    put_single_symbol_code(bw, pc->single);
    return;
  }
  for (int i = 0; i < code->num_symbols && count < 3; ++i) {
    if (code->code_lengths[i]) {
      if (count < 2) symbols[count] = i;
      ++count;
    }
  }
  if (count == 0) {
    VP8LPutBits(bw, 0x01, 4);
    return;
  }
  if (count <= 2 && symbols[0] < 256 && symbols[1] < 256) {
    VP8LPutBits(bw, 1, 1);
    VP8LPutBits(bw, count - 1, 1);
    if (symbols[0] <= 1) {
      VP8LPutBits(bw, 0, 1);
      VP8LPutBits(bw, symbols[0], 1);
    } else {
      VP8LPutBits(bw, 1, 1);
      VP8LPutBits(bw, symbols[0], 8);
    }
    if (count == 2) VP8LPutBits(bw, symbols[1], 8);
    return;
  }
  uint8_t cl_lengths[CODE_LENGTH_CODES] = {0};
  uint16_t cl_codes[CODE_LENGTH_CODES] = {0};
  HuffmanTreeCode cl = {CODE_LENGTH_CODES, cl_lengths, cl_codes};
  VP8LPutBits(bw, 0, 1);
  const int num_tokens = VP8LCreateCompressedHuffmanTree(code, tokens, code->num_symbols);
  uint32_t histogram[CODE_LENGTH_CODES] = {0};
  uint8_t rle[CODE_LENGTH_CODES] = {0};
  for (int i = 0; i < num_tokens; ++i) ++histogram[tokens[i].code];
  VP8LCreateHuffmanTree(histogram, 7, rle, tree, &cl);
  int stored = CODE_LENGTH_CODES;
  while (stored > 4 && cl_lengths[kStorageOrder[stored - 1]] == 0) --stored;
  VP8LPutBits(bw, stored - 4, 4);
  for (int i = 0; i < stored; ++i) VP8LPutBits(bw, cl_lengths[kStorageOrder[i]], 3);
  int used = 0;
  for (int k = 0; k < CODE_LENGTH_CODES; ++k) used += cl_lengths[k] != 0;
  if (used <= 1) memset(cl_lengths, 0, sizeof(cl_lengths));
  VP8LPutBits(bw, 0, 1);  // all lengths are written (no trimmed count)
  for (int i = 0; i < num_tokens; ++i) {
    const int ix = tokens[i].code;
    VP8LPutBits(bw, cl_codes[ix], cl_lengths[ix]);
    if (ix == 16) VP8LPutBits(bw, tokens[i].extra_bits, 2);
    if (ix == 17) VP8LPutBits(bw, tokens[i].extra_bits, 3);
    if (ix == 18) VP8LPutBits(bw, tokens[i].extra_bits, 7);
  }
}

static void put_prefixed(VP8LBitWriter* bw, const PrefixCode* pc, int offset, int value) {
  int code, extra_bits, extra_value;
  VP8LPrefixEncode(value, &code, &extra_bits, &extra_value);
  VP8LPutBits(bw, pc->codes[offset + code], pc->lengths[offset + code]);
  VP8LPutBits(bw, extra_value, extra_bits);
}

// Pass 1 of the parse: symbol counts; answers the extra bits' total.
static double count_alpha_symbols(const AlphaSource* s, uint32_t* green, uint32_t* dist) {
  int plane = 0, code, extra_bits, extra_value;
  double extra = 0;
  memset(green, 0, GREEN_CODES * sizeof(*green));
  memset(dist, 0, DIST_CODES * sizeof(*dist));
  for (size_t i = 0; i < s->n;) {
    const int len = alpha_step(s, i, &plane);
    if (!len) {
      ++green[filtered_at(s, i)];
      ++i;
      continue;
    }
    VP8LPrefixEncode(len, &code, &extra_bits, &extra_value);
    ++green[256 + code];
    extra += extra_bits;
    VP8LPrefixEncode(plane, &code, &extra_bits, &extra_value);
    ++dist[code];
    i += (size_t)len;
  }
  return extra;
}

// About the bits the counted symbols take (their entropy, and the extra bits).
static double alpha_cost(const AlphaSource* s) {
  uint32_t green[GREEN_CODES], dist[DIST_CODES];
  double bits = count_alpha_symbols(s, green, dist);
  const uint32_t* counts[2] = {green, dist};
  const int sizes[2] = {GREEN_CODES, DIST_CODES};
  for (int c = 0; c < 2; ++c) {
    double total = 0;
    for (int k = 0; k < sizes[c]; ++k) total += counts[c][k];
    for (int k = 0; k < sizes[c]; ++k) {
      if (counts[c][k]) bits += counts[c][k] * log2(total / counts[c][k]);
    }
  }
  return bits;
}

typedef struct {
  PrefixCode green, dist;
  size_t data_bits;  // what the picture's symbols and extra bits take with these codes
} AlphaCodes;

// Pass 1 and the prefix codes it makes.
static void make_alpha_codes(const AlphaSource* s, AlphaCodes* c) {
  uint32_t green[GREEN_CODES], dist[DIST_CODES], green_copy[GREEN_CODES], dist_copy[DIST_CODES];
  HuffmanTree tree[3 * GREEN_CODES];
  uint8_t rle[GREEN_CODES];
  memset(c, 0, sizeof(*c));
  const double extra = count_alpha_symbols(s, green, dist);
  memcpy(green_copy, green, sizeof(green));  // VP8LCreateHuffmanTree smooths the counts it is given
  memcpy(dist_copy, dist, sizeof(dist));
  build_code(green_copy, GREEN_CODES, &c->green, tree, rle);
  build_code(dist_copy, DIST_CODES, &c->dist, tree, rle);
  clear_if_one_symbol(&c->green);
  clear_if_one_symbol(&c->dist);
  c->data_bits = (size_t)extra;
  for (int k = 0; k < GREEN_CODES; ++k) c->data_bits += (size_t)green[k] * c->green.lengths[k];
  for (int k = 0; k < DIST_CODES; ++k) c->data_bits += (size_t)dist[k] * c->dist.lengths[k];
}

// The plane (filtered on the fly) as a headerless VP8L image stream, with
// the codes make_alpha_codes() made (their lengths written before a
// one-symbol code is cleared to no bits).
static int put_alpha_stream(const AlphaSource* s, const AlphaCodes* c, VP8LBitWriter* bw) {
  HuffmanTree tree[3 * GREEN_CODES];
  HuffmanTreeToken tokens[GREEN_CODES];
  const PrefixCode* g = &c->green;
  const PrefixCode* d = &c->dist;
  int plane = 0;
  // An identity palette of the 256 values, delta-coded (a 256 x 1 image):
  // 0xff000000 then 255 times +0x00000100, green and alpha codes of two symbols.
  VP8LPutBits(bw, 1, 1);
  VP8LPutBits(bw, 3, 2);  // COLOR_INDEXING_TRANSFORM
  VP8LPutBits(bw, 255, 8);
  VP8LPutBits(bw, 0, 1);  // no color cache
  VP8LPutBits(bw, 1, 1), VP8LPutBits(bw, 1, 1), VP8LPutBits(bw, 0, 1), VP8LPutBits(bw, 0, 1), VP8LPutBits(bw, 1, 8);  // green {0, 1}
  VP8LPutBits(bw, 0x01, 4);  // red {0}
  VP8LPutBits(bw, 0x01, 4);  // blue {0}
  VP8LPutBits(bw, 1, 1), VP8LPutBits(bw, 1, 1), VP8LPutBits(bw, 0, 1), VP8LPutBits(bw, 0, 1), VP8LPutBits(bw, 255, 8);  // alpha {0, 255}
  VP8LPutBits(bw, 0x01, 4);  // distance {0}
  VP8LPutBits(bw, 0 | (1 << 1), 2);  // green 0, alpha 255 (codes 0 and 1)
  for (int i = 1; i < 256; ++i) VP8LPutBits(bw, 1 | (0 << 1), 2);  // green +1, alpha +0
  VP8LPutBits(bw, 0, 1);  // no more transforms

  // The picture: one prefix code group, no color cache.
  VP8LPutBits(bw, 0, 1);  // no color cache
  VP8LPutBits(bw, 0, 1);  // no meta prefix codes
  put_code(bw, g, tree, tokens);
  put_single_symbol_code(bw, 0);    // red
  put_single_symbol_code(bw, 0);    // blue
  put_single_symbol_code(bw, 255);  // alpha
  put_code(bw, d, tree, tokens);
  // Pass 2: the same parse, written.
  for (size_t i = 0; i < s->n;) {
    const int len = alpha_step(s, i, &plane);
    if (!len) {
      const int v = filtered_at(s, i);
      VP8LPutBits(bw, g->codes[v], g->lengths[v]);
      ++i;
      continue;
    }
    put_prefixed(bw, g, 256, len);
    put_prefixed(bw, d, 0, plane);
    i += (size_t)len;
    if (bw->error_) return 0;
  }
  return !bw->error_;
}

// The filter: none for 16 levels or fewer (as libwebp's "fast" choice,
// alpha_enc.c), else the one whose parse costs fewest bits.
static int pick_alpha_filter(const AlphaSource* s) {
  uint8_t seen[256] = {0};
  int levels = 0;
  for (size_t i = 0; i < s->n && levels <= 16; ++i) {
    if (!seen[s->a[i]]) {
      seen[s->a[i]] = 1;
      ++levels;
    }
  }
  if (levels <= 16) return WEBP_FILTER_NONE;
  int best = WEBP_FILTER_NONE;
  double best_bits = 0;
  // Counted on bands of 16 rows out of every 128 (each band's first row as
  // a picture's first): an eighth of the work of a full count.
  const size_t w = (size_t)s->w, rows = s->n / w;
  for (int f = WEBP_FILTER_NONE; f <= WEBP_FILTER_GRADIENT; ++f) {
    double bits = 0;
    for (size_t y = 0; y < rows; y += 128) {
      const size_t band = rows - y < 16 ? rows - y : 16;
      const AlphaSource part = {s->a + y * w, s->w, f, band * w};
      bits += alpha_cost(&part);
    }
    if (f == WEBP_FILTER_NONE || bits < best_bits) {
      best = f;
      best_bits = bits;
    }
  }
  return best;
}

/**
 * The ALPH payload: its one-byte header (lossless, the filter, no level
 * reduction), then the stream; or the raw plane when that is smaller.
 * `filter` -1 picks one (pick_alpha_filter). Heap: the output, once.
 */
static uint8_t* alpha_payload(int filter, size_t* size) {
  const int w = E.pic.width, h = E.pic.height;
  AlphaSource s = {E.a_mem, w, WEBP_FILTER_NONE, (size_t)w * h};
  s.filter = filter < 0 ? pick_alpha_filter(&s) : filter;
  AlphaCodes codes;
  make_alpha_codes(&s, &codes);
  // The codes and the palette take under 2 KiB: the writer is sized once.
  const size_t expected = codes.data_bits / 8 + 2048;
  uint8_t* out = NULL;
  if (expected < s.n) {
    VP8LBitWriter bw;
    if (!VP8LBitWriterInit(&bw, expected)) return NULL;
    if (put_alpha_stream(&s, &codes, &bw)) {
      const uint8_t* bits = VP8LBitWriterFinish(&bw);
      const size_t n = VP8LBitWriterNumBytes(&bw);
      out = bw.error_ ? NULL : malloc(1 + n);
      if (out) {
        out[0] = (uint8_t)(1 | (s.filter << 2));  // lossless, the filter, no level reduction
        memcpy(out + 1, bits, n);
        *size = 1 + n;
      }
    }
    VP8LBitWriterWipeOut(&bw);
    return out;
  }
  // Noise: the raw plane is smaller, as libwebp would also write it.
  out = malloc(1 + s.n);
  if (out) {
    out[0] = 0;
    memcpy(out + 1, s.a, s.n);
    *size = 1 + s.n;
  }
  return out;
}

static void put_le(uint8_t* p, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

// E.out holds RIFF + one "VP8 " chunk; rewritten as RIFF + VP8X + ALPH + VP8.
static int wrap_with_alpha(const uint8_t* alph, size_t alph_size, int w, int h) {
  const size_t vp8_size = E.out.size - 12;  // the VP8 chunk, header and padding included
  const size_t alph_chunk = 8 + alph_size + (alph_size & 1);
  const size_t total = 12 + 18 + alph_chunk + vp8_size;
  uint8_t* file = malloc(total);
  if (!file) return 0;
  memcpy(file, "RIFF", 4);
  put_le(file + 4, (uint32_t)(total - 8), 4);
  memcpy(file + 8, "WEBPVP8X", 8);
  put_le(file + 16, 10, 4);
  memset(file + 20, 0, 10);
  file[20] = 0x10;  // alpha
  put_le(file + 24, (uint32_t)(w - 1), 3);
  put_le(file + 27, (uint32_t)(h - 1), 3);
  uint8_t* p = file + 30;
  memcpy(p, "ALPH", 4);
  put_le(p + 4, (uint32_t)alph_size, 4);
  memcpy(p + 8, alph, alph_size);
  if (alph_size & 1) p[8 + alph_size] = 0;
  memcpy(p + alph_chunk, E.out.mem + 12, vp8_size);
  WebPMemoryWriterClear(&E.out);
  E.out.mem = file;
  E.out.size = E.out.max_size = total;
  return 1;
}

/**
 * One WebPEncode of the planes into E.out: with tokens first (unless
 * `config` asks for low memory), and when they run out of heap before any
 * spent row was written over, again in low-memory mode.
 */
static int encode_frame(WebPConfig* config) {
  for (;;) {
    if (E.have_out) WebPMemoryWriterClear(&E.out);
    WebPMemoryWriterInit(&E.out);
    E.have_out = 1;
    E.pic.error_code = VP8_ENC_OK;
    T.heap_bytes = 0;
    used_low_memory = config->low_memory;
    if (WebPValidateConfig(config) && WebPEncode(config, &E.pic)) return 1;
    // With token pages in spent rows, the planes are spoilt: no second try.
    if (config->low_memory || E.pic.error_code != VP8_ENC_ERROR_OUT_OF_MEMORY || T.pages > 0) return 0;
    config->low_memory = 1;
  }
}

/**
 * Encodes the filled planes; answers the size of the file, or -1. An alpha
 * plane is compressed first (alpha_payload, `alpha_filter` 0 none, 1-3
 * horizontal, vertical, gradient, -1 as libwebp chooses) and freed. With
 * `low_memory` 0, libwebp's token buffer is used (one pass, the bytes cwebp
 * writes), its pages in the picture's spent rows once the heap is full
 * (build.sh caps it); see encode_frame for the low-memory fallback. Where
 * partition 0 overflows, the frame is encoded again without intra-4 modes.
 */
int enc_finish(float quality, int method, int low_memory, int alpha_filter) {
  WebPConfig config;
  if (E.next_y != E.height || E.stash_y >= 0) {
    message = "the picture did not get all its rows";
    return -1;
  }
  enc_free_work();
  if (!WebPConfigInit(&config)) {
    message = "libwebp version mismatch";
    return -1;
  }
  const int w = E.pic.width, h = E.pic.height;
  uint8_t* alph = NULL;
  size_t alph_size = 0;
  if (E.pic.a) {
    // What WebPEncode does to a picture with alpha (config.exact is 0):
    // the colour of fully transparent blocks flattened, so it costs nothing.
    WebPCleanupTransparentArea(&E.pic);
    alph = alpha_payload(alpha_filter, &alph_size);
    free_alpha();
    E.pic.a_stride = 0;
    E.pic.colorspace = WEBP_YUV420;
    if (!alph) {
      WebPPictureFree(&E.pic);
      message = "out of memory while encoding the alpha plane";
      return -1;
    }
  }
  config.quality = quality;
  config.method = method;
  config.low_memory = low_memory;
  E.pic.writer = WebPMemoryWrite;
  E.pic.custom_ptr = &E.out;
  T.pages = T.direct = 0;
  int ok = encode_frame(&config);
  if (!ok && E.pic.error_code == VP8_ENC_ERROR_PARTITION0_OVERFLOW && T.pages == 0) {
    // The modes took more than VP8's 512 KiB for partition 0 (noise at a
    // high quality; cwebp stops here): again with no intra-4 modes, whose
    // headers are what fills it.
    config.partition_limit = 100;
    config.low_memory = low_memory;
    ok = encode_frame(&config);
  }
  const int error = E.pic.error_code;
  WebPPictureFree(&E.pic);
  if (ok && alph) ok = wrap_with_alpha(alph, alph_size, w, h);
  free(alph);
  if (!ok) {
    static char refused[] = "libwebp refused the picture (error 00)";
    refused[sizeof refused - 4] = (char)('0' + (int)error / 10 % 10);
    refused[sizeof refused - 3] = (char)('0' + (int)error % 10);
    // Our writer is memory: a failed write is the heap cap too.
    const int no_memory = error == VP8_ENC_OK || error == VP8_ENC_ERROR_OUT_OF_MEMORY ||
                          error == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY || error == VP8_ENC_ERROR_BAD_WRITE;
    message = no_memory ? "out of memory while encoding" : refused;
    return -1;
  }
  return (int)E.out.size;
}

uint8_t* enc_output(void) { return E.out.mem; }

// ---------------------------------------------------------------------------
// Decoder

typedef struct {
  VP8Decoder* dec;
  VP8LDecoder* ldec;      // a lossless bitstream's decoder instead
  WebPDecParams params;   // its output: the RGBA window, behind a crop window
  WebPDecBuffer out;
  WebPDecoderOptions options;
  VP8Io io;
  uint8_t* data;          // the whole file (compressed), owned; for a lossless
                          // bitstream, a window of its VP8L data (below)
  size_t data_cap;        // lossless: the window's size in bytes,
  size_t file_have;       // how much of the VP8L data JS has put in so far,
  size_t file_total;      // and its size
  size_t step_bytes;      // the most one 16-row step can read (below)
  int wants;              // lossless: dec_rows stopped for more data
  int width, height;
  int mb_y;               // next macroblock row to parse
  int done;
  uint8_t* window;        // RGBA rows emitted and not yet taken by JS
  int window_rows, window_cap;
  uint8_t* prev_y;        // an odd luma row waiting for its pair
  uint8_t* prev_a;
  uint8_t* prev_u;        // the chroma row above the pending pair
  uint8_t* prev_v;
  WebPUpsampleLinePairFunc upsample;
} Decoder;

static Decoder D;

static uint8_t* window_rows(int n) {
  const size_t row_bytes = (size_t)D.width * 4;
  if (D.window_rows + n > D.window_cap) {
    // Grown to what one call asks and a step more, not doubled: JS asks the
    // same number of rows every call, so this settles in the first.
    const int cap = D.window_rows + n + 16;
    uint8_t* grown = realloc(D.window, (size_t)cap * row_bytes);
    if (!grown) return NULL;
    D.window = grown;
    D.window_cap = cap;
  }
  uint8_t* at = D.window + (size_t)D.window_rows * row_bytes;
  D.window_rows += n;
  return at;
}

static void put_alpha(uint8_t* dst, const uint8_t* a) {
  if (!a) return;
  for (int x = 0; x < D.width; ++x) dst[4 * x + 3] = a[x];
}

// Rows [mb_y, mb_y + mb_h) of Y (and their chroma rows) into RGBA with
// libwebp's fancy upsampling: luma rows 2c-1 and 2c use chroma rows c-1 and
// c, so an odd row waits for the next call's first row.
static int Put(const VP8Io* const io) {
  const int w = io->mb_w;
  const int uv_w = (w + 1) >> 1;
  const int y0 = io->mb_y;
  const uint8_t* a = io->a;
  for (int r = y0; r < y0 + io->mb_h; ++r) {
    const uint8_t* yr = io->y + (size_t)(r - y0) * io->y_stride;
    const uint8_t* ar = a ? a + (size_t)(r - y0) * io->width : NULL;
    if (r == 0) {
      uint8_t* out = window_rows(1);
      if (!out) return 0;
      D.upsample(yr, NULL, io->u, io->v, io->u, io->v, out, NULL, w);
      put_alpha(out, ar);
    } else if (r & 1) {
      const int c = r >> 1;
      const uint8_t* u = io->u + (size_t)(c - (y0 >> 1)) * io->uv_stride;
      const uint8_t* v = io->v + (size_t)(c - (y0 >> 1)) * io->uv_stride;
      if (r == D.height - 1) {  // the last row, without a pair
        uint8_t* out = window_rows(1);
        if (!out) return 0;
        D.upsample(yr, NULL, u, v, u, v, out, NULL, w);
        put_alpha(out, ar);
      } else {
        memcpy(D.prev_y, yr, w);
        memcpy(D.prev_u, u, uv_w);
        memcpy(D.prev_v, v, uv_w);
        if (ar) memcpy(D.prev_a, ar, w);
      }
    } else {
      const int c = r >> 1;
      const uint8_t* u = io->u + (size_t)(c - (y0 >> 1)) * io->uv_stride;
      const uint8_t* v = io->v + (size_t)(c - (y0 >> 1)) * io->uv_stride;
      uint8_t* out = window_rows(2);
      if (!out) return 0;
      D.upsample(D.prev_y, yr, D.prev_u, D.prev_v, u, v, out, out + (size_t)D.width * 4, w);
      if (ar) {
        put_alpha(out, D.prev_a);
        put_alpha(out + (size_t)D.width * 4, ar);
      }
    }
  }
  return 1;
}

void dec_close(void) {
  if (D.ldec) VP8LDelete(D.ldec);
  if (D.dec) {
    if (!D.done) VP8ExitCritical(D.dec, &D.io);
    VP8Delete(D.dec);
  }
  free(D.data);
  free(D.window);
  free(D.prev_y);
  free(D.prev_a);
  free(D.prev_u);
  free(D.prev_v);
  memset(&D, 0, sizeof(D));
}

/** A buffer for the file, `size` bytes, owned by the decoder from here on. */
uint8_t* dec_input(size_t size) {
  dec_close();
  D.data = malloc(size);
  if (!D.data) message = "out of memory for the file";
  return D.data;
}

// A lossless bitstream: libwebp reads its headers, transforms and prefix
// codes here; its ARGB window (the patch) is allocated at the first dec_rows().
// Rows come out through libwebp's own row emission (VP8LDecodeImage, whose
// rows are finished 16 at a time): the crop window's bottom is moved down
// 16 rows a call, and the output buffer is the window, so VP8LDecodeImage
// stops where the rows asked for are and writes only those.
// vp8l_dec.c's NUM_ARGB_CACHE_ROWS: it finishes (transforms, converts) rows
// this many at a time, and its row cache holds no more.
#define LOSSLESS_STEP 16

// The VP8L data is not held whole: a code takes at most 60 bits (four
// 15-bit literal codes; a copy's two codes and their extra bits, 58, for at
// least one pixel), and one step decodes at most 16 rows' worth of codes (the
// first may start past the last step's end, by a copy that ran over it), so a
// step reads at most step_bytes. dec_rows stops before a step when fewer are
// left in the window and the data has not all come, and JS moves the rest up
// (dec_feed) and appends more.
static size_t lossless_step_bytes(int width) {
  return ((size_t)LOSSLESS_STEP * width + 1) * 60 / 8 + 16;
}

static int open_lossless(void) {
  D.ldec = VP8LNew();
  if (!D.ldec) {
    message = "out of memory";
    return 0;
  }
  if (!VP8LDecodeHeader(D.ldec, &D.io)) {
    // Its prefix codes can take tens of MiB (thousands of code groups, each
    // with its lookup tables): that is a picture too big for the heap cap,
    // not a damaged one.
    message = D.ldec->status_ == VP8_STATUS_OUT_OF_MEMORY ? "out of memory for the lossless prefix codes" : "damaged VP8L headers";
    return 0;
  }
  D.width = D.io.width;
  D.height = D.io.height;
  // Room for two steps at least, before the windows come above it.
  D.step_bytes = lossless_step_bytes(D.width);
  if (D.file_have < D.file_total && D.data_cap < 2 * D.step_bytes + 65536) {
    const size_t cap = 2 * D.step_bytes + 65536;
    uint8_t* const grown = realloc(D.data, cap);
    if (!grown) {
      message = "out of memory for the file";
      return 0;
    }
    VP8LBitReader* const br = &D.ldec->br_;
    br->buf_ = grown + (br->buf_ - D.data);
    D.data = grown;
    D.data_cap = cap;
  }
  memset(&D.options, 0, sizeof(D.options));
  if (!WebPInitDecBuffer(&D.out)) return 0;
  D.out.colorspace = MODE_RGBA;
  D.out.width = D.width;
  D.out.height = D.height;
  D.out.is_external_memory = 1;
  D.options.use_cropping = 1;
  D.options.crop_width = D.width;
  D.options.crop_height = D.height < LOSSLESS_STEP ? D.height : LOSSLESS_STEP;
  memset(&D.params, 0, sizeof(D.params));
  D.params.output = &D.out;
  D.params.options = &D.options;
  D.io.opaque = &D.params;
  return 1;
}

// Up to `rows` RGBA rows of a lossless picture into the window, 16 a step.
static int lossless_rows(int rows) {
  VP8LDecoder* const dec = D.ldec;
  const size_t row_bytes = (size_t)D.width * 4;
  // The whole window first, before libwebp allocates its ARGB window: grown
  // later, it would move above the picture and leave a hole the size of it.
  D.window_rows = 0;
  if (!window_rows((rows + LOSSLESS_STEP - 1) / LOSSLESS_STEP * LOSSLESS_STEP)) {
    message = "out of memory for the decoded rows";
    return -1;
  }
  D.window_rows = 0;
  while (!D.done && D.window_rows < rows) {
    if (D.file_have < D.file_total && dec->br_.len_ - dec->br_.pos_ < D.step_bytes) {
      D.wants = 1;  // JS feeds more (dec_feed, dec_fed) and calls again
      break;
    }
    if (dec->state_ == READ_DATA) {
      if (dec->last_row_ >= D.height) {
        D.done = 1;
        break;
      }
      const int bottom = dec->last_row_ + LOSSLESS_STEP;
      D.io.crop_bottom = bottom < D.height ? bottom : D.height;
    }
    const int at = D.window_rows;
    if (!window_rows(LOSSLESS_STEP)) {
      message = "out of memory for the decoded rows";
      return -1;
    }
    D.out.u.RGBA.rgba = D.window + (size_t)at * row_bytes;
    D.out.u.RGBA.stride = (int)row_bytes;
    D.out.u.RGBA.size = LOSSLESS_STEP * row_bytes;
    dec->last_out_row_ = 0;
    if (!VP8LDecodeImage(dec)) {
      message = dec->status_ == VP8_STATUS_OUT_OF_MEMORY ? "out of memory for the lossless ARGB window"
                                                         : "damaged or truncated VP8L data";
      return -1;
    }
    D.window_rows = at + dec->last_out_row_;
  }
  return D.window_rows;
}

/**
 * Reads the headers of a lossless picture from the first `have` bytes of its
 * VP8L chunk's `total` (put in dec_input(have)): 1 when it is ready for
 * dec_rows(), 0 when they do not decode (JS tries again with more data,
 * until it has given all).
 */
int dec_open_lossless(size_t have, size_t total) {
  if (!VP8InitIo(&D.io)) return 0;
  D.io.data = D.data;
  D.io.data_size = have;
  D.data_cap = have;
  D.file_have = have;
  D.file_total = total;
  return open_lossless();
}

/** dec_rows() stopped for more of the VP8L data. */
int dec_wants(void) { return D.wants; }

/**
 * Moves the VP8L data not read yet to the start of the window; answers where
 * JS appends more (dec_feed_room() bytes at most, then dec_fed()).
 */
uint8_t* dec_feed(void) {
  VP8LBitReader* const br = &D.ldec->br_;
  const size_t left = br->len_ - br->pos_;
  // Bytes before pos_ are in the reader's 64-bit prefetch already.
  memmove(D.data, br->buf_ + br->pos_, left);
  br->buf_ = D.data;
  br->pos_ = 0;
  br->len_ = left;
  return D.data + left;
}

size_t dec_feed_room(void) { return D.data_cap - D.ldec->br_.len_; }

void dec_fed(size_t n) {
  D.ldec->br_.len_ += n;
  D.file_have += n;
  D.wants = 0;
}

/** Reads the headers of the file in dec_input(); 1 when it is ready for dec_rows(). */
int dec_open(size_t size) {
  WebPHeaderStructure headers;
  memset(&headers, 0, sizeof(headers));
  headers.data = D.data;
  headers.data_size = size;
  headers.have_all_data = 1;
  if (WebPParseHeaders(&headers) != VP8_STATUS_OK) {
    message = "damaged WebP headers";
    return 0;
  }
  if (!VP8InitIo(&D.io)) return 0;
  D.io.data = headers.data + headers.offset;
  D.io.data_size = headers.data_size - headers.offset;
  if (headers.is_lossless) return open_lossless();
  D.dec = VP8New();
  if (!D.dec) {
    message = "out of memory";
    return 0;
  }
  D.dec->alpha_data_ = headers.alpha_data;
  D.dec->alpha_data_size_ = headers.alpha_data_size;
  if (!VP8GetHeaders(D.dec, &D.io)) {
    message = D.dec->error_msg_ ? D.dec->error_msg_ : "damaged VP8 headers";
    return 0;
  }
  D.width = D.io.width;
  D.height = D.io.height;
  D.io.put = Put;
  D.io.setup = NULL;
  D.io.teardown = NULL;
  WebPInitUpsamplers();
  D.upsample = WebPUpsamplers[MODE_RGBA];
  D.prev_y = malloc(D.width);
  D.prev_a = malloc(D.width);
  D.prev_u = malloc((D.width + 1) >> 1);
  D.prev_v = malloc((D.width + 1) >> 1);
  if (!D.prev_y || !D.prev_a || !D.prev_u || !D.prev_v) {
    message = "out of memory";
    return 0;
  }
  if (VP8EnterCritical(D.dec, &D.io) != VP8_STATUS_OK || !VP8InitFrame(D.dec, &D.io)) {
    message = D.dec->error_msg_ ? D.dec->error_msg_ : "the frame could not be set up";
    D.done = 1;
    return 0;
  }
  D.dec->mb_y_ = 0;
  D.dec->mb_x_ = 0;
  return 1;
}

int dec_width(void) { return D.width; }
int dec_height(void) { return D.height; }
uint8_t* dec_window(void) { return D.window; }

/**
 * Drops the rows JS took, then decodes macroblock rows until at least
 * `rows` RGBA rows wait in dec_window() or the picture ends. Answers how many
 * wait (0 at the end, or when dec_wants() asks for more of a lossless
 * file's data first), or -1 on damaged data.
 */
int dec_rows(int rows) {
  if (D.ldec) return lossless_rows(rows);
  VP8Decoder* const dec = D.dec;
  D.window_rows = 0;
  while (!D.done && D.window_rows < rows) {
    if (dec->mb_y_ >= dec->br_mb_y_) {
      D.done = 1;
      if (!VP8ExitCritical(dec, &D.io)) return -1;
      break;
    }
    VP8BitReader* const token_br = &dec->parts_[dec->mb_y_ & dec->num_parts_minus_one_];
    if (!VP8ParseIntraModeRow(&dec->br_, dec)) {
      message = "premature end of the VP8 mode partition";
      return -1;
    }
    for (; dec->mb_x_ < dec->mb_w_; ++dec->mb_x_) {
      if (!VP8DecodeMB(dec, token_br)) {
        message = "premature end of the VP8 data";
        return -1;
      }
    }
    VP8InitScanline(dec);
    if (!VP8ProcessRow(dec, &D.io)) {
      message = "out of memory for the decoded rows";
      return -1;
    }
    ++dec->mb_y_;
  }
  return D.window_rows;
}
