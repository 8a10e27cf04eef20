// Ours, not aom's: aom_subtract_block for SSE2 in intrinsics, for the WASM
// build (build.sh copies it into aom_dsp/x86/). aom's SSE2 version is
// hand-written assembly, which cannot target WASM. Integer arithmetic:
// identical to aom_subtract_block_c.

#include <emmintrin.h>

#include "config/aom_dsp_rtcd.h"

void aom_subtract_block_sse2(int rows, int cols, int16_t *diff_ptr, ptrdiff_t diff_stride, const uint8_t *src_ptr,
                             ptrdiff_t src_stride, const uint8_t *pred_ptr, ptrdiff_t pred_stride) {
  const __m128i zero = _mm_setzero_si128();
  if (cols < 8) {
    aom_subtract_block_c(rows, cols, diff_ptr, diff_stride, src_ptr, src_stride, pred_ptr, pred_stride);
    return;
  }
  for (int r = 0; r < rows; ++r) {
    int c = 0;
    for (; c + 16 <= cols; c += 16) {
      const __m128i s = _mm_loadu_si128((const __m128i *)(src_ptr + c));
      const __m128i p = _mm_loadu_si128((const __m128i *)(pred_ptr + c));
      _mm_storeu_si128((__m128i *)(diff_ptr + c), _mm_sub_epi16(_mm_unpacklo_epi8(s, zero), _mm_unpacklo_epi8(p, zero)));
      _mm_storeu_si128((__m128i *)(diff_ptr + c + 8), _mm_sub_epi16(_mm_unpackhi_epi8(s, zero), _mm_unpackhi_epi8(p, zero)));
    }
    for (; c + 8 <= cols; c += 8) {
      const __m128i s = _mm_loadl_epi64((const __m128i *)(src_ptr + c));
      const __m128i p = _mm_loadl_epi64((const __m128i *)(pred_ptr + c));
      _mm_storeu_si128((__m128i *)(diff_ptr + c), _mm_sub_epi16(_mm_unpacklo_epi8(s, zero), _mm_unpacklo_epi8(p, zero)));
    }
    for (; c < cols; ++c) diff_ptr[c] = (int16_t)(src_ptr[c] - pred_ptr[c]);
    diff_ptr += diff_stride;
    src_ptr += src_stride;
    pred_ptr += pred_stride;
  }
}
