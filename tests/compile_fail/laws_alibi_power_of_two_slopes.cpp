// expect-error: (in call to 'posenc::laws::failed::alibi_power_of_two_slopes\(3, -1, -1\)'|in call to 'alibi_power_of_two_slopes\(3, -1, -1\)'|expansion of [^a-z]*posenc::laws::failed::alibi_power_of_two_slopes\(3, -1, -1\).*value [^0-9]*4[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_head_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/alibi.hpp>
#include <posenc/laws.hpp>

namespace laws = posenc::laws;
constexpr posenc::alibi::config cfg{.heads = 8};
// 8 heads, max_bias 8: m_h = 2^-(h + 1) exactly; head 3 holds 2^-4 one ulp up (a pow() off by one).
constexpr float m[8] = {0.5f, 0.25f, 0.125f, 0x1.000002p-4f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f};
static_assert(laws::require<laws::alibi_power_of_two_slopes(m, cfg)>());
