// test_cli_emit.cpp: `posenc emit rope-freq` and `posenc emit rope`, run as the built executable
// (POSENC_CLI_PATH). Expected values come from MPFR: posenc::verify's rope oracles (an independent
// transcription of HF's formulas, rope_oracle.hpp / rope_table_oracle.hpp) for the exact policy,
// and an MPFR float32 transcription of HF's pipeline (each float32 operation correctly rounded) for
// --policy hf-float32. Values are compared bit for bit (0 ULP) through their exact double.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/numeric/format.hpp>
#include <posenc/rope/checked_config.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/verify/mpfr.hpp>
#include <posenc/verify/rope_oracle.hpp>
#include <posenc/verify/rope_table_oracle.hpp>
#include <posenc/version.hpp>

#include "cli_test_util.hpp"
#include "torch_powf_ref.hpp"

namespace {

using posenc::bfloat16;
using posenc::float16;
using posenc_test::cat;
using posenc_test::cli_result;
using posenc_test::dbits;
using posenc_test::dtype;
using posenc_test::emit;
using posenc_test::exact;
using posenc_test::fnv1a64;
using posenc_test::parse_hex;
using posenc_test::split;
using posenc_test::strings;

std::vector<std::string> ok_lines(const strings& args) {
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err.empty());
  auto lines = split(r.out, '\n');
  REQUIRE(lines.back().empty());
  lines.pop_back();
  return lines;
}

// ---- the configs: the flags and the same config as a struct ------------------------------------

struct named_config {
  strings flags;
  posenc::rope::config cfg;
};

const double longrope_short[4] = {1.0, 1.25, 1.5, 2.0};
const double longrope_long[4] = {1.0, 2.5, 6.0, 12.0};

std::vector<named_config> configs() {
  using posenc::rope::scaling;
  return {
      // Llama-3.1-8B.
      {{"--head-dim", "128", "--rope-theta", "500000", "--rope-type", "llama3", "--factor", "8",
        "--original-max-position-embeddings", "8192"},
       {.head_dim = 128,
        .rope_theta = 500000.0,
        .rope_type = scaling::llama3,
        .factor = 8.0,
        .original_max_position_embeddings = 8192}},
      // Qwen2.5-7B with YaRN factor 4 over 32768 (attention factor 0.1 ln 4 + 1).
      {{"--head-dim", "128", "--rope-theta", "1000000", "--rope-type", "yarn", "--factor", "4",
        "--original-max-position-embeddings", "32768"},
       {.head_dim = 128,
        .rope_theta = 1000000.0,
        .rope_type = scaling::yarn,
        .factor = 4.0,
        .original_max_position_embeddings = 32768}},
      // Partial rotary (Pythia's 0.25 of a 128-dim head), default scaling.
      {{"--head-dim", "128", "--partial-rotary-factor", "0.25"}, {.head_dim = 128, .partial_rotary_factor = 0.25}},
      // LongRoPE with derived factor (max / original max) and the long factors (seq_len > L0).
      {{"--head-dim", "8", "--rope-type", "longrope", "--original-max-position-embeddings", "4096",
        "--max-position-embeddings", "131072", "--seq-len", "8192", "--short-factor", "1,1.25,1.5,2", "--long-factor",
        "1,2.5,6,12"},
       {.head_dim = 8,
        .rope_type = scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .seq_len = 8192,
        .short_factor = longrope_short,
        .long_factor = longrope_long}},
      // YaRN, DeepSeek style mscale / mscale_all_dim, untruncated, explicit betas.
      {{"--head-dim", "64", "--rope-theta", "10000", "--rope-type", "yarn", "--factor", "40",
        "--original-max-position-embeddings", "4096", "--mscale", "1", "--mscale-all-dim", "1", "--no-truncate",
        "--beta-fast", "32", "--beta-slow", "1"},
       {.head_dim = 64,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 40.0,
        .original_max_position_embeddings = 4096,
        .mscale = 1.0,
        .mscale_all_dim = 1.0,
        .truncate = false}},
      // YaRN with mscale != mscale_all_dim (DeepSeek-V2 style): each flag must reach its own field.
      {{"--head-dim", "64", "--rope-theta", "10000", "--rope-type", "yarn", "--factor", "40",
        "--original-max-position-embeddings", "4096", "--mscale", "0.707", "--mscale-all-dim", "0.5"},
       {.head_dim = 64,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 40.0,
        .original_max_position_embeddings = 4096,
        .mscale = 0.707,
        .mscale_all_dim = 0.5}},
  };
}

template <class T>
void check_freq(const named_config& nc) {
  const strings args = cat({"rope-freq", "--dtype", dtype<T>()}, nc.flags);
  const auto lines = ok_lines(args);
  const int pairs = static_cast<int>(posenc::rope::detail::rotary_dim(nc.cfg)) / 2;
  REQUIRE(lines.size() == static_cast<std::size_t>(pairs) + 2);
  CHECK(lines[0] == "pair,inv_freq");
  for (int j = 0; j < pairs; ++j) {
    const auto f = split(lines[static_cast<std::size_t>(j) + 1], ',');
    REQUIRE(f.size() == 2);
    CHECK(f[0] == std::to_string(j));
    INFO(posenc_test::describe_cli(args) << " pair " << j << ": " << f[1]);
    CHECK(dbits(parse_hex(f[1])) == dbits(exact(posenc::verify::cr_rope_inv_freq<T>(nc.cfg, j))));
  }
  const auto a = split(lines.back(), ',');
  REQUIRE(a.size() == 2);
  CHECK(a[0] == "attention_factor");
  CHECK(dbits(parse_hex(a[1])) == dbits(exact(posenc::verify::cr_rope_attention_factor<T>(nc.cfg))));
}

}  // namespace

TEST_CASE("emit rope-freq: inv_freq and attention factor are MPFR's, in every dtype", "[cli][emit]") {
  for (const auto& nc : configs()) {
    check_freq<double>(nc);
    check_freq<float>(nc);
    check_freq<bfloat16>(nc);
    check_freq<float16>(nc);
  }
}

namespace {

// Every (position, pair) row of a CSV table against the table oracle.
template <class T>
void check_rope_csv(const named_config& nc, std::uint64_t start, std::uint64_t n, bool fold) {
  strings args = cat(
      {"rope", "--dtype", dtype<T>(), "--start", std::to_string(start), "--positions", std::to_string(n)}, nc.flags);
  if (fold) args.push_back("--fold-attention");
  const auto lines = ok_lines(args);
  const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(nc.cfg)) / 2;
  REQUIRE(lines.size() == n * pairs + 1);
  CHECK(lines[0] == "position,pair,cos,sin");
  const posenc::verify::rope_table_oracle oracle(nc.cfg);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < pairs; ++j) {
      const auto f = split(lines[1 + i * pairs + j], ',');
      REQUIRE(f.size() == 4);
      CHECK(f[0] == std::to_string(start + i));
      CHECK(f[1] == std::to_string(j));
      const auto want = oracle.sincos<T>(start + i, static_cast<int>(j), fold);
      INFO(posenc_test::describe_cli(args) << " row " << lines[1 + i * pairs + j]);
      CHECK(dbits(parse_hex(f[2])) == dbits(exact(want.cos)));
      CHECK(dbits(parse_hex(f[3])) == dbits(exact(want.sin)));
    }
}

}  // namespace

TEST_CASE("emit rope: CSV cos/sin are MPFR's (0 ULP), folded or not", "[cli][emit]") {
  const auto cs = configs();
  check_rope_csv<float>(cs[0], 4000, 6, false);
  check_rope_csv<double>(cs[0], 0, 3, false);
  check_rope_csv<float16>(cs[1], 32760, 4, true);
  check_rope_csv<bfloat16>(cs[1], 0, 3, true);
  check_rope_csv<double>(cs[2], 2097150, 3, false);  // up to the last allowed position, 2^21
  check_rope_csv<float>(cs[3], 100, 8, true);
  check_rope_csv<float16>(cs[4], 65535, 3, true);
}

TEST_CASE("emit: --decimal reads back to the same value of the dtype", "[cli][emit]") {
  const auto cs = configs();
  for (const char* t : {"f64", "f32", "bf16", "f16"}) {
    const strings base =
        cat({"rope", "--dtype", t, "--start", "1000", "--positions", "3", "--fold-attention"}, cs[1].flags);
    const auto hex = ok_lines(base);
    const auto dec = ok_lines(cat(base, {"--decimal"}));
    REQUIRE(hex.size() == dec.size());
    const std::string ts = t;
    const mpfr_prec_t prec = ts == "f64" ? 53 : ts == "f32" ? 24 : ts == "bf16" ? 8 : 11;
    std::size_t longest = 0;
    for (std::size_t i = 1; i < hex.size(); ++i) {
      const auto h = split(hex[i], ','), d = split(dec[i], ',');
      for (std::size_t k = 2; k < 4; ++k) {
        // MPFR reads the decimal exactly (at 256 bits: these short decimals are exact there) and
        // rounds it once into the dtype's format; that must be the printed hex value.
        posenc::verify::detail::mp x(256);
        REQUIRE(mpfr_set_str(x.get(), d[k].c_str(), 10, MPFR_RNDN) == 0);
        double back = 0;
        if (ts == "f64")
          back = posenc::verify::detail::round_into<double>(x.get());
        else if (ts == "f32")
          back = posenc::verify::detail::round_into<float>(x.get());
        else if (ts == "bf16")
          back = exact(posenc::verify::detail::round_into<bfloat16>(x.get()));
        else
          back = exact(posenc::verify::detail::round_into<float16>(x.get()));
        INFO(t << ": " << hex[i] << " vs " << dec[i]);
        CHECK(dbits(back) == dbits(parse_hex(h[k])));
        CHECK(d[k].find("0x") == std::string::npos);
        longest = std::max(longest, d[k].size());
      }
    }
    (void)prec;
    // Shortest-ish: a binary16 value never needs more than 5 significant digits, bfloat16 3 (+ sign, point, exponent).
    if (ts == "f16") CHECK(longest <= 12);
    if (ts == "bf16") CHECK(longest <= 10);
  }
}

namespace {

// HF's float32 pipeline transcribed with MPFR at 24 bits (each step correctly rounded, as the
// policy specifies): t = 2j / d, p = base^t, inv = 1 / p, inv /= factor, a = inv * m, cos(a), sin(a);
// base^t is torch's float32 pow (tests/torch_powf_ref.hpp: SLEEF's powf on the vector body).
float mp_float(void (*f)(mpfr_ptr, mpfr_srcptr), float x) {
  posenc::verify::detail::mp in(24), out(24);
  mpfr_set_flt(in.get(), x, MPFR_RNDN);
  f(out.get(), in.get());
  return mpfr_get_flt(out.get(), MPFR_RNDN);
}
void mp_cos(mpfr_ptr r, mpfr_srcptr x) { mpfr_cos(r, x, MPFR_RNDN); }
void mp_sin(mpfr_ptr r, mpfr_srcptr x) { mpfr_sin(r, x, MPFR_RNDN); }

}  // namespace

TEST_CASE("emit --policy hf-float32 reproduces HF's float32 pipeline", "[cli][emit]") {
  const int d = 64;
  const float base = 10000.0f, factor = 2.0f;
  const strings cfg = {"--head-dim", "64", "--rope-type", "linear", "--factor", "2", "--policy", "hf-float32"};
  std::vector<float> inv(d / 2);
  for (int j = 0; j < d / 2; ++j)
    inv[static_cast<std::size_t>(j)] =
        (1.0f / posenc_test::torch_powf(base, static_cast<float>(2 * j) / static_cast<float>(d), j, d / 2)) / factor;
  SECTION("rope-freq") {
    const auto lines = ok_lines(cat({"rope-freq", "--dtype", "f32"}, cfg));
    REQUIRE(lines.size() == d / 2 + 2);
    for (std::size_t j = 0; j < inv.size(); ++j)
      CHECK(parse_hex(split(lines[j + 1], ',')[1]) == static_cast<double>(inv[j]));
    CHECK(lines.back() == "attention_factor,0x1p+0");
  }
  SECTION("rope, f64 (exact widening) and bf16 (HF's .to(bfloat16): a second rounding)") {
    for (const char* t : {"f64", "bf16"}) {
      const auto lines = ok_lines(cat({"rope", "--dtype", t, "--start", "5000", "--positions", "4"}, cfg));
      REQUIRE(lines.size() == 4 * inv.size() + 1);
      for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < inv.size(); ++j) {
          const float a = inv[j] * static_cast<float>(5000 + i);
          double c = mp_float(mp_cos, a), s = mp_float(mp_sin, a);
          if (std::string(t) == "bf16") {
            posenc::verify::detail::mp x(64);
            mpfr_set_d(x.get(), c, MPFR_RNDN);
            c = exact(posenc::verify::detail::round_into<bfloat16>(x.get()));
            mpfr_set_d(x.get(), s, MPFR_RNDN);
            s = exact(posenc::verify::detail::round_into<bfloat16>(x.get()));
          }
          const auto f = split(lines[1 + i * inv.size() + j], ',');
          INFO(t << " " << lines[1 + i * inv.size() + j]);
          CHECK(dbits(parse_hex(f[2])) == dbits(c));
          CHECK(dbits(parse_hex(f[3])) == dbits(s));
        }
    }
  }
}

// YaRN under hf-float32: HF's attention_scaling is the Python float 0.1 * math.log(4) + 1.0 (three
// double roundings), and with --fold-attention each entry is the float32 product cosf(a) * float(att),
// with a = inv[j] * float(m) (inv from the rope-freq output, itself checked against MPFR in
// test_rope_policy.cpp). Each step is recomputed here with MPFR.
TEST_CASE("emit --policy hf-float32 folds HF's YaRN attention factor as a float32 product", "[cli][emit]") {
  const strings cfg = {
      "--head-dim", "64",       "--rope-type", "yarn", "--factor", "4", "--original-max-position-embeddings",
      "4096",       "--policy", "hf-float32"};
  posenc::verify::detail::mp four(53), ln4(53);
  mpfr_set_d(four.get(), 4.0, MPFR_RNDN);
  mpfr_log(ln4.get(), four.get(), MPFR_RNDN);
  const double att_double = 0.1 * mpfr_get_d(ln4.get(), MPFR_RNDN) + 1.0;  // Python float arithmetic
  const float att = static_cast<float>(att_double);
  const auto freq = ok_lines(cat({"rope-freq", "--dtype", "f32"}, cfg));
  REQUIRE(freq.size() == 34);
  CHECK(parse_hex(split(freq.back(), ',')[1]) == static_cast<double>(att));
  const auto rows =
      ok_lines(cat({"rope", "--dtype", "f32", "--start", "1000", "--positions", "2", "--fold-attention"}, cfg));
  REQUIRE(rows.size() == 2 * 32 + 1);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 32; ++j) {
      const float inv = static_cast<float>(parse_hex(split(freq[j + 1], ',')[1]));
      const float a = inv * static_cast<float>(1000 + i);
      const float c = mp_float(mp_cos, a) * att, sn = mp_float(mp_sin, a) * att;
      const auto f = split(rows[1 + i * 32 + j], ',');
      INFO(rows[1 + i * 32 + j]);
      CHECK(parse_hex(f[2]) == static_cast<double>(c));
      CHECK(parse_hex(f[3]) == static_cast<double>(sn));
    }
}

namespace {

template <class T>
T read_le(const std::string& bytes, std::size_t offset) {
  using S = typename posenc::detail::float_format<T>::storage;
  S b = 0;
  for (std::size_t i = 0; i < sizeof(S); ++i)
    b = static_cast<S>(b | static_cast<S>(static_cast<S>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i)));
  return posenc::detail::float_format<T>::from_bits(b);
}

// The bin table against the oracle: element k of row i holds pair j of the layout.
template <class T>
void check_bin(const named_config& nc, const char* layout, std::uint64_t start, std::size_t n, bool fold) {
  strings args = cat({"rope", "--format", "bin", "--layout", layout, "--dtype", dtype<T>(), "--start",
                      std::to_string(start), "--positions", std::to_string(n)},
                     nc.flags);
  if (fold) args.push_back("--fold-attention");
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\n" << r.err);
  REQUIRE(r.status == 0);
  const std::size_t dim = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(nc.cfg));
  const std::size_t size = sizeof(typename posenc::detail::float_format<T>::storage);
  REQUIRE(r.out.size() == n * dim * 2 * size);
  const auto lay =
      std::string(layout) == "interleaved" ? posenc::rope::layout::interleaved : posenc::rope::layout::half_split;
  const posenc::verify::rope_table_oracle oracle(nc.cfg);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < dim / 2; ++j) {
      const auto want = oracle.sincos<T>(start + i, static_cast<int>(j), fold);
      for (int t = 0; t < 2; ++t) {
        // Independent of the library's pair_index: interleaved (2j, 2j+1), half-split (j, j + dim/2).
        const std::size_t k = lay == posenc::rope::layout::interleaved ? 2 * j + static_cast<std::size_t>(t)
                                                                       : j + static_cast<std::size_t>(t) * dim / 2;
        const std::size_t at = ((i * dim + k) * 2) * size;
        CHECK(dbits(exact(read_le<T>(r.out, at))) == dbits(exact(want.cos)));
        CHECK(dbits(exact(read_le<T>(r.out, at + size))) == dbits(exact(want.sin)));
      }
    }
}

// `emit rope --format bin` of a preset given by flags against rope::make_table of the preset
// itself, bit for bit: every element of every row, cos and sin. D is rotary_dim(preset).
template <class T, std::size_t D, posenc::rope::layout L>
void check_preset_table(const posenc::rope::config& preset, const strings& flags, std::uint64_t start) {
  constexpr std::size_t n = 6;
  const bool inter = L == posenc::rope::layout::interleaved;
  const strings args = cat({"rope", "--format", "bin", "--layout", inter ? "interleaved" : "half-split", "--dtype",
                            dtype<T>(), "--start", std::to_string(start), "--positions", std::to_string(n)},
                           flags);
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\n" << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(posenc::rope::rotary_dim(preset) == static_cast<int>(D));
  const auto t = posenc::rope::make_table<T, n, D, L>(preset, {.start = start});
  REQUIRE(t.ok());
  constexpr std::size_t size = sizeof(typename posenc::float_format<T>::storage);
  REQUIRE(r.out.size() == n * D * 2 * size);
  long diff = 0;
  for (std::size_t k = 0; k < n * D; ++k) {
    diff += !posenc::same_bits(read_le<T>(r.out, 2 * k * size), t.value.cos[k]);
    diff += !posenc::same_bits(read_le<T>(r.out, (2 * k + 1) * size), t.value.sin[k]);
  }
  CHECK(diff == 0);
}

}  // namespace

TEST_CASE("emit rope --format bin: size, layout and values", "[cli][emit]") {
  const auto cs = configs();
  check_bin<float>(cs[0], "half-split", 10, 3, false);
  check_bin<float>(cs[0], "interleaved", 10, 3, false);
  check_bin<double>(cs[2], "interleaved", 0, 2, false);
  check_bin<float16>(cs[1], "half-split", 70000, 2, true);
  check_bin<bfloat16>(cs[3], "interleaved", 9000, 2, false);
}

namespace {

// The literals of array `<name>_<part>[N][D] = { {..}, .. };` in a generated header.
std::vector<std::string> array_literals(const std::string& h, const std::string& decl) {
  const std::size_t at = h.find(decl);
  REQUIRE(at != std::string::npos);
  const std::size_t open = h.find("= {", at), close = h.find("\n};", at);
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  std::vector<std::string> out;
  for (const std::string& line : split(h.substr(open + 3, close - open - 3), '\n')) {
    if (line.empty()) continue;
    const std::size_t b = line.find('{'), e = line.find('}');
    REQUIRE(b != std::string::npos);
    REQUIRE(e != std::string::npos);
    for (std::string tok : split(line.substr(b + 1, e - b - 1), ',')) {
      while (!tok.empty() && tok.front() == ' ') tok.erase(0, 1);
      out.push_back(tok);
    }
  }
  return out;
}

// A C literal as the dtype's storage bits, little-endian bytes appended to `bytes`.
template <class T>
void literal_bytes(const std::string& lit, std::string& bytes) {
  std::uint64_t b = 0;
  if constexpr (std::is_same_v<T, double>) {
    b = dbits(parse_hex(lit));
  } else if constexpr (std::is_same_v<T, float>) {
    REQUIRE(lit.back() == 'f');
    const double d = parse_hex(lit.substr(0, lit.size() - 1));
    REQUIRE(static_cast<double>(static_cast<float>(d)) == d);
    b = std::bit_cast<std::uint32_t>(static_cast<float>(d));
  } else {
    REQUIRE(lit.size() == 6);
    REQUIRE(lit.substr(0, 2) == "0x");
    b = std::strtoull(lit.c_str(), nullptr, 16);
  }
  for (std::size_t i = 0; i < sizeof(typename posenc::detail::float_format<T>::storage); ++i)
    bytes += static_cast<char>((b >> (8 * i)) & 0xFFu);
}

template <class T>
void check_header(const named_config& nc, const char* layout, std::uint64_t start, std::size_t n, bool fold) {
  posenc_test::temp_dir dir;
  const std::string file = dir.file("table.h");
  strings common = cat({"rope", "--layout", layout, "--dtype", dtype<T>(), "--start", std::to_string(start),
                        "--positions", std::to_string(n)},
                       nc.flags);
  if (fold) common.push_back("--fold-attention");
  const strings args = cat(common, {"--format", "c", "--name", "tbl", "-o", file});
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\n" << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());
  CHECK(dir.files() == std::vector<std::string>{"table.h"});  // no temporary left behind
  const std::string h = posenc_test::read_all(file);
  CHECK(h.find("posenc " POSENC_VERSION_STRING) != std::string::npos);
  CHECK(h.find("#pragma once") != std::string::npos);
  CHECK(h.find("//   head_dim = " + std::to_string(nc.cfg.head_dim) + "\n") != std::string::npos);
  CHECK(h.find(std::string("layout ") + layout) != std::string::npos);
  // The checksum comment, and the same value as a constant.
  const std::string key = "checksum: FNV-1a 64";
  REQUIRE(h.find(key) != std::string::npos);
  const std::size_t colon = h.find("writes): 0x", h.find(key));
  REQUIRE(colon != std::string::npos);
  const std::uint64_t sum = std::strtoull(h.c_str() + colon + 9, nullptr, 16);
  char hexsum[32];
  std::snprintf(hexsum, sizeof hexsum, "0x%016llxu;", static_cast<unsigned long long>(sum));
  CHECK(h.find(std::string("tbl_checksum = ") + hexsum) != std::string::npos);
  const std::size_t dim = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(nc.cfg));
  const std::string D = std::to_string(dim), N = std::to_string(n);
  const std::string ctype = std::is_same_v<T, double> ? "double" : std::is_same_v<T, float> ? "float" : "uint16_t";
  const auto cos = array_literals(h, "_CONST " + ctype + " tbl_cos[" + N + "][" + D + "]");
  const auto sin = array_literals(h, "_CONST " + ctype + " tbl_sin[" + N + "][" + D + "]");
  REQUIRE(cos.size() == n * dim);
  REQUIRE(sin.size() == n * dim);
  // The parsed arrays, serialised in the bin order, hash to the checksum and equal --format bin.
  std::string bytes;
  for (std::size_t e = 0; e < n * dim; ++e) {
    literal_bytes<T>(cos[e], bytes);
    literal_bytes<T>(sin[e], bytes);
  }
  CHECK(fnv1a64(bytes) == sum);
  const cli_result bin = emit(cat(common, {"--format", "bin"}));
  REQUIRE(bin.status == 0);
  CHECK(bin.out == bytes);
  // And a few entries against the oracle (the bin test covers the rest of the mapping).
  const posenc::verify::rope_table_oracle oracle(nc.cfg);
  for (std::size_t i = 0; i < n; ++i) {
    const auto want = oracle.sincos<T>(start + i, 1, fold);
    const std::size_t k = std::string(layout) == "interleaved" ? 3 : 1 + dim / 2;  // second element of pair 1
    const T c = read_le<T>(bytes, (i * dim + k) * 2 * sizeof(typename posenc::detail::float_format<T>::storage));
    CHECK(dbits(exact(c)) == dbits(exact(want.cos)));
  }
}

}  // namespace

TEST_CASE("emit rope --format c: config, version, checksum, values", "[cli][emit]") {
  const auto cs = configs();
  check_header<double>(cs[0], "half-split", 0, 3, false);
  check_header<float>(cs[2], "interleaved", 123, 4, false);
  check_header<float16>(cs[1], "interleaved", 40000, 2, true);
  check_header<bfloat16>(cs[4], "half-split", 7, 2, true);
  // The checksum is FNV-1a 64 as published (Fowler-Noll-Vo test vector: "a" -> af63dc4c8601ec8c).
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cu);
}

namespace {

// The storage bytes of a CSV value (a hex float; bf16 prints as its exact float).
template <class T>
void csv_value_bytes(const std::string& text, std::string& bytes) {
  const double d = parse_hex(text);
  std::uint64_t b = 0;
  if constexpr (std::is_same_v<T, double>)
    b = dbits(d);
  else if constexpr (std::is_same_v<T, float>)
    b = std::bit_cast<std::uint32_t>(static_cast<float>(d));
  else
    b = std::bit_cast<std::uint32_t>(static_cast<float>(d)) >> 16;  // bfloat16: the float's top half
  for (std::size_t i = 0; i < sizeof(typename posenc::detail::float_format<T>::storage); ++i)
    bytes += static_cast<char>((b >> (8 * i)) & 0xFFu);
}

template <class T>
void check_freq_formats(const named_config& nc) {
  const strings args = cat({"rope-freq", "--dtype", dtype<T>()}, nc.flags);
  const cli_result csv = emit(args);
  const cli_result bin = emit(cat(args, {"--format", "bin"}));
  const cli_result hdr = emit(cat(args, {"--format", "c", "--name", "fq"}));
  INFO(posenc_test::describe_cli(args) << "\n" << csv.err << bin.err << hdr.err);
  REQUIRE(csv.status == 0);
  REQUIRE(bin.status == 0);
  REQUIRE(hdr.status == 0);
  // bin: the CSV's values, pairs then the attention factor, little-endian.
  std::string from_csv;
  const auto lines = split(csv.out, '\n');
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) csv_value_bytes<T>(lines[i].substr(lines[i].find(',') + 1), from_csv);
  const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(nc.cfg)) / 2;
  CHECK(from_csv.size() == (pairs + 1) * sizeof(typename posenc::detail::float_format<T>::storage));
  CHECK(bin.out == from_csv);
  // c: the same bytes in fq_inv_freq[pairs] and fq_attention_factor, and their checksum.
  const std::string& h = hdr.out;
  const std::string ctype = std::is_same_v<T, double> ? "double" : std::is_same_v<T, float> ? "float" : "uint16_t";
  const std::size_t at = h.find("_CONST " + ctype + " fq_inv_freq[" + std::to_string(pairs) + "] = {\n");
  REQUIRE(at != std::string::npos);
  std::string from_c;
  for (const std::string& line : split(h.substr(h.find('\n', at) + 1, h.find("\n};", at) - h.find('\n', at) - 1), '\n'))
    literal_bytes<T>(line.substr(2, line.find(',') - 2), from_c);
  const std::string key = "fq_attention_factor = ";
  const std::size_t a = h.find(key);
  REQUIRE(a != std::string::npos);
  literal_bytes<T>(h.substr(a + key.size(), h.find(';', a) - a - key.size()), from_c);
  CHECK(from_c == bin.out);
  char hexsum[40];
  std::snprintf(hexsum, sizeof hexsum, "fq_checksum = 0x%016llxu;", static_cast<unsigned long long>(fnv1a64(bin.out)));
  CHECK(h.find(hexsum) != std::string::npos);
  CHECK(h.find("//   head_dim = " + std::to_string(nc.cfg.head_dim) + "\n") != std::string::npos);
}

}  // namespace

TEST_CASE("emit rope-freq --format bin and c: the CSV's values, with a checksum", "[cli][emit]") {
  const auto cs = configs();
  check_freq_formats<double>(cs[0]);
  check_freq_formats<float>(cs[1]);  // YaRN: an attention factor other than 1
  check_freq_formats<bfloat16>(cs[3]);
  const cli_result dflt = emit(cat({"rope-freq", "--format", "c"}, cs[2].flags));
  REQUIRE(dflt.status == 0);
  CHECK(dflt.out.find("posenc_rope_freq_inv_freq[") != std::string::npos);  // the default name
  const cli_result dec = emit(cat({"rope-freq", "--format", "bin", "--decimal"}, cs[2].flags));
  CHECK(dec.status == 2);
  CHECK(dec.err.find("--decimal applies to --format csv only") != std::string::npos);
}

TEST_CASE("emit -o: the file holds exactly what stdout would, nothing else is left", "[cli][emit]") {
  posenc_test::temp_dir dir;
  const std::string file = dir.file("freq.csv");
  const strings args = cat({"rope-freq", "--dtype", "f32"}, configs()[0].flags);
  const cli_result to_stdout = emit(args);
  REQUIRE(to_stdout.status == 0);
  const cli_result to_file = emit(cat(args, {"-o", file}));
  REQUIRE(to_file.status == 0);
  CHECK(to_file.out.empty());
  CHECK(posenc_test::read_all(file) == to_stdout.out);
  const cli_result again = emit(cat(args, {"--output", file}));  // replaces an existing file
  REQUIRE(again.status == 0);
  CHECK(posenc_test::read_all(file) == to_stdout.out);
  CHECK(dir.files() == std::vector<std::string>{"freq.csv"});
}

TEST_CASE("emit -o: a write that fails part way leaves no file and exits non-zero", "[cli][emit]") {
  // The shell limits the file size to 1 KiB and ignores SIGXFSZ, so the CLI's write() fails with
  // EFBIG part way through a table of several KiB: the temporary file must not be renamed over
  // the target, and the exit status must say so.
  posenc_test::temp_dir dir;
  const std::string file = dir.file("big.csv");
  const strings args = cat({"emit", "rope", "--positions", "64", "-o", file}, configs()[0].flags);
  strings sh{"-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", POSENC_CLI_PATH};
  sh.insert(sh.end(), args.begin(), args.end());
  const cli_result r = posenc_test::run_cli("/bin/sh", sh);
  INFO(r.err);
  CHECK(r.status != 0);
  CHECK(r.status != -1);  // exited, not killed by the signal
  CHECK(r.out.empty());
  CHECK(dir.files().empty());  // neither the target nor a temporary is left
  const cli_result whole = emit(cat({"rope", "--positions", "64"}, configs()[0].flags));
  CHECK(whole.out.size() > 4096);  // the table really is bigger than the limit
}

TEST_CASE("emit -o: a path the tool cannot write is bad input, exit 2, one line naming it", "[cli][emit]") {
  // (A read-only directory is not among the cases: the tests may run as root, whom permissions do
  // not stop.) The directory given as FILE must be left as it was, with nothing beside it.
  posenc_test::temp_dir dir;
  const std::string plain = dir.file("plain.txt");
  {
    std::FILE* f = std::fopen(plain.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fclose(f);
  }
  const std::string sub = dir.file("sub");
  REQUIRE(::mkdir(sub.c_str(), 0755) == 0);
  const std::string cases[] = {dir.file("no/such/dir/t.csv"), plain + "/t.csv", sub};
  for (const std::string& target : cases) {
    const cli_result r = emit(cat({"rope", "--positions", "2", "-o", target}, configs()[0].flags));
    INFO(target << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("cannot write '" + dir.path()) != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
  }
  std::vector<std::string> left = dir.files();
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<std::string>{"plain.txt", "sub"});
  ::rmdir(sub.c_str());
}

TEST_CASE("emit: every error class exits 2 with one line, no stdout and no file", "[cli][emit]") {
  const strings llama = configs()[0].flags;
  const strings yarn_af = {"--head-dim",
                           "8",
                           "--rope-type",
                           "yarn",
                           "--factor",
                           "4",
                           "--original-max-position-embeddings",
                           "4096",
                           "--attention-factor",
                           "70000"};
  struct bad_case {
    strings args;
    std::string needle;  // part of the message
  };
  const std::vector<bad_case> cases = {
      {{}, "missing <what>"},
      {{"table", "--head-dim", "8"}, "unknown table 'table'"},
      {{"rope-freq"}, "--head-dim is required"},
      {{"rope-freq", "--head-dim", "8", "--bogus", "1"}, "unknown flag '--bogus'"},
      {{"rope-freq", "--head-dim", "8", "--rope-theta", "1e"}, "--rope-theta is not a number: '1e'"},
      {{"rope-freq", "--head-dim", "8", "--rope-theta", "nan"}, "--rope-theta must be finite"},
      {{"rope-freq", "--head-dim", "8x"}, "--head-dim must be an integer"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "ntk2"}, "invalid value 'ntk2' for --rope-type"},
      {{"rope-freq", "--head-dim", "8", "--dtype", "f8"}, "invalid value 'f8' for --dtype"},
      // validate()'s preconditions, each named.
      {{"rope-freq", "--head-dim", "0"}, "head_dim must be positive"},
      {{"rope-freq", "--head-dim", "7"}, "rotary dim must be even"},
      {{"rope-freq", "--head-dim", "8", "--partial-rotary-factor", "1.5"}, "partial_rotary_factor must be in (0, 1]"},
      {{"rope-freq", "--head-dim", "8", "--rope-theta", "1"}, "rope_theta (the base) must be finite and > 1"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "linear", "--factor", "-2"}, "factor must be positive"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "yarn", "--factor", "4", "--original-max-position-embeddings",
        "4096", "--beta-fast", "1", "--beta-slow", "2"},
       "beta_fast must exceed beta_slow"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "llama3", "--factor", "8", "--original-max-position-embeddings",
        "8192", "--low-freq-factor", "4", "--high-freq-factor", "1"},
       "high_freq_factor must not be below low_freq_factor"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "longrope", "--factor", "4",
        "--original-max-position-embeddings", "4096", "--short-factor", "1,2,3", "--long-factor", "1,2,3,4"},
       "short_factor must have rotary_dim/2 entries"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "longrope", "--factor", "4",
        "--original-max-position-embeddings", "4096", "--short-factor", "1,2,,4"},
       "--short-factor entry 2 is empty"},
      {{"rope-freq", "--head-dim", "8", "--rope-type", "dynamic", "--factor", "2"},
       "dynamic needs max_position_embeddings"},
      {{"rope-freq", "--head-dim", "8", "--attention-factor", "0"}, "attention_factor must be positive"},
      {{"rope-freq", "--head-dim", "8", "--max-position-embeddings", "-1"}, "position counts must be in [0, 2^53]"},
      // Positions.
      {cat({"rope"}, llama), "--positions N is required"},
      {cat({"rope", "--positions", "0"}, llama), "--positions must be in [1, 2097152]"},
      {cat({"rope", "--positions", "2097153", "--head-dim", "2"}, {}), "--positions must be in [1, 2097152]"},
      {cat({"rope", "--positions", "2", "--start", "2097152"}, llama), "positions past 2^21"},
      {cat({"rope", "--positions", "1", "--start", "2097153"}, llama), "--start must be in [0, 2097152]"},
      {cat({"rope", "--positions", "262145"}, llama), "table too large"},
      {cat({"rope-freq", "--positions", "4"}, llama), "--positions applies to 'emit rope' only"},
      {cat({"rope", "--positions", "4", "--format", "pdf"}, llama), "invalid value 'pdf' for --format"},
      {cat({"rope", "--positions", "4", "--layout", "zigzag"}, llama), "invalid value 'zigzag' for --layout"},
      {cat({"rope", "--positions", "4", "--format", "c", "--name", "1abc"}, llama), "--name must be a C identifier"},
      {cat({"rope", "--positions", "4", "--format", "bin", "--decimal"}, llama),
       "--decimal applies to --format csv only"},
      // Policy and overflow.
      {cat({"rope-freq", "--policy", "fast"}, llama), "invalid value 'fast' for --policy"},
      {cat({"rope", "--positions", "2", "--dtype", "f16", "--fold-attention"}, yarn_af), "overflows f16"},
      {cat({"rope-freq", "--dtype", "f16"}, yarn_af), "attention factor overflows f16"},
  };
  for (const auto& c : cases) {
    posenc_test::temp_dir dir;
    const std::string file = dir.file("out.bin");
    for (const bool to_file : {false, true}) {
      const strings args = to_file ? cat(c.args, {"-o", file}) : c.args;
      const cli_result r = emit(args);
      INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(r.err.rfind("posenc: error: ", 0) == 0);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.back() == '\n');
      CHECK(r.err.find(c.needle) != std::string::npos);
      CHECK(dir.files().empty());
    }
  }
}

TEST_CASE("emit rope --rotary-dim: the GPT-J preset's table, bit for bit", "[cli][emit][config]") {
  // rope::models::gpt_j: head_dim 256, rotary_dim 64 (GPT-J's config.json "rotary_dim": 64).
  using posenc::rope::layout;
  const posenc::rope::config& gptj = posenc::rope::models::gpt_j;
  REQUIRE(gptj.head_dim == 256);
  REQUIRE(gptj.rotary_dim == 64);
  const strings flags{"--head-dim", "256", "--rope-theta", "10000", "--rotary-dim", "64"};
  check_preset_table<float, 64, layout::interleaved>(gptj, flags, 0);  // GPT-J's own layout
  check_preset_table<bfloat16, 64, layout::half_split>(gptj, flags, 2040);
  check_preset_table<double, 64, layout::interleaved>(gptj, flags, 100000);
  // Without --rotary-dim the same head is 256 wide: the flag reached the field.
  const cli_result full = emit({"rope", "--format", "bin", "--dtype", "f32", "--positions", "1", "--head-dim", "256"});
  REQUIRE(full.status == 0);
  CHECK(full.out.size() == 256 * 2 * 4);
}

TEST_CASE("emit rope --proportional: HF v5's proportional rope, bit for bit", "[cli][emit][config]") {
  // Gemma-4-style full-attention layer, scaled down: exponents over head_dim 64, the first
  // floor(0.25 * 64 / 2) = 8 pairs rotate, pairs 8..31 are the identity.
  using posenc::rope::layout;
  constexpr posenc::rope::config prop{
      .head_dim = 64, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true};
  const strings flags{"--head-dim",    "64", "--rope-theta", "1000000", "--partial-rotary-factor", "0.25",
                      "--proportional"};
  check_preset_table<float, 64, layout::half_split>(prop, flags, 3);
  check_preset_table<float16, 64, layout::interleaved>(prop, flags, 70000);
  // The identity pairs: pair 8 at position 5 is {cos 1, sin 0} in the CSV.
  const auto lines = ok_lines(cat({"rope", "--positions", "1", "--start", "5", "--dtype", "f32"}, flags));
  REQUIRE(lines.size() == 1 + 32);
  CHECK(lines[1 + 8] == "5,8,0x1p+0,0x0p+0");
  CHECK(lines[1 + 7] != "5,7,0x1p+0,0x0p+0");
}

// ---- --policy ggml-float32 (issue 20: every policy of the library and Python in the CLI too) ----

// The expected values are the library's own functions, rope::angle / rope::sincos with
// rope::ggml_float32 (their float32 recurrence is checked against ggml's arithmetic in
// test_rope_policy.cpp); the CLI must write exactly them, converted as HF's .to(dtype) does.
TEST_CASE("emit --policy ggml-float32 writes rope::ggml_float32's values", "[cli][emit][policy]") {
  using posenc::rope::scaling;
  const struct {
    strings flags;
    posenc::rope::config cfg;
  } cases[] = {
      {{"--head-dim", "64", "--rope-theta", "500000"}, {.head_dim = 64, .rope_theta = 500000.0}},
      {{"--head-dim", "32", "--rope-type", "linear", "--factor", "4"},
       {.head_dim = 32, .rope_type = scaling::linear, .factor = 4.0}},
  };
  for (const auto& c : cases) {
    const posenc::rope::checked_config cc{c.cfg};
    REQUIRE(cc.ok());
    const std::size_t pairs = static_cast<std::size_t>(c.cfg.head_dim / 2);
    SECTION("rope-freq: inv_freq[j] is ggml's angle of pair j at position 1; no attention factor") {
      const auto lines = ok_lines(cat({"rope-freq", "--dtype", "f32", "--policy", "ggml-float32"}, c.flags));
      REQUIRE(lines.size() == pairs + 2);
      for (std::size_t j = 0; j < pairs; ++j) {
        const auto want = posenc::rope::angle(posenc::rope::ggml_float32, cc, 1, static_cast<int>(j));
        REQUIRE(want.ok());
        INFO(lines[j + 1]);
        CHECK(dbits(parse_hex(split(lines[j + 1], ',')[1])) == dbits(static_cast<double>(want.value)));
      }
      CHECK(lines.back() == "attention_factor,0x1p+0");
    }
    SECTION("rope: cos/sin are rope::sincos(ggml_float32), in f32 and bf16, folded or not") {
      for (const char* fold : {"", "--fold-attention"})
        for (const char* t : {"f32", "bf16"}) {
          strings args =
              cat({"rope", "--dtype", t, "--start", "70000", "--positions", "3", "--policy", "ggml-float32"}, c.flags);
          if (*fold) args.push_back(fold);
          const auto lines = ok_lines(args);
          REQUIRE(lines.size() == 3 * pairs + 1);
          for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < pairs; ++j) {
              double want_cos = 0, want_sin = 0;
              if (std::string(t) == "f32") {
                const auto r =
                    posenc::rope::sincos<float>(posenc::rope::ggml_float32, cc, 70000 + i, static_cast<int>(j));
                REQUIRE(r.ok());
                want_cos = r.value.cos;
                want_sin = r.value.sin;
              } else {
                const auto r =
                    posenc::rope::sincos<bfloat16>(posenc::rope::ggml_float32, cc, 70000 + i, static_cast<int>(j));
                REQUIRE(r.ok());
                want_cos = exact(r.value.cos);
                want_sin = exact(r.value.sin);
              }
              const auto f = split(lines[1 + i * pairs + j], ',');
              INFO(t << " " << fold << " " << lines[1 + i * pairs + j]);
              CHECK(dbits(parse_hex(f[2])) == dbits(want_cos));
              CHECK(dbits(parse_hex(f[3])) == dbits(want_sin));
            }
        }
    }
  }
}

// The reason is the library's (rope::applies, tested in test_rope_policy.cpp), the same words as
// Python's ValueError (python/tests/test_errors.py).
TEST_CASE("emit --policy ggml-float32 refuses the scalings ggml does not have: exit 2, one line naming rope_type",
          "[cli][emit][policy]") {
  const std::string covers = "ggml's float32 recurrence covers rope_type default and linear only";
  const struct {
    strings flags;
    std::string reason, says;
  } cases[] = {
      {{"--head-dim", "8", "--rope-type", "yarn", "--factor", "4", "--original-max-position-embeddings", "4096"},
       covers,
       "(this config: rope_type yarn)"},
      {{"--head-dim", "8", "--rope-type", "llama3", "--factor", "8", "--original-max-position-embeddings", "8192"},
       covers,
       "(this config: rope_type llama3)"},
      {{"--head-dim", "8", "--rope-type", "ntk", "--factor", "2"}, covers, "(this config: rope_type ntk)"},
      {{"--head-dim", "8", "--partial-rotary-factor", "0.5", "--proportional"},
       "ggml's float32 recurrence does not cover proportional RoPE",
       "(this config: rope_type default, proportional)"},
  };
  for (const auto& c : cases)
    for (const strings& table : {strings{"rope-freq"}, strings{"rope", "--positions", "2"}}) {
      const strings args = cat(cat(table, c.flags), {"--policy", "ggml-float32"});
      const cli_result r = emit(args);
      INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(r.err == "posenc: error: emit " + table[0] + ": --policy ggml-float32: " + c.reason + " " + c.says + "\n");
    }
}

// ---- the two spellings of a name (issue 20: the CLI and Python agree) ----

TEST_CASE("emit rope: Python's spellings give the canonical spellings' bytes", "[cli][emit][spelling]") {
  const strings cfg = {"--head-dim", "16", "--rope-theta", "500000"};
  const struct {
    strings canonical, alternative;
  } pairs[] = {
      {{"--layout", "half-split"}, {"--layout", "half_split"}},
      {{"--layout", "interleaved", "--policy", "hf-float32"}, {"--layout", "interleaved", "--policy", "hf_float32"}},
      {{"--policy", "ggml-float32"}, {"--policy", "ggml_float32"}},
      {{"--dtype", "f64"}, {"--dtype", "float64"}},
      {{"--dtype", "f32"}, {"--dtype", "float32"}},
      {{"--dtype", "bf16"}, {"--dtype", "bfloat16"}},
      {{"--dtype", "f16"}, {"--dtype", "float16"}},
      {{"--dtype", "f64"}, {"--dtype", "double"}},
      {{"--dtype", "f32"}, {"--dtype", "single"}},
      {{"--dtype", "f32"}, {"--dtype", "float"}},
      {{"--dtype", "f16"}, {"--dtype", "half"}},
      {{"--layout", "half-split"}, {"--layout", "neox"}},
      {{"--layout", "interleaved"}, {"--layout", "gptj"}},
  };
  // --format c and safetensors carry the command line (a comment, the metadata): the canonical word.
  for (const char* format : {"csv", "c", "safetensors"})
    for (const char* table : {"rope", "rope-freq"})
      for (const auto& p : pairs) {
        if (std::string(table) == "rope-freq" && p.canonical[0] == "--layout") continue;  // rope's flag only
        strings head = {table, "--format", format};
        if (std::string(table) == "rope") head = cat(head, {"--positions", "3", "--start", "9"});
        const cli_result a = emit(cat(cat(head, cfg), p.canonical)), b = emit(cat(cat(head, cfg), p.alternative));
        INFO(posenc_test::describe_cli(cat(cat(head, cfg), p.alternative)) << "\nstderr: " << b.err);
        if (a.status == 2 && a.err.find("not available") != std::string::npos) continue;  // built without json
        CHECK(a.status == 0);
        CHECK(b.status == 0);
        CHECK(!a.out.empty());
        CHECK(b.out == a.out);
      }
}

namespace {

// The bytes a header's comment states for its arrays ("// 2 arrays x 3 x 64 float: 1,536 bytes").
std::uint64_t stated_bytes(const std::string& h, const std::string& arrays) {
  const std::size_t at = h.find("\n// " + arrays + " x ");
  REQUIRE(at != std::string::npos);
  const std::size_t colon = h.find(": ", at), end = h.find(" bytes", at);
  REQUIRE(colon < end);
  std::string digits;
  for (const char c : h.substr(colon + 2, end - colon - 2))
    if (c != ',') digits += c;
  return std::stoull(digits);
}

// --layout pairs: the CSV's (position, pair) values once each (bin: cos then sin, in the CSV's
// order), the header's arrays [N][rotary_dim/2] holding the bin's values, and half the bytes.
template <class T>
void check_pairs(const named_config& nc, std::uint64_t start, std::size_t n) {
  const strings common = cat(
      {"rope", "--dtype", dtype<T>(), "--start", std::to_string(start), "--positions", std::to_string(n)}, nc.flags);
  INFO(posenc_test::describe_cli(common));
  std::string from_csv;
  const auto lines = ok_lines(common);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto f = split(lines[i], ',');
    REQUIRE(f.size() == 4);
    csv_value_bytes<T>(f[2], from_csv);
    csv_value_bytes<T>(f[3], from_csv);
  }
  const strings pairs = cat(common, {"--layout", "pairs"});
  CHECK(emit(pairs).out == emit(common).out);  // CSV is per pair in every layout
  const cli_result bin = emit(cat(pairs, {"--format", "bin"})), full = emit(cat(common, {"--format", "bin"}));
  REQUIRE(bin.status == 0);
  REQUIRE(full.status == 0);
  CHECK(bin.out == from_csv);
  CHECK(2 * bin.out.size() == full.out.size());
  const cli_result h = emit(cat(pairs, {"--format", "c", "--name", "tbl"}));
  const cli_result hf = emit(cat(common, {"--format", "c", "--name", "tbl"}));
  REQUIRE(h.status == 0);
  REQUIRE(hf.status == 0);
  CHECK(h.out.find("layout pairs,") != std::string::npos);
  const std::size_t dim = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(nc.cfg));
  const std::string P = std::to_string(dim / 2), N = std::to_string(n);
  CHECK(h.out.find("tbl_pairs = " + P + "u;") != std::string::npos);
  const std::string ctype = std::is_same_v<T, double> ? "double" : std::is_same_v<T, float> ? "float" : "uint16_t";
  const auto cos = array_literals(h.out, "_CONST " + ctype + " tbl_cos[" + N + "][" + P + "]");
  const auto sin = array_literals(h.out, "_CONST " + ctype + " tbl_sin[" + N + "][" + P + "]");
  REQUIRE(cos.size() == n * dim / 2);
  REQUIRE(sin.size() == cos.size());
  std::string bytes;
  for (std::size_t e = 0; e < cos.size(); ++e) {
    literal_bytes<T>(cos[e], bytes);
    literal_bytes<T>(sin[e], bytes);
  }
  CHECK(bytes == bin.out);
  // The stated bytes are the arrays' (the bin's, which holds both), and half the expanded header's.
  CHECK(stated_bytes(h.out, "2 arrays") == bin.out.size());
  CHECK(stated_bytes(hf.out, "2 arrays") == full.out.size());
  if (dim < static_cast<std::size_t>(nc.cfg.head_dim))
    CHECK(h.out.find("pass through (no entry)") != std::string::npos);
}

}  // namespace

TEST_CASE("emit rope --layout pairs: one cos and sin per pair, half the bytes, the header says them", "[cli][emit]") {
  const auto cs = configs();
  check_pairs<double>(cs[0], 0, 3);
  check_pairs<float>(cs[2], 123, 4);  // partial rotary: the pairs cover rotary_dim of head_dim
  check_pairs<bfloat16>(cs[1], 40000, 2);
  // rope-freq and the other schemes' headers state their arrays' bytes too.
  const cli_result f = emit({"rope-freq", "--head-dim", "64", "--dtype", "f32", "--format", "c"});
  REQUIRE(f.status == 0);
  CHECK(stated_bytes(f.out, "1 array") == 32 * 4);
  const cli_result a = emit({"alibi", "--heads", "12", "--dtype", "bf16", "--format", "c"});
  REQUIRE(a.status == 0);
  CHECK(stated_bytes(a.out, "1 array") == 12 * 2);
  // A bad --layout names the choices.
  const cli_result bad = emit({"rope", "--head-dim", "8", "--positions", "2", "--layout", "pair"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("expected one of: half-split, interleaved, pairs") != std::string::npos);
}
