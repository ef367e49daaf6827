// Property tests of the multi-stream RoPE tables with RapidCheck, against the MPFR oracle
// (verify/rope_oracle.hpp) at 0 ULP in four types, in compact rows and in both expanded layouts,
// with and without scratch:
// - ND axial RoPE (rope/nd.hpp): random configs (one to four axes, their widths, the base, radians
//   or turns) and random positions, axis by axis drawn from shapes that reach each of fill_nd's
//   paths;
// - M-RoPE (rope/mrope.hpp): random sections in the three layouts and random token sequences
//   (text runs, image grids, video frames, scattered tokens) that reach each of fill_mrope's paths.
//
// Why: the fills pick a path per axis or block from the positions (ND: one fill straight into the
// tokens' rows where the rows never go back, in steps of one or with repeats; scratch and a
// gather; run-time stack windows; near a progression off any grid, in floats with a widened
// bound and in doubles with row offsets; a later token an ulp off its row's first; the scalar
// entries. M-RoPE: text runs as 1D rows, blocks gathered from rows, windows, scalar entries). The
// directed tests (test_rope_streams, test_rope_turns) take each path on shapes chosen for it; here
// the shapes mix within one table, at random sizes, signs, steps and offsets, so that a path's
// condition and its neighbour's meet where no directed shape put them. A failing case shrinks to a
// small table and prints its positions.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/mrope.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "rc_property.hpp"

using namespace posenc;
using posenc_test::run_property;

namespace {

// How an axis's positions run along the tokens i = 0 .. n - 1 (s: +1 or -1, b: a base):
enum class shape : int {
  steps_of_one,  // s (b + i): every token its own row, one past the last (the walk's shortcut)
  repeats,       // s floor(i / r) q: rows read by r tokens, never back
  wraps,         // s (i mod w) q: back every w tokens (scratch or windows)
  dyadic,        // s (b + i) q 2^-e, or with wraps: a grid of 2^-e (EVA-02's i * 0.75)
  progression,   // s (b + i) h, h a double off any dyadic grid (i * 16 / 14): near a progression
  jittered,      // progression, some tokens an ulp or 1e-9 (i mod 5)^2 off their row
  constant,      // one position, 0, -0.0 or any (a text run, an axis at rest)
  scattered,     // random doubles: no common step (the scalar entries)
  descending,    // s (b + n - i): rows that go back at each token
  count
};
const char* const shape_names[] = {"steps_of_one", "repeats",  "wraps",     "dyadic",    "progression",
                                   "jittered",     "constant", "scattered", "descending"};

struct nd_case {
  std::vector<int> dims;  // each axis's width (even)
  double theta = 1e4;
  bool turns = false;
  std::size_t tokens = 0;
  std::vector<int> shapes;  // per axis
  std::vector<double> pos;  // axis-major: axis a's positions at [a * tokens, (a + 1) * tokens)
};

std::ostream& operator<<(std::ostream& o, const nd_case& c) {
  o << "axes_dim [";
  for (std::size_t a = 0; a < c.dims.size(); ++a) o << (a ? ", " : "") << c.dims[a];
  o << "], theta " << c.theta << (c.turns ? " (turns)" : "") << ", " << c.tokens << " tokens\n";
  for (std::size_t a = 0; a < c.dims.size(); ++a) {
    o << "  axis " << a << " " << shape_names[c.shapes[a]] << ":";
    for (std::size_t i = 0; i < c.tokens && i < 12; ++i) o << " " << std::hexfloat << c.pos[a * c.tokens + i];
    o << std::defaultfloat << (c.tokens > 12 ? " ..." : "") << "\n";
  }
  return o;
}

// Axis positions of one shape. Radians: |p| up to about 2^20 (the tables take |p| <= 2^21).
// Turns: |p| <= 1, DINOv3's coordinates (outside it a base such as 100 has rational frequencies
// whose exact quarter turns posenc reports as domain_error: rope/turns.hpp).
std::vector<double> axis_positions(shape sh, std::size_t n, bool turns) {
  std::vector<double> p(n);
  const double s = *rc::gen::element(1.0, -1.0);
  const double b = turns ? 0.0 : static_cast<double>(*rc::gen::element(0, 1, 7, 1000, 1 << 20));
  const double scale = turns ? 1.0 / 64 : 1.0;  // turns: small steps
  switch (sh) {
    case shape::steps_of_one:
      for (std::size_t i = 0; i < n; ++i) p[i] = s * (b + static_cast<double>(i)) * scale;
      break;
    case shape::repeats: {
      const auto r = static_cast<std::size_t>(*rc::gen::inRange(1, 6));
      const double q = static_cast<double>(*rc::gen::inRange(1, 4)) * scale;
      for (std::size_t i = 0; i < n; ++i) p[i] = s * static_cast<double>(i / r) * q;
      break;
    }
    case shape::wraps: {
      const auto w = static_cast<std::size_t>(*rc::gen::inRange(1, 40));
      const double q = static_cast<double>(*rc::gen::inRange(1, 4)) * scale;
      for (std::size_t i = 0; i < n; ++i) p[i] = s * static_cast<double>(i % w) * q;
      break;
    }
    case shape::dyadic: {
      const double q = std::ldexp(static_cast<double>(*rc::gen::inRange(1, 8)), -*rc::gen::inRange(1, 8));
      const auto w = static_cast<std::size_t>(*rc::gen::element(0, 16));  // 0: no wrap
      for (std::size_t i = 0; i < n; ++i) {
        const double k = static_cast<double>(w == 0 ? i : i % w);
        p[i] = s * (turns ? k : std::floor(b / 64) + k) * q;
      }
      break;
    }
    case shape::progression:
    case shape::jittered: {
      const double h = *rc::gen::element(16.0 / 14.0, 0.1, 2.0 / 3.0 * 16.0 / 24.0, 1.0 / 3.0, 0.7071067811865476) *
                       (turns ? 1.0 / 16 : 1.0);
      const double b0 = turns ? 0.0 : std::floor(b / 16);
      for (std::size_t i = 0; i < n; ++i) p[i] = s * (b0 + static_cast<double>(i)) * h;
      if (sh == shape::jittered) {
        const bool ulps = *rc::gen::arbitrary<bool>();
        for (std::size_t i = 1; i < n; i += 2)
          p[i] = ulps ? std::nextafter(p[i - 1], s * 1e300) : p[i] + 1e-9 * static_cast<double>((i % 5) * (i % 5));
      }
      break;
    }
    case shape::constant: {
      const double v = *rc::gen::element(0.0, -0.0, 3.0, -2.5, 0.1);
      for (std::size_t i = 0; i < n; ++i) p[i] = v * (turns ? 0.25 : 1.0);
      break;
    }
    case shape::scattered: {
      const double range = turns ? 2.5 : *rc::gen::element(1.0, 1000.0, 1048576.0);
      for (std::size_t i = 0; i < n; ++i)
        p[i] = range * static_cast<double>(*rc::gen::inRange(-1000000, 1000001)) / 1e6;
      break;
    }
    default:  // descending
      for (std::size_t i = 0; i < n; ++i) p[i] = s * (b + static_cast<double>(n - i)) * scale;
      break;
  }
  if (turns) {  // into [-1, 1] by a power of two (exact: the shape stays)
    double most = 0;
    for (const double x : p) most = std::fabs(x) > most ? std::fabs(x) : most;
    int e = 0;
    while (most > 1) most /= 2, ++e;
    for (double& x : p) x = std::ldexp(x, -e);
  }
  return p;
}

rc::Gen<nd_case> nd_cases() {
  return rc::gen::exec([] {
    nd_case c;
    c.turns = *rc::gen::inRange(0, 4) == 0;
    c.theta = c.turns ? *rc::gen::element(100.0, 64.0) : *rc::gen::element(1e4, 2000.0, 256.0, 1e6);
    const int axes = *rc::gen::inRange(1, 5);
    for (int a = 0; a < axes; ++a) c.dims.push_back(2 * *rc::gen::inRange(1, 17));
    c.tokens = static_cast<std::size_t>(*rc::gen::inRange(1, 161));
    for (int a = 0; a < axes; ++a) {
      const int sh = *rc::gen::inRange(0, static_cast<int>(shape::count));
      c.shapes.push_back(sh);
      const std::vector<double> p = axis_positions(static_cast<shape>(sh), c.tokens, c.turns);
      c.pos.insert(c.pos.end(), p.begin(), p.end());
    }
    return c;
  });
}

template <class T>
std::uint64_t bits_of(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

// The MPFR values of pair k of an axis of width d at x, rounded once to each type: one
// multiprecision evaluation for the four (positions repeat across tokens: memoised).
struct expected_entry {
  math::sincos_result<float> f;
  math::sincos_result<double> d;
  math::sincos_result<bfloat16> b;
  math::sincos_result<float16> h;
  template <class T>
  const math::sincos_result<T>& get() const {
    if constexpr (std::is_same_v<T, float>)
      return f;
    else if constexpr (std::is_same_v<T, double>)
      return d;
    else if constexpr (std::is_same_v<T, bfloat16>)
      return b;
    else
      return h;
  }
};
template <class Value>
expected_entry rounded(Value&& v) {
  expected_entry e{};
  e.f = {v.template round<float>(1), v.template round<float>(0)};
  e.d = {v.template round<double>(1), v.template round<double>(0)};
  e.b = {v.template round<bfloat16>(1), v.template round<bfloat16>(0)};
  e.h = {v.template round<float16>(1), v.template round<float16>(0)};
  return e;
}
// theta_k = base^(-2k/d) = 2^-t exactly: k = 0, or base = 2^m with d dividing 2km.
bool dyadic_theta(int k, int d, double base, int& t) {
  int m = 0;
  if (k == 0) return t = 0, true;
  if (std::frexp(base, &m) != 0.5) return false;  // base = 2^(m - 1)
  --m;
  if ((2 * k * m) % d != 0) return false;
  return t = 2 * k * m / d, true;
}

// In turns an exact value (a quarter turn: cos and sin in {0, +-1}) is no enclosure's to decide:
// MPFR's rounding loop gives up. With theta_k = 2^-t the phase x theta_k is a multiple of 1/4
// exactly when 4 x 2^-t is an integer, and then the entry is that quarter turn, zeros +0
// (rope/turns.hpp). Other bases have no quarter turn at 0 < |x| <= 1 (theta_k = 10^-n or
// irrational for base 100). True when it set e.
bool exact_quarter_turn(double x, int k, int d, double base, expected_entry& e) {
  int t = 0;
  if (!dyadic_theta(k, d, base, t)) return false;
  const double q4 = std::ldexp(x, 2 - t);  // 4 x theta_k, exactly
  if (q4 != std::floor(q4)) return false;
  const int q = static_cast<int>(std::fmod(std::fmod(q4, 4.0) + 4.0, 4.0));
  const int sn[] = {0, 1, 0, -1}, cs[] = {1, 0, -1, 0};
  // The bits of 0, 1 and -1 in each format.
  const auto bf = [](int v) { return bfloat16::from_bits(v == 0 ? 0 : v > 0 ? 0x3f80 : 0xbf80); };
  const auto hf = [](int v) { return float16::from_bits(v == 0 ? 0 : v > 0 ? 0x3c00 : 0xbc00); };
  e.f = {static_cast<float>(sn[q]), static_cast<float>(cs[q])};
  e.d = {static_cast<double>(sn[q]), static_cast<double>(cs[q])};
  e.b = {bf(sn[q]), bf(cs[q])};
  e.h = {hf(sn[q]), hf(cs[q])};
  return true;
}

// In radians an exact angle a = x 2^-t below 2^-600 can sit on a midpoint of the type (a double
// at a subnormal angle), where sin a is 2^-2150 a below it: MPFR's loop (5120 bits) gives up.
// sin a lies strictly between a - a^3 / 6 and a (a > 0; mirrored for a < 0), an interval that holds
// no value and no midpoint of the type but a itself (docs/rope-streams.md), so RN(sin a) is the
// rounding of any point inside it: s = a - a^3 / 8, exact in 4000 bits. cos a lies in
// (1 - a^2 / 2, 1): RN(cos a) = 1. True when it set e.
bool exact_tiny_angle(double x, int k, int d, double base, expected_entry& e) {
  int t = 0;
  if (x == 0 || !dyadic_theta(k, d, base, t) || std::ilogb(x) - t > -601) return false;
  verify::detail::mp a(4000), s(4000), one(64);
  mpfr_set_d(a.get(), x, MPFR_RNDN);  // exact
  mpfr_mul_2si(a.get(), a.get(), -t, MPFR_RNDN);
  mpfr_pow_ui(s.get(), a.get(), 3, MPFR_RNDN);  // exact: 159 bits
  mpfr_div_2ui(s.get(), s.get(), 3, MPFR_RNDN);
  mpfr_sub(s.get(), a.get(), s.get(), MPFR_RNDN);  // exact: the exponents span under 2400 bits
  mpfr_set_ui(one.get(), 1, MPFR_RNDN);
  using verify::detail::round_into;
  e.f = {round_into<float>(s.get()), round_into<float>(one.get())};
  e.d = {round_into<double>(s.get()), round_into<double>(one.get())};
  e.b = {round_into<bfloat16>(s.get()), round_into<bfloat16>(one.get())};
  e.h = {round_into<float16>(s.get()), round_into<float16>(one.get())};
  return true;
}

class oracle {
 public:
  oracle(double theta, bool turns) : theta_(theta), turns_(turns) {}
  const expected_entry& operator()(double x, int k, int d) {
    const auto key = std::make_tuple(bits_of(x), k, d);
    const auto it = seen_.find(key);
    if (it != seen_.end()) return it->second;
    const verify::rope_frequency f(theta_, k, d);
    expected_entry e{};
    try {
      e = turns_ ? rounded(verify::rope_turns_value_at(f, x)) : rounded(verify::rope_value_at(f, x));
    } catch (const std::runtime_error&) {
      if (turns_ ? !exact_quarter_turn(x, k, d, theta_, e) : !exact_tiny_angle(x, k, d, theta_, e)) throw;
    }
    return seen_[key] = e;
  }

 private:
  double theta_;
  bool turns_;
  std::map<std::tuple<std::uint64_t, int, int>, expected_entry> seen_;
};

// A table in the four forms the property reads: compact rows without and with scratch, and the
// expanded half-split and interleaved layouts (the last with scratch too).
template <class T>
struct four_forms {
  std::size_t pairs;
  std::vector<math::sincos_result<T>> out, out_s, scratch;
  std::vector<T> hc, hs, ic, is;
  four_forms(std::size_t tokens, std::size_t pairs_, std::size_t scratch_size)
      : pairs(pairs_),
        out(tokens * pairs_),
        out_s(tokens * pairs_),
        scratch(scratch_size),
        hc(2 * tokens * pairs_),
        hs(2 * tokens * pairs_),
        ic(2 * tokens * pairs_),
        is(2 * tokens * pairs_) {}
  // The elements of token i's pair j, in every form, that differ from e in their bits.
  std::size_t differ(std::size_t i, std::size_t j, const math::sincos_result<T>& e) const {
    const std::size_t d = 2 * pairs;
    const auto other = [&e](T cs, T sn) { return bits_of(cs) != bits_of(e.cos) || bits_of(sn) != bits_of(e.sin); };
    std::size_t bad = other(out[i * pairs + j].cos, out[i * pairs + j].sin);
    bad += other(out_s[i * pairs + j].cos, out_s[i * pairs + j].sin);
    for (const std::size_t el : {i * d + j, i * d + j + pairs}) bad += other(hc[el], hs[el]);
    for (const std::size_t el : {i * d + 2 * j, i * d + 2 * j + 1}) bad += other(ic[el], is[el]);
    return bad;
  }
};

// The table's entries that differ from MPFR, in every form (compact, half-split, interleaved;
// without and with scratch), with a line naming the first. one_ulp_off: the compact table's last
// sin moved by an ulp before the comparison (the checker shown able to fail).
template <class T>
std::size_t mismatches(const nd_case& c, oracle& mp, std::string& first, bool one_ulp_off = false) {
  const rope::nd_config cfg{.axes_dim = c.dims,
                            .rope_theta = c.theta,
                            .angle = c.turns ? rope::angle_unit::turns : rope::angle_unit::radians};
  const std::size_t n = c.tokens, pairs = static_cast<std::size_t>(rope::nd_rotary_dim(cfg)) / 2;
  four_forms<T> t(n, pairs, rope::nd_scratch_size(cfg, c.pos));
  if (rope::fill_nd_pair_table<T>(cfg, c.pos, t.out) != status::ok ||
      rope::fill_nd_pair_table<T>(cfg, c.pos, t.out_s, t.scratch) != status::ok ||
      rope::fill_nd_table<T>(cfg, c.pos, t.hc, t.hs, rope::layout::half_split) != status::ok ||
      rope::fill_nd_table<T>(cfg, c.pos, t.ic, t.is, t.scratch, rope::layout::interleaved) != status::ok) {
    first = "a fill failed";
    return 1;
  }
  if (one_ulp_off) {
    using format = posenc::detail::float_format<T>;
    T& s = t.out.back().sin;
    s = format::from_bits(static_cast<typename format::storage>(format::to_bits(s) ^ 1u));
  }
  std::size_t bad = 0;
  for (std::size_t j = 0; j < pairs; ++j) {
    const auto q = rope::detail::nd_pair_of(cfg, static_cast<int>(j));
    const int dim = c.dims[static_cast<std::size_t>(q.axis)];
    for (std::size_t i = 0; i < n; ++i) {
      const double x = c.pos[static_cast<std::size_t>(q.axis) * n + i];
      const math::sincos_result<T>& e = mp(x, q.k, dim).template get<T>();
      const std::size_t b = t.differ(i, j, e);
      bad += b;
      if (b != 0 && first.empty()) {
        std::ostringstream o;
        o << "token " << i << ", pair " << j << " (axis " << q.axis << ", k " << q.k << ") at " << std::hexfloat << x
          << ": MPFR cos, sin bits " << std::hex << bits_of(e.cos) << ", " << bits_of(e.sin) << "; the table's "
          << bits_of(t.out[i * pairs + j].cos) << ", " << bits_of(t.out[i * pairs + j].sin) << std::dec;
        first = o.str();
      }
    }
  }
  return bad;
}

// The property: every entry in every form is the MPFR value, in four types (one_ulp_off: as for
// mismatches, in the float table).
auto every_entry_is_mpfr(bool one_ulp_off) {
  return [one_ulp_off] {
    const nd_case c = *rc::gen::resize(100, nd_cases());  // full ranges from the first case (inRange scales by size)
    RC_TAG(shape_names[c.shapes[0]]);
    oracle mp(c.theta, c.turns);
    std::string first;
    const std::size_t bad = mismatches<float>(c, mp, first, one_ulp_off) + mismatches<double>(c, mp, first) +
                            mismatches<bfloat16>(c, mp, first) + mismatches<float16>(c, mp, first);
    if (bad != 0) {
      std::ostringstream o;
      o << c << bad << " entries differ from MPFR; the first: " << first;
      RC_FAIL(o.str());
    }
  };
}

// An ND case whose every axis is a progression along the tokens (rope/nd.hpp, progression_axes):
// on a grid of 2^-e, x = (b + s i) 2^-e, s in 0..3 (s = 0: held at b > 0); or near a progression
// off any grid, x = (r0 + s i) h in doubles, r0 in {0, 1}, s in 1..3 (h the least positive |x|
// over r0 or s, so the rows run r0 + s i or i). Radians, positions >= 0.
rc::Gen<nd_case> progression_cases() {
  return rc::gen::exec([] {
    nd_case c;
    c.theta = *rc::gen::element(1e4, 2000.0, 256.0, 1e6);
    const int axes = *rc::gen::inRange(2, 5);
    for (int a = 0; a < axes; ++a) c.dims.push_back(2 * *rc::gen::inRange(1, 17));
    c.tokens = static_cast<std::size_t>(*rc::gen::inRange(2, 161));  // a near progression needs two rows
    for (int a = 0; a < axes; ++a) {
      const bool near = *rc::gen::arbitrary<bool>();
      c.shapes.push_back(static_cast<int>(near ? shape::progression : shape::steps_of_one));
      const auto step = static_cast<double>(*rc::gen::inRange(near ? 1 : 0, 4));
      const double h = near
                           ? *rc::gen::element(16.0 / 14.0, 0.1, 2.0 / 3.0 * 16.0 / 24.0, 1.0 / 3.0, 0.7071067811865476)
                           : std::ldexp(1.0, -*rc::gen::inRange(0, 7));
      double b = near ? static_cast<double>(*rc::gen::inRange(0, 2))
                      : static_cast<double>(*rc::gen::element(0, 1, 7, 1000, 1 << 20));
      if (!near && step == 0 && b == 0) b = 3;  // held at 0 is not a progression the rows take
      for (std::size_t i = 0; i < c.tokens; ++i) c.pos.push_back((b + step * static_cast<double>(i)) * h);
    }
    return c;
  });
}

// The property: such a table is taken whole (progression_axes), and the whole-row fill of
// constant evaluation (fill_progression_rows), run here at run time, gives every entry's MPFR
// value. one_ulp_off: the last sin moved by an ulp first (the checker shown able to fail).
auto progression_rows_are_mpfr(bool one_ulp_off) {
  return [one_ulp_off] {
    const nd_case c = *rc::gen::resize(100, progression_cases());
    const rope::nd_config cfg{.axes_dim = c.dims, .rope_theta = c.theta};
    const std::size_t n = c.tokens, pairs = static_cast<std::size_t>(rope::nd_rotary_dim(cfg)) / 2;
    const rope::detail::nd_axes_found found = rope::detail::find_axes(cfg, c.pos, n);
    if (!rope::detail::progression_axes(cfg, found, c.pos)) {
      std::ostringstream o;
      o << c << "not taken as progressions";
      RC_FAIL(o.str());
    }
    std::vector<math::sincos_result<float>> out(n * pairs);
    std::vector<math::frequency_value> theta(pairs);
    rope::detail::table_dest<float> dest{nullptr, nullptr, out.data(), pairs, rope::layout::half_split};
    RC_ASSERT(rope::detail::fill_progression_rows(cfg, found, c.pos, n, dest, theta.data()) == status::ok);
    if (one_ulp_off) out.back().sin = std::nextafter(out.back().sin, 2.0f);
    oracle mp(c.theta, false);
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < pairs; ++j) {
        const auto q = rope::detail::nd_pair_of(cfg, static_cast<int>(j));
        const double x = c.pos[static_cast<std::size_t>(q.axis) * n + i];
        const math::sincos_result<float>& e = mp(x, q.k, c.dims[static_cast<std::size_t>(q.axis)]).get<float>();
        const math::sincos_result<float>& v = out[i * pairs + j];
        if (bits_of(v.sin) == bits_of(e.sin) && bits_of(v.cos) == bits_of(e.cos)) continue;
        if (bad++ == 0) {
          std::ostringstream o;
          o << "token " << i << ", pair " << j << " at " << std::hexfloat << x << ": MPFR " << e.cos << ", " << e.sin
            << "; the rows' " << v.cos << ", " << v.sin;
          first = o.str();
        }
      }
    if (bad != 0) {
      std::ostringstream o;
      o << c << bad << " entries differ from MPFR; the first: " << first;
      RC_FAIL(o.str());
    }
  };
}

// An M-RoPE case: the text config's head and base, the sections and layout, and stream-major
// positions (t, h, w rows of `tokens` each).
struct mrope_case {
  int head_dim = 128;
  double theta = 1e6;
  std::array<int, 3> section{};
  rope::mrope_layout layout = rope::mrope_layout::sections;
  std::size_t tokens = 0;
  std::vector<std::uint64_t> pos;
};

std::ostream& operator<<(std::ostream& o, const mrope_case& c) {
  o << "head_dim " << c.head_dim << ", theta " << c.theta << ", mrope_section [" << c.section[0] << ", " << c.section[1]
    << ", " << c.section[2] << "], layout " << static_cast<int>(c.layout) << ", " << c.tokens << " tokens\n";
  for (std::size_t s = 0; s < 3; ++s) {
    o << "  "
      << "thw"[s] << ":";
    for (std::size_t i = 0; i < c.tokens && i < 24; ++i) o << " " << c.pos[s * c.tokens + i];
    o << (c.tokens > 24 ? " ...\n" : "\n");
  }
  return o;
}

// Segments as get_rope_index lays them out (rope/mrope_positions.hpp builds the same): a text run
// continues from the next position; an image of gh x gw patches sits at (next, next + r, next + c);
// a video of gt frames steps t by a stride. And two that no model lays out, for the conditions
// between paths: text-like runs where one stream is now and then off by one (a text run must end
// there), and scattered tokens at any positions below 2^21.
rc::Gen<mrope_case> mrope_cases() {
  return rc::gen::exec([] {
    mrope_case c;
    c.head_dim = 2 * *rc::gen::element(8, 16, 32, 64);
    c.theta = *rc::gen::element(1e4, 1e6, 5e6);
    const int pairs = c.head_dim / 2;
    const int a = *rc::gen::inRange(0, pairs + 1), b = *rc::gen::inRange(0, pairs - a + 1);
    c.section = {a, b, pairs - a - b};
    c.layout = static_cast<rope::mrope_layout>(*rc::gen::inRange(0, 3));
    std::vector<std::uint64_t> t, h, w;
    std::uint64_t next = *rc::gen::element<std::uint64_t>(0, 5, 1000);
    const int segments = *rc::gen::inRange(1, 7);
    for (int g = 0; g < segments && t.size() < 400; ++g) {
      switch (*rc::gen::inRange(0, 5)) {
        case 0: {  // text
          const auto n = static_cast<std::uint64_t>(*rc::gen::inRange(1, 60));
          for (std::uint64_t i = 0; i < n; ++i) t.push_back(next + i), h.push_back(next + i), w.push_back(next + i);
          next += n;
          break;
        }
        case 1: {  // image
          const auto gh = static_cast<std::uint64_t>(*rc::gen::inRange(1, 12)),
                     gw = static_cast<std::uint64_t>(*rc::gen::inRange(1, 12));
          for (std::uint64_t r = 0; r < gh; ++r)
            for (std::uint64_t q = 0; q < gw; ++q) t.push_back(next), h.push_back(next + r), w.push_back(next + q);
          next += gh > gw ? gh : gw;
          break;
        }
        case 2: {  // video
          const auto gt = static_cast<std::uint64_t>(*rc::gen::inRange(1, 5)),
                     gs = static_cast<std::uint64_t>(*rc::gen::inRange(1, 6)),
                     stride = static_cast<std::uint64_t>(*rc::gen::element(1, 2, 25, 50));
          for (std::uint64_t f = 0; f < gt; ++f)
            for (std::uint64_t r = 0; r < gs; ++r)
              for (std::uint64_t q = 0; q < gs; ++q)
                t.push_back(next + f * stride), h.push_back(next + r), w.push_back(next + q);
          next += (gt - 1) * stride + gs;
          break;
        }
        case 3: {  // text-like: each stream one past the last, but one stream now and then off by one
          const auto n = static_cast<std::uint64_t>(*rc::gen::inRange(1, 40));
          const auto odd = static_cast<std::uint64_t>(*rc::gen::inRange(2, 9));  // every odd-th token
          for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t s = (i + 1) % odd == 0 ? i % 3 : 3;  // the stream off by one, or none
            t.push_back(next + i + (s == 0)), h.push_back(next + i + (s == 1)), w.push_back(next + i + (s == 2));
          }
          next += n + 1;
          break;
        }
        default: {  // scattered
          const auto n = static_cast<std::size_t>(*rc::gen::inRange(1, 12));
          for (std::size_t i = 0; i < n; ++i) {
            t.push_back(static_cast<std::uint64_t>(*rc::gen::inRange(0, 1 << 21)));
            h.push_back(static_cast<std::uint64_t>(*rc::gen::inRange(0, 1 << 21)));
            w.push_back(static_cast<std::uint64_t>(*rc::gen::inRange(0, 1 << 21)));
          }
        }
      }
    }
    c.tokens = t.size();
    c.pos = t;
    c.pos.insert(c.pos.end(), h.begin(), h.end());
    c.pos.insert(c.pos.end(), w.begin(), w.end());
    return c;
  });
}

// The MPFR value of pair j at integer position p, each (p, j) once, rounded to the four types.
class mrope_oracle {
 public:
  mrope_oracle(double theta, int d) : theta_(theta), d_(d) {}
  const expected_entry& operator()(std::uint64_t p, int j) {
    const auto key = std::make_pair(p, j);
    const auto it = seen_.find(key);
    if (it != seen_.end()) return it->second;
    const verify::rope_frequency f(theta_, j, d_);
    return seen_[key] = rounded(verify::rope_value(f, p));
  }

 private:
  double theta_;
  int d_;
  std::map<std::pair<std::uint64_t, int>, expected_entry> seen_;
};

template <class T>
std::size_t mrope_mismatches(const mrope_case& m, mrope_oracle& mp, std::string& first) {
  const rope::mrope_config c{
      .text = {.head_dim = m.head_dim, .rope_theta = m.theta}, .mrope_section = m.section, .layout = m.layout};
  const std::size_t n = m.tokens, pairs = static_cast<std::size_t>(m.head_dim) / 2;
  // Scattered tokens put 2^21 rows between the lowest and highest position: a scratch that short
  // of mrope_scratch_size leaves the blocks that do not fit to the windows (a path of its own).
  const std::size_t most = std::size_t{1} << 15, want = rope::mrope_scratch_size(c, m.pos);
  four_forms<T> t(n, pairs, want < most ? want : most);
  if (rope::fill_mrope_pair_table<T>(c, m.pos, t.out) != status::ok ||
      rope::fill_mrope_pair_table<T>(c, m.pos, t.out_s, t.scratch) != status::ok ||
      rope::fill_mrope_table<T>(c, m.pos, t.hc, t.hs, rope::layout::half_split) != status::ok ||
      rope::fill_mrope_table<T>(c, m.pos, t.ic, t.is, t.scratch, rope::layout::interleaved) != status::ok) {
    first = "a fill failed";
    return 1;
  }
  std::size_t bad = 0;
  for (std::size_t j = 0; j < pairs; ++j) {
    const int s = rope::mrope_stream(c, static_cast<int>(j));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t p = s < 0 ? 0 : m.pos[static_cast<std::size_t>(s) * n + i];
      const std::size_t b = t.differ(i, j, mp(p, static_cast<int>(j)).template get<T>());
      bad += b;
      if (b != 0 && first.empty()) {
        std::ostringstream o;
        o << "token " << i << ", pair " << j << " (stream " << s << ") at " << p;
        first = o.str();
      }
    }
  }
  return bad;
}

}  // namespace

TEST_CASE("ND tables on random configs and positions, every shape mixed, are the MPFR values (0 ULP)",
          "[nd][oracle][property]") {
  const std::string failure = run_property("nd_tables_are_mpfr", 60, every_entry_is_mpfr(false));
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("The ND property fails on a table one ulp off (the checker can fail)", "[nd][property]") {
  const int dims[] = {16, 8};
  const nd_case c{
      .dims = {dims[0], dims[1]}, .theta = 1e4, .tokens = 5, .shapes = {0, 0}, .pos = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4}};
  oracle mp(c.theta, c.turns);
  std::string first;
  CHECK(mismatches<float>(c, mp, first) == 0);
  CHECK(mismatches<float>(c, mp, first, true) == 1);
  CHECK(first.find("token 4, pair 11") != std::string::npos);
  // Through RapidCheck: a case fails, and the report shows the shrunk case's axes and the entry.
  const std::string failure = run_property("nd_property_can_fail", 10, every_entry_is_mpfr(true));
  INFO(failure);
  CHECK(failure.find("entries differ from MPFR; the first: token") != std::string::npos);
  CHECK(failure.find("axis 0 ") != std::string::npos);
}

TEST_CASE("ND tables whose every axis is a progression: the whole rows of constant evaluation are the MPFR values",
          "[nd][oracle][property]") {
  // The constant-evaluation fill of such tables (rope/nd.hpp, fill_progression_rows) is run here
  // at run time on random ones: grids of 2^-e and progressions off any grid, steps 0 to 3, 2 to 4
  // axes; every entry against MPFR.
  const std::string failure = run_property("nd_progression_rows_are_mpfr", 40, progression_rows_are_mpfr(false));
  INFO(failure);
  CHECK(failure.empty());
  const std::string caught = run_property("nd_progression_rows_can_fail", 5, progression_rows_are_mpfr(true));
  INFO(caught);
  CHECK(caught.find("entries differ from MPFR; the first: token") != std::string::npos);
}

TEST_CASE("Real positions whose angle is an exact dyadic below 2^-600: correctly rounded, midpoints too",
          "[nd][oracle]") {
  // Base 256, d = 32: theta_2 = 2^-1, theta_4 = 2^-2. A double table at x = 3 2^-1074, pair 2 has
  // the angle 1.5 2^-1074, a midpoint between the two least subnormals: sin is just below it, so
  // 2^-1074 (ties to even would give 2^-1073). The enclosures gave up there (domain_error) until
  // rope/detail/dyadic_frequency.hpp. Expected: by hand (below), and exact_tiny_angle's MPFR.
  const rope::config c{.head_dim = 32, .rope_theta = 256.0};
  struct hand {
    double x;
    int k;
    double sin;  // RN_double(sin(x theta_k)); cos is 1
  };
  for (const hand h : {hand{0x1p-1074, 2, 0.0}, hand{0x3p-1074, 2, 0x1p-1074}, hand{-0x3p-1074, 2, -0x1p-1074},
                       hand{0x5p-1074, 4, 0x1p-1074}, hand{0x7p-1074, 4, 0x2p-1074}, hand{0x1p-1000, 2, 0x1p-1001}}) {
    INFO("x = " << h.x << ", k = " << h.k);
    const auto r = rope::sincos_at<double>(c, h.x, h.k);
    REQUIRE(r.ok());
    CHECK(bits_of(r.value.sin) == bits_of(h.sin));
    CHECK(r.value.cos == 1.0);
    expected_entry e{};
    REQUIRE(exact_tiny_angle(h.x, h.k, 32, 256.0, e));
    CHECK(bits_of(e.d.sin) == bits_of(h.sin));
    CHECK(bits_of(rope::sincos_at<float>(c, h.x, h.k).value.sin) == bits_of(e.f.sin));
    CHECK(bits_of(rope::sincos_at<bfloat16>(c, h.x, h.k).value.sin) == bits_of(e.b.sin));
    CHECK(bits_of(rope::sincos_at<float16>(c, h.x, h.k).value.sin) == bits_of(e.h.sin));
  }
  // The ND table that the property test found failing: an axis at 0 and 2^-1074 beside others.
  static constexpr int dims[] = {2, 2, 2, 32};
  const rope::nd_config nd{.axes_dim = dims, .rope_theta = 256.0};
  const std::vector<double> pos{-0.0, -0.5, -1, -2, 0, 1, 0, 0x1p-1074};
  std::vector<math::sincos_result<double>> out(2 * 19);
  REQUIRE(rope::fill_nd_pair_table<double>(nd, pos, out) == status::ok);
  CHECK(bits_of(out[19 + 3 + 2].sin) == 0u);  // token 1, axis 3, k = 2: RN(sin 2^-1075) = +0
}

TEST_CASE("M-RoPE tables on random sections, layouts and token sequences are the MPFR values (0 ULP)",
          "[mrope][oracle][property]") {
  const std::string failure = run_property("mrope_tables_are_mpfr", 40, [] {
    const mrope_case m = *rc::gen::resize(100, mrope_cases());
    mrope_oracle mp(m.theta, m.head_dim);
    std::string first;
    const std::size_t bad = mrope_mismatches<float>(m, mp, first) + mrope_mismatches<double>(m, mp, first) +
                            mrope_mismatches<bfloat16>(m, mp, first) + mrope_mismatches<float16>(m, mp, first);
    if (bad != 0) {
      std::ostringstream o;
      o << m << bad << " entries differ from MPFR; the first: " << first;
      RC_FAIL(o.str());
    }
  });
  INFO(failure);
  CHECK(failure.empty());
}
