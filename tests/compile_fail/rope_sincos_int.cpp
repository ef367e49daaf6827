// expect-error: the target type must be double, float, posenc::bfloat16 or posenc::float16
// A RoPE entry in an integer type would silently truncate; it does not compile.
#include <posenc/math/sincos_table.hpp>

constexpr auto cs = posenc::math::sincos_geometric<int>(3, 10000.0, 2 * 1, 128).value;
