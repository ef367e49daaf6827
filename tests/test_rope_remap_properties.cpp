// A property test of Leaky ReRoPE's decode table (rope/leaky_rerope.hpp) with RapidCheck: random
// plain configs (default, or linear by an exact factor), windows, scaling factors and row counts,
// every entry in four types, compact and in both expanded layouts, against the MPFR value at
// rel' = w + (rel - w) / k (verify/rope_remap_oracle.hpp) at 0 ULP.
//
// Why: the table is two fills, the plain rows below w and the scaled rows from k w on, the second
// with theta_j / k taken from the first's frequencies (frequency_cache.hpp, divided_frequencies).
// The directed tests (test_rope_remap) take w = 8, k = 3 and Llama-3's scale; here the window
// falls anywhere in the table or past it, k runs to 20 and the head and base vary, so the seam
// between the fills and the divided frequencies' bounds meet configurations no directed case has.
#include <rapidcheck.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/leaky_rerope.hpp"
#include "posenc/verify/rope_remap_oracle.hpp"
#include "rc_property.hpp"

using namespace posenc;
using posenc_test::run_property;

namespace {

struct leaky_case {
  rope::config plain{};
  std::uint64_t window = 1, k = 2;
  std::size_t rows = 1;
};

std::ostream& operator<<(std::ostream& o, const leaky_case& c) {
  return o << "head_dim " << c.plain.head_dim << ", rope_theta " << c.plain.rope_theta << ", "
           << (c.plain.rope_type == rope::scaling::linear ? "linear factor " : "default")
           << (c.plain.rope_type == rope::scaling::linear ? std::to_string(c.plain.factor) : "") << ", window "
           << c.window << ", scaling_factor " << c.k << ", " << c.rows << " rows";
}

rc::Gen<leaky_case> leaky_cases() {
  return rc::gen::exec([] {
    leaky_case c;
    c.plain.head_dim = 2 * *rc::gen::inRange(1, 33);
    c.plain.rope_theta = *rc::gen::element(1e4, 5e5, 256.0, 1e6);
    if (*rc::gen::inRange(0, 3) == 0) {
      c.plain.rope_type = rope::scaling::linear;
      c.plain.factor = *rc::gen::element(2.0, 4.0, 1.5, 8.0);  // factor * k exact in double
    }
    c.window = static_cast<std::uint64_t>(*rc::gen::inRange(1, 65));
    c.k = static_cast<std::uint64_t>(*rc::gen::inRange(2, 21));
    c.rows = static_cast<std::size_t>(*rc::gen::inRange(1, 161));
    return c;
  });
}

template <class T>
std::uint64_t bits_of(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

// Entries of the decode table, in its three forms, that differ from MPFR; first: the first one.
template <class T>
std::size_t mismatches(const leaky_case& c, const verify::leaky_rerope_oracle& mp, std::string& first) {
  const rope::leaky_rerope_config lc{.window = c.window, .scaling_factor = c.k};
  const std::size_t pairs = static_cast<std::size_t>(c.plain.head_dim) / 2, d = 2 * pairs;
  std::vector<math::sincos_result<T>> out(c.rows * pairs);
  std::vector<T> hc(c.rows * d), hs(c.rows * d), ic(c.rows * d), is(c.rows * d);
  if (rope::fill_leaky_rerope_pair_table<T>(c.plain, lc, out) != status::ok ||
      rope::fill_leaky_rerope_table<T>(c.plain, lc, hc, hs, rope::layout::half_split) != status::ok ||
      rope::fill_leaky_rerope_table<T>(c.plain, lc, ic, is, rope::layout::interleaved) != status::ok) {
    first = "a fill failed";
    return 1;
  }
  std::size_t bad = 0;
  for (std::size_t rel = 0; rel < c.rows; ++rel)
    for (std::size_t j = 0; j < pairs; ++j) {
      const auto e = mp.sincos<T>(rel, static_cast<int>(j));
      const auto other = [&e](T cs, T sn) { return bits_of(cs) != bits_of(e.cos) || bits_of(sn) != bits_of(e.sin); };
      std::size_t b = other(out[rel * pairs + j].cos, out[rel * pairs + j].sin);
      for (const std::size_t el : {rel * d + j, rel * d + j + pairs}) b += other(hc[el], hs[el]);
      for (const std::size_t el : {rel * d + 2 * j, rel * d + 2 * j + 1}) b += other(ic[el], is[el]);
      if (b != 0 && first.empty()) first = "row " + std::to_string(rel) + ", pair " + std::to_string(j);
      bad += b;
    }
  return bad;
}

}  // namespace

TEST_CASE("Leaky ReRoPE decode tables on random configs, windows and factors are the MPFR values (0 ULP)",
          "[remap][leaky][oracle][property]") {
  const std::string failure = run_property("leaky_tables_are_mpfr", 40, [] {
    const leaky_case c = *rc::gen::resize(100, leaky_cases());  // full ranges from the first case
    const verify::leaky_rerope_oracle mp(c.plain, c.window, c.k);
    std::string first;
    const std::size_t bad = mismatches<float>(c, mp, first) + mismatches<double>(c, mp, first) +
                            mismatches<bfloat16>(c, mp, first) + mismatches<float16>(c, mp, first);
    if (bad != 0) {
      std::ostringstream o;
      o << c << ": " << bad << " entries differ from MPFR; the first: " << first;
      RC_FAIL(o.str());
    }
  });
  INFO(failure);
  CHECK(failure.empty());
}
