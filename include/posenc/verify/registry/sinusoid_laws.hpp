// registry/sinusoid_laws.hpp: the registry's laws of a table of sinusoids of positions (docs/laws.md
// section 6), for every descriptor whose tables are one (sinusoidal, Transformer-XL / XLNet): its
// tables give sinusoids(), a laws::sinusoid_table view. registry/scheme.hpp says what a law is.
#pragma once

#include "posenc/laws/law_result.hpp"
#include "posenc/laws/sinusoid/relative_dot.hpp"
#include "posenc/laws/sinusoid/shift.hpp"
#include "posenc/laws/sinusoid/table.hpp"

namespace posenc::verify::registry::law {

struct sinusoid_shift {
  static constexpr const char* name = "sinusoid shift";
  static constexpr bool fixed_point_too = true;  // at the q15/q31 bounds (laws/bounds.hpp)
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::sinusoid_shift(t.sinusoids(), {.shifts = {1, 7, posenc::laws::sinusoid_middle, 0}});
  }
};

struct sinusoid_relative_dot {
  static constexpr const char* name = "sinusoid relative dot";
  static constexpr bool fixed_point_too = true;  // at the q15/q31 bounds (laws/bounds.hpp)
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::sinusoid_relative_dot(t.sinusoids(), {.shifts = {1, 7, posenc::laws::sinusoid_middle, 0}});
  }
};

}  // namespace posenc::verify::registry::law
