// rope_property.hpp: the properties check_rope_apply checks on each case, in the order it checks
// them (the first that fails names the failure), and check_rope_layouts' one.
#pragma once

namespace posenc::testing {

enum class rope_property : unsigned char {
  pass_through,        // elements past the rotary dim are the input's, bit for bit
  norm,                // | ||y~|| - af ||x|| | <= sqrt(sum_i B_i^2), per token and head
  relative_position,   // scores of two tokens move by at most E + E' when every position shifts by t
  inverse,             // the exact R(-m) takes y~ back to af x within |cos| B_a + |sin| B_b per element
  exact,               // |y~ - y| <= B per element, y the MPFR rotation
  layout_equivalence,  // check_rope_layouts: kernels of two layouts agree within B_A + B_B per element
};

constexpr const char* name_of(rope_property p) noexcept {
  switch (p) {
    case rope_property::pass_through: return "pass-through";
    case rope_property::norm: return "norm";
    case rope_property::relative_position: return "relative position";
    case rope_property::inverse: return "inverse";
    case rope_property::exact: return "exact";
    case rope_property::layout_equivalence: return "layout equivalence";
  }
  return "?";
}

}  // namespace posenc::testing
