// relative_index.hpp: Shaw, Uszkoreit, Vaswani, "Self-Attention with Relative Position
// Representations" (NAACL 2018): the index into the learned tables a^K, a^V of shape (2k + 1, depth)
// is the clipped relative position, clip(j - i, -k, k) + k (tensor2tensor
// common_attention._generate_relative_positions_matrix; default max_relative_position k = 20).
// Integer-valued, exact by construction.
//
//   constexpr posenc::shaw::config c{};                       // k = 20 (config.hpp)
//   static_assert(posenc::shaw::relative_index(c, 5, 3).value == 18);   // query 5, key 3
//
// The generators take a shaw::checked_config (validate.hpp), made from a config where it is
// passed: a broken precondition is a compile error naming it in constant evaluation,
// domain_error at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/shaw/config.hpp"
#include "posenc/shaw/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::shaw {

// clip(key - query, -k, k) + k. Positions are any 64-bit integers (the difference saturates).
constexpr posenc::result<int> relative_index(const checked_config& cc, std::int64_t query, std::int64_t key) noexcept {
  if (!cc.ok()) return {0, cc.check().error};
  const std::int64_t k = cc.get().max_relative_position;
  // |key - query| in unsigned arithmetic, which cannot overflow (the signed difference can).
  const auto uk = static_cast<std::uint64_t>(key), uq = static_cast<std::uint64_t>(query);
  const std::uint64_t distance = key >= query ? uk - uq : uq - uk;
  const std::int64_t clipped = distance > static_cast<std::uint64_t>(k) ? k : static_cast<std::int64_t>(distance);
  const std::int64_t d = key >= query ? clipped : -clipped;
  return {static_cast<int>(d + k), posenc::status::ok};
}

// The same from a plain config (validated here: a braced {.max_relative_position = k} binds here).
constexpr posenc::result<int> relative_index(const config& c, std::int64_t query, std::int64_t key) noexcept {
  return relative_index(checked_config{c}, query, key);
}

// out[i * keys + j] = relative_index(query i, key j) for the square (or rectangular) window
// of queries first_query .. and keys first_key ..; out.size() == queries * keys. The config is
// validated once, where cc is made.
constexpr posenc::status fill_index_table(const checked_config& cc, std::int64_t first_query, std::size_t queries,
                                          std::int64_t first_key, std::span<int> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  if (queries == 0 || out.size() % queries != 0) return posenc::status::domain_error;
  const std::size_t keys = out.size() / queries;
  for (std::size_t i = 0; i < queries; ++i)
    for (std::size_t j = 0; j < keys; ++j) {
      const auto r =
          relative_index(cc, first_query + static_cast<std::int64_t>(i), first_key + static_cast<std::int64_t>(j));
      if (!r.ok()) return r.error;
      out[i * keys + j] = r.value;
    }
  return posenc::status::ok;
}

}  // namespace posenc::shaw
