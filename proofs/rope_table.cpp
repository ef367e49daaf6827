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
//  4. signs by quadrant: the sign bit of sin is clear in quadrants 0 and 1 of the angle m theta_j
//     mod 2pi and set in 2 and 3; that of cos is clear in 0 and 3 and set in 1 and 2 (RN_T keeps
//     the sign, also when a value underflows to a signed zero; af > 0). The quadrant comes from a
//     reduction of its own (quadrant_of): m theta_j (from rope::frequency_dd, within 2^-53
//     theta_j) by TwoProd, minus k pi/2 with pi/2 as a double-double; for angles below 2^22 it is
//     within 2^-30 of the exact m theta_j - k pi/2, so only angles within 2^-30 of a multiple of
//     pi/2 are left undecided (and skipped).
// Laws 1-3 hold for any table whose magnitudes are right: a sin of the wrong sign, cos and sin
// exchanged, a row computed at the wrong position pass them. Law 4 and the laws after the variant
// list pin values: exact entries at known angles (MPFR), signs by quadrant of exactly known
// angles, and the attention factor folded in.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/rope/exactness.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/unit_norm.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/bits.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"

namespace {

namespace rope = posenc::rope;
using posenc::bfloat16;
using posenc::float16;
using rope::layout;
using rope::scaling;

template <class T>
constexpr double as_double(T x) noexcept {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(x.to_float());
  }
}

using posenc::to_bits;

// 2^k for a normal double exponent k, built from its bits.
constexpr double two_to(int k) noexcept {
  return posenc::float_format<double>::from_bits(static_cast<std::uint64_t>(1023 + k) << 52);
}

template <class T>
constexpr double unit_roundoff() noexcept {
  return two_to(-posenc::float_format<T>::precision);
}

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// c^2 + s^2 - a2 in double-double, rounded to double (error below 2^-100 for |c|, |s| <= 2).
constexpr double norm_deviation(double c, double s, double a2) noexcept {
  const auto p = posenc::math::dd_add(posenc::math::two_prod(c, c), posenc::math::two_prod(s, s));
  return (p.hi - a2) + p.lo;
}

// The sign bit of a table entry.
template <class T>
constexpr bool sign_bit(T x) noexcept {
  const auto b = to_bits(x);
  return (b >> (8 * sizeof(b) - 1)) != 0;
}

// Law 4's quadrant (0 .. 3) of the angle m theta_j, or -1 when undecided. theta = hi + lo is
// rope::frequency_dd's double-double (what the table itself starts from; rope_frequencies.cpp and
// the oracle tests prove it), within rel_err <= 2^-53 of theta_j (else undecided). Error: m hi
// exactly by TwoProd, m lo (<= 2^22 * 2^-52 hi) rounded by < 2^-80, so p.hi + p.lo is within
// 2^-53 * 2^22 + 2^-80 < 2^-30.9 of m theta_j below 2^22. k = trunc(p.hi / P1) >= 1 gives
// p.hi / 2 <= k P1 <= p.hi (up to the division's rounding, which moves r out of [0, P1) and so is
// caught), so p.hi - kp.hi is exact (Sterbenz); the three later operations on values below 2 and
// the product k P2 (<= 2^-31) round by < 2^-51 each; P1 + P2 misses pi/2 by < 2^-108 k < 2^-86.
// Total < 2^-30.9 + 2^-49 < 2^-30, the margin.
constexpr double pio2_p1 = 0x1.921fb54442d18p0;    // RN(pi/2)
constexpr double pio2_p2 = 0x1.1a62633145c07p-54;  // RN(pi/2 - P1) (MPFR)
constexpr int quadrant_of(std::uint64_t m, const rope::frequency_value& theta) noexcept {
  if (!theta.ok() || !(theta.rel_err <= 0x1p-53)) return -1;
  auto p = posenc::math::two_prod(static_cast<double>(m), theta.value.hi);
  p.lo += static_cast<double>(m) * theta.value.lo;
  // Angle 0 (position 0, or a non-rotating pair): sin = +0, cos = 1 (or af).
  if (p.hi == 0) return 0;
  if (!(p.hi < 0x1p22)) return -1;
  const auto k = static_cast<std::int64_t>(p.hi / pio2_p1);
  const auto kd = static_cast<double>(k);
  const auto kp = posenc::math::two_prod(kd, pio2_p1);
  const double r = (((p.hi - kp.hi) - kp.lo) - kd * pio2_p2) + p.lo;  // m theta - k pi/2
  constexpr double margin = 0x1p-30;
  if (!(r < pio2_p1 - margin) || (k > 0 && !(r > margin)) || r < 0) return -1;
  return static_cast<int>(k & 3);
}

template <class T, std::size_t N, std::size_t D>
constexpr bool check_variant(const rope::config& c, bool fold, std::uint64_t start = 0) noexcept {
  const auto h = rope::make_table<T, N, D, layout::half_split>(c, {.start = start, .fold_attention = fold});
  const auto in = rope::make_table<T, N, D, layout::interleaved>(c, {.start = start, .fold_attention = fold});
  if (!h.ok() || !in.ok()) return false;
  const double af = fold ? rope::attention_factor<double>(c).value : 1.0;
  const double u = unit_roundoff<T>();
  const double bound =
      af * af * (2 * u + u * u) * (1 + 0x1p-40) + (std::is_same_v<T, float16> ? 0x1p-26 : 0.0) + 0x1p-100;
  const T one = fold ? rope::attention_factor<T>(c).value : posenc::math::round_to<T>(1.0).value;
  rope::frequency_value theta[D / 2] = {};
  for (std::size_t j = 0; j < D / 2; ++j) theta[j] = rope::frequency_dd(c, static_cast<int>(j));
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t j = 0; j < D / 2; ++j) {
      for (std::size_t t = 0; t < 2; ++t) {  // law 1
        const std::size_t ki = r * D + 2 * j + t, kh = r * D + j + t * (D / 2);
        if (to_bits(in.value.cos[ki]) != to_bits(h.value.cos[kh]) ||
            to_bits(in.value.sin[ki]) != to_bits(h.value.sin[kh]))
          return false;
      }
      const auto p = h.value.pair(r, j);
      if (h.value.position[r] == 0 && (to_bits(p.cos) != to_bits(one) || to_bits(p.sin) != 0)) return false;  // law 2
      if (dabs(norm_deviation(as_double(p.cos), as_double(p.sin), af * af)) > bound) return false;            // law 3
      const int q = quadrant_of(h.value.position[r], theta[j]);                                               // law 4
      if (q >= 0 && (sign_bit(p.sin) != (q >= 2) || sign_bit(p.cos) != (q == 1 || q == 2))) return false;
    }
  return true;
}

// Small variants of every scaling (rotary dim 16, 8 pairs; 8 positions).
constexpr rope::config dflt{.head_dim = 16, .rope_theta = 10000.0};
constexpr rope::config linear{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 4.0};
constexpr rope::config ntk{.head_dim = 16, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0};
constexpr rope::config dynamic{.head_dim = 16,
                               .rope_theta = 10000.0,
                               .rope_type = scaling::dynamic,
                               .factor = 2.0,
                               .max_position_embeddings = 2048,
                               .seq_len = 4096};
constexpr rope::config yarn{.head_dim = 16,
                            .rope_theta = 10000.0,
                            .rope_type = scaling::yarn,
                            .factor = 4.0,
                            .original_max_position_embeddings = 4096};
constexpr rope::config yarn_untrunc{.head_dim = 16,
                                    .rope_theta = 150000.0,
                                    .rope_type = scaling::yarn,
                                    .factor = 32.0,
                                    .original_max_position_embeddings = 4096,
                                    .truncate = false};
constexpr rope::config yarn_mscale{.head_dim = 16,
                                   .rope_theta = 10000.0,
                                   .rope_type = scaling::yarn,
                                   .factor = 40.0,
                                   .original_max_position_embeddings = 4096,
                                   .mscale = 1.0,
                                   .mscale_all_dim = 0.5};
constexpr double lr_short[8] = {1.0, 1.0, 1.05, 1.1, 1.3, 1.7, 2.2, 2.9};
constexpr double lr_long[8] = {1.0, 1.2, 1.9, 3.5, 7.0, 15.0, 30.0, 60.0};
constexpr rope::config longrope{.head_dim = 16,
                                .rope_theta = 10000.0,
                                .rope_type = scaling::longrope,
                                .original_max_position_embeddings = 4096,
                                .max_position_embeddings = 131072,
                                .seq_len = 131072,
                                .short_factor = lr_short,
                                .long_factor = lr_long};
constexpr rope::config llama3{.head_dim = 16,
                              .rope_theta = 500000.0,
                              .rope_type = scaling::llama3,
                              .factor = 8.0,
                              .original_max_position_embeddings = 8192};
constexpr rope::config partial{.head_dim = 32, .rope_theta = 10000.0, .partial_rotary_factor = 0.5};
constexpr rope::config gptj_like{.head_dim = 64, .rope_theta = 10000.0, .rotary_dim = 16};
constexpr rope::config proportional{
    .head_dim = 16, .rope_theta = 10000.0, .partial_rotary_factor = 0.5, .proportional = true};

#define POSENC_PROVE(cfg)                                                                                  \
  static_assert(check_variant<float, 8, 16>(cfg, false), #cfg ": float laws");                             \
  static_assert(check_variant<float, 8, 16>(cfg, true, 1000), #cfg ": float laws, af folded, start 1000"); \
  static_assert(check_variant<bfloat16, 8, 16>(cfg, true), #cfg ": bfloat16 laws, af folded");             \
  static_assert(check_variant<float16, 8, 16>(cfg, false, 2000000), #cfg ": float16 laws near 2^21");      \
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
static_assert(to_bits(by_list.value.cos[2 * 16 + 5]) == to_bits(window.value.cos[5]) &&
                  to_bits(by_list.value.sin[3 * 16 + 9]) == to_bits(window.value.sin[16 + 9]),
              "list rows equal the consecutive rows of the same positions");
// Errors: a position past 2^21, or a folded float16 table that overflows (af = 70000 > 65504), stop
// the compiler in constant evaluation, naming the precondition (tests/compile_fail/preconditions/
// rope_table.cpp); at run time they are statuses (tests/test_rope_table.cpp).

// ===== Exact entries at known angles, bit for bit =====
//
// exact_cfg (head_dim 4, base 4, default scaling): theta_j = 4^(-2j/4), so theta_0 = 4^0 = 1 and
// theta_1 = 4^(-1/2) = 1/2, both exact (the exponent 2j/d is the rational 1/2 and 4^(1/2) = 2), and
// the angle of row m is the exact real m for pair 0 and m/2 for pair 1. So the entries are, bit for
// bit, RN_T(cos m), RN_T(sin m) and RN_T(cos(m/2)), RN_T(sin(m/2)), known in advance: want_* hold
// {RN_T(sin a), RN_T(cos a)} for a = 0, 0.5, 1, ..., 13 (index 2a), 500, 500.5, 501, 501.5 (27 ..
// 30) and 1000 .. 1003 (31 .. 34), correctly rounded values computed with MPFR 4.2.0 at 256 bits
// (mpfr_sin and mpfr_cos, then rounded to nearest even into 53, 24, 8 and 11 significant bits;
// bfloat16 and float16 as bit patterns, every float16 value normal). Rows 0 .. 12 reach all four
// quadrants (exact_quadrants below). The laws: both elements of every pair of every row, in both
// layouts; rows from start 1000; a position list (no shared anchors); the compact pair table.
template <class T>
struct sc {
  T sin, cos;
};
constexpr sc<double> want_d[35] = {
    {0x0p+0, 0x1p+0},                                // 0
    {0x1.eaee8744b05fp-2, 0x1.c1528065b7d5p-1},      // 0.5
    {0x1.aed548f090ceep-1, 0x1.14a280fb5068cp-1},    // 1
    {0x1.feb7a9b2c6d8bp-1, 0x1.21bd54fc5f9a7p-4},    // 1.5
    {0x1.d18f6ead1b446p-1, -0x1.aa22657537205p-2},   // 2
    {0x1.326af0dcfcab1p-1, -0x1.9a2f7ef858b7dp-1},   // 2.5
    {0x1.210386db6d55bp-3, -0x1.fae04be85e5d2p-1},   // 3
    {-0x1.6733b7eba621fp-2, -0x1.df77403c11a5fp-1},  // 3.5
    {-0x1.837b9dddc1eaep-1, -0x1.4eaa606db24c1p-1},  // 4
    {-0x1.f47ed3dc7408p-1, -0x1.afb5b54583d6ap-3},   // 4.5
    {-0x1.eaf81f5e09933p-1, 0x1.22785706b4ad9p-2},   // 5
    {-0x1.693c94e0ab057p-1, 0x1.6ad6c3c07d448p-1},   // 5.5
    {-0x1.1e1f18ab0a2cp-2, 0x1.eb9b7097822f5p-1},    // 6
    {0x1.b890d40c6cb3cp-3, 0x1.f4034b145c3c8p-1},    // 6.5
    {0x1.50608c26d0a08p-1, 0x1.81ff79ed92017p-1},    // 7
    {0x1.e041886fcae3p-1, 0x1.62f45e66f5c2fp-2},     // 7.5
    {0x1.fa8d2a028cf7bp-1, -0x1.29fbebf632f94p-3},   // 8
    {0x1.98d34d85fd9fcp-1, -0x1.343ae773ab08ep-1},   // 8.5
    {0x1.a6026360c2f91p-2, -0x1.d27faa6a6196bp-1},   // 9
    {-0x1.33d1a94a4277ap-4, -0x1.fe8d594eb0c48p-1},  // 9.5
    {-0x1.1689ef5f34f52p-1, -0x1.ad9ac890c6b1fp-1},  // 10
    {-0x1.c2677b8f04315p-1, -0x1.e6f3270721e39p-2},  // 10.5
    {-0x1.fffeb762e93ebp-1, 0x1.220ae41ee2fdfp-8},   // 11
    {-0x1.c03b4476ff6d2p-1, 0x1.eee77153619e3p-2},   // 11.5
    {-0x1.12b9af7d765a5p-1, 0x1.b00da046b65e3p-1},   // 12
    {-0x1.0fa78cc21cfbbp-4, 0x1.fedf6a8227774p-1},   // 12.5
    {0x1.ae4044881c506p-2, 0x1.d09cdd5260cb7p-1},    // 13
    {-0x1.deff92776755fp-2, -0x1.c487e457f68fp-1},   // 500
    {-0x1.ab2297a08be07p-1, -0x1.1a4fa75d15d08p-1},  // 500.5
    {-0x1.fe318a047645ap-1, -0x1.57c65a6f42d06p-4},  // 501
    {-0x1.d456b732f9e93p-1, 0x1.9dc6e315b356bp-2},   // 501.5
    {0x1.a75cc150a206bp-1, 0x1.1ff026793f1bbp-1},    // 1000
    {0x1.d70901f28580ep-1, -0x1.9158d4fc66255p-2},   // 1001
    {0x1.568fd73bf089bp-3, -0x1.f8c96b7fe75bap-1},   // 1002
    {-0x1.7a7de007c3208p-1, -0x1.58cd2b31fb165p-1},  // 1003
};
constexpr sc<float> want_f[35] = {
    {0x0p+0f, 0x1p+0f},                  // 0
    {0x1.eaee88p-2f, 0x1.c1528p-1f},     // 0.5
    {0x1.aed548p-1f, 0x1.14a28p-1f},     // 1
    {0x1.feb7aap-1f, 0x1.21bd54p-4f},    // 1.5
    {0x1.d18f6ep-1f, -0x1.aa2266p-2f},   // 2
    {0x1.326afp-1f, -0x1.9a2f7ep-1f},    // 2.5
    {0x1.210386p-3f, -0x1.fae04cp-1f},   // 3
    {-0x1.6733b8p-2f, -0x1.df774p-1f},   // 3.5
    {-0x1.837b9ep-1f, -0x1.4eaa6p-1f},   // 4
    {-0x1.f47ed4p-1f, -0x1.afb5b6p-3f},  // 4.5
    {-0x1.eaf82p-1f, 0x1.227858p-2f},    // 5
    {-0x1.693c94p-1f, 0x1.6ad6c4p-1f},   // 5.5
    {-0x1.1e1f18p-2f, 0x1.eb9b7p-1f},    // 6
    {0x1.b890d4p-3f, 0x1.f4034cp-1f},    // 6.5
    {0x1.50608cp-1f, 0x1.81ff7ap-1f},    // 7
    {0x1.e04188p-1f, 0x1.62f45ep-2f},    // 7.5
    {0x1.fa8d2ap-1f, -0x1.29fbecp-3f},   // 8
    {0x1.98d34ep-1f, -0x1.343ae8p-1f},   // 8.5
    {0x1.a60264p-2f, -0x1.d27faap-1f},   // 9
    {-0x1.33d1aap-4f, -0x1.fe8d5ap-1f},  // 9.5
    {-0x1.1689fp-1f, -0x1.ad9ac8p-1f},   // 10
    {-0x1.c2677cp-1f, -0x1.e6f328p-2f},  // 10.5
    {-0x1.fffeb8p-1f, 0x1.220ae4p-8f},   // 11
    {-0x1.c03b44p-1f, 0x1.eee772p-2f},   // 11.5
    {-0x1.12b9bp-1f, 0x1.b00dap-1f},     // 12
    {-0x1.0fa78cp-4f, 0x1.fedf6ap-1f},   // 12.5
    {0x1.ae4044p-2f, 0x1.d09cdep-1f},    // 13
    {-0x1.deff92p-2f, -0x1.c487e4p-1f},  // 500
    {-0x1.ab2298p-1f, -0x1.1a4fa8p-1f},  // 500.5
    {-0x1.fe318ap-1f, -0x1.57c65ap-4f},  // 501
    {-0x1.d456b8p-1f, 0x1.9dc6e4p-2f},   // 501.5
    {0x1.a75cc2p-1f, 0x1.1ff026p-1f},    // 1000
    {0x1.d70902p-1f, -0x1.9158d4p-2f},   // 1001
    {0x1.568fd8p-3f, -0x1.f8c96cp-1f},   // 1002
    {-0x1.7a7dep-1f, -0x1.58cd2cp-1f},   // 1003
};
// bfloat16 and float16 bit patterns.
constexpr sc<std::uint16_t> want_bf[35] = {
    {0x0000, 0x3f80},  // 0
    {0x3ef5, 0x3f61},  // 0.5
    {0x3f57, 0x3f0a},  // 1
    {0x3f7f, 0x3d91},  // 1.5
    {0x3f69, 0xbed5},  // 2
    {0x3f19, 0xbf4d},  // 2.5
    {0x3e11, 0xbf7d},  // 3
    {0xbeb4, 0xbf70},  // 3.5
    {0xbf42, 0xbf27},  // 4
    {0xbf7a, 0xbe58},  // 4.5
    {0xbf75, 0x3e91},  // 5
    {0xbf35, 0x3f35},  // 5.5
    {0xbe8f, 0x3f76},  // 6
    {0x3e5c, 0x3f7a},  // 6.5
    {0x3f28, 0x3f41},  // 7
    {0x3f70, 0x3eb1},  // 7.5
    {0x3f7d, 0xbe15},  // 8
    {0x3f4c, 0xbf1a},  // 8.5
    {0x3ed3, 0xbf69},  // 9
    {0xbd9a, 0xbf7f},  // 9.5
    {0xbf0b, 0xbf57},  // 10
    {0xbf61, 0xbef3},  // 10.5
    {0xbf80, 0x3b91},  // 11
    {0xbf60, 0x3ef7},  // 11.5
    {0xbf09, 0x3f58},  // 12
    {0xbd88, 0x3f7f},  // 12.5
    {0x3ed7, 0x3f68},  // 13
    {0xbeef, 0xbf62},  // 500
    {0xbf56, 0xbf0d},  // 500.5
    {0xbf7f, 0xbdac},  // 501
    {0xbf6a, 0x3ecf},  // 501.5
    {0x3f54, 0x3f10},  // 1000
    {0x3f6c, 0xbec9},  // 1001
    {0x3e2b, 0xbf7c},  // 1002
    {0xbf3d, 0xbf2c},  // 1003
};
constexpr sc<std::uint16_t> want_h[35] = {
    {0x0000, 0x3c00},  // 0
    {0x37ac, 0x3b05},  // 0.5
    {0x3abb, 0x3853},  // 1
    {0x3bfb, 0x2c87},  // 1.5
    {0x3b46, 0xb6a9},  // 2
    {0x38ca, 0xba69},  // 2.5
    {0x3084, 0xbbec},  // 3
    {0xb59d, 0xbb7e},  // 3.5
    {0xba0e, 0xb93b},  // 4
    {0xbbd2, 0xb2bf},  // 4.5
    {0xbbac, 0x348a},  // 5
    {0xb9a5, 0x39ab},  // 5.5
    {0xb478, 0x3bae},  // 6
    {0x32e2, 0x3bd0},  // 6.5
    {0x3942, 0x3a08},  // 7
    {0x3b81, 0x358c},  // 7.5
    {0x3bea, 0xb0a8},  // 8
    {0x3a63, 0xb8d1},  // 8.5
    {0x3698, 0xbb4a},  // 9
    {0xaccf, 0xbbfa},  // 9.5
    {0xb85a, 0xbab6},  // 10
    {0xbb0a, 0xb79c},  // 10.5
    {0xbc00, 0x1c88},  // 11
    {0xbb01, 0x37bc},  // 11.5
    {0xb84b, 0x3ac0},  // 12
    {0xac3f, 0x3bfb},  // 12.5
    {0x36b9, 0x3b42},  // 13
    {0xb77c, 0xbb12},  // 500
    {0xbaad, 0xb869},  // 500.5
    {0xbbf9, 0xad5f},  // 501
    {0xbb51, 0x3677},  // 501.5
    {0x3a9d, 0x3880},  // 1000
    {0x3b5c, 0xb645},  // 1001
    {0x315a, 0xbbe3},  // 1002
    {0xb9ea, 0xb963},  // 1003
};

// The expected {sin, cos} bits of T at angle index i.
template <class T>
constexpr auto want(std::size_t i) noexcept {
  using S = typename posenc::float_format<T>::storage;
  if constexpr (std::is_same_v<T, double>) {
    return sc<S>{to_bits(want_d[i].sin), to_bits(want_d[i].cos)};
  } else if constexpr (std::is_same_v<T, float>) {
    return sc<S>{to_bits(want_f[i].sin), to_bits(want_f[i].cos)};
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return want_bf[i];
  } else {
    return want_h[i];
  }
}

// Both elements of pair j in row r of t hold RN_T(cos), RN_T(sin) of the angle of index i.
template <class Table>
constexpr bool entry_is(const Table& t, std::size_t r, std::size_t j, std::size_t i) noexcept {
  const auto w = want<typename Table::value_type>(i);
  for (int e = 0; e < 2; ++e) {
    const std::size_t k = r * Table::rotary_dim + rope::pair_index(Table::layout_kind, j, e, Table::rotary_dim);
    if (to_bits(t.cos[k]) != w.cos || to_bits(t.sin[k]) != w.sin) return false;
  }
  return true;
}

constexpr rope::config exact_cfg{.head_dim = 4, .rope_theta = 4.0};
static_assert(rope::inv_freq<double>(exact_cfg, 0).value == 1.0 && rope::inv_freq<double>(exact_cfg, 1).value == 0.5,
              "base 4, d 4: theta_0 = 1, theta_1 = 1/2");

// Rows 0 .. 12: pair 0 at angle m (index 2m), pair 1 at m/2 (index m).
template <class T, layout L>
constexpr bool exact_rows() noexcept {
  const auto t = rope::make_table<T, 13, 4, L>(exact_cfg);
  if (!t.ok()) return false;
  for (std::size_t m = 0; m < 13; ++m)
    if (t.value.position[m] != m || !entry_is(t.value, m, 0, 2 * m) || !entry_is(t.value, m, 1, m)) return false;
  return true;
}
// Rows 1000 .. 1003 (start 1000): pair 0 at 1000 + i (index 31 + i), pair 1 at 500 + i/2 (27 + i).
template <class T, layout L>
constexpr bool exact_rows_from_1000() noexcept {
  const auto t = rope::make_table<T, 4, 4, L>(exact_cfg, {.start = 1000});
  if (!t.ok()) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (t.value.position[i] != 1000 + i || !entry_is(t.value, i, 0, 31 + i) || !entry_is(t.value, i, 1, 27 + i))
      return false;
  return true;
}
// Rows for the position list {12, 0, 1001, 7, 1003}: pair 0 at those angles, pair 1 at their
// halves.
constexpr std::array<std::uint64_t, 5> exact_list{12, 0, 1001, 7, 1003};
constexpr std::size_t exact_list_i0[5] = {24, 0, 32, 14, 34}, exact_list_i1[5] = {12, 0, 28, 7, 30};
template <class T, layout L>
constexpr bool exact_list_rows() noexcept {
  const auto t = rope::make_table<T, 5, 4, L>(exact_cfg, exact_list);
  if (!t.ok()) return false;
  for (std::size_t i = 0; i < 5; ++i)
    if (t.value.position[i] != exact_list[i] || !entry_is(t.value, i, 0, exact_list_i0[i]) ||
        !entry_is(t.value, i, 1, exact_list_i1[i]))
      return false;
  return true;
}
// The compact pair table of rows 0 .. 12: data[m * 2 + j] = {sin, cos}.
template <class T>
constexpr bool exact_pair_rows() noexcept {
  const auto t = rope::make_pair_table<T, 13, 2>(exact_cfg);
  if (!t.ok()) return false;
  for (std::size_t m = 0; m < 13; ++m)
    for (std::size_t j = 0; j < 2; ++j) {
      const auto w = want<T>(j == 0 ? 2 * m : m);
      const auto e = t.value.data[m * 2 + j];
      if (t.value.position[m] != m || to_bits(e.sin) != w.sin || to_bits(e.cos) != w.cos) return false;
    }
  return true;
}

#define POSENC_PROVE_EXACT(T)                                                                                    \
  static_assert(exact_rows<T, layout::half_split>() && exact_rows<T, layout::interleaved>(), #T                  \
                ": rows 0..12 of base 4, d 4 hold RN(cos m), RN(sin m) (pair 0) and RN(cos m/2), "               \
                "RN(sin m/2) (pair 1), MPFR's values, both elements of each pair, both layouts");                \
  static_assert(exact_rows_from_1000<T, layout::half_split>() && exact_rows_from_1000<T, layout::interleaved>(), \
                #T ": rows 1000..1003 (start 1000) hold RN(cos, sin) of 1000..1003 and of 500..501.5");          \
  static_assert(exact_list_rows<T, layout::half_split>() && exact_list_rows<T, layout::interleaved>(), #T        \
                ": the rows of the position list {12, 0, 1001, 7, 1003} hold RN(cos, sin) of those "             \
                "positions and of their halves");                                                                \
  static_assert(exact_pair_rows<T>(), #T                                                                         \
                ": the compact pair table of rows 0..12 holds {RN(sin), RN(cos)} of m and "                      \
                "m/2")

POSENC_PROVE_EXACT(double);
POSENC_PROVE_EXACT(float);
POSENC_PROVE_EXACT(bfloat16);
POSENC_PROVE_EXACT(float16);
#undef POSENC_PROVE_EXACT

// ===== Signs by quadrant of exactly known angles =====
//
// The angles of rows 0 .. 12 of exact_cfg are a = m (pair 0) and m/2 (pair 1), m = 0 .. 12. Their
// quadrants follow from 3.14159 < pi < 3.1416 alone: the multiples j pi/2 lie in [1.570795 j,
// 1.5708 j] (e.g. 7 pi/2 in [10.9955, 10.9956]), and no a is within 0.004 of one (the closest:
// 11 - 7 pi/2 > 0.0044, then 1.5708 - 1.5 > 0.07), so angle_quadrant decides every a: 0, 0.5, 1,
// 1.5, 7 in quadrant 0; 2, 2.5, 3, 8, 9 in 1; 3.5, 4, 4.5, 10 in 2; 5, 5.5, 6, 11, 12 in 3. Law: in
// every type, both layouts, every element of those rows has the sign of its angle's quadrant (as
// law 4); this needs no MPFR value.
constexpr int angle_quadrant(double a) noexcept {
  if (a == 0) return 0;
  int below = 0;  // multiples j pi/2, j >= 1, certainly below a
  for (int j = 1; j <= 9; ++j) {
    const double lo = 1.570795 * j, hi = 1.5708 * j;  // lo < j pi/2 < hi
    if (hi < a) {
      ++below;
    } else if (!(a < lo)) {
      return -1;
    }
  }
  return below % 4;
}
constexpr bool exact_quadrants() noexcept {
  bool seen[4] = {};
  for (int m = 0; m <= 12; ++m) {
    const int q0 = angle_quadrant(m), q1 = angle_quadrant(m * 0.5);
    if (q0 < 0 || q1 < 0) return false;
    seen[q0] = seen[q1] = true;
  }
  return seen[0] && seen[1] && seen[2] && seen[3];
}
static_assert(exact_quadrants(),
              "the angles m, m/2 (m = 0..12) are placed in quadrants by 3.14159 < pi < 3.1416, "
              "and reach all four");
template <class T, layout L>
constexpr bool exact_signs() noexcept {
  const auto t = rope::make_table<T, 13, 4, L>(exact_cfg);
  if (!t.ok()) return false;
  for (std::size_t m = 0; m < 13; ++m)
    for (std::size_t j = 0; j < 2; ++j) {
      const int q = angle_quadrant(static_cast<double>(m) / (j == 0 ? 1.0 : 2.0));
      for (int e = 0; e < 2; ++e) {
        const std::size_t k = m * 4 + rope::pair_index(L, j, e, 4);
        if (q < 0 || sign_bit(t.value.sin[k]) != (q >= 2) || sign_bit(t.value.cos[k]) != (q == 1 || q == 2))
          return false;
      }
    }
  return true;
}
static_assert(exact_signs<double, layout::half_split>() && exact_signs<double, layout::interleaved>(),
              "double: sin >= 0 in quadrants 0, 1 and <= 0 in 2, 3, cos >= 0 in 0, 3 and <= 0 in 1, 2, "
              "for every entry of rows 0..12 (angles m, m/2)");
static_assert(exact_signs<float, layout::half_split>() && exact_signs<float, layout::interleaved>(),
              "float: the signs of every entry of rows 0..12 are those of its angle's quadrant");
static_assert(exact_signs<bfloat16, layout::half_split>() && exact_signs<bfloat16, layout::interleaved>(),
              "bfloat16: the signs of every entry of rows 0..12 are those of its angle's quadrant");
static_assert(exact_signs<float16, layout::half_split>() && exact_signs<float16, layout::interleaved>(),
              "float16: the signs of every entry of rows 0..12 are those of its angle's quadrant");

// ===== The attention factor folded in =====
//
// af = 2^s exactly (an explicit YaRN attention_factor of 2 or 1/2): a folded entry is RN_T(2^s y),
// y = cos or sin of the angle, and 2^s y is the exact product. Multiplying by 2^s maps T's numbers
// and the midpoints between them onto T's numbers and midpoints (the significands stay, the
// exponents shift) while neither side leaves T's normal range, so ties stay ties and
// RN_T(2^s y) = 2^s RN_T(y): each folded entry is exactly 2^s times the unfolded one, bit for bit
// (+0 stays +0). Checked for every entry whose unfolded value is 0 or at least 2^(emin_T + 2) in
// magnitude (all of them in double, float and bfloat16; float16 skips values below 2^-12). With
// af = 1 (default scaling: attention_factor 1) the folded table is the unfolded one. Rows 0..7
// (pair 0 has theta_0 ~ 1 (YaRN leaves the fastest pair alone): angles 0..7 in all four
// quadrants) and rows 2000000..2000003 (near 2^21).

// f == s * u bit for bit, for every entry where RN_T commutes with s (above).
template <class Table>
constexpr bool scaled_by(const Table& f, const Table& u, double s) noexcept {
  using T = typename Table::value_type;
  const double small = two_to(posenc::float_format<T>::min_exponent + 2);
  for (std::size_t k = 0; k < f.cos.size(); ++k) {
    const double uc = as_double(u.cos[k]), us = as_double(u.sin[k]);
    const double fc = as_double(f.cos[k]), fs = as_double(f.sin[k]);
    if ((uc == 0 || dabs(uc) >= small) && std::bit_cast<std::uint64_t>(fc) != std::bit_cast<std::uint64_t>(s * uc))
      return false;
    if ((us == 0 || dabs(us) >= small) && std::bit_cast<std::uint64_t>(fs) != std::bit_cast<std::uint64_t>(s * us))
      return false;
  }
  return true;
}
constexpr rope::config yarn_af2{.head_dim = 16,
                                .rope_theta = 10000.0,
                                .rope_type = scaling::yarn,
                                .factor = 4.0,
                                .original_max_position_embeddings = 4096,
                                .attention_factor = 2.0};
constexpr rope::config yarn_af_half{.head_dim = 16,
                                    .rope_theta = 10000.0,
                                    .rope_type = scaling::yarn,
                                    .factor = 4.0,
                                    .original_max_position_embeddings = 4096,
                                    .attention_factor = 0.5};
static_assert(rope::attention_factor<double>(yarn_af2).value == 2.0 &&
                  rope::attention_factor<double>(yarn_af_half).value == 0.5 &&
                  rope::attention_factor<double>(dflt).value == 1.0,
              "explicit YaRN attention factors 2 and 1/2; the default scaling's is 1");
// The af only scales the entries: yarn_af2 and yarn_af_half share one unfolded table.
template <class T, std::size_t N, std::size_t D>
constexpr bool folded_powers_of_two(std::uint64_t start) noexcept {
  const auto u = rope::make_table<T, N, D>(yarn_af2, {.start = start});
  const auto f2 = rope::make_table<T, N, D>(yarn_af2, {.start = start, .fold_attention = true});
  const auto fh = rope::make_table<T, N, D>(yarn_af_half, {.start = start, .fold_attention = true});
  return u.ok() && f2.ok() && fh.ok() && scaled_by(f2.value, u.value, 2.0) && scaled_by(fh.value, u.value, 0.5);
}
template <class T, std::size_t N, std::size_t D>
constexpr bool folded_one(const rope::config& c) noexcept {
  const auto u = rope::make_table<T, N, D>(c);
  const auto f = rope::make_table<T, N, D>(c, {.fold_attention = true});
  return u.ok() && f.ok() && scaled_by(f.value, u.value, 1.0);
}

#define POSENC_PROVE_FOLD(T)                                                                         \
  static_assert(folded_powers_of_two<T, 8, 16>(0) && folded_powers_of_two<T, 4, 16>(2000000), #T     \
                ": with af = 2 (1/2) folded, every entry is exactly 2 (1/2) times the unfolded one " \
                "(rows 0..7, 2000000..2000003)");                                                    \
  static_assert(folded_one<T, 8, 16>(dflt), #T ": with af = 1 folded, the table is the unfolded one")

POSENC_PROVE_FOLD(double);
POSENC_PROVE_FOLD(float);
POSENC_PROVE_FOLD(bfloat16);
POSENC_PROVE_FOLD(float16);
#undef POSENC_PROVE_FOLD

// The compact table (one cos, sin per pair: `posenc emit rope --layout pairs`, half the bytes of
// the tables above) obeys the same laws, read in the element order it is applied in
// (laws/rotary/pair_table_view.hpp): every value of it is compared with the exact table.
constexpr auto compact = rope::make_pair_table<bfloat16, 8, 8>(llama3, {.start = 4090});
static_assert(compact.ok(), "the compact bfloat16 Llama-3 table builds");
static_assert(2 * sizeof(compact.value.data) ==
                  sizeof(rope::table<bfloat16, 8, 16>::cos) + sizeof(rope::table<bfloat16, 8, 16>::sin),
              "its values take half the bytes of the expanded table's cos and sin arrays");
static_assert(
    posenc::laws::exactness(posenc::laws::expanded(posenc::laws::pair_view(compact.value), layout::half_split), llama3)
            .holds &&
        posenc::laws::unit_norm(posenc::laws::expanded(posenc::laws::pair_view(compact.value), layout::interleaved))
            .holds,
    "compact bfloat16 Llama-3 table from 4090: exact in either order, unit norm");

}  // namespace

// A constinit table with static storage: no run-time initialisation, emitted into .rodata.
// (extern: external linkage, so the object is emitted even though nothing here reads it.)
extern const rope::table<float, 8, 16, layout::interleaved> posenc_proof_rope_table;
constinit const rope::table<float, 8, 16, layout::interleaved> posenc_proof_rope_table =
    rope::make_table<float, 8, 16, layout::interleaved>(llama3).value;
