// The compiling twin of round_to_int.cpp: the same call with an allowed type.
#include <posenc/math/round.hpp>

constexpr auto r = posenc::math::round_to<posenc::float16>(1.5);
static_assert(r.ok());
