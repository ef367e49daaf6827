// expect-error: the target type must be double, float, posenc::bfloat16 or posenc::float16
// Rounding into a type posenc does not know is rejected with a message naming the allowed types.
#include <posenc/math/round.hpp>

constexpr auto r = posenc::math::round_to<int>(1.5);
