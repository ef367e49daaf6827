// law_result.hpp: what a constexpr law check returns (posenc/laws/).
//
//   constexpr auto r = posenc::laws::unit_norm(posenc::laws::view(table));
//   static_assert(r.holds, "cos^2 + sin^2 = 1 within 2u + u^2");
//   std::puts(posenc::laws::to_string(r).c_str());      // at run time (laws/print.hpp)
//
// A law measures a quantity over every case (entry, pair, row) of a table and holds when each is
// within its bound. The result keeps the worst measured value and its bound, how many cases were
// checked and failed, and where the first failure is: the row's position, the pair and the element
// (-1 where a law has no such index), and for the laws over two rows the other row's position. A
// bit-for-bit law measures 0 (same bits) or 1 against 0.
#pragma once

#include <cstdint>

#include "posenc/laws/law_kind.hpp"

namespace posenc::laws {

// partner's value when a law reads one row per case.
inline constexpr std::int64_t no_partner = INT64_MIN;

struct entry_index {
  std::int64_t position = -1;  // the table row's position
  std::int64_t pair = -1;      // pair j of the row (monotone_frequencies: the frequency's index)
  std::int64_t element = -1;   // element k of the row (0 .. rotary_dim - 1; pass_through: of the head), or -1
  // The second row of a law over two rows: relative_dot, m of the block R~_m^T R~_n (position = n);
  // composition, n of R~_m R~_n (position = m + n); parity, -p (position = p).
  std::int64_t partner = no_partner;
};

struct law_result {
  const char* law = "";
  law_kind kind = nullptr;  // &kind::<law> (laws/law_kind.hpp); set by make_result
  bool holds = true;
  double deviation = 0;        // the worst measured value (relative to its bound)
  double bound = 0;            // the bound at the worst case
  std::uint64_t checked = 0;   // cases checked
  std::uint64_t failures = 0;  // cases past their bound
  entry_index first_failure{};
  entry_index worst{};

  constexpr explicit operator bool() const noexcept { return holds; }

  // One case: value must be <= case_bound (a NaN value fails). Within one law the bound is the
  // same for every case, so the worst case is the largest value.
  constexpr void add(double value, double case_bound, entry_index at) noexcept {
    if (checked++ == 0 || value > deviation || value != value) {
      deviation = value;
      bound = case_bound;
      worst = at;
    }
    if (!(value <= case_bound)) {
      if (failures++ == 0) first_failure = at;
      holds = false;
    }
  }
  // n more cases that met the bound with a value no larger than the worst so far (the hot loops of
  // the laws count the common case in bulk and call add() only for a new worst or a failure).
  constexpr void pass(std::uint64_t n) noexcept { checked += n; }
  // A bit-for-bit (or boolean) case.
  constexpr void require(bool ok, entry_index at) noexcept { add(ok ? 0.0 : 1.0, 0.0, at); }
};

constexpr law_result make_result(const char* law, law_kind kind) noexcept {
  law_result r;
  r.law = law;
  r.kind = kind;
  return r;
}

}  // namespace posenc::laws
