// posenc::io's tensor files (include/posenc/io/npy.hpp, safetensors.hpp): every dtype written and
// read back bit for bit; the writers' bytes against files numpy wrote (NPY) and against the
// format's layout spelled out by hand (safetensors); and every malformed file a one-line error
// naming its problem, never an exception.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <posenc/io/npy.hpp>
#include <posenc/io/safetensors.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>

#include "cli_spawn.hpp"  // posenc_test::temp_dir

namespace io = posenc::io;
using posenc::bfloat16;
using posenc::float16;

namespace {

// Six values of each type, with its edges: extremes, -0, subnormals, infinities.
template <class T>
std::vector<T> samples() {
  if constexpr (std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>) {
    return {T::from_bits(0x0000), T::from_bits(0x8000), T::from_bits(0x0001),
            T::from_bits(0x3c00), T::from_bits(0x7bff), T::from_bits(0xfc00)};
  } else if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    return {T(0), -T(0), L::denorm_min(), L::max(), -L::infinity(), T(0.1)};
  } else {
    using L = std::numeric_limits<T>;
    return {L::min(), L::max(), T(0), T(1), static_cast<T>(L::max() / 3), static_cast<T>(L::min() / 5)};
  }
}

template <class T>
void check_same(const io::tensor& got, const std::vector<T>& want, const std::vector<std::uint64_t>& shape) {
  CHECK(got.dtype == io::dtype_of<T>());
  CHECK(got.shape == shape);
  const auto v = io::tensor_values<T>(got);
  INFO(v.error());
  REQUIRE(v.ok());
  REQUIRE(v.value().size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    CHECK(io::detail::element_bits(v.value()[i]) == io::detail::element_bits(want[i]));
}

template <class T>
void round_trip() {
  const std::vector<T> v = samples<T>();
  const io::tensor t = io::make_tensor<T>({2, 3}, v);
  INFO("dtype " << io::dtype_name(io::dtype_of<T>()));
  REQUIRE(t.data.size() == 6 * sizeof(T));
  // NPY, with and without the expected type.
  const std::string npy = io::write_npy(t);
  CHECK(npy.size() % 64 == 6 * sizeof(T) % 64);  // the data starts at a multiple of 64
  const auto r = io::read_npy(npy, io::dtype_of<T>());
  INFO(r.error());
  REQUIRE(r.ok());
  check_same<T>(r.value(), v, {2, 3});
  const auto plain = io::read_npy(npy);
  REQUIRE(plain.ok());
  CHECK(plain.value().dtype == (std::is_same_v<T, bfloat16> ? io::tensor_dtype::u16 : io::dtype_of<T>()));
  CHECK(plain.value().data == t.data);
  // safetensors, with a scalar and a 1-D tensor beside it.
  const double half = 0.5;
  const std::vector<io::named_tensor> ts = {
      {"table", t}, {"scalar", io::make_tensor<double>({}, {&half, 1})}, {"row", io::make_tensor<T>({6}, v)}};
  const std::string st = io::write_safetensors(ts, {{"k", "v"}});
  const auto f = io::read_safetensors(st);
  INFO(f.error());
  REQUIRE(f.ok());
  CHECK(f.value().metadata == std::map<std::string, std::string>{{"k", "v"}});
  REQUIRE(f.value().tensors.size() == 3);
  const auto table = io::find_tensor(f.value(), "table", io::dtype_of<T>());
  REQUIRE(table.ok());
  check_same<T>(table.value(), v, {2, 3});
  const auto row = io::find_tensor(f.value(), "row");
  REQUIRE(row.ok());
  check_same<T>(row.value(), v, {6});
  const auto scalar = io::find_tensor(f.value(), "scalar");
  REQUIRE(scalar.ok());
  check_same<double>(scalar.value(), {0.5}, {});
}

template <class... T>
void round_trips() {
  (round_trip<T>(), ...);
}

std::string npy_file(const std::string& dict, const std::string& data, char major = 1) {
  std::string h = dict;
  std::string s("\x93NUMPY", 6);
  s += major;
  s += '\0';
  s += static_cast<char>(h.size() & 0xff);
  s += static_cast<char>(h.size() >> 8);
  if (major != 1) s += std::string(2, '\0');
  return s + h + data;
}

std::string st_file(const std::string& header, const std::string& data) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return s + header + data;
}

std::string bytes(std::size_t n) { return std::string(n, '\x01'); }

void check_npy_error(const std::string& file, const std::string& words,
                     std::optional<io::tensor_dtype> expect = std::nullopt) {
  const auto r = io::read_npy(file, expect);
  INFO("expected an error with: " << words);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find(words) != std::string::npos);
  CHECK(r.error().rfind("NPY: ", 0) == 0);
  CHECK(r.error().find('\n') == std::string::npos);
}

void check_st_error(const std::string& file, const std::string& words) {
  const auto r = io::read_safetensors(file);
  INFO("expected an error with: " << words);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find(words) != std::string::npos);
  CHECK(r.error().rfind("safetensors: ", 0) == 0);
  CHECK(r.error().find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("io: every dtype round-trips through NPY and safetensors bit for bit", "[io][tensor]") {
  round_trips<double, float, float16, bfloat16, std::int64_t, std::int32_t, std::int16_t, std::int8_t, std::uint64_t,
              std::uint32_t, std::uint16_t, std::uint8_t>();
  for (const io::tensor_dtype t : io::all_tensor_dtypes) CHECK(io::dtype_from_name(io::dtype_name(t)) == t);
  CHECK_FALSE(io::dtype_from_name("f128"));
}

TEST_CASE("io: write_npy writes the bytes numpy 1.24's numpy.save writes", "[io][npy]") {
  // numpy.save of np.array([1.0, -2.0], dtype='<f4'), np.arange(6, dtype='<i4').reshape(2, 3) and
  // np.array(0.5): a 118-byte header (0x76) padded with spaces to byte 127, then '\n'.
  const auto numpy_file = [](const std::string& dict, const std::string& data_hex) {
    std::string h = dict;
    h.append(117 - h.size(), ' ');
    h += '\n';
    std::string data;
    for (std::size_t i = 0; i < data_hex.size(); i += 2)
      data += static_cast<char>(std::stoi(data_hex.substr(i, 2), nullptr, 16));
    return std::string("\x93NUMPY\x01\x00\x76\x00", 10) + h + data;
  };
  const float f[2] = {1.0f, -2.0f};
  CHECK(io::write_npy(io::make_tensor<float>({2}, f)) ==
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "0000803f000000c0"));
  const std::int32_t i[6] = {0, 1, 2, 3, 4, 5};
  CHECK(io::write_npy(io::make_tensor<std::int32_t>({2, 3}, i)) ==
        numpy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
                   "000000000100000002000000030000000400000005000000"));
  const double d = 0.5;
  CHECK(io::write_npy(io::make_tensor<double>({}, {&d, 1})) ==
        numpy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", "000000000000e03f"));
  // An empty tensor and a header written by another writer (double quotes, no trailing comma,
  // Python 2 long suffix, version 2.0).
  const auto e = io::read_npy(npy_file("{\"shape\": (0, 3L), \"descr\": \"<f2\", \"fortran_order\": False}\n", "", 2));
  INFO(e.error());
  REQUIRE(e.ok());
  CHECK(e.value().shape == std::vector<std::uint64_t>{0, 3});
  CHECK(e.value().dtype == io::tensor_dtype::f16);
}

TEST_CASE("io: write_safetensors writes the format's layout", "[io][safetensors]") {
  const float f[2] = {1.0f, -2.0f};
  const std::string got = io::write_safetensors({{"x", io::make_tensor<float>({1, 2}, f)}}, {{"format", "pt"}});
  // 8-byte little-endian header size, the JSON padded with spaces to a multiple of 8, the data.
  std::string header = R"({"__metadata__":{"format":"pt"},"x":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}})";
  header.append((8 - header.size() % 8) % 8, ' ');
  CHECK(got == st_file(header, std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8)));
  CHECK_THROWS_AS(io::write_safetensors({{"x", io::make_tensor<float>({2}, f)}, {"x", io::make_tensor<float>({2}, f)}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(io::write_npy(io::tensor{io::tensor_dtype::f32, {3}, std::string(8, '\0')}), std::invalid_argument);
  CHECK_THROWS_AS(io::write_safetensors({{"__metadata__", io::make_tensor<float>({2}, f)}}), std::invalid_argument);
}

// Found by fuzz_safetensors (tests/fuzz/corpus/safetensors/finding-empty-tensor-name.safetensors):
// the format allows any tensor name but "__metadata__", the empty one too; the reader took such a
// file and the writer refused to write it back.
TEST_CASE("io: a tensor named \"\" is read and written back", "[io][safetensors]") {
  const float f[2] = {1.0f, 0.5f};
  const std::string file =
      io::write_safetensors({{"", io::make_tensor<float>({2}, f)}, {"cos", io::make_tensor<float>({2}, f)}});
  const auto r = io::read_safetensors(file);
  INFO(r.error());
  REQUIRE(r.ok());
  REQUIRE(r.value().tensors.size() == 2);
  CHECK(r.value().tensors[0].name.empty());
  CHECK(io::write_safetensors(r.value().tensors) == file);
}

TEST_CASE("io: read_npy names each problem of a malformed file", "[io][npy]") {
  const std::string ok_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  REQUIRE(io::read_npy(npy_file(ok_dict, bytes(8))).ok());
  check_npy_error("", "truncated");
  check_npy_error("\x93NUM", "truncated");
  check_npy_error("PK\x03\x04 not numpy at all", "bad magic");
  check_npy_error(npy_file(ok_dict, bytes(8), 4), "unsupported NPY version 4.0");
  check_npy_error(npy_file(ok_dict, bytes(8)).substr(0, 9), "truncated");
  check_npy_error(npy_file(ok_dict, bytes(8)).substr(0, 30), "truncated file: the header is");
  check_npy_error(npy_file(ok_dict, bytes(7)),
                  "truncated file: shape [2] of <f4 needs 8 bytes of data, the file has 7");
  check_npy_error(npy_file(ok_dict, bytes(9)), "trailing bytes");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", bytes(8)),
                  "fortran_order is True");
  check_npy_error(npy_file("{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", bytes(32)),
                  "unknown dtype '<c16'");
  check_npy_error(npy_file("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", bytes(16)),
                  "big-endian dtype '>f8'");
  check_npy_error(npy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", bytes(8)),
                  "structured");
  check_npy_error(npy_file("{'descr': '<f4', 'shape': (2,), }", bytes(8)), "no 'fortran_order'");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, }", bytes(8)), "no 'shape'");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", bytes(8)),
                  "unknown key 'x'");
  check_npy_error(npy_file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", bytes(8)),
                  "'descr' appears twice");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", bytes(8)), "not a tuple");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", bytes(8)),
                  "non-negative integers");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", bytes(8)), "expected ',' or '}'");
  check_npy_error(npy_file("not a dict", bytes(8)), "not a Python dict literal");
  check_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", ""),
                  "too large");
  // The expected type: '<u2' is bf16 only when bf16 is asked for.
  const std::string u2 = npy_file("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", bytes(4));
  REQUIRE(io::read_npy(u2, io::tensor_dtype::bf16).ok());
  CHECK(io::read_npy(u2, io::tensor_dtype::bf16).value().dtype == io::tensor_dtype::bf16);
  check_npy_error(u2, "dtype '<u2' (u16), expected f16 ('<f2')", io::tensor_dtype::f16);
  check_npy_error(npy_file(ok_dict, bytes(8)), "dtype '<f4' (f32), expected bf16 ('<u2')", io::tensor_dtype::bf16);
  // A key the file quotes back holding control characters: the message stays one line, each
  // character escaped (found by fuzzing: tests/fuzz/corpus/npy/finding-header-key-with-newline.npy).
  {
    const std::string key = std::string("des\n\x07") + '\0' + "cr";
    const auto r = io::read_npy(npy_file("{'" + key + "': '<f4', 'fortran_order': False, 'shape': (2,)}", bytes(8)));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find_first_of(std::string("\n\r\x07\0", 4)) == std::string::npos);
    CHECK(r.error().find("unknown key 'des\\n\\x07\\x00cr'") != std::string::npos);
  }
  // The typed copy checks the type too.
  const auto v = io::tensor_values<double>(io::read_npy(npy_file(ok_dict, bytes(8))).value());
  REQUIRE_FALSE(v.ok());
  CHECK(v.error() == "the tensor holds f32, not f64");
}

TEST_CASE("io: read_safetensors names each problem of a malformed file", "[io][safetensors]") {
  const std::string x = R"("x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
  REQUIRE(io::read_safetensors(st_file("{" + x + "}  ", bytes(8))).ok());
  check_st_error("", "truncated file: 0 bytes");
  check_st_error(st_file("{" + x + "}", bytes(8)).substr(0, 20), "truncated file: the header size is");
  check_st_error(st_file("[1, 2]", ""), "does not start with '{'");
  check_st_error(st_file("{" + x, bytes(8)), "the header is not valid JSON: parse error");
  check_st_error(st_file("{" + x + "}", bytes(7)), "run past the end of the data (7 bytes)");
  check_st_error(st_file("{" + x + "}", bytes(12)),
                 "trailing bytes: the tensors end at byte 8 of the data, the file has 12");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                         R"("y":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                         bytes(8)),
                 "tensors 'x' and 'y' overlap");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", bytes(12)),
                 "bytes [0, 4) of the data belong to no tensor");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", bytes(8)),
                 "tensor 'x': shape [3] of F32 needs 12 bytes, data_offsets [0, 8] hold 8");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", bytes(8)), "end before");
  check_st_error(st_file(R"({"x":{"dtype":"C64","shape":[2],"data_offsets":[0,8]}})", bytes(8)),
                 "tensor 'x': unknown dtype \"C64\"");
  check_st_error(st_file(R"({"x":{"shape":[2],"data_offsets":[0,8]}})", bytes(8)), "tensor 'x': no \"dtype\"");
  check_st_error(st_file(R"({"x":{"dtype":"F32","data_offsets":[0,8]}})", bytes(8)), "tensor 'x': no \"shape\"");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[2]}})", bytes(8)), "no \"data_offsets\"");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", bytes(8)),
                 "shape[0] must be a non-negative integer, got a number (-2)");
  check_st_error(st_file(R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0]}})", bytes(8)),
                 "data_offsets must be an array [begin, end]");
  check_st_error(st_file(R"({"x":[1]})", bytes(8)), "tensor 'x': expected an object, got an array");
  check_st_error(st_file(R"({"__metadata__":{"a":1},)" + x + "}", bytes(8)), "__metadata__.a must be a string");
  // A missing tensor names the ones the file has; an expected type is checked.
  const auto f = io::read_safetensors(st_file("{" + x + "}", bytes(8)));
  REQUIRE(f.ok());
  const auto m = io::find_tensor(f.value(), "cos");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error() == "safetensors: missing tensor 'cos' (the file has: x)");
  const auto w = io::find_tensor(f.value(), "x", io::tensor_dtype::bf16);
  REQUIRE_FALSE(w.ok());
  CHECK(w.error() == "safetensors: tensor 'x' is F32, expected BF16");
}

TEST_CASE("io: a reader's message is one line whatever it quotes", "[io][tensor]") {
  CHECK(io::one_line("plain, kept: caf\xc3\xa9") == "plain, kept: caf\xc3\xa9");  // UTF-8 untouched
  CHECK(io::one_line("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(io::one_line(std::string("nul \0 bel \x07 del \x7f", 17)) == "nul \\x00 bel \\x07 del \\x7f");
  CHECK(io::parse_result<int>::failure("two\nlines").error() == "two\\nlines");
}

TEST_CASE("io: the file readers name the path", "[io][tensor]") {
  const auto n = io::read_npy_file("/no/such/dir/t.npy");
  REQUIRE_FALSE(n.ok());
  CHECK(n.error() == "/no/such/dir/t.npy: cannot open for reading");
  const auto s = io::read_safetensors_file("/no/such/dir/t.safetensors");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error() == "/no/such/dir/t.safetensors: cannot open for reading");
  const auto d = io::read_npy_file("/");  // a directory opens on Linux, but does not read
  REQUIRE_FALSE(d.ok());
  CHECK(d.error() == "/: is a directory");
  // Files written and read back; a malformed one is named by its path.
  const posenc_test::temp_dir dir;
  const std::int32_t v[3] = {7, -1, 1 << 30};
  const io::tensor t = io::make_tensor<std::int32_t>({3}, v);
  std::ofstream(dir.file("t.npy"), std::ios::binary) << io::write_npy(t);
  std::ofstream(dir.file("t.safetensors"), std::ios::binary) << io::write_safetensors({{"v", t}});
  const auto rn = io::read_npy_file(dir.file("t.npy"), io::tensor_dtype::i32);
  REQUIRE(rn.ok());
  CHECK(rn.value().data == t.data);
  const auto rs = io::read_safetensors_file(dir.file("t.safetensors"));
  REQUIRE(rs.ok());
  CHECK(io::find_tensor(rs.value(), "v").value().data == t.data);
  const auto bad = io::read_npy_file(dir.file("t.safetensors"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() ==
        dir.file("t.safetensors") + ": NPY: bad magic: the file does not start with \"\\x93NUMPY\" (not an NPY file)");
}
