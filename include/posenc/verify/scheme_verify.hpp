// scheme_verify.hpp: verify the table of a scheme other than RoPE, posenc's own or one someone else
// built, against its exact values and every law of the registry that applies (`posenc verify
// <scheme>`; RoPE is rope_verify.hpp).
//
//   posenc::verify::alibi_verify_request q{.config = {.heads = 16}};       // the slopes
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_alibi(q, own);             // scheme_verify_report.hpp
//   std::vector<float> theirs = ...;                                       // a framework's slopes
//   const posenc::verify::values_input given[] = {posenc::verify::given_values<float>(theirs)};
//   if (!posenc::verify::verify_alibi(q, given).passed()) ...
//
// What is checked, for each table (one per dtype):
//  - every entry against RN_T of its exact value, from the scheme's MPFR oracle (alibi_oracle.hpp,
//    ...), each proven to round alike to every format (mpfr.hpp's Ziv loop): whether it is that
//    correctly rounded value, how many representable steps it is from it (at most max_ulp
//    allowed), and its error in ULPs of the exact value; the same counts and figures as a RoPE
//    report (dtype_findings). An integer table (buckets) is compared with the exact integers of the
//    published formula evaluated independently (t5_oracle.hpp, ...).
//  - every law of registry::every_scheme_law that applies to the config, by its core (constexpr)
//    definition, on the table verified; a law that reads a table the request does not hold (the
//    ALiBi bias laws on the slopes) is listed as skipped, with the reason.
// Each exact value is computed once and serves every dtype. One thread: the tables are small (the
// CLI's limit is 2^24 entries); BLOOM's 16 slopes take well under a millisecond.
//
// A request that cannot be carried out (invalid config, a table of the wrong size, two tables of one
// dtype) throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
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

#include "posenc/alibi.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/t5.hpp"
#include "posenc/verify/alibi_oracle.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/registry/schemes.hpp"
#include "posenc/verify/rope_verify.hpp"
#include "posenc/verify/scheme_verify_report.hpp"
#include "posenc/verify/t5_oracle.hpp"

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
  long binade = detail::rv::zero_binade;
  std::uint64_t rn[4] = {0, 0, 0, 0};
};

// From an oracle value (a ziv_value of mpfr.hpp); negate: the entry is minus that value
// (RN_T(-x) = -RN_T(x): round to nearest even is symmetric).
template <class V>
exact_entry exact_of(V& v, const bool (&wanted)[4], bool negate = false) {
  exact_entry e;
  mp y(mpfr_get_prec(v.approx())), tmp(mpfr_get_prec(v.approx()));
  mpfr_set(y.get(), v.approx(), MPFR_RNDN);  // exact: same precision
  if (negate) mpfr_neg(y.get(), y.get(), MPFR_RNDN);
  detail::rv::split(y.get(), tmp.get(), e.hi, e.lo, e.binade);
  const auto bits = [&](auto tag) {
    using T = decltype(tag);
    const std::uint64_t b = to_bits64(v.template round<T>());
    return negate ? b ^ (std::uint64_t{1} << (storage_bits<T> - 1)) : b;
  };
  if (wanted[0]) e.rn[0] = bits(double{});
  if (wanted[1]) e.rn[1] = bits(float{});
  if (wanted[2]) e.rn[2] = bits(posenc::bfloat16{});
  if (wanted[3]) e.rn[3] = bits(posenc::float16{});
  return e;
}

// Calls f(std::type_identity<T>{}) with T the dtype's type.
template <class F>
decltype(auto) with_dtype(table_dtype t, F&& f) {
  switch (t) {
    case table_dtype::f64: break;
    case table_dtype::f32: return f(std::type_identity<float>{});
    case table_dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case table_dtype::f16: return f(std::type_identity<posenc::float16>{});
  }
  return f(std::type_identity<double>{});
}

// Compares got[i] with the exact value exact_at(i) (an index into the exact values) for every i:
// the counts, the ULP errors, the worst entry and the first beyond the tolerance.
template <class T, class ExactAt>
dtype_findings check_values(std::span<const T> got, ExactAt exact_at, std::uint64_t max_ulp) {
  constexpr int t = detail::rv::dtype_index<T>();
  dtype_findings f;
  f.dtype = dtype_of<T>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const exact_entry& e = exact_at(i);
    const std::uint64_t bits = to_bits64(got[i]), want = e.rn[t];
    const table_entry at{i, 0, false};
    ++f.entries;
    if (bits != want) {
      ++f.not_correctly_rounded;
      const std::int64_t a = detail::rv::ordered<T>(bits), b = detail::rv::ordered<T>(want);
      const std::uint64_t steps = a > b ? static_cast<std::uint64_t>(a - b) : static_cast<std::uint64_t>(b - a);
      if ((is_nan(got[i]) || steps > max_ulp) && f.beyond_tolerance++ == 0) {
        f.has_first_failure = true;
        f.first_failure = at;
      }
    }
    const double g = to_double(got[i]);
    f.add_error(detail::rv::ulp_error<T>(g, e.hi, e.lo, e.binade), at, g, e.hi);
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

}  // namespace detail::sv

// ---- ALiBi --------------------------------------------------------------------------------------

// The slopes m_h (one per head), or the bias table of `posenc emit alibi --bias`: per head, the
// queries i < positions and the keys j <= i (causal, row i (i + 1) / 2 + j) or j < positions
// (symmetric, row i positions + j), each entry -m_h |i - j|.
struct alibi_verify_request {
  alibi::config config{};
  bool bias = false;
  std::size_t positions = 0;  // the bias table's queries (and keys)
  bool symmetric = false;
  std::uint64_t max_ulp = 0;  // representable steps an entry may be from RN_T(exact); 0: correctly rounded
  std::string description{};  // what the table is, for the report
};

// Entries per head of the request's table (1: a slope).
inline std::size_t alibi_entries_per_head(const alibi_verify_request& q) noexcept {
  if (!q.bias) return 1;
  return q.symmetric ? q.positions * q.positions : q.positions * (q.positions + 1) / 2;
}

namespace detail::sv {

// Query and key of row r of a causal block (r = i (i + 1) / 2 + j, j <= i).
inline void causal_query_key(std::uint64_t r, std::uint64_t& i, std::uint64_t& j) {
  std::uint64_t q = 0;
  while ((q + 1) * (q + 2) / 2 <= r) q = q == 0 ? 1 : q * 2;  // an upper bound, then bisect
  std::uint64_t lo = 0, hi = q;
  while (lo < hi) {  // the largest q with q (q + 1) / 2 <= r
    const std::uint64_t mid = (lo + hi + 1) / 2;
    if (mid * (mid + 1) / 2 <= r)
      lo = mid;
    else
      hi = mid - 1;
  }
  i = lo;
  j = r - lo * (lo + 1) / 2;
}

inline std::string alibi_where(const alibi_verify_request& q, std::uint64_t index) {
  if (!q.bias) return "head " + std::to_string(index);
  const std::uint64_t per = alibi_entries_per_head(q), h = index / per, m = index % per;
  std::uint64_t i = 0, j = 0;
  if (q.symmetric) {
    i = m / q.positions;
    j = m % q.positions;
  } else {
    causal_query_key(m, i, j);
  }
  return "head " + std::to_string(h) + ", query " + std::to_string(i) + ", key " + std::to_string(j);
}

// posenc's own table in T, laid out as the request says.
template <class T>
std::vector<T> alibi_own(const alibi_verify_request& q, const alibi::checked_config& cc) {
  const auto heads = static_cast<std::size_t>(q.config.heads);
  std::vector<T> out(heads * alibi_entries_per_head(q));
  if (!q.bias) {
    if (alibi::fill_slopes<T>(cc, std::span<T>(out)) != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the ALiBi slopes of this config");
    return out;
  }
  const std::size_t n = q.positions;
  std::vector<T> by_distance(n);
  for (std::size_t h = 0, r = 0; h < heads; ++h) {
    const posenc::status st = alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(by_distance));
    if (st != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the " + std::string(dtype_name(dtype_of<T>())) +
                                  " ALiBi bias table: " + posenc::to_string(st) + " at head " + std::to_string(h));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < (q.symmetric ? n : i + 1); ++j) out[r++] = by_distance[i >= j ? i - j : j - i];
  }
  return out;
}

// The registry's view of the table verified: the slopes, or the dense heads x n x n biases (a causal
// table's masked entries filled with their mirror image, which a relative bias must equal).
template <class T>
registry::scheme_tables<T> alibi_law_tables(const alibi_verify_request& q, std::span<const T> v) {
  registry::scheme_tables<T> t;
  t.config.family = registry::scheme_family::alibi;
  t.config.alibi = q.config;
  const auto heads = static_cast<std::size_t>(q.config.heads), n = q.positions;
  t.config.rows = q.bias ? n : 0;
  if (!q.bias) {
    t.slopes.assign(v.begin(), v.end());
    return t;
  }
  t.values.resize(heads * n * n);
  const std::size_t per = alibi_entries_per_head(q);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t qi = q.symmetric || j <= i ? i : j, kj = q.symmetric || j <= i ? j : i;
        const std::size_t m = q.symmetric ? qi * n + kj : qi * (qi + 1) / 2 + kj;
        t.values[(h * n + i) * n + j] = v[h * per + m];
      }
  return t;
}

inline std::string alibi_missing(const alibi_verify_request& q, std::string_view law) {
  const bool reads_slopes = law.find("slopes") != std::string_view::npos;
  if (reads_slopes && q.bias) return "reads the slopes (verify without --bias)";
  if (!reads_slopes && !q.bias) return "reads the bias table (verify with --bias --positions N)";
  return "";
}

}  // namespace detail::sv

inline scheme_verify_report verify_alibi(const alibi_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  const alibi::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid ALiBi config: ") + v.message);
  if (q.bias && q.positions == 0) throw std::invalid_argument("the bias table has no positions");
  const auto heads = static_cast<std::size_t>(q.config.heads);
  const std::size_t per = alibi_entries_per_head(q), n = q.positions;
  for (const values_input& in : tables)
    sv::check_size(in, heads * per,
                   q.bias ? "a table of " + std::to_string(heads) + " heads x " + std::to_string(per) + " biases"
                          : "a table of " + std::to_string(heads) + " slopes");
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);

  // The exact values: per head, the slope (negated bias at distance 1) or the biases by distance.
  const std::size_t per_exact = q.bias ? n : 1;
  std::vector<sv::exact_entry> exact(heads * per_exact);
  for (std::size_t h = 0; h < heads; ++h) {
    const auto e = alibi::slope_exponent_of(cc, static_cast<int>(h)).value;
    for (std::size_t k = 0; k < per_exact; ++k) {
      auto v = alibi_bias_value(e.num, e.den, q.bias ? k : 1);
      exact[h * per_exact + k] = sv::exact_of(v, wanted, !q.bias);
    }
  }
  // Distance |i - j| of each entry of a head's block, in row order.
  std::vector<std::uint32_t> distance;
  if (q.bias) {
    distance.reserve(per);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < (q.symmetric ? n : i + 1); ++j)
        distance.push_back(static_cast<std::uint32_t>(i >= j ? i - j : j - i));
  }
  const auto exact_at = [&](std::size_t index) -> const sv::exact_entry& {
    return q.bias ? exact[(index / per) * n + distance[index % per]] : exact[index];
  };

  scheme_verify_report rep;
  rep.scheme = "alibi";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  if (!q.bias) {
    rep.keys = {"head"};
    rep.shape = {heads};
  } else {
    rep.keys = q.symmetric ? std::vector<std::string>{"head", "query", "key"}
                           : std::vector<std::string>{"head", "query i, key j <= i: i (i + 1) / 2 + j"};
    rep.shape = q.symmetric ? std::vector<std::uint64_t>{heads, n, n} : std::vector<std::uint64_t>{heads, per};
  }
  const std::function<std::string(std::uint64_t)> locate = [&q](std::uint64_t i) { return sv::alibi_where(q, i); };
  for (const values_input& in : tables)
    sv::with_dtype(in.dtype, [&]<class T>(std::type_identity<T>) {
      std::vector<T> own;
      if (in.data == nullptr) own = sv::alibi_own<T>(q, cc);
      const std::span<const T> v = in.data == nullptr ? std::span<const T>(own) : sv::given_span<T>(in);
      rep.dtypes.push_back(sv::named(sv::check_values<T>(v, exact_at, q.max_ulp), locate));
      sv::run_laws<T>(
          sv::alibi_law_tables<T>(q, v), in.dtype, [&q](std::string_view law) { return sv::alibi_missing(q, law); },
          rep.laws);
    });
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

// ---- T5 buckets ---------------------------------------------------------------------------------

// The buckets of relative positions -range .. range (key - query), `posenc emit t5-bucket`'s table.
struct t5_verify_request {
  t5::config config{};
  std::int64_t range = 0;
  std::string description{};
};

// Verifies the T5 bucket table `given` (2 range + 1 integers), or posenc's own when given is empty
// and own is true.
inline scheme_verify_report verify_t5(const t5_verify_request& q, std::span<const std::int32_t> given,
                                      bool own = true) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  const t5::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid T5 config: ") + v.message);
  if (q.range < 0 || q.range > (std::int64_t{1} << 40))
    throw std::invalid_argument("the range must be in [0, 2^40], got " + std::to_string(q.range));
  const auto rows = static_cast<std::size_t>(2 * q.range + 1);
  std::vector<std::int32_t> mine;
  if (own) {
    std::vector<int> b(rows);
    if (t5::fill_buckets(cc, -q.range, std::span<int>(b)) != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the T5 buckets of this config");
    mine.assign(b.begin(), b.end());
    given = mine;
  } else if (given.size() != rows) {
    throw std::invalid_argument("the table has " + std::to_string(given.size()) + " buckets; relative positions -" +
                                std::to_string(q.range) + " .. " + std::to_string(q.range) + " are " +
                                std::to_string(rows));
  }
  std::vector<std::int64_t> want(rows);
  for (std::size_t i = 0; i < rows; ++i) want[i] = t5_oracle_bucket(q.config, -q.range + static_cast<std::int64_t>(i));

  scheme_verify_report rep;
  rep.scheme = "t5-bucket";
  rep.description = q.description;
  rep.integer_valued = true;
  rep.keys = {"relative position + range"};
  rep.shape = {rows};
  const std::int64_t first = -q.range;
  rep.integers = sv::check_integers<std::int32_t>(given, want, [first](std::uint64_t i) {
    return "relative position " + std::to_string(first + static_cast<std::int64_t>(i));
  });
  registry::scheme_tables<double> t;  // the bucket laws read the integers only
  t.config.family = registry::scheme_family::t5;
  t.config.t5 = q.config;
  t.config.first = first;
  t.config.rows = rows;
  t.buckets.assign(given.begin(), given.end());
  sv::run_laws<double>(
      t, table_dtype::f64, [](std::string_view) { return std::string(); }, rep.laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
