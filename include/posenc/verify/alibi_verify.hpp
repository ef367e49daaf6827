// alibi_verify.hpp: verify ALiBi's slopes or bias table (Press et al. 2022; BLOOM's
// build_alibi_tensor, MPT, Falcon), posenc's own or someone else's, against the MPFR oracle
// (alibi_oracle.hpp) and the registry's ALiBi laws (`posenc verify alibi`; scheme_verify.hpp
// explains).
//
//   posenc::verify::alibi_verify_request q{.config = {.heads = 16}};       // the slopes
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_alibi(q, own);             // report.hpp
//
// The table is laid out as `posenc emit alibi [--bias [--symmetric]] --format bin` writes it. A
// request that cannot be carried out throws std::invalid_argument with one line naming it. Not
// constexpr; links MPFR.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "posenc/alibi.hpp"
#include "posenc/alibi/fixed_point_slopes.hpp"
#include "posenc/verify/alibi_oracle.hpp"
#include "posenc/verify/registry/alibi.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

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
  run_options run{};          // the shard, the threads, the progress (blocks.hpp)
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

// Whether a fill succeeded: a floating fill's status, or a q15/q31 fill's (its saturations are
// counted against the oracle).
inline bool sv_fill_ok(posenc::status st) noexcept { return st == posenc::status::ok; }
inline bool sv_fill_ok(const posenc::fixed_fill_status& st) noexcept { return st.ok(); }

// posenc's own table in T, laid out as the request says.
template <class T>
std::vector<T> alibi_own(const alibi_verify_request& q, const alibi::checked_config& cc) {
  const auto heads = static_cast<std::size_t>(q.config.heads);
  std::vector<T> out(heads * alibi_entries_per_head(q));
  if (!q.bias) {
    if (!sv_fill_ok(alibi::fill_slopes<T>(cc, std::span<T>(out))))
      throw std::invalid_argument("posenc cannot build the ALiBi slopes of this config");
    return out;
  }
  if constexpr (fixed_point_type<T>) {  // refused by verify_alibi before any table is built
    throw std::invalid_argument("ALiBi's biases are not offered in q15/q31");
  } else {
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
}

// The registry's view of the table verified: the slopes, or the dense heads x n x n biases (a causal
// table's masked entries filled with their mirror image, which a relative bias must equal).
template <class T>
registry::alibi_scheme::tables<T> alibi_law_tables(const alibi_verify_request& q, std::span<const T> v) {
  registry::alibi_scheme::tables<T> t;
  t.config = q.config;
  const auto heads = static_cast<std::size_t>(q.config.heads), n = q.positions;
  t.positions = q.bias ? n : 0;
  if (v.empty()) return t;  // no law runs here (laws_run_with_block_0): the config says which apply
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

// The distance |i - j| of entry m of a head's block (row order of the request's table).
inline std::uint64_t alibi_distance(const alibi_verify_request& q, std::uint64_t m) {
  std::uint64_t i = 0, j = 0;
  if (q.symmetric) {
    i = m / q.positions;
    j = m % q.positions;
  } else {
    causal_query_key(m, i, j);
  }
  return i >= j ? i - j : j - i;
}

inline std::string alibi_missing(const alibi_verify_request& q, std::string_view law) {
  const bool reads_slopes = law.find("slopes") != std::string_view::npos;
  if (reads_slopes && q.bias) return "reads the slopes (verify without --bias)";
  if (!reads_slopes && !q.bias) return "reads the bias table (verify with --bias --positions N)";
  return "";
}

}  // namespace detail::sv

inline verify_report verify_alibi(const alibi_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  for (const values_input& in : tables)
    if (q.bias && is_fixed_point(in.dtype))
      throw std::invalid_argument(
          "ALiBi's biases -m_h |i - j| are not offered in q15/q31 (they leave [-1, 1)): verify the slopes");
  const alibi::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid ALiBi config: ") + v.message);
  if (q.bias && q.positions == 0) throw std::invalid_argument("the bias table has no positions");
  const auto heads = static_cast<std::size_t>(q.config.heads);
  const std::size_t per = alibi_entries_per_head(q), n = q.positions;
  std::vector<std::string> keys{"head"};
  std::vector<std::uint64_t> shape{heads};
  if (q.bias) {
    keys = q.symmetric ? std::vector<std::string>{"head", "query", "key"}
                       : std::vector<std::string>{"head", "query i, key j <= i: i (i + 1) / 2 + j"};
    shape = q.symmetric ? std::vector<std::uint64_t>{heads, n, n} : std::vector<std::uint64_t>{heads, per};
  }
  verify_report rep = sv::indexed_report("alibi", q.description, keys, shape, heads * per, q.max_ulp);
  // The exact values of a block: the slope (the negated bias at distance 1) of a head, or the bias
  // of a head at a distance, each evaluated once per block.
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    std::map<std::pair<std::uint64_t, std::uint64_t>, sv::exact_entry> seen;  // (head, distance)
    for (std::uint64_t index = first; index < first + count; ++index) {
      const std::uint64_t h = index / per, k = q.bias ? sv::alibi_distance(q, index % per) : 1;
      auto it = seen.find({h, k});
      if (it == seen.end()) {
        const auto e = alibi::slope_exponent_of(cc, static_cast<int>(h)).value;
        auto v = alibi_bias_value(e.num, e.den, k);
        it = seen.emplace(std::pair{h, k}, sv::exact_of(v, wanted, !q.bias)).first;
      }
      out.push_back(it->second);
    }
  };
  const auto own = [&]<class T>(std::type_identity<T>) { return sv::alibi_own<T>(q, cc); };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    sv::run_laws<registry::alibi_scheme, fixed_point_type<T>>(
        sv::alibi_law_tables<T>(q, skip.empty() ? v : std::span<const T>()), dt, skip,
        [&q](std::string_view law) { return sv::alibi_missing(q, law); }, out);
  };
  sv::verify_real_tables</*FixedToo=*/true>(
      rep, tables, q.run,
      q.bias ? "a table of " + std::to_string(heads) + " heads x " + std::to_string(per) + " biases"
             : "a table of " + std::to_string(heads) + " slopes",
      exact_block, [&q](std::uint64_t i) { return sv::alibi_where(q, i); }, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
