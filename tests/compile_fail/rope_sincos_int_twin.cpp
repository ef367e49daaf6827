// The compiling twin of rope_sincos_int.cpp.
#include <posenc/math/sincos_table.hpp>

constexpr auto cs = posenc::math::sincos_geometric<posenc::bfloat16>(3, 10000.0, 2 * 1, 128).value;
static_assert(!cs.cos.is_nan() && !cs.sin.is_nan());
