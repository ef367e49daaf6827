// fixed_point_laws.hpp: which laws of the registry hold of q15/q31 tables (numeric/fixed_point.hpp).
// A law says so with `static constexpr bool fixed_point_too = true;` (its bound then follows the
// format's own, laws/bounds.hpp, docs/fixed-point.md); the engines (law_measures/table_laws.hpp,
// scheme_verify_core.hpp) run only those on a q15/q31 table and report the others as not holding
// of it. Standard library only.
#pragma once

namespace posenc::verify::registry {

// Whether Law holds of q15/q31 tables (numeric/fixed_point.hpp) at its quantised bound
// (laws/bounds.hpp, docs/fixed-point.md): a law that says so (fixed_point_too). The others do
// not: identity at 0 (cos 0 = 1 saturates to 1 - 2^-F), parity (-1 is exact, +1 saturates), and
// the float apply kernel's laws (norm preservation, pass-through; rope::rotate_fixed has its own
// bound), XPOS's relative scale (an inverse scale above 1 saturates) and ALiBi's bias laws (no q
// biases).
template <class Law>
constexpr bool holds_in_fixed_point() noexcept {
  if constexpr (requires { Law::fixed_point_too; })
    return Law::fixed_point_too;
  else
    return false;
}
template <class Law>
inline constexpr bool fixed_point_too = holds_in_fixed_point<Law>();

}  // namespace posenc::verify::registry
