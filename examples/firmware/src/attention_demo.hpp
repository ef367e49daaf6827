// attention_demo.hpp: what the firmware computes with its tables, as plain functions of the tables
// (no I/O), so that the host's check computes the same from its own tables and compares.
//
//   rotated_scores   q rotated to position m and k to position n by posenc::rope::rotate with the
//                    table's rows, and their dot product: RoPE's score, which depends on n - m only
//                    (the rows with the same difference give the same score up to rounding).
//   alibi_logits     a causal query at position 7 against keys 0..7: q.k / 8 plus head h's bias at
//                    distance 7 - j, read from the ALiBi table.
//   q15_scores       the same rotation in q15 with the q15 table (posenc::rope::rotate_fixed: CMSIS's
//                    integer arithmetic, what a Cortex-M0 without an FPU runs) and the dot product
//                    as arm_dot_prod_q15 forms it: the exact sum of the products, a q34.30 integer.
//   checksum         FNV-1a (32 bits) over the bytes of the tables and of every result above.
//
// The arithmetic is float, evaluated in the order written (the build has -ffp-contract=off from
// posenc::posenc), so a Cortex-M4F (FPv4-SP), a Cortex-M0 (soft float) and the host give the same bits.
#pragma once

#include <posenc/math/sincos_result.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/rope/apply.hpp>
#include <posenc/rope/fixed_point_apply.hpp>
#include <posenc/status.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "model_tables.hpp"

namespace firmware {

// The inputs: exactly representable values, different for q and k.
constexpr std::array<float, head_dim> sample_q() {
  std::array<float, head_dim> q{};
  for (std::size_t i = 0; i < head_dim; ++i) q[i] = (static_cast<float>(i) - 31.5f) / 8.0f;
  return q;
}
constexpr std::array<float, head_dim> sample_k(std::size_t key = 0) {
  std::array<float, head_dim> k{};
  for (std::size_t i = 0; i < head_dim; ++i)
    k[i] = static_cast<float>(static_cast<int>((i * 7 + key * 13) % 17) - 8) / 16.0f;
  return k;
}

struct position_pair {
  std::size_t m, n;  // query at m, key at n
};
// Three pairs with n - m = -2 (equal scores up to rounding) and two others.
inline constexpr std::array<position_pair, 5> score_positions{{{3, 1}, {30, 28}, {63, 61}, {40, 8}, {0, 0}}};

struct rope_result {
  std::array<float, head_dim> q, k;  // rotated
  float score;
};

// Row r of the table as the {sin, cos} per pair that rope::rotate reads (half-split: pair j at lane j).
inline std::array<posenc::math::sincos_result<float>, rope_pairs> table_row(const rope_table_type& t, std::size_t r) {
  std::array<posenc::math::sincos_result<float>, rope_pairs> row{};
  for (std::size_t j = 0; j < rope_pairs; ++j) row[j] = t.pair(r, j);
  return row;
}

inline float dot(const float* a, const float* b, std::size_t n) {
  float s = 0.0f;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// Returns false when rotate refuses the shape (it does not: head_dim = rotary_dim = 64).
inline bool rotated_score(const rope_table_type& t, position_pair p, rope_result& out) {
  const posenc::rope::apply_shape sh{
      .heads = 1, .head_dim = head_dim, .rotary_dim = head_dim, .lay = posenc::rope::layout::half_split};
  out.q = sample_q();
  out.k = sample_k();
  const auto row_m = table_row(t, p.m);
  const auto row_n = table_row(t, p.n);
  if (posenc::rope::rotate(out.q.data(), sh, row_m.data()) != posenc::status::ok) return false;
  if (posenc::rope::rotate(out.k.data(), sh, row_n.data()) != posenc::status::ok) return false;
  out.score = dot(out.q.data(), out.k.data(), head_dim);
  return true;
}

inline constexpr std::size_t alibi_query = 7, alibi_keys = alibi_query + 1;
inline constexpr std::array<std::size_t, 3> alibi_shown_heads{0, 7, 15};

// Logits of the query at position alibi_query against keys 0..alibi_query, for head h.
inline std::array<float, alibi_keys> alibi_logits(const float* bias, std::size_t h) {
  const auto q = sample_q();
  std::array<float, alibi_keys> out{};
  for (std::size_t j = 0; j < alibi_keys; ++j) {
    const auto k = sample_k(j);
    out[j] = dot(q.data(), k.data(), head_dim) / 8.0f + bias[h * alibi_distances + (alibi_query - j)];
  }
  return out;
}

// ---- q15 ----
// Inputs in q15, each lane within 0.69 (|v| < 1 per pair: the rotation stays in q15's range).
inline std::array<posenc::q15, head_dim> sample_q15(std::size_t seed) {
  std::array<posenc::q15, head_dim> v{};
  for (std::size_t i = 0; i < head_dim; ++i)
    v[i] = posenc::q15::from_bits(static_cast<std::int16_t>(static_cast<int>((i * 2731 + seed * 977) % 45000) - 22500));
  return v;
}

struct q15_result {
  std::array<posenc::q15, head_dim> q, k;  // rotated
  std::int64_t score;                      // sum of the raw products: the score times 2^30
};

inline std::array<posenc::math::sincos_result<posenc::q15>, rope_pairs> q15_row(const rope_q15_table_type& t,
                                                                                std::size_t r) {
  std::array<posenc::math::sincos_result<posenc::q15>, rope_pairs> row{};
  for (std::size_t j = 0; j < rope_pairs; ++j) row[j] = t.pair(r, j);
  return row;
}

inline bool rotated_score_q15(const rope_q15_table_type& t, position_pair p, q15_result& out) {
  const posenc::rope::apply_shape sh{
      .heads = 1, .head_dim = head_dim, .rotary_dim = head_dim, .lay = posenc::rope::layout::half_split};
  out.q = sample_q15(1);
  out.k = sample_q15(2);
  const auto row_m = q15_row(t, p.m);
  const auto row_n = q15_row(t, p.n);
  if (posenc::rope::rotate_fixed(out.q.data(), sh, row_m.data()) != posenc::status::ok) return false;
  if (posenc::rope::rotate_fixed(out.k.data(), sh, row_n.data()) != posenc::status::ok) return false;
  out.score = 0;
  for (std::size_t i = 0; i < head_dim; ++i) out.score += std::int64_t{out.q[i].bits} * out.k[i].bits;
  return true;
}

// FNV-1a, 32 bits (Fowler, Noll, Vo): the byte order of the little-endian target and host.
struct fnv1a {
  std::uint32_t h = 2166136261u;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 16777619u;
  }
  void q15s(const posenc::q15* v, std::size_t n) {  // each raw int16, little-endian
    for (std::size_t i = 0; i < n; ++i) {
      const auto u = static_cast<std::uint16_t>(v[i].bits);
      const unsigned char b[2] = {static_cast<unsigned char>(u), static_cast<unsigned char>(u >> 8)};
      bytes(b, 2);
    }
  }
  void int64(std::int64_t x) {
    const auto u = static_cast<std::uint64_t>(x);
    for (int i = 0; i < 8; ++i) {
      const auto b = static_cast<unsigned char>(u >> (8 * i));
      bytes(&b, 1);
    }
  }
  void floats(const float* f, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t u = std::bit_cast<std::uint32_t>(f[i]);
      const unsigned char b[4] = {static_cast<unsigned char>(u), static_cast<unsigned char>(u >> 8),
                                  static_cast<unsigned char>(u >> 16), static_cast<unsigned char>(u >> 24)};
      bytes(b, 4);
    }
  }
};

// The checksum the firmware prints: the tables' bytes as stored, then every result.
struct demo_results {
  std::array<rope_result, score_positions.size()> scores{};
  std::array<std::array<float, alibi_keys>, alibi_shown_heads.size()> logits{};
  std::array<q15_result, score_positions.size()> q15_scores{};
  bool ok = true;
};

inline demo_results run_demo(const rope_table_type& rope_t, const float* bias, const rope_q15_table_type& q15_t) {
  demo_results r;
  for (std::size_t i = 0; i < score_positions.size(); ++i)
    r.ok = rotated_score(rope_t, score_positions[i], r.scores[i]) && r.ok;
  for (std::size_t i = 0; i < score_positions.size(); ++i)
    r.ok = rotated_score_q15(q15_t, score_positions[i], r.q15_scores[i]) && r.ok;
  for (std::size_t i = 0; i < alibi_shown_heads.size(); ++i) r.logits[i] = alibi_logits(bias, alibi_shown_heads[i]);
  return r;
}

inline std::uint32_t checksum(const rope_table_type& rope_t, const float* slopes, const float* bias,
                              const rope_q15_table_type& q15_t, const demo_results& r) {
  fnv1a f;
  f.bytes(&rope_t, sizeof rope_t);
  f.bytes(&q15_t, sizeof q15_t);
  f.floats(slopes, alibi_heads);
  f.floats(bias, alibi_bias_entries);
  for (const rope_result& s : r.scores) {
    f.floats(s.q.data(), head_dim);
    f.floats(s.k.data(), head_dim);
    f.floats(&s.score, 1);
  }
  for (const auto& l : r.logits) f.floats(l.data(), l.size());
  for (const q15_result& s : r.q15_scores) {
    f.q15s(s.q.data(), head_dim);
    f.q15s(s.k.data(), head_dim);
    f.int64(s.score);
  }
  return f.h;
}

}  // namespace firmware
