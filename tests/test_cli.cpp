// test_cli.cpp: runs the `posenc` executable (path in POSENC_CLI_PATH) and checks its output,
// error messages and exit codes. Expected values come from MPFR: the argument text is read by
// mpfr_set_str at T's precision and exponent range (so the oracle also checks that the tool rounds
// decimal text once, straight to T), the function is evaluated correctly rounded in T's format,
// and the result is printed with %a and compared as text.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <posenc/version.hpp>

#include "sample_count.hpp"

#ifndef POSENC_CLI_PATH
#error "POSENC_CLI_PATH must name the posenc executable (tests/CMakeLists.txt defines it)"
#endif

// environ: <unistd.h> declares it (g++ and clang++ define _GNU_SOURCE for C++).
namespace {

struct run_result {
  int status = -1;  // exit code, or -1 if the process did not exit normally
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Two scratch files for the child's stdout and stderr (files, not pipes: no deadlock on output).
struct scratch_files {
  std::string out, err;
  scratch_files() {
    const char* dir = std::getenv("TMPDIR");
    const std::string base = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/posenc_cli_";
    out = make(base + "out_XXXXXX");
    err = make(base + "err_XXXXXX");
  }
  ~scratch_files() {
    std::remove(out.c_str());
    std::remove(err.c_str());
  }
  static std::string make(std::string templ) {
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    close(fd);
    return buf.data();
  }
};

run_result run(const std::vector<std::string>& args) {
  static scratch_files files;  // test code, not a library header
  std::vector<std::string> argv_s{POSENC_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, files.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, files.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  run_result r;
  if (rc != 0) {
    r.err = "posix_spawn failed";
    return r;
  }
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (WIFEXITED(wstatus)) r.status = WEXITSTATUS(wstatus);
  r.out = slurp(files.out);
  r.err = slurp(files.err);
  return r;
}

std::string describe(const std::vector<std::string>& args) {
  std::string s = "posenc";
  for (const auto& a : args) s += " '" + a + "'";
  return s;
}

// ---- the MPFR oracle -----------------------------------------------------------------------

enum class fn { sin, cos, exp, log, pow, sqrt };
const char* fn_name(fn f) {
  switch (f) {
    case fn::sin: return "sin";
    case fn::cos: return "cos";
    case fn::exp: return "exp";
    case fn::log: return "log";
    case fn::pow: return "pow";
    case fn::sqrt: return "sqrt";
  }
  return "?";
}

// Sets MPFR's exponent range to T's for the lifetime of the object, so that mpfr_subnormalize
// produces T's subnormals and overflow gives infinity exactly where T overflows.
template <class T>
struct format_scope {
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  format_scope() {
    constexpr int p = std::numeric_limits<T>::digits;
    mpfr_set_emin(std::numeric_limits<T>::min_exponent - p + 1);
    mpfr_set_emax(std::numeric_limits<T>::max_exponent);
  }
  ~format_scope() {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
};

template <class T>
T mpfr_to(mpfr_srcptr v) {
  if constexpr (std::is_same_v<T, float>)
    return mpfr_get_flt(v, MPFR_RNDN);
  else
    return mpfr_get_d(v, MPFR_RNDN);
}

// RN_T of the decimal or hex text, read once by MPFR.
template <class T>
T mpfr_read(const std::string& text) {
  format_scope<T> scope;
  mpfr_t v;
  mpfr_init2(v, std::numeric_limits<T>::digits);
  char* end = nullptr;
  const int t = mpfr_strtofr(v, text.c_str(), &end, 0, MPFR_RNDN);
  REQUIRE(*end == '\0');  // the whole text is a number
  mpfr_subnormalize(v, t, MPFR_RNDN);
  const T r = mpfr_to<T>(v);
  mpfr_clear(v);
  return r;
}

// RN_T(f(x[, y])) for T-valued x, y.
template <class T>
T mpfr_eval(fn f, T x, T y) {
  format_scope<T> scope;
  constexpr int p = std::numeric_limits<T>::digits;
  mpfr_t a, b, r;
  mpfr_inits2(p, a, b, r, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(a, static_cast<double>(x), MPFR_RNDN);  // exact: T fits in double
  mpfr_set_d(b, static_cast<double>(y), MPFR_RNDN);
  int t = 0;
  switch (f) {
    case fn::sin: t = mpfr_sin(r, a, MPFR_RNDN); break;
    case fn::cos: t = mpfr_cos(r, a, MPFR_RNDN); break;
    case fn::exp: t = mpfr_exp(r, a, MPFR_RNDN); break;
    case fn::log: t = mpfr_log(r, a, MPFR_RNDN); break;
    case fn::pow: t = mpfr_pow(r, a, b, MPFR_RNDN); break;
    case fn::sqrt: t = mpfr_sqrt(r, a, MPFR_RNDN); break;
  }
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const T out = mpfr_to<T>(r);
  mpfr_clears(a, b, r, static_cast<mpfr_ptr>(nullptr));
  return out;
}

std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

template <class T>
const char* type_flag() {
  return std::is_same_v<T, float> ? "f32" : "f64";
}

// Runs `posenc math f xs [ys] --type T` and compares with MPFR; returns the expected value.
template <class T>
T check_math(fn f, const std::string& xs, const std::string& ys = "") {
  const T x = mpfr_read<T>(xs);
  const T y = f == fn::pow ? mpfr_read<T>(ys) : T(0);
  const T expected = mpfr_eval<T>(f, x, y);
  REQUIRE(std::isfinite(expected));  // a test-case bug otherwise: infinite results are errors
  std::vector<std::string> args{"math", fn_name(f), xs};
  if (f == fn::pow) args.push_back(ys);
  args.insert(args.end(), {"--type", type_flag<T>()});
  const run_result r = run(args);
  INFO(describe(args) << " -> status " << r.status << ", stderr: " << r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == hex(static_cast<double>(expected)) + "\n");
  return expected;
}

// The argument text: hex float, or a decimal with more digits than T holds (so that reading it
// through another type could round twice).
template <class T>
std::string text_of(double v, int style) {
  char buf[64];
  if (style == 0)
    std::snprintf(buf, sizeof buf, "%a", v);
  else
    std::snprintf(buf, sizeof buf, "%.21g", v);
  return buf;
}

double random_double(std::mt19937_64& g, int emin, int emax, bool allow_negative) {
  std::uniform_int_distribution<int> e(emin, emax);
  std::uniform_real_distribution<double> m(1.0, 2.0);
  const double mant = m(g);  // drawn in a fixed order (argument evaluation order is unspecified)
  const double v = std::ldexp(mant, e(g));
  return (allow_negative && (g() & 1)) ? -v : v;
}

template <class T>
void random_checks(std::mt19937_64& g, int per_function) {
  const bool f32 = std::is_same_v<T, float>;
  for (int i = 0; i < per_function; ++i) {
    const int style = i % 2;
    check_math<T>(fn::sin, text_of<T>(random_double(g, -30, f32 ? 60 : 300, true), style));
    check_math<T>(fn::cos, text_of<T>(random_double(g, -30, f32 ? 60 : 300, true), style));
    // exp: |x| < 64 (f32) or 512 (f64), so the result stays finite.
    check_math<T>(fn::exp, text_of<T>(random_double(g, -40, f32 ? 5 : 8, true), style));
    check_math<T>(fn::log, text_of<T>(random_double(g, f32 ? -126 : -1022, f32 ? 127 : 1023, false), style));
    check_math<T>(fn::sqrt, text_of<T>(random_double(g, f32 ? -140 : -1070, f32 ? 127 : 1023, false), style));
    // pow: x in [2^-3, 2^4), |y| < 16, so |y log2 x| < 64 and the result stays finite.
    const double px = random_double(g, -3, 3, false);
    const double py = random_double(g, -4, 3, true);
    check_math<T>(fn::pow, text_of<T>(px, style), text_of<T>(py, style));
  }
}

}  // namespace

TEST_CASE("cli: --version, --help, help <command>", "[cli]") {
  const auto v = run({"--version"});
  CHECK(v.status == 0);
  CHECK(v.out == std::string("posenc ") + POSENC_VERSION_STRING + "\n");
  CHECK(v.err.empty());
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"},
                                               {"help"},
                                               {"help", "math"},
                                               {"math", "--help"},
                                               {"math", "sin", "--help"}}) {
    const auto h = run(args);
    INFO(describe(args));
    CHECK(h.status == 0);
    CHECK(h.out.rfind("usage: posenc", 0) == 0);
    CHECK(h.err.empty());
  }
  CHECK(run({"help", "math"}).out.find("--type") != std::string::npos);
}

// One spawn per check: 240 spawns in all were 25 s of the sanitizer build's test time, where the
// CLI's parsing and printing under the sanitizers is what the draw is for (sample_count.hpp: GCC and
// Clang draw 20 per function each from their own streams, the sanitizer build 4).
TEST_CASE("cli: math matches MPFR at random f64 and f32 arguments", "[cli]") {
  std::mt19937_64 g(posenc_test::stream_seed(20240611));
  random_checks<double>(g, posenc_test::samples(40));
  random_checks<float>(g, posenc_test::samples(40));
}

TEST_CASE("cli: math special and edge arguments match MPFR", "[cli]") {
  check_math<double>(fn::sin, "-0");         // -0: sign kept
  check_math<double>(fn::sqrt, "-0");        // sqrt(-0) = -0 (IEEE 754)
  check_math<double>(fn::pow, "-2.5", "0");  // pow(x, 0) = 1 for every x
  check_math<double>(fn::pow, "0", "0");
  check_math<double>(fn::pow, "-2", "3");  // negative base, odd integer exponent
  check_math<float>(fn::pow, "-3", "-2");
  check_math<double>(fn::exp, "-1000");   // underflows to +0: a correct result
  check_math<double>(fn::exp, "-745.1");  // smallest subnormal region
  check_math<double>(fn::exp, "709.78");  // near the overflow threshold, finite
  check_math<float>(fn::exp, "88.72");
  check_math<double>(fn::sin, "1e300");  // huge argument
  check_math<double>(fn::cos, "0x1.fffffffffffffp+1023");
  check_math<double>(fn::sqrt, "4.9406564584124654e-324");  // smallest subnormal
  check_math<float>(fn::sqrt, "1e-45");                     // rounds to the f32 subnormal 2^-149
  check_math<double>(fn::log, "0x1p-1074");
  check_math<double>(fn::sin, "-1.5");  // negative numbers are not flags
  check_math<double>(fn::exp, "+.5");
  check_math<double>(fn::exp, "0X.8P+1");
  check_math<double>(fn::log, "1E+2");
}

TEST_CASE("cli: f32 arguments are read straight to float, never through double", "[cli]") {
  // 1 + 2^-24 is the midpoint between the floats 1 and 1 + 2^-23. Both texts lie just above it:
  // correct rounding gives 1 + 2^-23; going through double first lands exactly on the midpoint,
  // which ties to even, 1. pow(x, 1) = x shows the value that was read.
  CHECK(check_math<float>(fn::pow, "1.00000005960464477550", "1") == 1.0f + 0x1p-23f);
  CHECK(check_math<float>(fn::pow, "0x1.000001000000001p+0", "1") == 1.0f + 0x1p-23f);
  // 0.1 (not a binary fraction) read once as f64 and once as f32.
  check_math<double>(fn::pow, "0.1", "1");
  check_math<float>(fn::pow, "0.1", "1");
}

TEST_CASE("cli: flags may come before, between or after the arguments", "[cli]") {
  const std::string expected = hex(static_cast<double>(mpfr_eval<float>(fn::pow, 2.0f, 0.5f))) + "\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"math", "--type", "f32", "pow", "2", "0.5"},
        {"math", "pow", "2", "--type=f32", "0.5"},
        {"math", "pow", "2", "0.5", "--type", "f32"},
        {"math", "pow", "--", "2", "0.5", "--type", "f32"}}) {  // after --, "--type" is positional
    const auto r = run(args);
    INFO(describe(args) << " stderr: " << r.err);
    if (args[2] == "--") {
      CHECK(r.status == 2);
      CHECK(r.out.empty());
    } else {
      CHECK(r.status == 0);
      CHECK(r.out == expected);
    }
  }
}

TEST_CASE("cli: --decimal prints the shortest decimal that round-trips", "[cli]") {
  // Published shortest representations: Python's repr(math.sqrt(2)) and numpy.float32's.
  CHECK(run({"math", "sqrt", "2", "--decimal"}).out == "1.4142135623730951\n");
  CHECK(run({"math", "sqrt", "2", "--decimal", "--type", "f32"}).out == "1.4142135\n");
  std::mt19937_64 g(7);
  for (int i = 0; i < 30; ++i) {
    const bool f32 = i % 2 == 1;
    const double xv = random_double(g, -20, 20, true);
    const std::string xs = text_of<double>(xv, 0);
    const double expected = f32 ? static_cast<double>(mpfr_eval<float>(fn::sin, mpfr_read<float>(xs), 0.0f))
                                : mpfr_eval<double>(fn::sin, mpfr_read<double>(xs), 0.0);
    const auto r = run({"math", "sin", xs, "--decimal", "--type", f32 ? "f32" : "f64"});
    INFO("sin " << xs << (f32 ? " f32" : " f64") << " -> '" << r.out << "' " << r.err);
    REQUIRE(r.status == 0);
    REQUIRE(r.out.size() > 1);
    REQUIRE(r.out.back() == '\n');
    const std::string text = r.out.substr(0, r.out.size() - 1);
    // Round trip: the decimal reads back to exactly the correctly rounded value.
    const double back =
        f32 ? static_cast<double>(std::strtof(text.c_str(), nullptr)) : std::strtod(text.c_str(), nullptr);
    CHECK(hex(back) == hex(expected));
    // Shortest: count significant digits; one fewer (correctly rounded by printf) must not
    // round-trip.
    int digits = 0;
    bool leading = true;
    for (const char c : text.substr(0, text.find_first_of("eE"))) {
      if (c < '0' || c > '9') continue;
      if (c != '0') leading = false;
      if (!leading) ++digits;
    }
    CHECK(digits <= (f32 ? 9 : 17));
    if (digits > 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", digits - 2, expected);
      const double shorter = f32 ? static_cast<double>(std::strtof(buf, nullptr)) : std::strtod(buf, nullptr);
      CHECK(hex(shorter) != hex(expected));
    }
  }
}

TEST_CASE("cli: every bad input exits 2 with one error line naming the culprit", "[cli]") {
  struct bad_case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;  // substrings the error line must contain
  };
  const std::vector<bad_case> cases = {
      {{}, {"no command"}},
      {{"frobnicate"}, {"'frobnicate'", "unknown command"}},
      {{"--bogus"}, {"'--bogus'"}},
      {{"--version", "x"}, {"'x'"}},
      {{"help", "nope"}, {"'nope'"}},
      {{"math"}, {"<function>"}},
      {{"math", "tan", "1"}, {"'tan'"}},
      {{"math", "sin", "1", "--bogus"}, {"'--bogus'"}},
      {{"math", "sin", "1", "--type"}, {"--type", "needs a value"}},
      {{"math", "sin", "1", "--type", "--decimal"}, {"--type", "needs a value"}},
      {{"math", "sin", "1", "--type", "f16"}, {"'f16'", "--type"}},
      {{"math", "sin", "1", "--type="}, {"--type", "empty"}},
      {{"math", "sin", "1", "--decimal=yes"}, {"--decimal", "takes no value"}},
      {{"math", "sin", "1", "--type", "f32", "--type", "f64"}, {"--type", "twice"}},
      {{"math", "sin"}, {"missing", "<x>"}},
      {{"math", "pow", "2"}, {"missing", "<y>"}},
      {{"math", "sin", "1", "2"}, {"'2'", "extra"}},
      {{"math", "sin", ""}, {"<x>", "empty"}},
      {{"math", "sin", "1x"}, {"'1x'"}},
      {{"math", "sin", "1e"}, {"'1e'"}},
      {{"math", "sin", " 1"}, {"' 1'"}},
      {{"math", "sin", "1.2.3"}, {"'1.2.3'"}},
      {{"math", "sin", "+-1"}, {"'+-1'"}},
      {{"emit", "rope", "--head-dim", "8", "--positions", "+-4"}, {"--positions", "'+-4'"}},  // two signs
      {{"math", "sin", "0x"}, {"'0x'"}},
      {{"math", "sin", "0x-1"}, {"'0x-1'"}},
      {{"math", "sin", "0x1p"}, {"'0x1p'"}},
      {{"math", "sin", "1\n2"}, {"'1\\x0a2'"}},  // control characters escaped: still one line
      {{"math", "sin", "nan"}, {"'nan'", "finite"}},
      {{"math", "cos", "-inf"}, {"'-inf'", "finite"}},
      {{"math", "exp", "Infinity"}, {"'Infinity'", "finite"}},
      {{"math", "pow", "2", "NaN"}, {"'NaN'", "<y>", "finite"}},
      {{"math", "sin", "1e39", "--type", "f32"}, {"'1e39'", "overflows f32"}},
      {{"math", "sin", "0x1p128", "--type", "f32"}, {"'0x1p128'", "overflows f32"}},
      {{"math", "sin", "1e309"}, {"'1e309'", "overflows f64"}},
      {{"math", "sin", "1e-400"}, {"'1e-400'", "underflows"}},
      {{"math", "sin", "1e-50", "--type", "f32"}, {"'1e-50'", "underflows"}},
      {{"math", "log", "0"}, {"'0'", "> 0"}},
      {{"math", "log", "-0"}, {"'-0'", "> 0"}},
      {{"math", "log", "-1"}, {"'-1'", "> 0"}},
      {{"math", "sqrt", "-1e-300"}, {"'-1e-300'", ">= 0"}},
      {{"math", "pow", "-2", "0.5"}, {"'-2'", "'0.5'"}},
      {{"math", "pow", "0", "-1"}, {"'0'", "'-1'", "pole"}},
      {{"math", "pow", "-0", "-3"}, {"'-0'", "'-3'", "pole"}},
      {{"math", "exp", "1000"}, {"result overflows f64", "'1000'"}},
      {{"math", "exp", "89", "--type", "f32"}, {"result overflows f32", "'89'"}},
      {{"math", "pow", "10", "400"}, {"result overflows f64"}},
      {{"math", "pow", "2", "128", "--type", "f32"}, {"result overflows f32"}},
      {{"math", "pow", "-2", "1025"}, {"result overflows f64"}},  // -infinity is not printed either
  };
  for (const auto& c : cases) {
    const run_result r = run(c.args);
    INFO(describe(c.args) << "\n  status " << r.status << "\n  stdout: " << r.out << "\n  stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("posenc: error: ", 0) == 0);
    CHECK(r.err.size() > 1);
    CHECK(r.err.find('\n') == r.err.size() - 1);  // exactly one line
    for (const auto& m : c.mentions) CHECK(r.err.find(m) != std::string::npos);
  }
}
