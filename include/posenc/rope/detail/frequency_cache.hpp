// frequency_cache.hpp: a RoPE config's rotating frequencies evaluated once, for callers that fill
// several row ranges of one config (M-RoPE's text runs and vision blocks, Leaky ReRoPE's plain and
// k-scaled tables). A double-double frequency with its bound costs a few hundred ns
// (rope::frequency_dd: 264 ns a pair for Llama-3's base 500000), which is most of a 64-pair fill's
// fixed set-up (about 21 us at run time); a second fill of the same config then costs only its rows.
// The entries' bits never depend on the cache: a frequency and its bound decide only which path an
// entry takes (math/sincos_source.hpp), so any theta_j within its stated rel_err gives the same table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

struct frequency_cache {
  // 256 pairs: head_dim 512, twice the widest shipped model's; a wider config is not cached (its
  // fills evaluate their own frequencies, as without a cache). 8 KiB.
  static constexpr std::size_t capacity = 256;
  math::frequency_value f[capacity] = {};
  int count = 0;  // f[j], j < count, when filled
  bool filled = false;
  // What rope_source reads: the frequencies, or nullptr (uncached: each fill evaluates its own).
  constexpr const math::frequency_value* get() const noexcept { return filled ? f : nullptr; }
};

// The rotating frequencies of c (rope::frequency_dd), when they fit; an error status of a frequency
// leaves the cache unfilled, so the fills evaluate it again and report it where they always did.
constexpr frequency_cache cache_frequencies(const rope::config& c) noexcept {
  frequency_cache out{};
  const std::int64_t rotating = rotating_pairs(c);
  if (rotating <= 0 || rotating > static_cast<std::int64_t>(frequency_cache::capacity)) return out;
  out.count = static_cast<int>(rotating);  // <= capacity
  for (int j = 0; j < out.count; ++j) {
    out.f[j] = rope::frequency_dd(c, j);
    if (!out.f[j].ok()) return frequency_cache{};
  }
  out.filled = true;
  return out;
}

// theta_j / k from a cache of theta_j: the frequencies of the same config with its positions
// divided by k (a linear factor times k; Leaky ReRoPE's scaled table). dd_div errs by less than
// 2^-104.1 relative (Joldes et al. 2017, DWDivFP3), so a value within rel_err of theta_j divides to
// within rel_err + 2^-104.1 (1 + rel_err) of theta_j / k; the stated bound, rel_err (1 + 2^-50) +
// 2^-104, covers that and its own two roundings.
constexpr frequency_cache divided_frequencies(const frequency_cache& c, std::uint64_t k) noexcept {
  frequency_cache out{};
  if (!c.filled || k == 0 || k > (std::uint64_t{1} << 53)) return out;
  const auto kd = static_cast<double>(k);  // exact: k <= 2^53
  for (int j = 0; j < c.count; ++j)
    out.f[j] = {posenc::detail::dd_div(c.f[j].value, kd), c.f[j].rel_err * (1 + 0x1p-50) + 0x1p-104,
                posenc::status::ok};
  out.count = c.count;
  out.filled = true;
  return out;
}

}  // namespace posenc::rope::detail
