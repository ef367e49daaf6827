// proofs/rope_table.cpp: compile-time laws of posenc/rope/table.hpp on small tables of every
// scaling variant, in double, float, bfloat16 and float16, plain and with the attention factor
// folded. Compiling this file is the proof; it stays within the default constexpr limits of GCC 12
// and Clang 16 (one constant evaluation per static_assert).
//
// Laws checked for every table:
//  1. layout: element 2j+t of the interleaved row equals element j + t D/2 of the half-split row,
//     bit for bit (HF's rotate_half layout is GPT-J's permuted: layout.hpp, pe-formulas.md 1.4).
//  2. position 0 is the identity: cos = 1 (RN_T(af) when folded), sin = +0, for every pair.
//  3. |c^2 + s^2 - a^2| <= a^2 (2u + u^2) + 2^-26 [float16 only], a = 1 or the exact af, u = 2^-p.
//     Derivation: c = cos x + dc, s = sin x + ds with |dc| <= u |cos x|, |ds| <= u |sin x| (one
//     rounding to nearest, relative error at most u = 2^-p for normal results; Higham, "Accuracy
//     and Stability of Numerical Algorithms", 2nd ed., Thm 2.2), times a when folded; then
//     c^2 + s^2 - a^2 = 2a (cos dc + sin ds) + dc^2 + ds^2, bounded by a^2 (2u + u^2). A float16
//     subnormal sin (|sin| < 2^-14, |ds| <= 2^-25) can exceed the relative bound by at most
//     2 |sin| |ds| + ds^2 < 2^-38 < 2^-26. The deviation is evaluated in double-double (TwoProd,
//     error below 2^-100), and af enters as RN_double(af) with its error 2^-53 af absorbed in a
//     (1 + 2^-40) factor.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/double_double.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"

namespace {

namespace rope = posenc::rope;
using rope::layout;
using rope::scaling;
using posenc::bfloat16;
using posenc::float16;

template <class T>
constexpr double as_double(T x) noexcept {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(x.to_float());
  }
}

template <class T>
constexpr auto bits_of(T x) noexcept {
  return posenc::detail::float_format<T>::to_bits(x);
}

template <class T>
constexpr double unit_roundoff() noexcept {
  return posenc::detail::pow2(-posenc::detail::float_format<T>::precision);
}

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// c^2 + s^2 - a2 in double-double, rounded to double (error below 2^-100 for |c|, |s| <= 2).
constexpr double norm_deviation(double c, double s, double a2) noexcept {
  const auto p = posenc::detail::dd_add(posenc::detail::two_prod(c, c), posenc::detail::two_prod(s, s));
  return (p.hi - a2) + p.lo;
}

template <class T, std::size_t N, std::size_t D>
constexpr bool check_variant(const rope::config& c, bool fold, std::uint64_t start = 0) noexcept {
  const auto h = rope::make_table<T, N, D, layout::half_split>(c, {.start = start, .fold_attention = fold});
  const auto in = rope::make_table<T, N, D, layout::interleaved>(c, {.start = start, .fold_attention = fold});
  if (!h.ok() || !in.ok()) return false;
  const double af = fold ? rope::attention_factor<double>(c).value : 1.0;
  const double u = unit_roundoff<T>();
  const double bound = af * af * (2 * u + u * u) * (1 + 0x1p-40) + (std::is_same_v<T, float16> ? 0x1p-26 : 0.0) + 0x1p-100;
  const T one = fold ? rope::attention_factor<T>(c).value : posenc::detail::round_dd<T>(1.0, 0.0);
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t j = 0; j < D / 2; ++j) {
      for (std::size_t t = 0; t < 2; ++t) {  // law 1
        const std::size_t ki = r * D + 2 * j + t, kh = r * D + j + t * (D / 2);
        if (bits_of(in.value.cos[ki]) != bits_of(h.value.cos[kh]) || bits_of(in.value.sin[ki]) != bits_of(h.value.sin[kh]))
          return false;
      }
      const auto p = h.value.pair(r, j);
      if (h.value.position[r] == 0 && (bits_of(p.cos) != bits_of(one) || bits_of(p.sin) != 0)) return false;  // law 2
      if (dabs(norm_deviation(as_double(p.cos), as_double(p.sin), af * af)) > bound) return false;         // law 3
    }
  return true;
}

// Small variants of every scaling (rotary dim 16, 8 pairs; 8 positions).
constexpr rope::config dflt{.head_dim = 16, .rope_theta = 10000.0};
constexpr rope::config linear{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 4.0};
constexpr rope::config ntk{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0};
constexpr rope::config dynamic{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::dynamic, .factor = 2.0,
                               .max_position_embeddings = 2048, .seq_len = 4096};
constexpr rope::config yarn{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::yarn, .factor = 4.0,
                            .original_max_position_embeddings = 4096};
constexpr rope::config yarn_untrunc{.head_dim = 16, .rope_theta = 150000.0, .rope_type = scaling::yarn, .factor = 32.0,
                                    .original_max_position_embeddings = 4096, .truncate = false};
constexpr rope::config yarn_mscale{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::yarn, .factor = 40.0,
                                   .original_max_position_embeddings = 4096, .mscale = 1.0, .mscale_all_dim = 0.5};
constexpr float lr_short[8] = {1.0f, 1.0f, 1.05f, 1.1f, 1.3f, 1.7f, 2.2f, 2.9f};
constexpr float lr_long[8] = {1.0f, 1.2f, 1.9f, 3.5f, 7.0f, 15.0f, 30.0f, 60.0f};
constexpr rope::config longrope{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::longrope,
                                .original_max_position_embeddings = 4096, .max_position_embeddings = 131072,
                                .seq_len = 131072, .short_factor = lr_short, .long_factor = lr_long};
constexpr rope::config llama3{.head_dim = 16, .rope_theta = 500000.0, .rope_type = scaling::llama3, .factor = 8.0,
                              .original_max_position_embeddings = 8192};
constexpr rope::config partial{.head_dim = 32, .rope_theta = 10000.0, .partial_rotary_factor = 0.5};
constexpr rope::config gptj_like{.head_dim = 64, .rope_theta = 10000.0, .rotary_dim = 16};
constexpr rope::config proportional{.head_dim = 16, .rope_theta = 10000.0, .partial_rotary_factor = 0.5,
                                    .proportional = true};

#define POSENC_PROVE(cfg)                                                                                 \
  static_assert(check_variant<float, 8, 16>(cfg, false), #cfg ": float laws");                           \
  static_assert(check_variant<float, 8, 16>(cfg, true, 1000), #cfg ": float laws, af folded, start 1000"); \
  static_assert(check_variant<bfloat16, 8, 16>(cfg, true), #cfg ": bfloat16 laws, af folded");            \
  static_assert(check_variant<float16, 8, 16>(cfg, false, 2000000), #cfg ": float16 laws near 2^21");    \
  static_assert(check_variant<double, 4, 16>(cfg, false, 77), #cfg ": double laws")

POSENC_PROVE(dflt);
POSENC_PROVE(linear);
POSENC_PROVE(ntk);
POSENC_PROVE(dynamic);
POSENC_PROVE(yarn);
POSENC_PROVE(yarn_untrunc);
POSENC_PROVE(yarn_mscale);
POSENC_PROVE(longrope);
POSENC_PROVE(llama3);
POSENC_PROVE(partial);
POSENC_PROVE(gptj_like);
POSENC_PROVE(proportional);
#undef POSENC_PROVE

// A position-list table (KV-cache slots, StreamingLLM sink + window) equals the consecutive one.
constexpr std::array<std::uint64_t, 4> slots{0, 1, 4093, 4094};
constexpr auto by_list = rope::make_table<float, 4, 16>(yarn, slots);
constexpr auto window = rope::make_table<float, 2, 16>(yarn, {.start = 4093});
static_assert(by_list.ok() && window.ok(), "list and window tables build");
static_assert(bits_of(by_list.value.cos[2 * 16 + 5]) == bits_of(window.value.cos[5]) &&
                  bits_of(by_list.value.sin[3 * 16 + 9]) == bits_of(window.value.sin[16 + 9]),
              "list rows equal the consecutive rows of the same positions");
// Errors: position past 2^21; a folded float16 table that overflows (af = 70000 > 65504).
static_assert(rope::make_table<float, 2, 16>(dflt, {.start = std::uint64_t{1} << 21}).error == posenc::status::domain_error,
              "position 2^21 + 1 is refused");
constexpr rope::config big_af{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::yarn, .factor = 4.0,
                              .original_max_position_embeddings = 4096, .attention_factor = 70000.0};
static_assert(rope::make_table<float16, 2, 16>(big_af, {.fold_attention = true}).error == posenc::status::overflow,
              "float16 table with af folded overflows");

}  // namespace

// A constinit table with static storage: no run-time initialisation, emitted into .rodata.
// (extern: external linkage, so the object is emitted even though nothing here reads it.)
extern const rope::table<float, 8, 16, layout::interleaved> posenc_proof_rope_table;
constinit const rope::table<float, 8, 16, layout::interleaved> posenc_proof_rope_table =
    rope::make_table<float, 8, 16, layout::interleaved>(llama3).value;
