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

// The words of each index field, from the law's law_indices (laws/law_kind.hpp): the rotary laws'
// positions are never negative (-1: none); the laws of the bias and absolute encodings have signed
// positions (laws::invalid_position: none), the slope laws a head, the bias laws a query, a head
// and a key.
inline std::string to_string(const entry_index& at, law_kind kind = nullptr) {
  const law_indices indices = kind == nullptr ? law_indices::rotary : kind->indices;
  const bool signed_positions = indices != law_indices::rotary;
  const bool slopes = indices == law_indices::head;
  const bool bias = indices == law_indices::query_head_key;
  const char* position = bias ? "query" : "position";
  const char* pair = slopes || bias ? "head" : "pair";
  const char* element = bias ? "key" : "element";
  const bool has_position = signed_positions ? at.position != invalid_position : at.position >= 0;
  std::string s;
  char buf[64];
  if (has_position && !slopes)
    s += (std::snprintf(buf, sizeof buf, "%s %lld", position, static_cast<long long>(at.position)), buf);
  if (at.pair >= 0)
    s +=
        (std::snprintf(buf, sizeof buf, "%s%s %lld", s.empty() ? "" : " ", pair, static_cast<long long>(at.pair)), buf);
  if (at.element >= 0 || (bias && has_position))
    s +=
        (std::snprintf(buf, sizeof buf, "%s%s %lld", s.empty() ? "" : " ", element, static_cast<long long>(at.element)),
         buf);
  if (at.partner != no_partner)
    s += (std::snprintf(buf, sizeof buf, "%spartner %s %lld", s.empty() ? "" : " ", bias ? "key" : "position",
                        static_cast<long long>(at.partner)),
          buf);
  return s.empty() ? "the table" : s;
}

inline std::string to_string(const law_result& r) {
  char buf[160];
  if (r.holds) {
    std::snprintf(buf, sizeof buf, ": holds, worst %.3g (bound %.3g) at ", r.deviation, r.bound);
    return std::string(r.law) + buf + to_string(r.worst, r.kind) + " (" + std::to_string(r.checked) + " cases)";
  }
  std::snprintf(buf, sizeof buf, ": FAILS, first at ");
  std::string s = std::string(r.law) + buf + to_string(r.first_failure, r.kind);
  std::snprintf(buf, sizeof buf, "; worst %.3g > %.3g at ", r.deviation, r.bound);
  return s + buf + to_string(r.worst, r.kind) + " (" + std::to_string(r.failures) + " of " + std::to_string(r.checked) +
         " cases)";
}

}  // namespace posenc::laws
