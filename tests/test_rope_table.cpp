// test_rope_table.cpp: posenc/rope/table.hpp and angle.hpp against MPFR (verify/rope_table_oracle.hpp).
//
// Every entry of the curated configs' tables at positions [0, 4096) ([0, 1024) in the sanitizer
// build, tests/sample_count.hpp: still two chunks, so the start-offset path), in double, float,
// bfloat16 and float16, plain and with the attention factor folded, must equal the oracle's
// correctly rounded value bit for bit; the interleaved table must be the half-split one permuted
// bit for bit; spot positions up to 2^21 through position-list tables; the error statuses.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/bits.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/rope_table_oracle.hpp"
#include "sample_count.hpp"

namespace {

namespace rope = posenc::rope;
using posenc::bfloat16;
using posenc::float16;
using rope::layout;
using rope::scaling;

constexpr rope::config llama2 = rope::models::llama2_7b;
constexpr rope::config llama31 = rope::models::llama3_1_8b;
constexpr rope::config qwen25 = rope::models::qwen2_5_7b_yarn;
constexpr rope::config deepseek_v3 = rope::models::deepseek_v3;
constexpr rope::config gpt_oss = rope::models::gpt_oss;
constexpr rope::config pythia = rope::models::pythia;
constexpr rope::config gptj = rope::models::gpt_j;

constexpr std::size_t chunk = 512, rows = posenc_test::sample_divisor >= 10 ? 2 * chunk : 8 * chunk;

template <class T>
std::uint64_t bits(T x) {
  return posenc::to_bits(x);
}

// Oracle bits of one config: [plain/folded][m][j] for each format, cos and sin.
struct oracle_bits {
  std::size_t pairs;
  std::vector<std::uint64_t> v[2][4][2];  // [fold][format: f64 f32 bf16 f16][cos, sin]
  std::uint64_t at(int fold, int fmt, int cs, std::size_t m, std::size_t j) const {
    return v[fold][fmt][cs][m * pairs + j];
  }
};

template <class T>
void store(oracle_bits& o, int fold, int fmt, std::size_t k, const posenc::math::sincos_result<T>& r) {
  o.v[fold][fmt][0][k] = bits(r.cos);
  o.v[fold][fmt][1][k] = bits(r.sin);
}

std::unique_ptr<oracle_bits> make_oracle(const rope::config& c) {
  const posenc::verify::rope_table_oracle ora(c);
  auto o = std::make_unique<oracle_bits>();
  o->pairs = static_cast<std::size_t>(rope::rotary_dim(c) / 2);
  for (auto& f : o->v)
    for (auto& t : f)
      for (auto& cs : t) cs.resize(rows * o->pairs);
  posenc::verify::rope_table_oracle::value plain, folded;
  for (std::size_t m = 0; m < rows; ++m)
    for (std::size_t j = 0; j < o->pairs; ++j) {
      const std::size_t k = m * o->pairs + j;
      ora.eval(m, static_cast<int>(j), false, plain);
      ora.fold(plain, m == 0 || mpfr_zero_p(plain.sin.get()), folded);
      for (int f = 0; f < 2; ++f) {
        const auto& v = f == 0 ? plain : folded;
        store(*o, f, 0, k, v.round<double>());
        store(*o, f, 1, k, v.round<float>());
        store(*o, f, 2, k, v.round<bfloat16>());
        store(*o, f, 3, k, v.round<float16>());
      }
    }
  return o;
}

struct counts {
  long entries = 0, mismatches = 0, layout_mismatches = 0;
};

// Compares tables of both layouts over [0, rows) in chunks (start = 512 i: the start offset path).
template <class T, std::size_t D>
void check_format(const rope::config& c, const oracle_bits& o, int fmt, bool fold, counts& n) {
  using H = posenc::result<rope::table<T, chunk, D, layout::half_split>>;
  using I = posenc::result<rope::table<T, chunk, D, layout::interleaved>>;
  for (std::size_t s = 0; s < rows; s += chunk) {
    const rope::table_options opt{.start = s, .fold_attention = fold};
    const std::unique_ptr<H> h(new H(rope::make_table<T, chunk, D, layout::half_split>(c, opt)));
    const std::unique_ptr<I> it(new I(rope::make_table<T, chunk, D, layout::interleaved>(c, opt)));
    REQUIRE(h->ok());
    REQUIRE(it->ok());
    for (std::size_t r = 0; r < chunk; ++r) {
      REQUIRE(h->value.position[r] == s + r);
      for (std::size_t j = 0; j < D / 2; ++j) {
        const auto p = h->value.pair(r, j);
        ++n.entries;
        if (bits(p.cos) != o.at(fold, fmt, 0, s + r, j) || bits(p.sin) != o.at(fold, fmt, 1, s + r, j)) {
          if (n.mismatches < 5)
            UNSCOPED_INFO("mismatch fmt " << fmt << " fold " << fold << " m " << s + r << " j " << j);
          ++n.mismatches;
        }
        for (std::size_t t = 0; t < 2; ++t) {  // element 2j+t of interleaved == element j + t D/2 of half-split
          const std::size_t ki = r * D + 2 * j + t, kh = r * D + j + t * (D / 2);
          if (bits(it->value.cos[ki]) != bits(h->value.cos[kh]) || bits(it->value.sin[ki]) != bits(h->value.sin[kh]))
            ++n.layout_mismatches;
        }
      }
    }
  }
}

// Spot positions up to 2^21 through position-list tables, all formats, plain and folded.
template <class T, std::size_t D>
void check_spots(const rope::config& c, const posenc::verify::rope_table_oracle& ora, bool fold, counts& n) {
  constexpr std::array<std::uint64_t, 8> at{
      std::uint64_t{1} << 21, (std::uint64_t{1} << 21) - 1, 1234567, std::uint64_t{1} << 20, 999999, 131071, 65536, 7};
  const auto t = std::make_unique<posenc::result<rope::table<T, 8, D, layout::interleaved>>>(
      rope::make_table<T, 8, D, layout::interleaved>(c, at, fold));
  REQUIRE(t->ok());
  for (std::size_t r = 0; r < at.size(); ++r)
    for (std::size_t j = 0; j < D / 2; ++j) {
      const auto want = ora.sincos<T>(at[r], static_cast<int>(j), fold);
      const auto got = t->value.pair(r, j);
      ++n.entries;
      if (bits(got.cos) != bits(want.cos) || bits(got.sin) != bits(want.sin)) {
        UNSCOPED_INFO("spot mismatch m " << at[r] << " j " << j);
        ++n.mismatches;
      }
    }
}

template <std::size_t D>
void check_config(const rope::config& c, const char* name) {
  REQUIRE(rope::rotary_dim(c) == static_cast<int>(D));
  const auto o = make_oracle(c);
  const posenc::verify::rope_table_oracle ora(c);
  counts n;
  for (const bool fold : {false, true}) {
    check_format<double, D>(c, *o, 0, fold, n);
    check_format<float, D>(c, *o, 1, fold, n);
    check_format<bfloat16, D>(c, *o, 2, fold, n);
    check_format<float16, D>(c, *o, 3, fold, n);
    check_spots<double, D>(c, ora, fold, n);
    check_spots<float, D>(c, ora, fold, n);
    check_spots<bfloat16, D>(c, ora, fold, n);
    check_spots<float16, D>(c, ora, fold, n);
  }
  WARN(name << ": " << n.entries << " entries, " << n.mismatches << " mismatches (0 ULP required), "
            << n.layout_mismatches << " layout mismatches");
  CHECK(n.entries == 2 * 4 * (static_cast<long>(rows) + 8) * static_cast<long>(D / 2));
  CHECK(n.mismatches == 0);
  CHECK(n.layout_mismatches == 0);
}

}  // namespace

TEST_CASE("RoPE tables of the curated configs are correctly rounded, both layouts", "[rope][table][oracle]") {
  SECTION("Llama-2-7B") { check_config<128>(llama2, "Llama-2-7B"); }
  SECTION("Llama-3.1-8B") { check_config<128>(llama31, "Llama-3.1-8B"); }
  SECTION("Llama-3.2-1B") { check_config<64>(rope::models::llama3_2_1b, "Llama-3.2-1B"); }
  SECTION("Qwen2.5-7B YaRN") { check_config<128>(qwen25, "Qwen2.5-7B"); }
  SECTION("DeepSeek-V3 rope part") { check_config<64>(deepseek_v3, "DeepSeek-V3"); }
  SECTION("gpt-oss") { check_config<64>(gpt_oss, "gpt-oss"); }
  SECTION("Pythia partial 0.25") { check_config<32>(pythia, "Pythia"); }
  SECTION("GPT-J rotary_dim 64") { check_config<64>(gptj, "GPT-J"); }
  SECTION("Phi-3 LongRoPE, short factors") {
    check_config<96>(rope::models::phi3_vision_128k_short, "Phi-3 LongRoPE short");
  }
  SECTION("Phi-3 LongRoPE, long factors") {
    check_config<96>(rope::models::phi3_vision_128k_long, "Phi-3 LongRoPE long");
  }
}

TEST_CASE("rope::sincos matches the oracle far past the table range", "[rope][table][oracle]") {
  const posenc::verify::rope_table_oracle ora(qwen25);
  long bad = 0;
  for (const std::uint64_t m : {std::uint64_t{1} << 30, std::uint64_t{123456789012}, (std::uint64_t{1} << 53) - 1})
    for (int j = 0; j < 64; j += 7) {
      const auto got = rope::sincos<float>(qwen25, m, j);
      const auto want = ora.sincos<float>(m, j);
      REQUIRE(got.ok());
      bad += bits(got.value.sin) != bits(want.sin) || bits(got.value.cos) != bits(want.cos);
      const auto g2 = rope::attention_sincos<double>(qwen25, m, j);
      const auto w2 = ora.sincos<double>(m, j, true);
      REQUIRE(g2.ok());
      bad += bits(g2.value.sin) != bits(w2.sin) || bits(g2.value.cos) != bits(w2.cos);
    }
  CHECK(bad == 0);
}

// Compile-time tables equal the run-time ones bit for bit.
namespace {
constexpr auto ct_table = rope::make_table<float, 16, 64, layout::interleaved>(deepseek_v3, {.start = 100});
static_assert(ct_table.ok());
}  // namespace

TEST_CASE("constexpr RoPE table equals the run-time one", "[rope][table]") {
  const auto rt = rope::make_table<float, 16, 64, layout::interleaved>(deepseek_v3, {.start = 100});
  REQUIRE(rt.ok());
  long diff = 0;
  for (std::size_t k = 0; k < rt.value.cos.size(); ++k)
    diff +=
        bits(rt.value.cos[k]) != bits(ct_table.value.cos[k]) || bits(rt.value.sin[k]) != bits(ct_table.value.sin[k]);
  CHECK(diff == 0);
}

TEST_CASE("RoPE table errors are statuses, never truncation", "[rope][table]") {
  using S = posenc::status;
  // Positions past 2^21.
  CHECK(rope::make_table<float, 4, 128>(llama2, {.start = (std::uint64_t{1} << 21) - 2}).error == S::domain_error);
  CHECK(rope::make_table<float, 4, 128>(llama2, {.start = (std::uint64_t{1} << 21) - 2}).ok() == false);
  CHECK(rope::make_table<float, 4, 128>(llama2, {.start = (std::uint64_t{1} << 21) - 3}).ok());
  CHECK(rope::make_table<float, 2, 128>(llama2, std::array<std::uint64_t, 2>{5, (std::uint64_t{1} << 21) + 1}).error ==
        S::domain_error);
  // Lists that are one run of consecutive positions are checked by their ends (fill.hpp,
  // consecutive_list): the last past 2^21, and a run that wraps past 2^64 (consecutive modulo 2^64).
  CHECK(rope::make_table<float, 2, 128>(
            llama2, std::array<std::uint64_t, 2>{(std::uint64_t{1} << 21) - 1, std::uint64_t{1} << 21})
            .ok());
  CHECK(rope::make_table<float, 2, 128>(
            llama2, std::array<std::uint64_t, 2>{std::uint64_t{1} << 21, (std::uint64_t{1} << 21) + 1})
            .error == S::domain_error);
  CHECK(rope::make_table<float, 2, 128>(llama2, std::array<std::uint64_t, 2>{~std::uint64_t{0}, 0}).error ==
        S::domain_error);
  {
    std::vector<float> c(2 * 128), s(2 * 128);
    const std::uint64_t wraps[] = {~std::uint64_t{0}, 0};
    CHECK(rope::fill_table<float>(llama2, wraps, c, s) == S::domain_error);
  }
  // Shape differs from the config, invalid config.
  CHECK(rope::make_table<float, 4, 64>(llama2).error == S::domain_error);
  CHECK(rope::make_table<float, 4, 128>(rope::config{.head_dim = 128, .rope_theta = 1.0}).error == S::domain_error);
  CHECK(rope::sincos<float>(llama2, 1, 64).error == S::domain_error);
  CHECK(rope::check_table(llama2, 4, 64).ok() == false);
  // float16 with a folded attention factor that overflows it (65520 rounds to infinity in binary16),
  // and the same table without folding is fine. Not constexpr: Clang tried to fold the calls below
  // at compile time (1.9 s, -ftime-trace).
  rope::config big_af{.head_dim = 64,
                      .rope_theta = 10000.0,
                      .rope_type = scaling::yarn,
                      .factor = 4.0,
                      .original_max_position_embeddings = 4096,
                      .attention_factor = 70000.0};
  CHECK(rope::make_table<float16, 8, 64>(big_af, {.fold_attention = true}).error == S::overflow);
  CHECK(rope::make_table<float16, 8, 64>(big_af).ok());
  CHECK(rope::make_table<bfloat16, 8, 64>(big_af, {.fold_attention = true}).ok());
  CHECK(rope::attention_sincos<float16>(big_af, 0, 0).error == S::overflow);
}

// ===== rope::fill_table / fill_pair_table: run-time sizes on the caller's memory =====

namespace {

// Every entry of an expanded fill against rope::sincos / attention_sincos (themselves checked
// against MPFR above), both elements of each pair. Returns the number of mismatching entries.
template <class T>
long fill_vs_scalar(const rope::config& c, const std::vector<std::uint64_t>& pos, layout l, bool fold,
                    const std::vector<T>& cos, const std::vector<T>& sin) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  long bad = 0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    for (std::size_t j = 0; j < d / 2; ++j) {
      const auto want = fold ? rope::attention_sincos<T>(c, pos[i], static_cast<int>(j))
                             : rope::sincos<T>(c, pos[i], static_cast<int>(j));
      if (!want.ok()) return -1;
      for (int t = 0; t < 2; ++t) {
        const std::size_t k = i * d + rope::pair_index(l, j, t, d);
        bad += !posenc::same_bits(cos[k], want.value.cos) || !posenc::same_bits(sin[k], want.value.sin);
      }
    }
  return bad;
}

// Entries where a compact table (pairs) and an expanded one of the same rows (cos, sin in layout l,
// rotary dim d) differ, the first element of each pair.
template <class T>
long compact_vs_expanded(const std::vector<posenc::math::sincos_result<T>>& pairs, const std::vector<T>& cos,
                         const std::vector<T>& sin, layout l, std::size_t d) {
  long diff = 0;
  for (std::size_t i = 0; i < cos.size() / d; ++i)
    for (std::size_t j = 0; j < d / 2; ++j) {
      const std::size_t k = i * d + rope::pair_index(l, j, 0, d);
      diff +=
          !posenc::same_bits(pairs[i * d / 2 + j].cos, cos[k]) || !posenc::same_bits(pairs[i * d / 2 + j].sin, sin[k]);
    }
  return diff;
}

template <class T>
void check_fill(const rope::config& c, std::size_t n_rows, std::uint64_t start, layout l, bool fold) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  std::vector<T> cos(n_rows * d), sin(n_rows * d);
  REQUIRE(rope::fill_table<T>(c, cos, sin, l, {.start = start, .fold_attention = fold}) == posenc::status::ok);
  std::vector<std::uint64_t> pos(n_rows);
  for (std::size_t i = 0; i < n_rows; ++i) pos[i] = start + i;
  CHECK(fill_vs_scalar(c, pos, l, fold, cos, sin) == 0);
  // The position-list form of the same n_rows (one run: the range fill) and the compact form agree.
  std::vector<T> lc(n_rows * d), ls(n_rows * d);
  REQUIRE(rope::fill_table<T>(c, pos, lc, ls, l, fold) == posenc::status::ok);
  std::vector<posenc::math::sincos_result<T>> pairs(n_rows * d / 2);
  REQUIRE(rope::fill_pair_table<T>(c, pairs, {.start = start, .fold_attention = fold}) == posenc::status::ok);
  long diff = compact_vs_expanded(pairs, cos, sin, l, d);
  for (std::size_t k = 0; k < cos.size(); ++k)
    diff += !posenc::same_bits(lc[k], cos[k]) || !posenc::same_bits(ls[k], sin[k]);
  CHECK(diff == 0);
}

// Wider than one chunk of the engine (128 pairs): 256 pairs (two full chunks) and 300 (a partial
// third chunk), a size no template names.
constexpr rope::config wide512{.head_dim = 512, .rope_theta = 1000000.0};
constexpr rope::config wide600{.head_dim = 600,
                               .rope_theta = 10000.0,
                               .rope_type = scaling::yarn,
                               .factor = 4.0,
                               .original_max_position_embeddings = 4096};

// A constexpr fill of a run-time-shaped buffer, three chunks wide (128 + 128 + 4 pairs), equals
// rope::sincos. Default scaling and two rows keep it inside Clang's default step limit.
constexpr rope::config wide520{.head_dim = 520, .rope_theta = 10000.0};
constexpr bool constexpr_wide_fill() {
  std::array<float, 2 * 520> c{}, s{};
  if (rope::fill_table<float>(wide520, c, s, layout::interleaved, {.start = 1000}) != posenc::status::ok) return false;
  for (std::size_t i = 0; i < 2; ++i)
    for (const std::size_t j :
         {std::size_t{0}, std::size_t{127}, std::size_t{128}, std::size_t{255}, std::size_t{256}, std::size_t{259}}) {
      const auto w = rope::sincos<float>(wide520, 1000 + i, static_cast<int>(j));
      if (!posenc::same_bits(c[i * 520 + 2 * j + 1], w.value.cos) ||
          !posenc::same_bits(s[i * 520 + 2 * j], w.value.sin))
        return false;
    }
  return true;
}
static_assert(constexpr_wide_fill(), "a constexpr fill three chunks wide holds rope::sincos's bits");

}  // namespace

TEST_CASE("rope::fill_table equals make_table bit for bit", "[rope][table][fill]") {
  constexpr std::size_t n = 300;
  const auto t = std::make_unique<posenc::result<rope::table<bfloat16, n, 128, layout::interleaved>>>(
      rope::make_table<bfloat16, n, 128, layout::interleaved>(llama31, {.start = 4000, .fold_attention = true}));
  REQUIRE(t->ok());
  std::vector<bfloat16> cos(n * 128), sin(n * 128);
  REQUIRE(rope::fill_table<bfloat16>(llama31, cos, sin, layout::interleaved, {.start = 4000, .fold_attention = true}) ==
          posenc::status::ok);
  long diff = 0;
  for (std::size_t k = 0; k < cos.size(); ++k)
    diff += !posenc::same_bits(cos[k], t->value.cos[k]) || !posenc::same_bits(sin[k], t->value.sin[k]);
  CHECK(diff == 0);
}

TEST_CASE("rope::fill_table of run-time sizes equals rope::sincos", "[rope][table][fill]") {
  SECTION("Llama-3.1, 1000 rows, every dtype") {
    check_fill<float>(llama31, 1000, 7, layout::half_split, false);
    check_fill<bfloat16>(llama31, 1000, 7, layout::interleaved, true);
    check_fill<float16>(llama31, 1000, 7, layout::half_split, false);
    check_fill<double>(llama31, 50, 7, layout::half_split, true);
  }
  SECTION("GPT-J rotary_dim 64 of head_dim 256, one row") {
    check_fill<float>(gptj, 1, 123456, layout::interleaved, false);
  }
  SECTION("256 pairs: two chunks") {
    check_fill<float>(wide512, 200, 0, layout::half_split, false);
    check_fill<float16>(wide512, 40, 2000000, layout::interleaved, false);
  }
  SECTION("300 pairs: a partial third chunk, YaRN folded") {
    check_fill<float>(wide600, 70, 100, layout::interleaved, true);
    check_fill<bfloat16>(wide600, 70, 100, layout::half_split, false);
  }
}

// A position list of runs and scattered positions: runs of consecutive positions go through the
// row kernels (from 8 rows in constant evaluation, 4 at run time), the rest are scalar entries.
std::vector<std::uint64_t> mixed_positions() {
  std::vector<std::uint64_t> pos;
  for (std::uint64_t i = 0; i < 10; ++i) pos.push_back(i);            // a run from 0
  pos.push_back(100), pos.push_back(57);                              // scattered
  for (std::uint64_t i = 0; i < 3; ++i) pos.push_back(5000 + i);      // too short a run
  for (std::uint64_t i = 0; i < 5; ++i) pos.push_back(300 + i);       // a run at run time only
  pos.push_back(5), pos.push_back(5), pos.push_back(5);               // repeats
  for (std::uint64_t i = 0; i < 40; ++i) pos.push_back(2000000 + i);  // near 2^21
  pos.push_back(std::uint64_t{1} << 21);
  for (std::uint64_t i = 0; i < 9; ++i) pos.push_back(41 + i);  // a run that ends the list
  return pos;
}

template <class T>
void check_list(const rope::config& c, layout l, bool fold) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  const std::vector<std::uint64_t> pos = mixed_positions();
  std::vector<T> cos(pos.size() * d), sin(pos.size() * d);
  REQUIRE(rope::fill_table<T>(c, pos, cos, sin, l, fold) == posenc::status::ok);
  CHECK(fill_vs_scalar(c, pos, l, fold, cos, sin) == 0);
  std::vector<posenc::math::sincos_result<T>> pairs(pos.size() * d / 2);
  REQUIRE(rope::fill_pair_table<T>(c, pos, pairs, fold) == posenc::status::ok);
  CHECK(compact_vs_expanded(pairs, cos, sin, l, d) == 0);
}

constexpr rope::config small_head{.head_dim = 16, .rope_theta = 10000.0};
constexpr std::array<std::uint64_t, 24> small_list{0, 1,   2,   3,   4,   5,   6,   7,   8,   9,   77, 3,
                                                   3, 500, 501, 502, 503, 504, 505, 506, 507, 508, 12, 0};
constexpr auto small_list_table = [] {
  std::array<posenc::math::sincos_result<float>, small_list.size() * 8> t{};
  static_cast<void>(rope::fill_pair_table<float>(small_head, small_list, t));
  return t;
}();

TEST_CASE("Position lists: runs through the row kernels, the rest scalar, rope::sincos bit for bit",
          "[rope][table][fill]") {
  check_list<float>(llama31, layout::half_split, false);
  check_list<float>(llama31, layout::interleaved, true);
  check_list<bfloat16>(qwen25, layout::half_split, true);
  check_list<float16>(llama31, layout::interleaved, false);
  check_list<double>(deepseek_v3, layout::half_split, false);
  check_list<float>(wide600, layout::half_split, false);  // three chunks of the engine
  // In constant evaluation (two runs of 10 and 9 rows, scattered positions and repeats between):
  // the run-time bits.
  std::vector<posenc::math::sincos_result<float>> rt(small_list_table.size());
  REQUIRE(rope::fill_pair_table<float>(small_head, small_list, rt) == posenc::status::ok);
  long diff = 0;
  for (std::size_t k = 0; k < rt.size(); ++k)
    diff += bits(rt[k].cos) != bits(small_list_table[k].cos) || bits(rt[k].sin) != bits(small_list_table[k].sin);
  CHECK(diff == 0);
  for (std::size_t i = 0; i < small_list.size(); ++i)
    for (int j = 0; j < 8; ++j) {
      const auto want = rope::sincos<float>(small_head, small_list[i], j);
      const auto& got = rt[i * 8 + static_cast<std::size_t>(j)];
      diff += bits(got.cos) != bits(want.value.cos) || bits(got.sin) != bits(want.value.sin);
    }
  CHECK(diff == 0);
}

TEST_CASE("rope::fill_table errors are statuses", "[rope][table][fill]") {
  using S = posenc::status;
  std::vector<float> c(4 * 128), s(4 * 128), odd(4 * 128 + 1);
  std::vector<posenc::math::sincos_result<float>> p(4 * 64);
  CHECK(rope::fill_table<float>(llama2, c, s) == S::ok);
  CHECK(rope::fill_table<float>(llama2, c, odd) == S::domain_error);    // cos and sin differ
  CHECK(rope::fill_table<float>(llama2, odd, odd) == S::domain_error);  // not whole rows
  CHECK(rope::fill_table<float>(llama2, std::span<float>(), std::span<float>()) == S::domain_error);  // no rows
  CHECK(rope::fill_table<float>(llama2, c, s, layout::half_split, {.start = (std::uint64_t{1} << 21) - 2}) ==
        S::domain_error);
  CHECK(rope::fill_table<float>(llama2, c, s, layout::half_split, {.start = (std::uint64_t{1} << 21) - 3}) == S::ok);
  CHECK(rope::fill_table<float>(rope::config{.head_dim = 128, .rope_theta = 1.0}, c, s) == S::domain_error);
  CHECK(rope::fill_table<float>(rope::config{}, c, s) == S::domain_error);  // head_dim 0: no rotary dim at all
  const std::vector<std::uint64_t> pos{0, 5, 9, 1}, far{0, 5, (std::uint64_t{1} << 21) + 1, 1}, three{0, 5, 9};
  CHECK(rope::fill_table<float>(llama2, pos, c, s) == S::ok);
  CHECK(rope::fill_table<float>(llama2, far, c, s) == S::domain_error);
  CHECK(rope::fill_table<float>(llama2, three, c, s) == S::domain_error);  // rows != positions
  CHECK(rope::fill_table<float>(llama2, std::span<const std::uint64_t>(), std::span<float>(), std::span<float>()) ==
        S::domain_error);
  CHECK(rope::fill_pair_table<float>(llama2, p) == S::ok);
  CHECK(rope::fill_pair_table<float>(llama2, std::span(p).first(100)) == S::domain_error);
  CHECK(rope::fill_pair_table<float>(llama2, pos, p) == S::ok);
  constexpr rope::config big_af{.head_dim = 64,
                                .rope_theta = 10000.0,
                                .rope_type = scaling::yarn,
                                .factor = 4.0,
                                .original_max_position_embeddings = 4096,
                                .attention_factor = 70000.0};
  std::vector<float16> hc(2 * 64), hs(2 * 64);
  CHECK(rope::fill_table<float16>(big_af, hc, hs, layout::half_split, {.fold_attention = true}) == S::overflow);
  CHECK(rope::fill_table<float16>(big_af, hc, hs) == S::ok);
  // A folded factor from 2^14 to 65504 fits float16 but not the row paths' range (their scaled
  // values stay below 2^14): the column engine (fill_chunk) writes it at run time, from block
  // anchors at start + i0. Positions from 3000, against rope::attention_sincos entry by entry
  // (mutant 18 anchors the blocks at i0, the angles of positions from 0).
  constexpr rope::config loud_af = [cfg = big_af]() mutable {
    cfg.attention_factor = 20000.0;  // the same YaRN config, a folded factor that fits float16
    return cfg;
  }();
  check_fill<float16>(loud_af, 300, 3000, layout::half_split, true);
}
