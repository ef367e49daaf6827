// scheme_verify_core.hpp: what verifying any scheme's table other than RoPE's shares (the schemes'
// engines: <scheme>_verify.hpp;
// scheme_verify.hpp has them all): a table given or posenc's own (values_input), the exact value of
// an entry in every dtype from an MPFR oracle value (exact_entry), the run of a real-valued or an
// integer table in blocks of verify_block_entries entries on the threads and shards of blocks.hpp
// (verify_real_tables, verify_integer_table: the counts and ULP figures of a RoPE report,
// compare.hpp's definitions), and the registry's laws run by their core definitions on the whole
// table, once, by the run that holds block 0. Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <boost/hana/for_each.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/status.hpp"
#include "posenc/verify/blocks.hpp"
#include "posenc/verify/compare.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/registry/fixed_point_laws.hpp"
#include "posenc/verify/registry/scheme.hpp"
#include "posenc/verify/report.hpp"

namespace posenc::verify {

// One real-valued table to verify: someone else's (size entries of its dtype, in the row order
// `posenc emit <scheme>` writes), or, with a null pointer, posenc's own (own_values).
struct values_input {
  table_dtype dtype = table_dtype::f64;
  const void* data = nullptr;
  std::size_t size = 0;
};

inline values_input own_values(table_dtype t) noexcept { return {t, nullptr, 0}; }

template <class T>
values_input given_values(std::span<const T> v) noexcept {
  return {dtype_of<T>(), v.data(), v.size()};
}

namespace detail::sv {

// The exact value of one entry, for every dtype: an unevaluated sum hi + lo of doubles (for the ULP
// errors), the binade of the exact value, and its RN_T bits in each dtype.
struct exact_entry {
  double hi = 0, lo = 0;
  long binade = zero_binade;
  std::uint64_t rn[dtype_count] = {};
};

// RN_Q of output k of v, or of minus it (negate; e holds the exact value of the entry, negated):
// round to nearest even is symmetric but the clamp is not (+1 saturates, -1 does not), so a
// negated entry is -RN(y 2^F) unless the entry itself saturates, where it is clamped; RN(y 2^F) is
// v's rounding unless y's saturated (y in [1 - 2^-(F+1), 1 + 2^-(F+1)): 2^F).
template <class Q, class V>
std::uint64_t fixed_bits(V& v, std::size_t k, bool negate, const exact_entry& e) {
  using F = fixed_format<Q>;
  const std::uint64_t b = to_bits64(v.template round<Q>(k));
  if (!negate) return b;
  std::int64_t raw = ordered_key<Q>(b);
  if (saturates<Q>(e.hi, e.lo)) {
    raw = e.hi > 0 ? F::max_raw : F::min_raw;
  } else {
    if (saturates<Q>(-e.hi, -e.lo)) raw = std::int64_t{1} << F::fraction_bits;  // y rounded to 2^F, clamped
    raw = -raw;
  }
  using U = std::make_unsigned_t<typename F::storage>;
  return static_cast<std::uint64_t>(static_cast<U>(static_cast<typename F::storage>(raw)));
}

// From output k of an oracle value (a ziv_value of mpfr.hpp); negate: the entry is minus that
// value (RN_T(-x) = -RN_T(x): round to nearest even is symmetric).
template <class V>
exact_entry exact_of(V& v, const bool (&wanted)[dtype_count], bool negate = false, std::size_t k = 0) {
  exact_entry e;
  mp y(mpfr_get_prec(v.approx(k))), tmp(mpfr_get_prec(v.approx(k)));
  mpfr_set(y.get(), v.approx(k), MPFR_RNDN);  // exact: same precision
  if (negate) mpfr_neg(y.get(), y.get(), MPFR_RNDN);
  split_exact(y.get(), tmp.get(), e.hi, e.lo, e.binade);
  const auto bits = [&](auto tag) {
    using T = decltype(tag);
    const std::uint64_t b = to_bits64(v.template round<T>(k));
    return negate ? negated_bits<T>(b) : b;
  };
  if (wanted[0]) e.rn[0] = bits(double{});
  if (wanted[1]) e.rn[1] = bits(float{});
  if (wanted[2]) e.rn[2] = bits(posenc::bfloat16{});
  if (wanted[3]) e.rn[3] = bits(posenc::float16{});
  if (wanted[4]) e.rn[4] = fixed_bits<posenc::q15>(v, k, negate, e);
  if (wanted[5]) e.rn[5] = fixed_bits<posenc::q31>(v, k, negate, e);
  return e;
}

// Compares the block's entries got[i] (entry first + i of the table) with their exact values
// exact[i]: the counts, the ULP errors, the worst entry and the first beyond the tolerance, named by
// locate(index).
template <class T>
dtype_findings check_values(std::span<const T> got, std::uint64_t first, std::span<const exact_entry> exact,
                            std::uint64_t max_ulp, const std::function<std::string(std::uint64_t)>& locate) {
  constexpr int t = dtype_index<T>();
  dtype_findings f;
  f.dtype = dtype_of<T>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const exact_entry& e = exact[i];
    compare_entry<T>(f, got[i], e.rn[t], e.hi, e.lo, e.binade, table_entry{first + i, 0, false}, max_ulp);
    if constexpr (fixed_point_type<T>) f.saturated += saturates<T>(e.hi, e.lo) ? 1u : 0u;
  }
  if (f.has_worst) f.worst_at = locate(f.worst.position);
  if (f.has_first_failure) f.first_failure_at = locate(f.first_failure.position);
  return f;
}

// The block's integers got[i] (entry first + i) against the exact integers want[i].
template <class I>
integer_findings check_integers(std::span<const I> got, std::uint64_t first, std::span<const std::int64_t> want,
                                const std::function<std::string(std::uint64_t)>& locate) {
  integer_findings f;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::int64_t g = static_cast<std::int64_t>(got[i]), w = want[i];
    const std::uint64_t err = g > w ? static_cast<std::uint64_t>(g - w) : static_cast<std::uint64_t>(w - g);
    ++f.entries;
    if (err == 0) continue;
    if (f.wrong++ == 0) {
      f.has_first_failure = true;
      f.first_failure = first + i;
    }
    if (!f.has_worst || err > f.max_error) {
      f.has_worst = true;
      f.max_error = err;
      f.worst = first + i;
      f.worst_got = g;
      f.worst_exact = w;
    }
  }
  if (f.has_worst) f.worst_at = locate(f.worst);
  if (f.has_first_failure) f.first_failure_at = locate(f.first_failure);
  return f;
}

// Why the laws did not run in a slice of the table that does not hold block 0: they read the whole
// table, and run once, where block 0 is (so that merging the slices' reports counts them once).
inline constexpr const char* laws_run_with_block_0 = "reads the whole table: run by the shard that holds block 0";

// Every law of descriptor D that applies to t.config, by its core definition on the tables t (D's
// tables, registry/<scheme>.hpp); skip, when not empty, is why none runs here
// (laws_run_with_block_0); missing(law) says why the law cannot run on what is verified (a table it
// reads is not there), or returns "" when it can.
// Fixed: the table is q15/q31; only the laws that say they hold of such tables (fixed_point_too,
// registry/laws.hpp) run, the others are reported as not holding of them.
template <class D, bool Fixed = false, class Tables>
void run_laws(const Tables& t, table_dtype dtype, std::string_view skip,
              const std::function<std::string(std::string_view)>& missing, std::vector<law_findings>& out) {
  boost::hana::for_each(D::laws(), [&](auto l) {
    using L = typename decltype(l)::type;
    if (!L::applies_to(t.config)) return;
    std::string why = skip.empty() ? missing(L::name) : std::string(skip);
    if constexpr (Fixed && !registry::fixed_point_too<L>)
      if (why.empty()) why = "not checked on q15/q31 tables (docs/fixed-point.md)";
    if (!why.empty()) {
      out.push_back(law_findings::from(dtype, L::name, nullptr, why.c_str()));
      return;
    }
    if constexpr (!Fixed || registry::fixed_point_too<L>) {
      const posenc::laws::law_result r = L::core(t);
      out.push_back(law_findings::from(dtype, L::name, &r, ""));
    }
  });
}

// The locator of a [heads, distances] table (KERPLE's, Sandwich's): "head h, distance k" of entry i.
inline std::function<std::string(std::uint64_t)> head_and_distance(std::size_t distances) {
  return [distances](std::uint64_t i) {
    return "head " + std::to_string(i / distances) + ", distance " + std::to_string(i % distances);
  };
}

inline void check_tables(std::span<const values_input> tables) {
  bool wanted[dtype_count] = {};
  posenc::verify::detail::distinct_dtypes(tables, wanted);
}

inline void check_size(const values_input& in, std::size_t want, const std::string& what) {
  if (in.data != nullptr && in.size != want)
    throw std::invalid_argument("the " + std::string(dtype_name(in.dtype)) + " table has " + std::to_string(in.size) +
                                " entries; " + what + " has " + std::to_string(want));
}

inline void wanted_of(std::span<const values_input> tables, bool (&wanted)[dtype_count]) {
  for (const values_input& in : tables) wanted[static_cast<int>(in.dtype)] = true;
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
std::span<const T> given_span(const values_input& in) {
  return {static_cast<const T*>(in.data), in.size};
}

// An exact value that is 0 (a fairseq zero column, a bias at distance 0): +0, the real 0 has no sign.
inline exact_entry exact_zero() noexcept { return {}; }

// A report of the table `scheme` of `entries` entries in row order, in blocks of
// verify_block_entries, its entries named by index.
inline verify_report indexed_report(std::string scheme, std::string description, std::vector<std::string> keys,
                                    std::vector<std::uint64_t> shape, std::uint64_t entries, std::uint64_t max_ulp,
                                    bool integer_valued = false) {
  verify_report rep;
  rep.scheme = std::move(scheme);
  rep.description = std::move(description);
  rep.keys = std::move(keys);
  rep.shape = std::move(shape);
  rep.naming = entry_naming::indexed;
  rep.integer_valued = integer_valued;
  rep.rows = entries;
  rep.block_rows = verify_block_entries;
  rep.max_ulp_allowed = max_ulp;
  return rep;
}

// posenc's own tables, one per dtype, built whole before the blocks run (posenc's generators are
// fast: the MPFR values are the cost).
struct own_tables {
  std::vector<double> f64;
  std::vector<float> f32;
  std::vector<posenc::bfloat16> bf16;
  std::vector<posenc::float16> f16;
  std::vector<posenc::q15> q15;
  std::vector<posenc::q31> q31;

  template <class T>
  std::vector<T>& of() noexcept {
    if constexpr (std::is_same_v<T, double>) return f64;
    if constexpr (std::is_same_v<T, float>) return f32;
    if constexpr (std::is_same_v<T, posenc::bfloat16>) return bf16;
    if constexpr (std::is_same_v<T, posenc::float16>) return f16;
    if constexpr (std::is_same_v<T, posenc::q15>) return q15;
    if constexpr (std::is_same_v<T, posenc::q31>) return q31;
  }
};

// The run of a real-valued table of rep.rows entries (rep from indexed_report): each input (given,
// or posenc's own, built by own(std::type_identity<T>)) against the exact values, block by block
// on run's threads and shard: exact_block(first, n, wanted, out) appends the exact values of entries
// first .. first + n - 1 to out. Then the laws, on the whole table of each input:
// laws(std::span<const T>, table_dtype, std::string_view skip, std::vector<law_findings>&) runs
// those that apply (skip: laws_run_with_block_0 in a slice without block 0, the span then empty).
// FixedToo: the scheme verifies q15/q31 tables too (its own(), laws() and exact_block take them);
// otherwise such a dtype is refused (with_dtype).
template <bool FixedToo = false, class ExactBlock, class Own, class Laws>
void verify_real_tables(verify_report& rep, std::span<const values_input> tables, const run_options& run,
                        const std::string& what, ExactBlock exact_block,
                        const std::function<std::string(std::uint64_t)>& locate, Own own, Laws laws) {
  const std::uint64_t entries = rep.rows;
  for (const values_input& in : tables) check_size(in, entries, what);
  bool wanted[dtype_count] = {};
  wanted_of(tables, wanted);
  own_tables mine;
  for (const values_input& in : tables)
    if (in.data == nullptr)
      with_dtype<FixedToo>(in.dtype, [&]<class T>(std::type_identity<T> tag) { mine.of<T>() = own(tag); });
  const auto table_of = [&]<class T>(const values_input& in, std::type_identity<T>) {
    return in.data == nullptr ? std::span<const T>(mine.of<T>()) : given_span<T>(in);
  };
  run_blocks(rep, run, [&](std::uint64_t block, block_findings& out) {
    const std::uint64_t first = block * rep.block_rows;
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(rep.block_rows, entries - first));
    std::vector<exact_entry> exact;
    exact.reserve(n);
    exact_block(first, n, wanted, exact);
    for (const values_input& in : tables)
      with_dtype<FixedToo>(in.dtype, [&]<class T>(std::type_identity<T> tag) {
        const std::span<const T> v = table_of(in, tag).subspan(first, n);
        out.dtypes.push_back(check_values<T>(v, first, exact, rep.max_ulp_allowed, locate));
      });
  });
  const std::string_view skip = rep.first_block == 0 ? std::string_view() : laws_run_with_block_0;
  for (const values_input& in : tables)
    with_dtype<FixedToo>(in.dtype, [&]<class T>(std::type_identity<T> tag) {
      laws(skip.empty() ? table_of(in, tag) : std::span<const T>(), in.dtype, skip, rep.laws);
    });
}

// The run of an integer table `got` of rep.rows entries (rep from indexed_report, integer_valued)
// against want(first, n, out), which appends the exact integers of entries first .. first + n - 1;
// then laws(std::string_view skip, std::vector<law_findings>&) (skip as for verify_real_tables).
template <class Want, class Laws>
void verify_integer_table(verify_report& rep, std::span<const std::int32_t> got, const run_options& run, Want want,
                          const std::function<std::string(std::uint64_t)>& locate, Laws laws) {
  run_blocks(rep, run, [&](std::uint64_t block, block_findings& out) {
    const std::uint64_t first = block * rep.block_rows;
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(rep.block_rows, rep.rows - first));
    std::vector<std::int64_t> exact;
    exact.reserve(n);
    want(first, n, exact);
    out.integers = check_integers<std::int32_t>(got.subspan(first, n), first, exact, locate);
  });
  laws(rep.first_block == 0 ? std::string_view() : laws_run_with_block_0, rep.laws);
}

// No law of the registry reads this table (KERPLE, Sandwich, log-n: their descriptors list none).
struct no_laws {
  template <class T>
  void operator()(std::span<const T>, table_dtype, std::string_view, std::vector<law_findings>&) const noexcept {}
};

// A table of compact {sin, cos} pairs in the layout `posenc emit --format bin` writes for a pair
// table (cli/emit_pair_table.hpp: M-RoPE, ND RoPE, Leaky ReRoPE): every cos, then every sin.
template <class T>
std::vector<T> cos_then_sin(std::span<const math::sincos_result<T>> pairs) {
  std::vector<T> out(2 * pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) out[i] = pairs[i].cos, out[pairs.size() + i] = pairs[i].sin;
  return out;
}

// posenc's generator's status as the reason its own table cannot be built (overflow in a narrow dtype).
inline void check_own(posenc::status st, table_dtype t, const std::string& what);
// A q15/q31 fill's: its saturations are counted against the oracle, not an error.
inline void check_own(const posenc::fixed_fill_status& st, table_dtype t, const std::string& what) {
  check_own(st.error, t, what);
}
inline void check_own(posenc::status st, table_dtype t, const std::string& what) {
  if (st != posenc::status::ok)
    throw std::invalid_argument("posenc cannot build the " + std::string(dtype_name(t)) + " " + what + ": " +
                                posenc::to_string(st));
}

}  // namespace detail::sv

}  // namespace posenc::verify
