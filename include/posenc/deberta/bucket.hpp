// bucket.hpp: DeBERTa's log bucket of a relative position, exact, and HF's float32 evaluation as a
// named policy.
//
//   deberta::bucket(cfg, relative_position)                   exact
//   deberta::bucket(deberta::hf_float32, cfg, relative_position)  HF's float32 op order
//   deberta::fill_buckets(cfg, first, span<std::int64_t>) / make_buckets<Range>(cfg)
//
// Semantics: HF transformers models/deberta_v2/modeling_deberta_v2.py make_log_bucket_position,
// with relative_position = query - key (build_relative_position: the opposite sign to T5). With
// mid = position_buckets / 2 and M = max_relative_positions:
//   |rel| <= mid:  the bucket is rel itself;
//   otherwise:     sign(rel) (mid + ceil((mid - 1) log(|rel| / mid) / log((M - 1) / mid))).
// There is no clamp (the bucket keeps growing past M: 2999 -> 418 for 256/512); the attention
// clamps at use. Exact: the ceiling of the true value, the smallest c with
// (mid - 1) log(|rel|/mid) <= c log((M - 1)/mid), decided by math/detail/log_ratio_compare.hpp.
// At |rel| = M - 1 the term is exactly mid - 1 (the ratio of two equal logs).
// hf_float32: the same formula with HF's float32 operations in its order: RN32(|rel| / mid),
// float32 log, RN32((M - 1) / mid) taken through a Python double (double rounding), float32
// division and product, then ceil; the logs correctly rounded (math::log<float>). HF's tensors go
// through torch's log kernels, whose scalar and vector versions can differ by an ulp; where they
// do, at |rel| = M - 1 the ratio is one ulp above 1 and the bucket one above the exact one (pe-formulas.md 4.2).
// Errors: domain_error for an undecidable comparison (none met in tests/test_deberta.cpp) or a
// bucket above 2^20.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/deberta/config.hpp"
#include "posenc/deberta/validate.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/log_ratio_compare.hpp"
#include "posenc/math/exp_log.hpp"
#include "posenc/status.hpp"

namespace posenc::deberta {

// HF's float32 evaluation (a named policy, never the default).
struct hf_float32_policy {};
inline constexpr hf_float32_policy hf_float32{};

}  // namespace posenc::deberta

namespace posenc::deberta::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The smallest c >= 0 with (mid - 1) log(a/mid) <= c log(top/mid); -1 when undecided or above 2^20.
constexpr std::int64_t exact_ceiling(std::int64_t a, std::int64_t mid, std::int64_t top) noexcept {
  const double estimate = static_cast<double>(mid - 1) *
                          (dd_log(static_cast<double>(a)).hi - dd_log(static_cast<double>(mid)).hi) /
                          (dd_log(static_cast<double>(top)).hi - dd_log(static_cast<double>(mid)).hi);
  if (!(estimate < 0x1p20)) return -1;
  std::int64_t c = estimate < 0 ? 0 : static_cast<std::int64_t>(estimate);
  // holds(c): (mid - 1) log(a/mid) - c log(top/mid) <= 0
  const auto holds = [&](std::int64_t k) -> int {
    const log_order o = compare_log_ratios(mid - 1, a, mid, k, top, mid);
    return o == log_order::undecided ? -1 : (o != log_order::greater ? 1 : 0);
  };
  for (;;) {
    const int h = holds(c);
    if (h < 0) return -1;
    if (h == 0) {
      ++c;
      continue;
    }
    if (c == 0) return 0;
    const int below = holds(c - 1);
    if (below < 0) return -1;
    if (below == 0) return c;
    --c;
  }
}

}  // namespace posenc::deberta::detail

namespace posenc::deberta {

constexpr posenc::result<std::int64_t> bucket(const checked_config& cc, std::int64_t relative_position) noexcept {
  if (!cc.ok() || relative_position < -(std::int64_t{1} << 52) || relative_position > (std::int64_t{1} << 52))
    return {0, posenc::status::domain_error};
  const std::int64_t mid = cc.get().position_buckets / 2, top = cc.get().max_relative_positions - 1;
  const std::int64_t a = relative_position < 0 ? -relative_position : relative_position;
  if (a <= mid) return {relative_position, posenc::status::ok};
  const std::int64_t c = deberta::detail::exact_ceiling(a, mid, top);
  if (c < 0) return {0, posenc::status::domain_error};
  return {relative_position < 0 ? -(mid + c) : mid + c, posenc::status::ok};
}

// HF's float32 op order (see the top).
constexpr posenc::result<std::int64_t> bucket(hf_float32_policy, const checked_config& cc,
                                              std::int64_t relative_position) noexcept {
  if (!cc.ok() || relative_position < -(std::int64_t{1} << 24) || relative_position > (std::int64_t{1} << 24))
    return {0, posenc::status::domain_error};
  const std::int64_t mid = cc.get().position_buckets / 2, top = cc.get().max_relative_positions - 1;
  const std::int64_t a = relative_position < 0 ? -relative_position : relative_position;
  if (a <= mid) return {relative_position, posenc::status::ok};
  const float ratio = static_cast<float>(a) / static_cast<float>(mid);  // abs_pos / mid: float32 true division
  const float base = static_cast<float>(static_cast<double>(top) / static_cast<double>(mid));  // torch.tensor(py float)
  const float term = math::log(ratio) / math::log(base) * static_cast<float>(mid - 1);
  float c = static_cast<float>(static_cast<std::int64_t>(term));  // ceil of a positive float below 2^24
  if (c < term) c += 1.0f;
  const auto b = static_cast<std::int64_t>(c) + mid;
  return {relative_position < 0 ? -b : b, posenc::status::ok};
}

// out[i] = bucket(first + i); the first failing status, else ok.
constexpr posenc::status fill_buckets(const checked_config& cc, std::int64_t first,
                                      std::span<std::int64_t> out) noexcept {
  if (!cc.ok()) return posenc::status::domain_error;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto r = bucket(cc, first + static_cast<std::int64_t>(i));
    if (!r.ok()) return r.error;
    out[i] = r.value;
  }
  return posenc::status::ok;
}

// The buckets of relative positions -Range .. Range: element Range + r holds bucket(r).
template <std::size_t Range>
constexpr posenc::result<std::array<std::int64_t, 2 * Range + 1>> make_buckets(const checked_config& cc) noexcept {
  posenc::result<std::array<std::int64_t, 2 * Range + 1>> r{};
  r.error = fill_buckets(cc, -static_cast<std::int64_t>(Range), std::span<std::int64_t>(r.value));
  return r;
}

}  // namespace posenc::deberta
