// scheme_verify_core.hpp: what verifying any scheme's table other than RoPE's shares (the schemes'
// engines: bias_verify.hpp, sinusoid_verify.hpp, bucket_verify.hpp; scheme_verify.hpp has them all):
// a table given or posenc's own (values_input), the exact value of an entry in every dtype from an
// MPFR oracle value (exact_entry), the comparison of every entry with it (the counts and ULP figures
// of a RoPE report, compare.hpp's definitions), the integer comparison, and the registry's laws
// run by their core definitions. Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <boost/hana/for_each.hpp>

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

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/status.hpp"
#include "posenc/verify/compare.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/registry/schemes.hpp"
#include "posenc/verify/rope_verify_report.hpp"
#include "posenc/verify/scheme_verify_report.hpp"

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
  std::uint64_t rn[4] = {0, 0, 0, 0};
};

// From output k of an oracle value (a ziv_value of mpfr.hpp); negate: the entry is minus that
// value (RN_T(-x) = -RN_T(x): round to nearest even is symmetric).
template <class V>
exact_entry exact_of(V& v, const bool (&wanted)[4], bool negate = false, std::size_t k = 0) {
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
  return e;
}

// Compares got[i] with the exact value exact_at(i) (an index into the exact values) for every i:
// the counts, the ULP errors, the worst entry and the first beyond the tolerance.
template <class T, class ExactAt>
dtype_findings check_values(std::span<const T> got, ExactAt exact_at, std::uint64_t max_ulp) {
  constexpr int t = dtype_index<T>();
  dtype_findings f;
  f.dtype = dtype_of<T>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const exact_entry& e = exact_at(i);
    compare_entry<T>(f, got[i], e.rn[t], e.hi, e.lo, e.binade, table_entry{i, 0, false}, max_ulp);
  }
  return f;
}

// The findings of one dtype, the entries named by locate(index).
inline scheme_dtype_findings named(dtype_findings f, const std::function<std::string(std::uint64_t)>& locate) {
  scheme_dtype_findings n{f, "", ""};
  if (f.has_worst) n.worst_at = locate(f.worst.position);
  if (f.has_first_failure) n.first_failure_at = locate(f.first_failure.position);
  return n;
}

// The integer table got against the exact integers want.
template <class I>
integer_findings check_integers(std::span<const I> got, const std::vector<std::int64_t>& want,
                                const std::function<std::string(std::uint64_t)>& locate) {
  integer_findings f;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::int64_t g = static_cast<std::int64_t>(got[i]), w = want[i];
    const std::uint64_t err = g > w ? static_cast<std::uint64_t>(g - w) : static_cast<std::uint64_t>(w - g);
    ++f.entries;
    if (err == 0) continue;
    if (f.wrong++ == 0) {
      f.has_first_failure = true;
      f.first_failure = i;
    }
    if (!f.has_worst || err > f.max_error) {
      f.has_worst = true;
      f.max_error = err;
      f.worst = i;
      f.worst_got = g;
      f.worst_exact = w;
    }
  }
  if (f.has_worst) f.worst_at = locate(f.worst);
  if (f.has_first_failure) f.first_failure_at = locate(f.first_failure);
  return f;
}

// Every law of the registry that applies to t.config, by its core definition on the tables in t;
// missing(law) says why the law cannot run on what is verified (a table it reads is not there), or
// returns "" when it can.
template <class T>
void run_laws(const registry::scheme_tables<T>& t, table_dtype dtype,
              const std::function<std::string(std::string_view)>& missing, std::vector<law_findings>& out) {
  boost::hana::for_each(registry::every_scheme_law, [&](auto l) {
    using L = typename decltype(l)::type;
    if (!L::applies_to(t.config)) return;
    const std::string why = missing(L::name);
    if (!why.empty()) {
      out.push_back(law_findings::from(dtype, L::name, nullptr, why.c_str()));
      return;
    }
    const posenc::laws::law_result r = L::template core<T>(t);
    out.push_back(law_findings::from(dtype, L::name, &r, ""));
  });
}

inline void check_tables(std::span<const values_input> tables) {
  if (tables.empty()) throw std::invalid_argument("no table to verify");
  for (const values_input& in : tables)
    for (const values_input& other : tables)
      if (&other != &in && other.dtype == in.dtype)
        throw std::invalid_argument("two tables of dtype " + std::string(dtype_name(in.dtype)));
}

inline void check_size(const values_input& in, std::size_t want, const std::string& what) {
  if (in.data != nullptr && in.size != want)
    throw std::invalid_argument("the " + std::string(dtype_name(in.dtype)) + " table has " + std::to_string(in.size) +
                                " entries; " + what + " has " + std::to_string(want));
}

inline void wanted_of(std::span<const values_input> tables, bool (&wanted)[4]) {
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

// The shared run of a real-valued table of `entries` entries: each input (given, or posenc's own,
// built by own(std::type_identity<T>)) against exact_at(i), named by locate(i), then the laws:
// laws(std::span<const T>, table_dtype, std::vector<law_findings>&) runs those that apply to it.
template <class ExactAt, class Own, class Laws>
void verify_real_tables(scheme_verify_report& rep, std::span<const values_input> tables, std::size_t entries,
                        const std::string& what, ExactAt exact_at,
                        const std::function<std::string(std::uint64_t)>& locate, std::uint64_t max_ulp, Own own,
                        Laws laws) {
  for (const values_input& in : tables) check_size(in, entries, what);
  for (const values_input& in : tables)
    with_dtype(in.dtype, [&]<class T>(std::type_identity<T> tag) {
      std::vector<T> mine;
      if (in.data == nullptr) mine = own(tag);
      const std::span<const T> v = in.data == nullptr ? std::span<const T>(mine) : given_span<T>(in);
      rep.dtypes.push_back(named(check_values<T>(v, exact_at, max_ulp), locate));
      laws(v, in.dtype, rep.laws);
    });
}

// No law of the registry reads this table (KERPLE, Sandwich, log-n: registry/schemes.hpp).
struct no_laws {
  template <class T>
  void operator()(std::span<const T>, table_dtype, std::vector<law_findings>&) const noexcept {}
};

// posenc's generator's status as the reason its own table cannot be built (overflow in a narrow dtype).
inline void check_own(posenc::status st, table_dtype t, const std::string& what) {
  if (st != posenc::status::ok)
    throw std::invalid_argument("posenc cannot build the " + std::string(dtype_name(t)) + " " + what + ": " +
                                posenc::to_string(st));
}

}  // namespace detail::sv

}  // namespace posenc::verify
