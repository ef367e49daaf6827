// posenc_fuzz_replay: every harness of tests/fuzz/ in one program, without libFuzzer, for the suite.
//
//   posenc_fuzz_replay HARNESS PATH...     each file (a directory: each file in it, in name order)
//                                          through HARNESS once; exit 0 when every property held
//
// The suite runs it on the kept corpora and on every input a fuzzing run found (tests/fuzz/corpus/),
// under both compilers and the sanitizers, so that a fixed finding stays fixed. A broken property
// aborts (fuzz_check.hpp), naming it. The harnesses share one unit: each one's entry point is renamed
// here, where libFuzzer (tools/fuzz.sh) links each alone under its own name.
//
// Built with POSENC_FUZZ_SMOKE and -fsanitize=fuzzer instead, the same unit is posenc_fuzz_smoke:
// libFuzzer's main fuzzes the harness POSENC_FUZZ_HARNESS names, which the suite runs for a few
// seconds each under Clang (fuzz.cmake), so that every harness is shown to fuzz, not only to replay.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#define LLVMFuzzerTestOneInput posenc_fuzz_hf_config
#include "fuzz_hf_config.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_npy
#include "fuzz_npy.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_safetensors
#include "fuzz_safetensors.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_cli_args
#include "fuzz_cli_args.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_verify_report
#include "fuzz_verify_report.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_verify_merge
#include "fuzz_verify_merge.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_table_bin
#include "fuzz_table_bin.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput posenc_fuzz_position_ids
#include "fuzz_position_ids.cpp"
#undef LLVMFuzzerTestOneInput

namespace {

using harness_fn = int (*)(const std::uint8_t*, std::size_t);

// The twins show that each property check can fail: they feed the checks what a broken reader would
// return (the suite expects them to abort).
int twin_error_lines(const std::uint8_t*, std::size_t) {
  posenc_fuzz::one_error_line("a message\nof two lines");
  return 0;
}
int twin_nan(const std::uint8_t*, std::size_t) {
  posenc_fuzz::finite(std::numeric_limits<double>::quiet_NaN(), "twin");
  return 0;
}
int twin_merge(const std::uint8_t* data, std::size_t size) {  // a shard's report read back altered
  merge_harness::check(data, size, true);
  return 0;
}

struct harness {
  const char* name;
  harness_fn run;
};
constexpr harness harnesses[] = {{"hf_config", posenc_fuzz_hf_config},
                                 {"npy", posenc_fuzz_npy},
                                 {"safetensors", posenc_fuzz_safetensors},
                                 {"cli_args", posenc_fuzz_cli_args},
                                 {"verify_report", posenc_fuzz_verify_report},
                                 {"verify_merge", posenc_fuzz_verify_merge},
                                 {"table_bin", posenc_fuzz_table_bin},
                                 {"position_ids", posenc_fuzz_position_ids},
                                 {"twin_error_lines", twin_error_lines},
                                 {"twin_nan", twin_nan},
                                 {"twin_merge", twin_merge}};

// The harness of that name, or nullptr (the replay's argument, the smoke run's environment).
const harness* find_harness(const char* name) {
  if (name == nullptr) return nullptr;
  const harness* h = std::find_if(std::begin(harnesses), std::end(harnesses),
                                  [&](const harness& x) { return std::strcmp(x.name, name) == 0; });
  return h == std::end(harnesses) ? nullptr : h;
}

#if !defined(POSENC_FUZZ_SMOKE)
bool replay(harness_fn run, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "posenc_fuzz_replay: cannot read %s\n", file.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // libFuzzer passes a null pointer for an empty input; so do we.
  run(bytes.empty() ? nullptr : reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}
#endif

}  // namespace

#if !defined(POSENC_FUZZ_SMOKE)
int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: posenc_fuzz_replay HARNESS PATH...\n");
    return 2;
  }
  const harness* h = find_harness(argv[1]);
  if (h == nullptr) {
    std::fprintf(stderr, "posenc_fuzz_replay: no harness '%s'\n", argv[1]);
    return 2;
  }
  int inputs = 0;
  bool readable = true;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        readable = replay(h->run, f) && readable;
        ++inputs;
      }
    } else {
      readable = replay(h->run, arg) && readable;
      ++inputs;
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "posenc_fuzz_replay: %s: no input files\n", h->name);
    return 1;
  }
  std::printf("posenc_fuzz_replay: %s: %d inputs, every property held\n", h->name, inputs);
  return readable ? 0 : 1;
}
#else
namespace {
harness_fn smoke_harness = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* name = std::getenv("POSENC_FUZZ_HARNESS");
  const harness* h = find_harness(name);
  if (h == nullptr) {
    std::fprintf(stderr, "posenc_fuzz_smoke: set POSENC_FUZZ_HARNESS to a harness's name (got '%s')\n",
                 name == nullptr ? "" : name);
    std::exit(2);
  }
  smoke_harness = h->run;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return smoke_harness(data, size); }
#endif
