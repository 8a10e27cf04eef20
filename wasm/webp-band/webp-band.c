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
// doing libwebp's fancy upsampling into a small RGBA window. Lossless VP8L
// needs its whole ARGB picture by design and is not handled here.

#include <stdlib.h>
#include <string.h>

// libwebp's RGB->YUV(A) helpers are static: this file takes the whole
// translation unit (build.sh leaves picture_csp_enc.c out of the library).
#include "src/enc/picture_csp_enc.c"

#include "src/dec/vp8i_dec.h"
#include "src/dec/webpi_dec.h"
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
  return 1;
}

/** 1 once some pixel written so far is translucent (the picture has an alpha plane). */
int enc_translucent(void) { return E.pic.a != NULL; }

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

static int used_low_memory = 0;

/** 1 when the last enc_finish() had to use libwebp's low-memory mode. */
int enc_used_low_memory(void) { return used_low_memory; }

/**
 * Encodes the filled planes; answers the size of the file, or -1. With
 * `low_memory` 0, libwebp's token buffer is tried first (one pass, the
 * bytes cwebp writes); if it runs out of heap (build.sh caps the heap), the
 * same planes are encoded again in low-memory mode.
 */
int enc_finish(float quality, int method, int low_memory) {
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
  config.quality = quality;
  config.method = method;
  config.low_memory = low_memory;
  WebPMemoryWriterInit(&E.out);
  E.have_out = 1;
  E.pic.writer = WebPMemoryWrite;
  E.pic.custom_ptr = &E.out;
  used_low_memory = low_memory;
  int ok = WebPValidateConfig(&config) && WebPEncode(&config, &E.pic);
  if (!ok && !low_memory && E.pic.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY) {
    WebPMemoryWriterClear(&E.out);
    WebPMemoryWriterInit(&E.out);
    E.pic.error_code = VP8_ENC_OK;
    config.low_memory = used_low_memory = 1;
    ok = WebPEncode(&config, &E.pic);
  }
  const int error = E.pic.error_code;
  free_alpha();
  WebPPictureFree(&E.pic);
  if (!ok) {
    message = error == VP8_ENC_ERROR_OUT_OF_MEMORY ? "out of memory while encoding" : "libwebp refused the picture";
    return -1;
  }
  return (int)E.out.size;
}

uint8_t* enc_output(void) { return E.out.mem; }

// ---------------------------------------------------------------------------
// Decoder

typedef struct {
  VP8Decoder* dec;
  VP8Io io;
  uint8_t* data;          // the whole file (compressed), owned
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
    const int cap = (D.window_rows + n) * 2;
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

/** Reads the headers of the file in dec_input(); 1 when it is lossy and ready. */
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
  if (headers.is_lossless) {
    message = "a lossless WebP";
    return 0;
  }
  if (!VP8InitIo(&D.io)) return 0;
  D.io.data = headers.data + headers.offset;
  D.io.data_size = headers.data_size - headers.offset;
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
 * wait (0 at the end), or -1 on damaged data.
 */
int dec_rows(int rows) {
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
