// sinusoidal.cpp: the sinusoidal encoding's laws, proved by compiling (static_assert walls);
// docs/laws.md section 6 derives the bounds.
//  1. exact known values: row 0 is (sin 0, cos 0) = (+0, 1) in every pair; frequency 0 is 1 in both
//     exponents (base^0), so PE[p][0] = RN(sin p) and the cos next to it RN(cos p): the values below
//     are MPFR's at 256 bits, rounded once (hex literals);
//  2. a shift is the rotation given by the row at the shift (laws::sinusoid_shift), and the dot of
//     two rows depends on their distance alone, evenly (laws::sinusoid_relative_dot), in double,
//     float, bfloat16 and float16, both layouts, both exponents, odd d, negative positions;
//  3. sin is odd and cos even: the row at -p is the row at p with its sines negated, bit for bit.
#include <cstdint>

#include <posenc/laws.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/sinusoidal.hpp>

namespace {

namespace sn = posenc::sinusoidal;
namespace laws = posenc::laws;

constexpr sn::config paper{.dim = 16};
constexpr sn::config fairseq{.dim = 16, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};

// 1. Exact values.
constexpr auto pd = sn::make_table<double, 4, 16>(paper).value;
static_assert(pd[0] == 0.0 && pd[1] == 1.0 && pd[14] == 0.0 && pd[15] == 1.0, "row 0: sin 0 = 0, cos 0 = 1");
static_assert(pd[16] == 0x1.aed548f090ceep-1 && pd[17] == 0x1.14a280fb5068cp-1, "RN(sin 1), RN(cos 1) (MPFR)");
static_assert(pd[32] == 0x1.d18f6ead1b446p-1 && pd[33] == -0x1.aa22657537205p-2, "RN(sin 2), RN(cos 2) (MPFR)");
static_assert(pd[48] == 0x1.210386db6d55bp-3 && pd[49] == -0x1.fae04be85e5d2p-1, "RN(sin 3), RN(cos 3) (MPFR)");
constexpr auto pf = sn::make_table<float, 4, 16>(fairseq).value;
static_assert(pf[16] == 0x1.aed548p-1f && pf[16 + 8] == 0x1.14a28p-1f, "float, concat: RN(sin 1), RN(cos 1)");
static_assert(pf[48] == 0x1.210386p-3f && pf[48 + 8] == -0x1.fae04cp-1f, "float, concat: RN(sin 3), RN(cos 3)");

// 2. The laws, every dtype.
template <class T>
constexpr bool laws_hold(const sn::config& c, std::int64_t first) {
  const auto t = sn::make_table<T, 24, 16>(c, first).value;
  const laws::sinusoid_table<T> v{t, c, first};
  const laws::sinusoid_grid g{.shifts = {1, 5, laws::sinusoid_middle, 0}};
  const auto s = laws::sinusoid_shift(v, g);
  const auto d = laws::sinusoid_relative_dot(v, g);
  return laws::require(s) && laws::require(d) && s.checked > 0 && d.checked > 0;
}
static_assert(laws_hold<double>(paper, 0) && laws_hold<double>(fairseq, -12), "shift and relative dot, double");
static_assert(laws_hold<float>(paper, -12) && laws_hold<float>(fairseq, 0), "shift and relative dot, float");
static_assert(laws_hold<posenc::bfloat16>(paper, 0) && laws_hold<posenc::bfloat16>(fairseq, -12), "bfloat16");
static_assert(laws_hold<posenc::float16>(paper, -12) && laws_hold<posenc::float16>(fairseq, 0), "float16");

// Odd d: the extra column is no pair (the paper's lone sin, fairseq's zero); the pairs obey the laws.
template <class T>
constexpr bool odd_laws_hold(const sn::config& c) {
  const auto t = sn::make_table<T, 20, 15>(c).value;
  const laws::sinusoid_table<T> v{t, c};
  return laws::require(laws::sinusoid_shift(v)) && laws::require(laws::sinusoid_relative_dot(v));
}
static_assert(odd_laws_hold<float>({.dim = 15}) && odd_laws_hold<float>({.dim = 15, .layout = sn::layout::concat}) &&
                  odd_laws_hold<float>({.dim = 15, .exponent = sn::exponent::fairseq}),
              "odd d");

// 3. Parity: rows -8 .. 7; row -p is row p with the sines negated.
constexpr bool parity() {
  const auto t = sn::make_table<float, 16, 16>(paper, -8).value;
  for (int p = 1; p < 8; ++p)
    for (int k = 0; k < 16; ++k) {
      const float a = t[static_cast<std::size_t>((8 + p) * 16 + k)], b = t[static_cast<std::size_t>((8 - p) * 16 + k)];
      if (k % 2 == 0 ? a != -b : a != b) return false;
    }
  return true;
}
static_assert(parity(), "sin(-p w) = -sin(p w), cos(-p w) = cos(p w), bit for bit");

// Each law is able to fail: a table one position off its description fails the shift.
constexpr bool off_by_one() {
  const auto t = sn::make_table<float, 24, 16>(paper).value;
  return !laws::sinusoid_shift(laws::sinusoid_table<float>{t, paper, 1}).holds;
}
static_assert(off_by_one(), "rows from 0 described from 1: M_1 is the identity, the shift law fails");

}  // namespace
