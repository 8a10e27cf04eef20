// Ours, not aom's: an SSE version of av1_cnn_convolve_no_maxpool_padding_valid
// for the WASM build (build.sh copies it into av1/encoder/x86/). aom has only
// an AVX2 version, which emscripten cannot compile, and the intra partition
// CNN was 10 % of encode time in C. Four output channels are computed at
// once; each lane adds the same products in the same order as the C version
// (float multiply, then add; WASM has no fused multiply-add), so the result
// is bit-identical to av1_cnn_convolve_no_maxpool_padding_valid_c.

#include <xmmintrin.h>

#include "config/av1_rtcd.h"
#include "av1/encoder/cnn.h"

void av1_cnn_convolve_no_maxpool_padding_valid_sse2(const float **input, int in_width, int in_height, int in_stride,
                                                    const CNN_LAYER_CONFIG *layer_config, float **output,
                                                    int out_stride, int start_idx, int cstep, int channel_step) {
  const int out_channels = layer_config->out_channels;
  int i = start_idx;
  if (channel_step == 1) {
    const int fh = layer_config->filter_height, fw = layer_config->filter_width;
    const int sh = layer_config->skip_height, sw = layer_config->skip_width;
    const float *const weights = layer_config->weights;
    for (; i + 4 <= out_channels; i += 4) {
      for (int h = 0, u = 0; h < in_height - fh + 1; h += sh, ++u) {
        for (int w = 0, out_index = u * out_stride; w < in_width - fw + 1; w += sw, ++out_index) {
          __m128 sum = _mm_loadu_ps(layer_config->bias + i);
          for (int k = 0; k < layer_config->in_channels; ++k) {
            int off = k * out_channels + i;
            const float *const in = input[k];
            for (int ii = h; ii < h + fh; ++ii) {
              for (int jj = w; jj < w + fw; ++jj) {
                sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(weights + off), _mm_set1_ps(in[ii * in_stride + jj])));
                off += cstep;
              }
            }
          }
          float lanes[4];
          _mm_storeu_ps(lanes, sum);
          for (int c = 0; c < 4; ++c) output[i + c][out_index] = lanes[c];
        }
      }
    }
  }
  // Channels left over (fewer than four, or interleaved by channel_step): the C version.
  if (i < out_channels) {
    av1_cnn_convolve_no_maxpool_padding_valid_c(input, in_width, in_height, in_stride, layer_config, output, out_stride,
                                                i, cstep, channel_step);
  }
}
