// One raw Deflate stream inflated a bounded piece at a time, for the PNG
// band reader (src/engines/images/png/inflate.ts): zlib's inflate, which in
// WASM is about twice as fast as fflate in JavaScript and leaves no garbage.
// The caller puts compressed data in the input buffer, then calls inf_step
// until it has the output it needs; each step writes at most the output
// buffer's size, so memory never depends on how well the data compresses.
// The zlib header is checked and skipped by the caller and the Adler-32
// trailer is not checked (as the whole-image PNG decoder does), so the
// stream is raw Deflate here. No filesystem, no threads.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

static z_stream S;
static int opened;
static int ended;
static uint8_t* in_buf;
static uint8_t* out_buf;
static int out_cap;
static const char* message = "";

const char* inf_message(void) { return message; }

void inf_close(void) {
  if (opened) inflateEnd(&S);
  opened = 0;
  free(in_buf);
  free(out_buf);
  in_buf = out_buf = NULL;
}

/** Starts a stream with buffers of `in_cap` and `out_cap` bytes; 1 when done well. */
int inf_open(int in_cap, int out_cap_bytes) {
  inf_close();
  memset(&S, 0, sizeof(S));
  in_buf = malloc((size_t)in_cap);
  out_buf = malloc((size_t)out_cap_bytes);
  if (!in_buf || !out_buf || inflateInit2(&S, -15) != Z_OK) {
    message = "out of memory for the inflater";
    inf_close();
    return 0;
  }
  opened = 1;
  ended = 0;
  out_cap = out_cap_bytes;
  return 1;
}

uint8_t* inf_input(void) { return in_buf; }
uint8_t* inf_output(void) { return out_buf; }

/** `n` bytes of compressed data are now at inf_input(); call once what was fed before is used up. */
void inf_feed(int n) {
  S.next_in = in_buf;
  S.avail_in = (uInt)n;
}

/** Inflates into inf_output(): the bytes written (0 when it needs input or has ended), or -1 on damaged data. */
int inf_step(void) {
  if (!opened) {
    message = "no stream";
    return -1;
  }
  if (ended) return 0;
  S.next_out = out_buf;
  S.avail_out = (uInt)out_cap;
  const int r = inflate(&S, Z_NO_FLUSH);
  if (r == Z_STREAM_END) {
    ended = 1;
  } else if (r != Z_OK && r != Z_BUF_ERROR) {
    message = S.msg ? S.msg : "inflate error";
    return -1;
  }
  return out_cap - (int)S.avail_out;
}

/** 1 once the final Deflate block has ended. */
int inf_ended(void) { return ended; }

/** Fed bytes not consumed yet (after the end: what follows the Deflate data). */
int inf_left(void) { return (int)S.avail_in; }
