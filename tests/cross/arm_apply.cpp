// Compiled (not run) with arm-none-eabi-g++ 12 for two 32-bit Arm targets, warnings as errors:
//  * Cortex-M4F (no vector unit): apply.hpp's run-time path is the scalar rotate_pairs;
//  * Cortex-A9 with NEON: the vector kernels of rope/detail/apply_simd.hpp, 16-byte vectors. GCC
//    keeps float vector arithmetic off ARMv7 NEON, which flushes subnormals to zero, unless
//    -funsafe-math-optimizations is given, so the generic vectors become IEEE VFP instructions.
// Every storage type and both layouts are instantiated, with rotary dims that leave tails.
// tests/cross/compile_arm.cmake runs the compiler.
#include <posenc/rope/apply.hpp>

namespace pr = posenc::rope;
namespace pm = posenc::math;

extern "C" int posenc_rotate_f32(float* x, const pm::sincos_result<float>* row) {
  return static_cast<int>(pr::rotate(
      x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 64, .lay = pr::layout::interleaved}, row));
}
extern "C" int posenc_rotate_f32_half(float* x, const pm::sincos_result<float>* row) {
  return static_cast<int>(
      pr::rotate(x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 58, .lay = pr::layout::half_split}, row));
}
extern "C" int posenc_rotate_bf16(posenc::bfloat16* x, const pm::sincos_result<float>* row) {
  return static_cast<int>(
      pr::rotate(x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 60, .lay = pr::layout::half_split}, row));
}
extern "C" int posenc_rotate_bf16_il(posenc::bfloat16* x, const pm::sincos_result<float>* row) {
  return static_cast<int>(
      pr::rotate(x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 62, .lay = pr::layout::interleaved}, row,
                 pr::direction::inverse));
}
extern "C" int posenc_rotate_f16(posenc::float16* x, const pm::sincos_result<float>* row) {
  return static_cast<int>(
      pr::rotate(x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 64, .lay = pr::layout::half_split}, row));
}
extern "C" int posenc_rotate_f64(double* x, const pm::sincos_result<double>* row) {
  return static_cast<int>(pr::rotate(
      x, pr::apply_shape{.heads = 4, .head_dim = 64, .rotary_dim = 64, .lay = pr::layout::interleaved}, row));
}
