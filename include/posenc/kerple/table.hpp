// table.hpp: KERPLE's dense bias tables, one head's queries x keys block of RN_T(bias(|i - j|)):
//
//   kerple::fill_log_bias_table<T>(cfg, queries, keys, span[, first_query, first_key])
//   kerple::fill_power_bias_table<T>(cfg, queries, keys, span[, first_query, first_key])
//
// Element (i, j) at i keys + j holds log_bias / power_bias (bias.hpp) at the distance
// |(first_query + i) - (first_key + j)|; out.size() == queries * keys. The reference code
// (chijames/KERPLE ParallelKerpleLog.forward) evaluates -p log(1 + a diff) on every element of the
// (causal) matrix; here each distinct distance is evaluated once, correctly rounded, and the rest
// of the block is copies of it (detail/distance_table.hpp), so an element costs a copied T. The
// bias is even in m - n, so the block is the symmetric (encoder) form; a causal kernel masks the
// upper triangle. domain_error for a size mismatch, positions above 2^52, or a distance that
// bias.hpp refuses (log: a k >= 2^84; power: k >= 2^26); the first error is returned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/detail/distance_table.hpp"
#include "posenc/kerple/bias.hpp"
#include "posenc/status.hpp"

namespace posenc::kerple::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

constexpr bool table_shape_ok(std::size_t queries, std::size_t keys, std::size_t size, std::uint64_t first_query,
                              std::uint64_t first_key) noexcept {
  constexpr std::uint64_t limit = std::uint64_t{1} << 52;
  return queries <= limit && keys <= limit && first_query <= limit - queries && first_key <= limit - keys &&
         (queries == 0 || keys <= size / queries) && size == queries * keys;
}

}  // namespace posenc::kerple::detail

namespace posenc::kerple {

template <class T = double>
constexpr posenc::status fill_log_bias_table(const log_checked_config& cc, std::size_t queries, std::size_t keys,
                                             std::span<T> out, std::uint64_t first_query = 0,
                                             std::uint64_t first_key = 0) noexcept {
  if (!cc.ok()) return cc.check().error;
  if (!kerple::detail::table_shape_ok(queries, keys, out.size(), first_query, first_key))
    return posenc::status::domain_error;
  return posenc::detail::fill_distance_block(posenc::detail::distance_block{queries, keys, first_query, first_key},
                                             out.data(), [&cc](std::uint64_t k) { return log_bias<T>(cc, k); });
}

template <class T = double>
constexpr posenc::status fill_power_bias_table(const power_checked_config& cc, std::size_t queries, std::size_t keys,
                                               std::span<T> out, std::uint64_t first_query = 0,
                                               std::uint64_t first_key = 0) noexcept {
  if (!cc.ok()) return cc.check().error;
  if (!kerple::detail::table_shape_ok(queries, keys, out.size(), first_query, first_key))
    return posenc::status::domain_error;
  return posenc::detail::fill_distance_block(posenc::detail::distance_block{queries, keys, first_query, first_key},
                                             out.data(), [&cc](std::uint64_t k) { return power_bias<T>(cc, k); });
}

}  // namespace posenc::kerple
