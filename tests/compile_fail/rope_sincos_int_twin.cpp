// The compiling twin of rope_sincos_int.cpp.
#include <posenc/math/rope_angle.hpp>

constexpr auto cs = posenc::math::rope_sincos<posenc::bfloat16>(3, 10000.0, 1, 128);
static_assert(!cs.cos.is_nan() && !cs.sin.is_nan());
