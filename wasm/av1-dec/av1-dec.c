// One AV1 still decoded by dav1d into a picture that stays in the WASM heap
// as YUV planes: the TypeScript side (src/engines/images/avif/decoder/)
// reads them a band of rows at a time and converts to RGBA there, so the
// picture is never held as RGBA. Pictures are kept in numbered slots: the
// colour item and its alpha item, or a row of grid tiles and their alpha
// tiles. Each decode opens its own dav1d context and closes it once the
// picture is out (the picture outlives the context: dav1d's picture pool is
// reference-counted), so the frame decoder's working memory is freed before
// the next item decodes into the same heap.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dav1d/dav1d.h>

static Dav1dData input;
// A grid has at most 256 columns (its descriptor stores columns - 1 in a
// byte): one slot for each tile of a row and one for each alpha tile.
#define SLOTS 512
static Dav1dPicture pictures[SLOTS];
static int held[SLOTS];
static char message[200];

static void say(const char *what, int res) {
  snprintf(message, sizeof message, "%s (dav1d error %d)", what, res);
}

const char *dec_message(void) { return message; }

// Room for `size` bytes of OBUs in dav1d's own reference-counted buffer (no
// second copy); the caller writes them there and calls dec_decode.
uint8_t *dec_input(unsigned size) {
  dav1d_data_unref(&input);
  uint8_t *at = dav1d_data_create(&input, size);
  if (!at) say("no memory for the input", -ENOMEM);
  return at;
}

static int valid(int slot) { return slot >= 0 && slot < SLOTS; }

static void release(int slot) {
  if (held[slot]) dav1d_picture_unref(&pictures[slot]);
  held[slot] = 0;
}

// Frees one slot's picture (a row of grid tiles, once its rows are out).
void dec_free(int slot) {
  if (valid(slot)) release(slot);
}

// Decodes the input into `slot`; refuses frames of more than `limit` pixels.
// 1 on success, 0 on failure (dec_message says why).
int dec_decode(int slot, unsigned limit) {
  if (!valid(slot)) return 0;
  release(slot);
  Dav1dSettings s;
  dav1d_default_settings(&s);
  // Workers have no threads; one frame in flight is all a still needs.
  s.n_threads = 1;
  s.max_frame_delay = 1;
  s.all_layers = 0;
  s.frame_size_limit = limit;
  Dav1dContext *c = NULL;
  int res = dav1d_open(&c, &s);
  if (res < 0) {
    say("the decoder could not start", res);
    return 0;
  }
  int got = 0;
  for (;;) {
    if (input.sz > 0) {
      res = dav1d_send_data(c, &input);
      if (res < 0 && res != DAV1D_ERR(EAGAIN)) {
        say("the AV1 data is damaged or unsupported", res);
        break;
      }
    }
    res = dav1d_get_picture(c, &pictures[slot]);
    if (res == 0) {
      got = 1;
      break;
    }
    if (res != DAV1D_ERR(EAGAIN)) {
      say("the AV1 frame could not be decoded", res);
      break;
    }
    if (input.sz == 0) {
      say("the AV1 data holds no frame", res);
      break;
    }
  }
  dav1d_data_unref(&input);
  dav1d_close(&c);
  held[slot] = got;
  return got;
}

// Facts of a decoded picture: 0 width, 1 height, 2 bits per component,
// 3 layout (0 4:0:0, 1 4:2:0, 2 4:2:2, 3 4:4:4), 4 luma stride, 5 chroma
// stride (bytes), 6 matrix coefficients, 7 full range (1) or limited (0),
// 8 colour primaries, 9 transfer characteristics.
int dec_info(int slot, int what) {
  if (!valid(slot) || !held[slot]) return -1;
  const Dav1dPicture *p = &pictures[slot];
  switch (what) {
    case 0: return p->p.w;
    case 1: return p->p.h;
    case 2: return p->p.bpc;
    case 3: return p->p.layout;
    case 4: return (int)p->stride[0];
    case 5: return (int)p->stride[1];
    case 6: return p->seq_hdr->mtrx;
    case 7: return p->seq_hdr->color_range;
    case 8: return p->seq_hdr->pri;
    case 9: return p->seq_hdr->trc;
    default: return -1;
  }
}

// Address of plane 0 (Y), 1 (U) or 2 (V) of a decoded picture.
uint8_t *dec_plane(int slot, int plane) {
  if (!valid(slot) || !held[slot] || plane < 0 || plane > 2) return NULL;
  return pictures[slot].data[plane];
}

void dec_release(void) {
  for (int i = 0; i < SLOTS; i++) release(i);
  dav1d_data_unref(&input);
}
