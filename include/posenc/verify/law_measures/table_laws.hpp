// table_laws.hpp: every law of a RoPE table that has a core definition (posenc/laws/), run at run
// time on a table of any size: a long-context cache, a table someone else wrote, too large for
// constant evaluation. The functions are the ones a user static_asserts on a small table, not a
// second copy; which laws apply to which config is each law's own predicate in the registry
// (registry/laws.hpp), and the result says for every law of the registry whether it ran, and if not
// why.
//
//   std::vector<float> cos(rows * d), sin(rows * d);      // anyone's table, half-split, rows from 0
//   const posenc::laws::span_table<float> t{cos, sin, d, posenc::rope::layout::half_split, 0};
//   for (const auto& o : posenc::verify::law_measures::run_table_laws({t, nullptr, cfg, cfg.head_dim}))
//     std::printf("%-22s %s\n", o.law, o.ran ? posenc::laws::to_string(o.result).c_str() : o.skipped);
//
// check_rope_table<T>(cfg, start, rows) builds posenc's own table in both layouts at run time
// (rope::fill_table) and runs every law on it, layout equivalence included.
#pragma once

#include <boost/hana/for_each.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "posenc/laws/law_result.hpp"
#include "posenc/laws/print.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/status.hpp"
#include "posenc/verify/registry/laws.hpp"

namespace posenc::verify::law_measures {

// One law of the registry on one table: ran (result holds its verdict), or skipped for a reason.
struct table_law_outcome {
  const char* law = "";
  bool ran = false;
  posenc::laws::law_result result{};
  const char* skipped = "";  // why it did not run ("" when it ran)
  // Ran, but the table has none of the cases the law reads (identity at 0 without a row at 0,
  // composition without rows at m, n and m + n): it held vacuously.
  bool vacuous() const noexcept { return ran && result.checked == 0; }
};

// Whether a view has a row at a negative position (signed views only can).
template <class V>
bool has_negative_rows(const V& v) noexcept {
  if constexpr (std::is_signed_v<decltype(v.position(0))>)
    for (std::size_t row = 0; row < v.rows(); ++row)
      if (v.position(row) < 0) return true;
  return false;
}

// Every law of registry::every_law on t, in the registry's order.
template <class V>
std::vector<table_law_outcome> run_table_laws(const registry::table_case<V>& t) {
  std::vector<table_law_outcome> out;
  const bool folded = t.exactness.fold_attention;
  boost::hana::for_each(registry::every_law, [&](auto tag) {
    using L = typename decltype(tag)::type;
    table_law_outcome o{.law = L::name};
    if constexpr (posenc::fixed_point_type<typename V::value_type> && !registry::fixed_point_too<L>) {
      o.skipped = "does not hold of q15/q31 tables (docs/fixed-point.md)";
    } else if constexpr (!registry::has_core<L, V>) {
      o.skipped = "a law of the frequencies, measured by MPFR only";
    } else if (!L::applies_to(t.config)) {
      o.skipped = "does not apply to this config";
    } else if (folded && !L::folded_too) {
      o.skipped = "holds of tables without the attention factor folded in";
    } else if (std::is_same_v<L, registry::law::layout_equivalence> && t.other_layout == nullptr) {
      o.skipped = "needs the table in the other layout";
    } else if (std::is_same_v<L, registry::law::parity> && !has_negative_rows(t.table)) {
      o.skipped = "needs rows at negative positions";
    } else {
      o.ran = true;
      o.result = L::core(t);
    }
    out.push_back(o);
  });
  return out;
}

// Whether every law that ran held.
inline bool all_held(const std::vector<table_law_outcome>& v) noexcept {
  for (const table_law_outcome& o : v)
    if (o.ran && !o.result.holds) return false;
  return true;
}

// posenc's table of c in T at positions start .. start + rows - 1, built at run time in both layouts,
// and every law run on the half-split one (layout equivalence against the interleaved one). An
// empty result: the fill refused (the status says why).
template <class T>
std::vector<table_law_outcome> check_rope_table(const rope::config& c, std::uint64_t start, std::size_t rows,
                                                posenc::status* fill_status = nullptr) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  std::vector<T> hc(rows * d), hs(rows * d), ic(rows * d), is(rows * d);
  posenc::status st =
      rope::fill_table<T>(c, std::span<T>(hc), std::span<T>(hs), rope::layout::half_split, {.start = start});
  if (st == posenc::status::ok)
    st = rope::fill_table<T>(c, std::span<T>(ic), std::span<T>(is), rope::layout::interleaved, {.start = start});
  if (fill_status != nullptr) *fill_status = st;
  if (st != posenc::status::ok) return {};
  const posenc::laws::span_table<T> half{hc, hs, d, rope::layout::half_split, start};
  const posenc::laws::span_table<T> inter{ic, is, d, rope::layout::interleaved, start};
  return run_table_laws<posenc::laws::span_table<T>>({half, &inter, c, static_cast<std::size_t>(c.head_dim)});
}

}  // namespace posenc::verify::law_measures
