// norm.hpp: law "the apply kernel preserves norms within its bound": for storage S, table type TT
// (correctly rounded rows rope::sincos<TT>), each head's rotary part v and w = rotate(v),
//   | ||w|| - ||v|| | <= (kr + u_t) ||v||        (bounds.hpp derive_apply_bounds: b.norm)
// and the inverse rotation undoes it: ||R^-1 w - v|| <= b.inverse ||v||. Norms in exact_real.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "posenc/rope/angle.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/verify/law_measures/bounds.hpp"
#include "posenc/verify/law_measures/detail/exact.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

// The row {sin, cos} of pairs of config c at position m, as the tables hold it. ok &= success.
template <class TT>
std::vector<math::sincos_result<TT>> table_row(const rope::config& c, std::uint64_t m, bool& ok) {
  std::vector<math::sincos_result<TT>> row(static_cast<std::size_t>(rope::rotary_dim(c) / 2));
  for (std::size_t j = 0; j < row.size(); ++j) {
    const auto e = rope::sincos<TT>(c, m, static_cast<int>(j));
    ok = ok && e.ok();
    row[j] = e.value;
  }
  return row;
}

// The bounds of a kernel rotation of storage S with a correctly rounded table of TT: the core's
// (posenc/laws/bounds.hpp apply_kernel_bounds, which laws::norm_preservation uses too).
template <class S, class TT>
constexpr apply_bounds kernel_bounds() noexcept {
  static_assert(std::is_same_v<rope::compute_t<S>, std::conditional_t<std::is_same_v<S, double>, double, float>>,
                "apply_kernel_bounds assumes the kernel's compute type of rope/apply.hpp");
  return ::posenc::laws::apply_kernel_bounds<S, TT>();
}

// The law for a given row of d/2 {sin, cos} entries (the rows of a table, or rows crafted by a test
// just inside and just past the bound). x: heads * head_dim elements of S in layout lay; m: the
// position, for the messages.
template <class S, class TT>
law_report check_norm_preservation_of_row(const std::vector<math::sincos_result<TT>>& row, const std::vector<S>& x,
                                          std::size_t heads, std::size_t head_dim, rope::layout lay, std::uint64_t m) {
  law_report r = make_report("norm preservation of the apply kernel");
  const apply_bounds b = kernel_bounds<S, TT>();
  const std::size_t d = 2 * row.size();
  const rope::apply_shape sh{.heads = heads, .head_dim = head_dim, .rotary_dim = d, .lay = lay};
  std::vector<S> w(x.size()), back(x.size());
  bool ok = rope::rotate_copy(x.data(), w.data(), sh, row.data()) == posenc::status::ok;
  ok = ok && rope::rotate_copy(w.data(), back.data(), sh, row.data(), rope::direction::inverse) == posenc::status::ok;
  r.require(ok, [&] { return describe("m=%llu: the library reported an error", static_cast<unsigned long long>(m)); });
  for (std::size_t h = 0; h < heads; ++h) {
    const auto part = [&](const std::vector<S>& v) {
      return to_exact(std::vector<S>(v.begin() + static_cast<std::ptrdiff_t>(h * head_dim),
                                     v.begin() + static_cast<std::ptrdiff_t>(h * head_dim + d)));
    };
    const xvec V = part(x), W = part(w), B = part(back);
    const exact_real nv = norm(V);
    const double dev = static_cast<double>(abs(norm(W) - nv) / nv), inv = static_cast<double>(distance(B, V) / nv);
    r.add(dev, b.norm, [&] {
      return describe("m=%llu head %zu: | |Rv| - |v| | / |v| = %.3e", static_cast<unsigned long long>(m), h, dev);
    });
    r.add(inv, b.inverse, [&] {
      return describe("m=%llu head %zu: |R^-1 R v - v| / |v| = %.3e", static_cast<unsigned long long>(m), h, inv);
    });
  }
  return r;
}

// The law at position m of config c, with the table's correctly rounded row.
template <class S, class TT>
law_report check_norm_preservation(const rope::config& c, const std::vector<S>& x, std::size_t heads,
                                   std::size_t head_dim, rope::layout lay, std::uint64_t m) {
  bool ok = true;
  const auto row = table_row<TT>(c, m, ok);
  law_report r = check_norm_preservation_of_row<S, TT>(row, x, heads, head_dim, lay, m);
  r.require(ok, [&] { return describe("m=%llu: the library reported an error", static_cast<unsigned long long>(m)); });
  return r;
}

}  // namespace posenc::verify::law_measures
