// common.hpp: what every binding of posenc._core shares: the four dtypes and their numpy arrays,
// errors as Python exceptions, and a model config's text read through posenc::io.
//
// Errors: every broken precondition is a pybind11::value_error (Python's ValueError) whose text is
// the one line posenc's C++ gives (a validation's message, a parse_result's error, a status named
// with where it happened); a wrong argument type is pybind11::type_error. Nothing returns an array
// holding values that are not the documented ones.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/math/round.hpp>
#include <posenc/math/sincos_result.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/status.hpp>

namespace posenc::python {

namespace py = pybind11;

[[noreturn]] inline void fail(const std::string& message) { throw py::value_error(message); }

// A table past the model's max_position_embeddings: a UserWarning (the CLI's warning line), not an
// error; the model never saw those positions, though a scaling may extend it. An error when the
// caller's warnings filter turns warnings into errors.
inline void warn_past_max_position(std::int64_t max_position_embeddings, std::uint64_t last_position,
                                   const std::string& context) {
  if (max_position_embeddings <= 0 || last_position < static_cast<std::uint64_t>(max_position_embeddings)) return;
  const std::string message = context + ": position " + std::to_string(last_position) +
                              " is past max_position_embeddings " + std::to_string(max_position_embeddings) +
                              " (positions 0 .. " + std::to_string(max_position_embeddings - 1) + ")";
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 2) != 0) throw py::error_already_set();
}

// The dtypes of a table, by the short names the Python layer normalises every spelling to
// ("float32", numpy.float32, "f32", ... are all "f32"; python/posenc/_dtypes.py).
enum class dtype { f64, f32, bf16, f16 };

inline dtype parse_dtype(std::string_view name) {
  if (name == "f64") return dtype::f64;
  if (name == "f32") return dtype::f32;
  if (name == "bf16") return dtype::bf16;
  if (name == "f16") return dtype::f16;
  fail("unknown dtype '" + std::string(name) + "' (expected float64, float32, bfloat16 or float16)");
}

template <class T>
constexpr std::string_view dtype_name() {
  if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, posenc::bfloat16>)
    return "bfloat16";
  else
    return "float16";
}

// Calls f(std::type_identity<T>{}) with T the C++ type of d.
template <class F>
decltype(auto) with_dtype(dtype d, F&& f) {
  switch (d) {
    case dtype::f32: return f(std::type_identity<float>{});
    case dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case dtype::f16: return f(std::type_identity<posenc::float16>{});
    case dtype::f64: break;
  }
  return f(std::type_identity<double>{});
}

// The numpy dtype holding T: float64, float32, float16 (IEEE binary16, the same bits as
// posenc::float16) and, for bfloat16, which numpy lacks, uint16 bit patterns (the Python layer views
// them as ml_dtypes.bfloat16 when that package is importable).
template <class T>
py::dtype numpy_dtype() {
  if constexpr (std::is_same_v<T, double>)
    return py::dtype::of<double>();
  else if constexpr (std::is_same_v<T, float>)
    return py::dtype::of<float>();
  else if constexpr (std::is_same_v<T, posenc::bfloat16>)
    return py::dtype::of<std::uint16_t>();
  else
    return py::dtype("float16");
}

// A fresh C-contiguous array of T, and a span over its elements. posenc::bfloat16 and float16 are
// trivially copyable structs of one uint16_t, so their objects live in the array's memory as the
// numpy values' bits.
template <class T>
py::array new_array(std::vector<py::ssize_t> shape) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>);
  static_assert(!std::is_class_v<T> || sizeof(T) == sizeof(std::uint16_t));
  return py::array(numpy_dtype<T>(), std::move(shape));
}

template <class T>
std::span<T> elements(py::array& a) {
  return {reinterpret_cast<T*>(a.mutable_data()), static_cast<std::size_t>(a.size())};
}

// The exact value of a table entry as a Python float (every value of the four types is a double).
template <class T>
double exact_double(T v) {
  if constexpr (std::is_class_v<T>)
    return static_cast<double>(v.to_float());
  else
    return static_cast<double>(v);
}

// x rounded once into T (to nearest, ties to even; a finite x beyond T's range becomes the infinity
// of its sign, as IEEE rounding does); infinities kept.
template <class T>
T from_double(double x) {
  if constexpr (std::is_class_v<T>) {
    constexpr std::uint16_t inf_bits = std::is_same_v<T, posenc::bfloat16> ? 0x7F80u : 0x7C00u;
    const bool overflow = x == std::numeric_limits<double>::infinity() ||
                          x == -std::numeric_limits<double>::infinity() ||
                          posenc::math::round_to<T>(x).error == posenc::status::overflow;
    if (overflow) return T::from_bits(static_cast<std::uint16_t>(inf_bits | (x < 0 ? 0x8000u : 0u)));
    return posenc::math::round_to<T>(x).value;
  } else {
    return static_cast<T>(x);
  }
}

// A table of compact {sin, cos} pairs, vals[r * pairs + j], as two [rows, pairs] arrays (cos, sin):
// the multi-stream and remapped RoPE tables (schemes/rope_streams.cpp, schemes/rope_remap.cpp).
template <class T>
py::tuple cos_sin_arrays(const std::vector<posenc::math::sincos_result<T>>& vals, std::size_t rows, std::size_t pairs) {
  py::array cos = new_array<T>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(pairs)});
  py::array sin = new_array<T>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(pairs)});
  const std::span<T> c = elements<T>(cos), s = elements<T>(sin);
  for (std::size_t i = 0; i < vals.size(); ++i) c[i] = vals[i].cos, s[i] = vals[i].sin;
  return py::make_tuple(cos, sin);
}

// A status of the core that the caller's arguments caused, as the one line a ValueError carries.
inline void check_status(posenc::status st, const std::string& what) {
  if (st != posenc::status::ok) fail(what + ": " + posenc::to_string(st));
}

// Runs a fill without the GIL and turns its status into the ValueError that names the scheme.
template <class Fill>
void fill_unlocked(const std::string& ctx, Fill&& fill) {
  posenc::status st = posenc::status::ok;
  {
    py::gil_scoped_release unlocked;
    st = fill();
  }
  check_status(st, ctx);
}

// Rows x width elements, checked: a table above 2^32 elements is refused before any allocation.
inline std::size_t table_size(std::uint64_t rows, std::uint64_t width, const std::string& ctx) {
  constexpr std::uint64_t most = std::uint64_t{1} << 32;
  if (width != 0 && rows > most / width)
    fail(ctx + ": table too large: " + std::to_string(rows) + " rows x " + std::to_string(width) +
         " (at most 2^32 entries)");
  return static_cast<std::size_t>(rows * width);
}

}  // namespace posenc::python
