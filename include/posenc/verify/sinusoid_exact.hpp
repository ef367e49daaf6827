// sinusoid_exact.hpp: the exact values of a table of sinusoids of positions, for the engines of the
// schemes whose tables are one (sinusoidal_verify.hpp, transformer_xl_verify.hpp): each distinct
// angle of a row evaluated once (sinusoid_oracle.hpp), cos and sin together, and an entry's name.
// Not constexpr; links MPFR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/sinusoidal.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/sinusoid_oracle.hpp"

namespace posenc::verify {

namespace detail::sv {

// The exact values of entries first .. first + count - 1 of a sinusoid table (row r at
// positions[r], element j as the frameworks index it: sinusoid_element_of), appended to out; each
// distinct angle of a row evaluated once, cos and sin together.
inline void sinusoid_exact(const sinusoidal::config& c, const std::vector<std::int64_t>& positions, std::uint64_t first,
                           std::size_t count, const bool (&wanted)[dtype_count], std::vector<exact_entry>& out) {
  const auto d = static_cast<std::size_t>(c.dim);
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<exact_entry, exact_entry>> angles;  // cos, sin
  std::size_t row = static_cast<std::size_t>(first / d);
  for (std::uint64_t i = first; i < first + count; ++i) {
    const std::size_t r = static_cast<std::size_t>(i / d), j = static_cast<std::size_t>(i % d);
    if (r != row) angles.clear(), row = r;
    const sinusoid_element el = sinusoid_element_of(c, static_cast<int>(j));
    if (el.zero) {  // the fairseq zero column of an odd d
      out.push_back(exact_zero());
      continue;
    }
    auto it = angles.find({el.num, el.den});
    if (it == angles.end()) {
      auto v = sinusoid_angle_value(positions[r], c.base, el.num, el.den);
      it = angles
               .emplace(std::pair{el.num, el.den},
                        std::pair{exact_of(v, wanted, false, 0), exact_of(v, wanted, false, 1)})
               .first;
    }
    out.push_back(el.is_sin ? it->second.second : it->second.first);
  }
}

inline std::string row_element(const std::vector<std::int64_t>& positions, std::size_t d, std::uint64_t i,
                               std::string_view row_word) {
  const std::uint64_t r = i / d;
  return std::string(row_word) + " " + std::to_string(r) + " (position " + std::to_string(positions[r]) +
         "), element " + std::to_string(i % d);
}

}  // namespace detail::sv

}  // namespace posenc::verify
