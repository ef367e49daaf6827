// bucket.hpp: T5's relative-position bucket of every relative position, exact, at compile time
// and at run time alike.
//
//   t5::bucket(cfg, relative_position)          the bucket, relative_position = key - query
//   t5::fill_buckets(cfg, first, span<int>)      buckets of first, first + 1, ... (a table)
//   t5::make_buckets<Range>(cfg)                 std::array of the buckets of -Range .. Range
//
// Semantics: HF transformers T5Attention._relative_position_bucket (the same in mesh-tensorflow
// and torchscale). With nb the buckets of one side (num_buckets, halved when bidirectional; the
// keys after the query then use the upper half), max_exact = nb / 2, K = nb - max_exact and
// n = |relative_position| (bidirectional) or max(-relative_position, 0) (causal):
//   n < max_exact:  bucket n;
//   otherwise:      max_exact + floor(K log(n / max_exact) / log(max_distance / max_exact)),
//                   at most nb - 1.
// HF evaluates the log term in float32 and truncates; posenc takes it as the exact real, so the
// floor is that of the true value. Ties are real: with 32 buckets and 128 the term at n = 16, 32,
// 64 is exactly 2, 4, 6 (2 log2(n/8)), and a float32 log one ulp low would put n = 16 in bucket 9.
//
// Method: the bucket is the largest b in [0, K - 1] with K log(n/me) >= b log(md/me), each
// comparison decided exactly by math/detail/log_ratio_compare.hpp (double-double logs, and exact
// integers at a tie). A near tie that is not a tie and that double-double cannot separate is
// status::domain_error (never seen: the sweep in tests/test_t5.cpp meets none).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/log_ratio_compare.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/status.hpp"
#include "posenc/t5/config.hpp"
#include "posenc/t5/validate.hpp"

namespace posenc::t5::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

enum class decision : unsigned char { yes, no, undecided };

// K log(n/me) >= b log(md/me)? (math/detail/log_ratio_compare.hpp decides it exactly.)
constexpr decision at_least(std::int64_t n, std::int64_t me, std::int64_t md, std::int64_t K, std::int64_t b) noexcept {
  switch (compare_log_ratios(K, n, me, b, md, me)) {
    case log_order::greater:
    case log_order::equal: return decision::yes;
    case log_order::less: return decision::no;
    case log_order::undecided: break;
  }
  return decision::undecided;
}

}  // namespace posenc::t5::detail

namespace posenc::t5 {

// The bucket of relative_position = key - query (HF's memory_position - context_position).
constexpr posenc::result<int> bucket(const checked_config& cc, std::int64_t relative_position) noexcept {
  if (!cc.ok() || relative_position < -(std::int64_t{1} << 62) || relative_position > (std::int64_t{1} << 62))
    return {0, posenc::status::domain_error};
  using namespace t5::detail;
  const config& c = cc.get();
  const std::int64_t nb = side_buckets(c), me = max_exact(c), K = nb - me, md = c.relative_attention_max_distance;
  std::int64_t offset = 0, n = 0;
  if (c.bidirectional) {
    offset = relative_position > 0 ? nb : 0;
    n = relative_position < 0 ? -relative_position : relative_position;
  } else {
    n = relative_position < 0 ? -relative_position : 0;
  }
  if (n < me) return {static_cast<int>(offset + n), posenc::status::ok};
  if (n >= md) return {static_cast<int>(offset + nb - 1), posenc::status::ok};  // the term is >= K
  // Start from the double estimate, then step to the largest b with at_least (b = 0 always holds).
  const double estimate =
      static_cast<double>(K) *
      (posenc::detail::dd_log(static_cast<double>(n)).hi - posenc::detail::dd_log(static_cast<double>(me)).hi) /
      (posenc::detail::dd_log(static_cast<double>(md)).hi - posenc::detail::dd_log(static_cast<double>(me)).hi);
  std::int64_t b = estimate < 0                            ? 0
                   : estimate > static_cast<double>(K - 1) ? K - 1
                                                           : static_cast<std::int64_t>(estimate);
  for (;;) {
    const decision here = at_least(n, me, md, K, b);
    if (here == decision::undecided) return {0, posenc::status::domain_error};
    if (here == decision::no) {
      --b;  // b = 0 is always yes, so this stops
      continue;
    }
    if (b == K - 1) break;
    const decision next = at_least(n, me, md, K, b + 1);
    if (next == decision::undecided) return {0, posenc::status::domain_error};
    if (next == decision::no) break;
    ++b;
  }
  return {static_cast<int>(offset + me + b), posenc::status::ok};
}

}  // namespace posenc::t5

namespace posenc::t5::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

inline constexpr std::int64_t max_log_buckets = 2048;  // K = nb - nb/2 <= 4096 / 2

// thr[b] = the smallest distance n in [me, md] with K log(n/me) >= b log(md/me), b = 1 .. K-1 (the
// bucket is me + the largest b with n >= thr[b]): found once per table, so that each entry costs a
// binary search. false when a comparison is undecided.
constexpr bool log_thresholds(std::int64_t me, std::int64_t md, std::int64_t K, std::int64_t* thr) noexcept {
  thr[0] = me;
  // Start each search at the estimate me (md/me)^(b/K), rounded up (double-double, far closer than
  // one unit), then step: two or three exact comparisons per threshold instead of a bisection.
  const math::double_double span = dd_add(dd_log(static_cast<double>(md)), [](math::double_double x) {
    return math::double_double{-x.hi, -x.lo};
  }(dd_log(static_cast<double>(me))));
  for (std::int64_t b = 1; b < K; ++b) {
    const math::double_double x = dd_mul(span, static_cast<double>(b) / static_cast<double>(K));
    const double guess = static_cast<double>(me) * dd_exp(x).hi;
    std::int64_t n = static_cast<std::int64_t>(guess) + 1;
    n = n < thr[b - 1] ? thr[b - 1] : (n > md ? md : n);
    for (;;) {  // smallest n with at_least: step down while n - 1 qualifies, up while n does not
      const decision here = at_least(n, me, md, K, b);
      if (here == decision::undecided) return false;
      if (here == decision::no) {
        ++n;  // at_least holds at md (b < K), so this stops
        continue;
      }
      if (n == thr[b - 1]) break;
      const decision below = at_least(n - 1, me, md, K, b);
      if (below == decision::undecided) return false;
      if (below == decision::no) break;
      --n;
    }
    thr[b] = n;
  }
  return true;
}

}  // namespace posenc::t5::detail

namespace posenc::t5 {

// out[i] = bucket(first + i); the first failing status, else ok. The log thresholds are found once
// (t5::detail::log_thresholds), so a table costs a binary search per entry, not a log comparison.
constexpr posenc::status fill_buckets(const checked_config& cc, std::int64_t first, std::span<int> out) noexcept {
  using namespace t5::detail;
  if (!cc.ok()) return posenc::status::domain_error;
  const config& c = cc.get();
  const std::int64_t nb = side_buckets(c), me = max_exact(c), K = nb - me, md = c.relative_attention_max_distance;
  std::int64_t thr[max_log_buckets] = {};
  if (!log_thresholds(me, md, K, thr)) return posenc::status::domain_error;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t rel = first + static_cast<std::int64_t>(i);
    if (rel < -(std::int64_t{1} << 62) || rel > (std::int64_t{1} << 62)) return posenc::status::domain_error;
    std::int64_t offset = 0, n = 0;
    if (c.bidirectional) {
      offset = rel > 0 ? nb : 0;
      n = rel < 0 ? -rel : rel;
    } else {
      n = rel < 0 ? -rel : 0;
    }
    std::int64_t b = 0;
    if (n < me) {
      b = n;
    } else if (n >= md) {
      b = nb - 1;
    } else {
      std::int64_t lo = 0, hi = K - 1;  // the largest b with thr[b] <= n
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (thr[mid] <= n)
          lo = mid;
        else
          hi = mid - 1;
      }
      b = me + lo;
    }
    out[i] = static_cast<int>(offset + b);
  }
  return posenc::status::ok;
}

// The buckets of relative positions -Range .. Range: element Range + r holds bucket(r).
template <std::size_t Range>
constexpr posenc::result<std::array<int, 2 * Range + 1>> make_buckets(const checked_config& cc) noexcept {
  posenc::result<std::array<int, 2 * Range + 1>> r{};
  r.error = fill_buckets(cc, -static_cast<std::int64_t>(Range), std::span<int>(r.value));
  return r;
}

}  // namespace posenc::t5
