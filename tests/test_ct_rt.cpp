// Compile time equals run time: every public function of the numerics core gives the same bits
// when evaluated by the compiler (constant evaluation) and by the processor (run time).
//
// For each function and overload, a fixed set of about 200 arguments (a constexpr std::array,
// curated hard cases plus a constexpr SplitMix64 stream over the ranges that matter) is evaluated
// in constant expressions, in chunks of 8 per constexpr lambda so that each constant evaluation
// stays well inside GCC's and Clang's step limits, and again at run time with each argument read
// through a volatile so that the compiler cannot fold the call. Results must be bitwise equal.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "ct_rt_cases.hpp"

namespace {

using namespace posenc_tests::ct_rt;  // the argument sets, functions and ct_results

// ---- bitwise comparison ----

template <class T>
auto bits_of(const T& v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(v);
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<std::uint64_t>(std::bit_cast<std::uint32_t>(v));
  } else {  // sincos_result
    return std::pair{bits_of(v.sin), bits_of(v.cos)};
  }
}

// Run time: the arguments are read through a volatile pointer, so the compiler cannot know them
// and cannot fold the calls.
template <const auto& Args, auto F>
void compare(const char* name) {
  constexpr auto& ct = ct_results<Args, F>;
  using A = std::remove_cvref_t<decltype(Args[0])>;
  const A* volatile args = Args.data();
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const A arg = args[i];
    const auto rt = F(arg);
    if (bits_of(rt) != bits_of(ct[i])) {
      ++mismatches;
      UNSCOPED_INFO(name << ": argument #" << i << " differs between compile time and run time");
    }
  }
  std::printf("[ct==rt] %-28s %zu arguments, %zu mismatches\n", name, count, mismatches);
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("compile time equals run time: sin, cos, sincos", "[ct_rt]") {
  compare<trig_d, f_sin_d>("sin(double)");
  compare<trig_d, f_cos_d>("cos(double)");
  compare<trig_d, f_sincos_d>("sincos(double)");
  compare<trig_f, f_sin_f>("sin(float)");
  compare<trig_f, f_cos_f>("cos(float)");
  compare<trig_f, f_sincos_f>("sincos(float)");
}

// On GCC the functions above take the compiler's folds in constant evaluation (math/evaluation.hpp);
// posenc's own evaluation must give the same bits at compile time as at run time too.
TEST_CASE("compile time equals run time: posenc's own evaluation of sin, cos, sincos, exp, log", "[ct_rt]") {
  compare<trig_d, f_sin_d_own>("sin(double, own)");
  compare<trig_d, f_cos_d_own>("cos(double, own)");
  compare<trig_d, f_sincos_d_own>("sincos(double, own)");
  compare<trig_f, f_sin_f_own>("sin(float, own)");
  compare<trig_f, f_cos_f_own>("cos(float, own)");
  compare<trig_f, f_sincos_f_own>("sincos(float, own)");
  compare<exp_d, f_exp_d_own>("exp(double, own)");
  compare<exp_f, f_exp_f_own>("exp(float, own)");
  compare<log_d, f_log_d_own>("log(double, own)");
  compare<log_f, f_log_f_own>("log(float, own)");
}

TEST_CASE("compile time equals run time: exp, log, sqrt, pow", "[ct_rt]") {
  compare<exp_d, f_exp_d>("exp(double)");
  compare<exp_f, f_exp_f>("exp(float)");
  compare<log_d, f_log_d>("log(double)");
  compare<log_f, f_log_f>("log(float)");
  compare<sqrt_d, f_sqrt_d>("sqrt(double)");
  compare<sqrt_f, f_sqrt_f>("sqrt(float)");
  compare<pow_d, f_pow_d>("pow(double)");
  compare<pow_f, f_pow_f>("pow(float)");
  compare<pow_f, f_sleef_powf>("sleef_powf");
  compare<sleef_pow_f, f_sleef_powf>("sleef_powf (RoPE)");
}

TEST_CASE("compile time equals run time: rope_sincos, sincos_product", "[ct_rt]") {
  compare<rope_args, f_rope_f>("rope_sincos<float>");
  compare<rope_args, f_rope_d>("rope_sincos<double>");
  compare<rope_args, f_product_d>("sincos_product<double>");
}
