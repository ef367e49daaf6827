// emit_tensors.hpp: `--format npy` and `--format safetensors` of every `posenc emit` table, written
// with the library's posenc::io writers (posenc/io/npy.hpp, posenc/io/safetensors.hpp).
//
//   npy:          one array (numpy.load): the table's values with their shape; bf16 as '<u2' bit
//                 patterns (numpy has no bfloat16), f16 as '<f2', integers as '<i4'.
//   safetensors:  named tensors (safetensors.torch.load_file), dtypes F64/F32/BF16/F16/I32, and
//                 "__metadata__": the posenc version, the command line, the dtype and every
//                 parameter of the table, as strings.
//
// Each command decides its tensors (names, shapes) and hands them here; the file is built in
// memory like every other format and written only once complete. The NPY writer is standard
// library only; safetensors needs nlohmann-json, so a tool built without it (POSENC_CLI_HAVE_IO
// unset) refuses --format safetensors as bad input. Docs: docs/cli.md, "--format npy and
// safetensors".
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/io/npy.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/version.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/safetensors.hpp>
#endif

#include "args.hpp"

namespace posenc::cli::emit {

enum class tensor_format { npy, safetensors };

// What a command writes: for npy the one array, for safetensors the named tensors and the
// metadata (each command fills only what its format needs: a table can be 128 MiB).
struct tensor_output {
  io::tensor npy;
  std::vector<io::named_tensor> tensors;
  std::map<std::string, std::string> metadata;
};

// The metadata every table carries; commands add their parameters.
inline std::map<std::string, std::string> base_metadata(std::string_view table, std::string_view command,
                                                        std::string_view dtype) {
  return {{"format", "pt"},  // what transformers' loaders expect of a torch safetensors file
          {"posenc_version", POSENC_VERSION_STRING},
          {"table", std::string(table)},
          {"command", "posenc" + std::string(command)},
          {"dtype", std::string(dtype)}};
}

// Throws usage_error when the tool cannot write the format (safetensors without nlohmann-json).
inline void check_tensor_format_available([[maybe_unused]] tensor_format f, [[maybe_unused]] const std::string& ctx) {
#if !defined(POSENC_CLI_HAVE_IO)
  if (f == tensor_format::safetensors)
    throw usage_error(ctx + ": --format safetensors is not available (posenc was built without nlohmann-json)");
#endif
}

inline std::string write_tensor_file(tensor_format f, const tensor_output& out, const std::string& ctx) {
  check_tensor_format_available(f, ctx);
  if (f == tensor_format::npy) return io::write_npy(out.npy);
#if defined(POSENC_CLI_HAVE_IO)
  return io::write_safetensors(out.tensors, out.metadata);
#else
  return {};  // unreachable: refused above
#endif
}

}  // namespace posenc::cli::emit
