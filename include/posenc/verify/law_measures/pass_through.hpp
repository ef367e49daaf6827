// pass_through.hpp: law "partial rotary leaves elements rotary_dim..head_dim-1 of each head
// untouched, bit for bit" (GPT-NeoX rotary_pct, GPT-J rotary_dim; apply.hpp's contract), by
// rotate (in place), rotate_copy (inverse) and rotate_at_theta (on the fly from the config's
// frequencies), specials included (-0, NaN, +-inf, subnormal: the caller plants them), while the
// rotary part does move. Moved from tests/test_rope_apply.cpp check_pass_through (generalised from
// base 1e4 to any config).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "posenc/laws/detail/values.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/law_measures/norm.hpp"
#include "posenc/verify/law_measures/report.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify::law_measures {

// The comparison of check_pass_through: every output holds the input's bits past rotary_dim in
// each head, and the first output moved the rotary part (unless m == 0). Tests feed it outputs
// one bit apart to show it fails.
template <class S>
law_report check_pass_through_outputs(const std::vector<S>& x, std::initializer_list<const std::vector<S>*> outs,
                                      std::size_t head_dim, std::size_t d, std::uint64_t m) {
  law_report r = make_report("partial rotary pass-through (bits)");
  std::size_t moved = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const std::uint64_t xb = verify::detail::to_bits64(x[k]);
    if (k % head_dim < d) {
      moved += verify::detail::to_bits64((**outs.begin())[k]) != xb;
      continue;
    }
    bool same = true;
    // the per-element comparison of the constexpr law (posenc/laws/rope/pass_through.hpp)
    for (const std::vector<S>* o : outs) same = same && ::posenc::laws::detail::same_bits((*o)[k], x[k]);
    r.require(same, [&] {
      return describe("m=%llu element %zu (pass-through) changed: bits 0x%llx", static_cast<unsigned long long>(m), k,
                      static_cast<unsigned long long>(xb));
    });
  }
  r.require(m == 0 || moved > 0,
            [&] { return describe("m=%llu: the rotary part did not move", static_cast<unsigned long long>(m)); });
  return r;
}

template <class S>
law_report check_pass_through(const rope::config& c, const std::vector<S>& x, std::size_t heads, std::size_t head_dim,
                              rope::layout lay, std::uint64_t m) {
  law_report r = make_report("partial rotary pass-through (bits)");
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  const rope::apply_shape sh{.heads = heads, .head_dim = head_dim, .rotary_dim = d, .lay = lay};
  bool ok = true;
  const auto row = table_row<rope::compute_t<S>>(c, m, ok);
  std::vector<math::double_double> theta(d / 2);
  for (std::size_t j = 0; j < d / 2; ++j) {
    const auto f = rope::frequency_dd(c, static_cast<int>(j));
    ok = ok && f.ok();
    theta[j] = f.value;
  }
  std::vector<S> a = x, b(x.size()), e = x;
  ok = ok && rope::rotate(a.data(), sh, row.data()) == posenc::status::ok;
  ok = ok && rope::rotate_copy(x.data(), b.data(), sh, row.data(), rope::direction::inverse) == posenc::status::ok;
  ok = ok && rope::rotate_at_theta(e.data(), sh, m, theta.data()) == posenc::status::ok;
  r.require(ok, [&] { return describe("m=%llu: the library reported an error", static_cast<unsigned long long>(m)); });
  r.merge(check_pass_through_outputs(x, {&a, &b, &e}, head_dim, d, m));
  return r;
}

}  // namespace posenc::verify::law_measures
