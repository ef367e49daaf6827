// table.hpp: Sandwich's dense bias table, every head's queries x keys block:
//
//   sandwich::fill_bias_table<T>(cfg, queries, keys, span[, first_query, first_key])
//
// Element (h, i, j) at (h queries + i) keys + j holds bias<T>(cfg, h, (first_query + i) -
// (first_key + j)) (bias.hpp), h < heads; out.size() == heads * queries * keys. This is the
// (1, H, q, k) tensor of NeMo's SandwichRelativePositionEmbedding.forward, bidirectional form
// (the bias is even in the distance; a causal kernel masks the upper triangle).
// Why it is cheap: NeMo evaluates d/2 cosines for every element. Here the sum of d/2 terms, which
// does not depend on the head, is formed once per distinct distance (at most queries + keys - 1
// of them, with the d/2 frequencies formed once) and rounded once per head (bias.hpp head_value, the same function bias uses, so the
// same bits); every other element of a head's block is a copy (detail/distance_table.hpp).
// domain_error for a size mismatch or positions above 2^52; overflow when a value does not fit T
// (float16 with d H above 2^19: |bias| reaches d H / 8).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/detail/distance_table.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/sandwich/bias.hpp"
#include "posenc/status.hpp"

namespace posenc::sandwich {

template <class T = double>
constexpr posenc::status fill_bias_table(const checked_config& cc, std::size_t queries, std::size_t keys,
                                         std::span<T> out, std::uint64_t first_query = 0,
                                         std::uint64_t first_key = 0) noexcept {
  if (!cc.ok()) return cc.check().error;
  constexpr std::uint64_t limit = std::uint64_t{1} << 52;
  const config& c = cc.get();
  const auto heads = static_cast<std::size_t>(c.heads);
  if (queries > limit || keys > limit || first_query > limit - queries || first_key > limit - keys ||
      (queries != 0 && keys > out.size() / queries) || out.size() / heads < queries * keys ||
      out.size() != heads * queries * keys)
    return posenc::status::domain_error;
  const posenc::detail::distance_block b{queries, keys, first_query, first_key};
  const std::size_t block = queries * keys;
  // Edges in chunks: the sums of a chunk's distances, then every head's rounding of them.
  constexpr std::size_t chunk = 32;
  sandwich::detail::half_angle_sum sums[chunk] = {};
  // theta_i / 2, i = 1 .. d/2, formed once for every distance (bias forms them per call).
  math::double_double halves[max_dim / 2 + 1] = {};
  for (int i = 1; i <= c.dim / 2; ++i) halves[i] = sandwich::detail::half_theta(c.dim, i);
  auto half_of = [&halves](int i) { return halves[i]; };
  for (std::size_t e0 = 0; e0 < b.edges(); e0 += chunk) {
    const std::size_t n = std::min(chunk, b.edges() - e0);
    for (std::size_t t = 0; t < n; ++t) {
      const std::uint64_t k = b.distance(e0 + t);
      sums[t] = k == 0 ? sandwich::detail::half_angle_sum{} : sandwich::detail::sum_fast(c.dim, k, half_of);
    }
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t t = 0; t < n; ++t) {
        const T v = sandwich::detail::head_value<T>(c, static_cast<int>(h), b.distance(e0 + t), sums[t]);
        if (!posenc::detail::rounded_result(v).ok()) return posenc::status::overflow;  // as bias() says
        out[h * block + b.offset(e0 + t)] = v;
      }
  }
  for (std::size_t h = 0; h < heads; ++h) b.complete(out.data() + h * block);
  return posenc::status::ok;
}

}  // namespace posenc::sandwich
