// expect-error: the target type must be double, float, posenc::bfloat16 or posenc::float16
// A RoPE entry in an integer type would silently truncate; it does not compile.
#include <posenc/math/rope_angle.hpp>

constexpr auto cs = posenc::math::rope_sincos<int>(3, 10000.0, 1, 128);
