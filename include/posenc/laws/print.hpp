// print.hpp: a law_result as one line of text, at run time.
//
//   unit norm |cos^2 + sin^2 - 1| <= 2u + u^2: FAILS at position 3 pair 17: 2.38e-07 > 1.19e-07
//   (1 of 8192 cases)
// A law over two rows adds the other row: "position 9 pair 2 partner position 8" (relative_dot:
// the block R~_8^T R~_9; composition, "position 9 ... partner position 1": R~_8 R~_1 against the
// row at 9, partner = n; parity: -p).
// Not constexpr (it formats doubles with std::snprintf); the core's laws themselves are.
#pragma once

#include <cstdio>
#include <string>

#include "posenc/laws/law_result.hpp"

namespace posenc::laws {

inline std::string to_string(const entry_index& at) {
  std::string s;
  char buf[64];
  if (at.position >= 0)
    s += (std::snprintf(buf, sizeof buf, "position %lld", static_cast<long long>(at.position)), buf);
  if (at.pair >= 0)
    s += (std::snprintf(buf, sizeof buf, "%spair %lld", s.empty() ? "" : " ", static_cast<long long>(at.pair)), buf);
  if (at.element >= 0)
    s += (std::snprintf(buf, sizeof buf, "%selement %lld", s.empty() ? "" : " ", static_cast<long long>(at.element)),
          buf);
  if (at.partner != no_partner)
    s += (std::snprintf(buf, sizeof buf, "%spartner position %lld", s.empty() ? "" : " ",
                        static_cast<long long>(at.partner)),
          buf);
  return s.empty() ? "the table" : s;
}

inline std::string to_string(const law_result& r) {
  char buf[160];
  if (r.holds) {
    std::snprintf(buf, sizeof buf, ": holds, worst %.3g (bound %.3g) at ", r.deviation, r.bound);
    return std::string(r.law) + buf + to_string(r.worst) + " (" + std::to_string(r.checked) + " cases)";
  }
  std::snprintf(buf, sizeof buf, ": FAILS, first at ");
  std::string s = std::string(r.law) + buf + to_string(r.first_failure);
  std::snprintf(buf, sizeof buf, "; worst %.3g > %.3g at ", r.deviation, r.bound);
  return s + buf + to_string(r.worst) + " (" + std::to_string(r.failures) + " of " + std::to_string(r.checked) +
         " cases)";
}

}  // namespace posenc::laws
