// verify_table_input.hpp: what every `posenc verify <scheme>` shares (commands_verify_schemes.hpp):
// the flags common to every scheme (options), someone else's table read from --table FILE (.npy,
// .safetensors or the `emit --format bin` layout, in the shape `emit` gives the table), the entry
// limit, and the dispatch of a real-valued table to the library's engine in each dtype.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/io/npy.hpp>
#include <posenc/io/safetensors.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/verify/report.hpp>
#include <posenc/verify/scheme_verify_core.hpp>

#include "args.hpp"
#include "commands_verify.hpp"
#include "emit_values.hpp"
#include "table_bin.hpp"

namespace posenc::cli::verify_schemes {

namespace pv = posenc::verify;

// ---- what every scheme's verification shares ----

enum class table_file { bin, npy, safetensors };

struct options {
  std::string ctx;                      // "verify alibi"
  std::optional<std::string> table;     // --table FILE
  table_file kind = table_file::bin;    // its format, by its name
  std::vector<pv::table_dtype> dtypes;  // --dtype, or the default
  bool dtype_given = false;
  std::uint64_t max_ulp = 0;
  pv::run_options run{};  // --shard, --threads, the progress meter
};

inline std::optional<io::tensor_dtype> tensor_dtype_of(pv::table_dtype t) {
  switch (t) {
    case pv::table_dtype::f64: return io::tensor_dtype::f64;
    case pv::table_dtype::f32: return io::tensor_dtype::f32;
    case pv::table_dtype::bf16: return io::tensor_dtype::bf16;
    case pv::table_dtype::f16: return io::tensor_dtype::f16;
    case pv::table_dtype::q15: return io::tensor_dtype::i16;  // the raw integers, as emit writes them
    case pv::table_dtype::q31: return io::tensor_dtype::i32;
  }
  return std::nullopt;
}

template <class R>
R file_value(io::parse_result<R> r, const std::string& path, const std::string& ctx) {
  if (!r) throw usage_error(ctx + ": " + quote(path) + ": " + r.error());
  return r.value();
}

inline std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The tensor of a .npy file or the tensor `column` of a .safetensors file, of the dtype asked for
// (if any) and of the shape `posenc emit <scheme>` gives the table.
inline io::tensor read_tensor(const options& o, std::optional<io::tensor_dtype> want,
                              const std::vector<std::uint64_t>& shape, std::string_view column) {
  const std::string& path = *o.table;
  io::tensor t;
  if (o.kind == table_file::npy) {
    t = file_value(io::read_npy_file(path, want), path, o.ctx);
  } else {
    const io::safetensors_file f = file_value(io::read_safetensors_file(path), path, o.ctx);
    t = file_value(io::find_tensor(f, std::string(column), want), path, o.ctx);
  }
  if (t.shape != shape)
    throw usage_error(o.ctx + ": " + quote(path) + " holds a " + shape_text(t.shape) + " tensor; this table is " +
                      shape_text(shape));
  return t;
}

// Someone else's real-valued table in T: the --format bin layout (little-endian T in row order) or
// the tensor of a .npy/.safetensors file.
template <class T>
std::vector<T> read_values(const options& o, const std::vector<std::uint64_t>& shape, const io::tensor* tensor) {
  if (tensor != nullptr) return verify_cmd::tensor_values_as<T>(*tensor, *o.table, o.ctx);
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n *= d;
  return verify_cmd::load_bin_values<T>(verify_cmd::read_file_bytes(*o.table, o.ctx), n, *o.table, o.ctx);
}

template <class F>
decltype(auto) with_table_dtype(pv::table_dtype t, F&& f) {
  switch (t) {
    case pv::table_dtype::f64: break;
    case pv::table_dtype::f32: return f(std::type_identity<float>{});
    case pv::table_dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case pv::table_dtype::f16: return f(std::type_identity<posenc::float16>{});
    case pv::table_dtype::q15: return f(std::type_identity<posenc::q15>{});  // the engine refuses it unless
    case pv::table_dtype::q31: return f(std::type_identity<posenc::q31>{});  // the scheme verifies q15/q31
  }
  return f(std::type_identity<double>{});
}

// A real-valued scheme: posenc's own table in every dtype asked for, or the file's. engine(inputs)
// is the library's verify_<scheme>.
template <class Engine>
pv::verify_report verify_real(const options& o, const std::vector<std::uint64_t>& shape, std::string_view column,
                              Engine engine) {
  if (!o.table) {
    std::vector<pv::values_input> in;
    for (const auto t : o.dtypes) in.push_back(pv::own_values(t));
    return engine(std::span<const pv::values_input>(in));
  }
  std::optional<io::tensor> tensor;
  pv::table_dtype dtype = o.dtypes[0];
  if (o.kind != table_file::bin) {
    tensor = read_tensor(o, o.dtype_given ? tensor_dtype_of(dtype) : std::nullopt, shape, column);
    bool known = false;
    for (const auto t : {pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16,
                         pv::table_dtype::q15, pv::table_dtype::q31})
      if (tensor_dtype_of(t) == tensor->dtype) dtype = t, known = true;
    if (!known)
      throw usage_error(o.ctx + ": " + quote(*o.table) + " holds " + std::string(io::dtype_name(tensor->dtype)) +
                        " values, not f64, f32, bf16, f16 or q15/q31 integers (a bfloat16 .npy holds '<u2' bits: "
                        "give --dtype bf16)");
  }
  return with_table_dtype(dtype, [&]<class T>(std::type_identity<T>) {
    const std::vector<T> v = read_values<T>(o, shape, tensor ? &*tensor : nullptr);
    const pv::values_input in[] = {pv::given_values<T>(std::span<const T>(v))};
    return engine(std::span<const pv::values_input>(in));
  });
}

// An integer table (buckets): the file's int32 values (.npy '<i4', safetensors I32, or bin).
inline std::vector<std::int32_t> read_integers(const options& o, const std::vector<std::uint64_t>& shape,
                                               std::string_view column) {
  if (o.kind == table_file::bin) {
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape) n *= d;
    return verify_cmd::load_bin_integers(verify_cmd::read_file_bytes(*o.table, o.ctx), n, *o.table, o.ctx);
  }
  const io::tensor t = read_tensor(o, io::tensor_dtype::i32, shape, column);
  return file_value(io::tensor_values<std::int32_t>(t), *o.table, o.ctx);
}

// The integer tables (buckets, indices) have no dtype and no tolerance.
inline void integers_only(const parsed_args& a, const options& o) {
  if (a.has("dtype") || o.max_ulp != 0)
    throw usage_error(o.ctx + ": the table holds integers: --dtype and --max-ulp do not apply");
}

// What a table of `posenc verify` other than RoPE's declares (schemes/<scheme>.hpp; schemes.hpp
// lists them): its name, its runner, whether it holds integers.
struct verify_scheme {
  std::string_view name;
  pv::verify_report (*run)(const parsed_args&, const options&);
  bool integer_valued;
  std::string_view synopsis{};  // its usage line when it differs from emit's (a flag optional here)
  bool fixed_point = false;     // --dtype q15|q31 verified too (docs/fixed-point.md)
};

inline std::string table_words(const options& o) { return o.table ? "table " + *o.table : "posenc's own table"; }

// The most entries a verified table has: 2^24, as many as emit writes. posenc's own table is built
// whole in each dtype (at most 16 bytes an entry in all four); the exact values are computed block
// by block (verify_block_entries), on every thread, and --shard K/N splits the work across runs.
inline constexpr std::uint64_t max_entries = std::uint64_t{1} << 24;

inline void check_entries(std::uint64_t entries, const options& o, const std::string& what) {
  if (entries > max_entries)
    throw usage_error(o.ctx + ": table too large to verify: " + what + " = " + std::to_string(entries) +
                      " entries (at most 2^24 = 16777216; emit writes no more)");
}

}  // namespace posenc::cli::verify_schemes
