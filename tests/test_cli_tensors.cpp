// `posenc emit ... --format npy` and `--format safetensors` (tools/cli/emit_tensors.hpp), run as the
// built executable: every emit table, in every dtype that applies, read back with posenc::io's
// readers and compared value for value, bit for bit, with the same command's --format csv (whose
// values test_cli_emit.cpp and test_cli_schemes.cpp check against MPFR and the schemes'
// generators); the shapes and tensor names of docs/cli.md; the scheme tables' NPY data equal to
// their --format bin bytes; and the CLI's guarantees (exit 2, one line, no file) for the new formats.
// tests/tensor_files_numpy.py checks the same files independently, with numpy and Python's json.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <posenc/io/npy.hpp>
#include <posenc/io/safetensors.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/version.hpp>

#include "cli_test_util.hpp"

namespace io = posenc::io;
using posenc_test::cat;
using posenc_test::cli_result;
using posenc_test::dbits;
using posenc_test::emit;
using posenc_test::split;
using posenc_test::strings;

namespace {

cli_result ok(const strings& args) {
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err.empty());
  return r;
}

// The CSV's rows, split into fields (the header dropped).
std::vector<strings> csv_rows(const strings& args) {
  const cli_result r = ok(cat(args, {"--format", "csv"}));
  std::vector<strings> rows;
  for (const std::string& line : split(r.out, '\n'))
    if (!line.empty()) rows.push_back(split(line, ','));
  REQUIRE(!rows.empty());
  rows.erase(rows.begin());
  return rows;
}

// A CSV value field as the exact double it is (a hex float, or an integer).
double csv_value(const std::string& field, bool integer) {
  return integer ? static_cast<double>(std::stoll(field)) : posenc_test::parse_hex(field);
}

// A tensor's elements as exact doubles, whatever its type.
template <class T>
std::vector<double> as_doubles(const io::tensor& t) {
  const auto v = io::tensor_values<T>(t);
  INFO(v.error());
  REQUIRE(v.ok());
  std::vector<double> d;
  for (const T& x : v.value()) d.push_back(posenc_test::exact(x));
  return d;
}

std::vector<double> values_of(const io::tensor& t) {
  switch (t.dtype) {
    case io::tensor_dtype::f64: return as_doubles<double>(t);
    case io::tensor_dtype::f32: return as_doubles<float>(t);
    case io::tensor_dtype::bf16: return as_doubles<posenc::bfloat16>(t);
    case io::tensor_dtype::f16: return as_doubles<posenc::float16>(t);
    case io::tensor_dtype::i32: {
      const auto v = io::tensor_values<std::int32_t>(t);
      REQUIRE(v.ok());
      return std::vector<double>(v.value().begin(), v.value().end());
    }
    default: FAIL("unexpected dtype " << io::dtype_name(t.dtype));
  }
  return {};
}

void check_bits(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (dbits(got[i]) != dbits(want[i]) && bad++ < 5) CHECK(got[i] == want[i]);  // the first few, by value
  CHECK(bad == 0);
}

io::tensor npy_of(const strings& args, io::tensor_dtype dtype) {
  const cli_result r = ok(cat(args, {"--format", "npy"}));
  const auto t = io::read_npy(r.out, dtype);
  INFO(posenc_test::describe_cli(args) << "\n" << t.error());
  REQUIRE(t.ok());
  return t.value();
}

io::safetensors_file safetensors_of(const strings& args) {
  const cli_result r = ok(cat(args, {"--format", "safetensors"}));
  const auto f = io::read_safetensors(r.out);
  INFO(posenc_test::describe_cli(args) << "\n" << f.error());
  REQUIRE(f.ok());
  const auto& m = f.value().metadata;
  CHECK(m.at("posenc_version") == POSENC_VERSION_STRING);
  CHECK(m.at("format") == "pt");
  CHECK(m.at("command").rfind("posenc emit " + args[0], 0) == 0);
  return f.value();
}

io::tensor tensor_named(const io::safetensors_file& f, const std::string& name, io::tensor_dtype dtype) {
  const auto t = io::find_tensor(f, name, dtype);
  INFO(t.error());
  REQUIRE(t.ok());
  return t.value();
}

using shape_t = std::vector<std::uint64_t>;

// A scheme table: its value column, the tensor's name and shape; the type of its values.
struct table_case {
  strings args;
  std::string name;
  shape_t shape;
  bool integer = false;
};

void check_table(const table_case& c, const char* dtype) {
  strings args = c.args;
  if (!c.integer) args = cat(args, {"--dtype", dtype});
  INFO(posenc_test::describe_cli(args));
  const io::tensor_dtype want = c.integer ? io::tensor_dtype::i32 : *io::dtype_from_name(dtype);
  std::vector<double> expected;
  for (const strings& row : csv_rows(args)) expected.push_back(csv_value(row.back(), c.integer));
  const io::tensor n = npy_of(args, want);
  CHECK(n.shape == c.shape);
  check_bits(values_of(n), expected);
  CHECK(n.data == ok(cat(args, {"--format", "bin"})).out);  // the bin bytes, with a header
  const io::safetensors_file f = safetensors_of(args);
  REQUIRE(f.tensors.size() == 1);
  const io::tensor s = tensor_named(f, c.name, want);
  CHECK(s.shape == c.shape);
  check_bits(values_of(s), expected);
  CHECK(f.metadata.at("table") == args[0]);
  CHECK(f.metadata.at("dtype") == io::dtype_name(want));
}

}  // namespace

TEST_CASE("emit <scheme> --format npy|safetensors: the CSV's values, shapes and names", "[cli][tensors]") {
  const std::vector<table_case> cases = {
      {{"sinusoidal", "--dim", "6", "--positions", "3", "--start", "-1"}, "value", {3, 6}},
      {{"sinusoidal", "--dim", "4", "--positions", "2", "--layout", "concat", "--exponent", "fairseq"},
       "value",
       {2, 4}},
      {{"transformer-xl", "--d-model", "4", "--klen", "3"}, "value", {3, 4}},
      {{"transformer-xl", "--d-model", "4", "--klen", "3", "--model", "xlnet", "--qlen", "2", "--bi-data"},
       "value",
       {10, 4}},
      {{"alibi", "--heads", "6"}, "slope", {6}},
      {{"alibi", "--heads", "3", "--bias", "--positions", "4"}, "bias", {3, 10}},
      {{"alibi", "--heads", "2", "--bias", "--positions", "3", "--symmetric"}, "bias", {2, 3, 3}},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "200"}, "bucket", {401}, true},
      {{"t5-bucket", "--num-buckets", "8", "--max-distance", "20", "--causal", "--range", "30"}, "bucket", {61}, true},
      {{"deberta-bucket", "--bucket-size", "8", "--max-position", "64", "--range", "40"}, "bucket", {81}, true},
      {{"shaw", "--positions", "5", "--max-relative-position", "2"}, "index", {5, 5}, true},
      {{"xpos", "--head-dim", "8", "--positions", "3", "--start", "-2"}, "scale", {3, 4}},
      {{"xpos", "--head-dim", "4", "--positions", "2", "--inverse"}, "scale", {2, 2}},
      {{"kerple-log", "--p", "1,0.5", "--a", "2,0.25", "--distances", "5"}, "bias", {2, 5}},
      {{"kerple-power", "--p", "1.5,0.5", "--a", "1,2", "--distances", "4"}, "bias", {2, 4}},
      {{"sandwich", "--dim", "8", "--heads", "2", "--distances", "3"}, "bias", {2, 3}},
      {{"logn", "--positions", "4", "--start", "511"}, "factor", {4}},
      {{"logn", "--positions", "3", "--base", "4", "--at-least-one"}, "factor", {3}},
      {{"attn-temperature", "--positions", "4", "--start", "8190"}, "scale", {4}},
  };
  for (const table_case& c : cases) {
    if (c.integer) {
      check_table(c, "");
      continue;
    }
    for (const char* dtype : {"f64", "f32", "bf16", "f16"}) check_table(c, dtype);
  }
}

namespace {

// emit rope against its CSV: element k of row i in the layout holds pair j = k mod D/2
// (half-split: k and k + D/2) or j = k / 2 (interleaved: 2j and 2j + 1); with --layout pairs,
// value j of a row of D/2 holds pair j, once.
void check_rope(const strings& flags, const char* dtype, const char* layout, std::uint64_t rows, std::uint64_t dim) {
  const strings args = cat(cat({"rope"}, flags), {"--dtype", dtype, "--layout", layout});
  INFO(posenc_test::describe_cli(args));
  const io::tensor_dtype want = *io::dtype_from_name(dtype);
  // The CSV (layout-independent: one row per position and pair) read into [i][j] cos and sin.
  const auto csv = csv_rows(cat(cat({"rope"}, flags), {"--dtype", dtype}));
  REQUIRE(csv.size() == rows * dim / 2);
  const std::uint64_t rotary_dim = dim;
  const bool inter = std::string(layout) == "interleaved", pairs = std::string(layout) == "pairs";
  if (pairs) dim /= 2;
  std::vector<double> cos(rows * dim), sin(rows * dim);
  for (std::size_t r = 0; r < csv.size(); ++r) {
    const std::size_t i = r / (rotary_dim / 2), j = std::stoul(csv[r][1]);
    REQUIRE(j == r % (rotary_dim / 2));
    for (const std::size_t k : {inter ? 2 * j : j, pairs ? j : inter ? 2 * j + 1 : j + dim / 2}) {
      cos[i * dim + k] = posenc_test::parse_hex(csv[r][2]);
      sin[i * dim + k] = posenc_test::parse_hex(csv[r][3]);
    }
  }
  // npy: [2][rows][dim], cos then sin.
  const io::tensor n = npy_of(args, want);
  CHECK(n.shape == shape_t{2, rows, dim});
  std::vector<double> both = cos;
  both.insert(both.end(), sin.begin(), sin.end());
  check_bits(values_of(n), both);
  // safetensors: cos and sin, [rows][dim] each, and the table's description.
  const io::safetensors_file f = safetensors_of(args);
  CHECK(f.tensors.size() == 2);
  const io::tensor c = tensor_named(f, "cos", want), s = tensor_named(f, "sin", want);
  CHECK(c.shape == shape_t{rows, dim});
  CHECK(s.shape == shape_t{rows, dim});
  check_bits(values_of(c), cos);
  check_bits(values_of(s), sin);
  CHECK(f.metadata.at("table") == "rope");
  CHECK(f.metadata.at("layout") == layout);
  CHECK(f.metadata.at("dtype") == dtype);
  CHECK(f.metadata.at("rotary_dim") == std::to_string(rotary_dim));
  CHECK(f.metadata.count("pairs") == (pairs ? 1u : 0u));
  CHECK(f.metadata.at("positions") == std::to_string(rows));
}

}  // namespace

TEST_CASE("emit rope --format npy|safetensors: cos and sin of the CSV in the layout", "[cli][tensors]") {
  const strings llama = {"--head-dim", "16",          "--rope-theta",
                         "500000",     "--rope-type", "llama3",
                         "--factor",   "8",           "--original-max-position-embeddings",
                         "8192",       "--positions", "3",
                         "--start",    "9000"};
  const strings yarn_folded = {
      "--head-dim",  "8", "--rope-type",     "yarn", "--factor", "4", "--original-max-position-embeddings", "4096",
      "--positions", "2", "--fold-attention"};
  const strings partial = {"--head-dim", "16", "--partial-rotary-factor", "0.5", "--positions", "2"};
  for (const char* dtype : {"f64", "f32", "bf16", "f16"})
    for (const char* layout : {"half-split", "interleaved", "pairs"}) {
      check_rope(llama, dtype, layout, 3, 16);
      check_rope(yarn_folded, dtype, layout, 2, 8);
      check_rope(partial, dtype, layout, 2, 8);
    }
  // The start position and the fold are in the metadata.
  const auto f = safetensors_of(cat({"rope"}, yarn_folded));
  CHECK(f.metadata.at("fold_attention") == "true");
  CHECK(f.metadata.at("start") == "0");
  CHECK(f.metadata.at("config.rope_type") == "yarn");
  CHECK(f.metadata.at("policy") == "exact");
}

TEST_CASE("emit rope-freq --format npy|safetensors: inv_freq and the attention factor", "[cli][tensors]") {
  const strings yarn = {"rope-freq", "--head-dim", "16", "--rope-type",
                        "yarn",      "--factor",   "4",  "--original-max-position-embeddings",
                        "4096"};
  for (const char* dtype : {"f64", "f32", "bf16", "f16"})
    for (const char* policy : {"exact", "hf-float32"}) {
      const strings args = cat(yarn, {"--dtype", dtype, "--policy", policy});
      INFO(posenc_test::describe_cli(args));
      const io::tensor_dtype want = *io::dtype_from_name(dtype);
      std::vector<double> inv;
      double attention = 0;
      for (const strings& row : csv_rows(args)) {
        if (row[0] == "attention_factor")
          attention = posenc_test::parse_hex(row[1]);
        else
          inv.push_back(posenc_test::parse_hex(row[1]));
      }
      REQUIRE(inv.size() == 8);
      CHECK(attention > 1.0);  // YaRN's 0.1 ln 4 + 1
      std::vector<double> all = inv;
      all.push_back(attention);
      const io::tensor n = npy_of(args, want);
      CHECK(n.shape == shape_t{9});
      check_bits(values_of(n), all);
      CHECK(n.data == ok(cat(args, {"--format", "bin"})).out);
      const io::safetensors_file f = safetensors_of(args);
      const io::tensor i = tensor_named(f, "inv_freq", want), a = tensor_named(f, "attention_factor", want);
      CHECK(i.shape == shape_t{8});
      CHECK(a.shape.empty());
      check_bits(values_of(i), inv);
      check_bits(values_of(a), {attention});
      CHECK(f.metadata.at("policy") == policy);
      CHECK(f.metadata.at("table") == "rope-freq");
    }
}

TEST_CASE("emit --format npy|safetensors: bad input exits 2 with one line and writes nothing", "[cli][tensors]") {
  const posenc_test::temp_dir dir;
  const std::string file = dir.file("t.out");
  const std::vector<std::pair<strings, std::string>> cases = {
      {{"rope", "--head-dim", "8", "--positions", "2", "--format", "npy", "--decimal"},
       "flag --decimal applies to --format csv only"},
      {{"alibi", "--heads", "4", "--format", "safetensors", "--name", "x"}, "flag --name applies to --format c only"},
      {{"rope-freq", "--head-dim", "8", "--format", "npz"},
       "invalid value 'npz' for --format (expected one of: csv, c, bin, npy, safetensors)"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "2", "--format", "npy", "--dtype",
        "f32"},
       "flag --dtype applies to real-valued tables only"},
      {{"xpos", "--head-dim", "4", "--positions", "2", "--start", "-4533", "--dtype", "f16", "--format", "safetensors"},
       "the scale overflows f16"},
      {{"rope", "--head-dim", "8", "--positions", "0", "--format", "safetensors"}, "--positions"},
  };
  for (const auto& [args, words] : cases) {
    const cli_result r = emit(cat(args, {"-o", file}));
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(words) != std::string::npos);
    CHECK(r.err.rfind("posenc: error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(dir.files().empty());
  }
  // A path the tool cannot write is bad input too, naming the path.
  for (const char* format : {"npy", "safetensors"}) {
    const cli_result r = emit({"alibi", "--heads", "4", "--format", format, "-o", "/no/such/dir/t.bin"});
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot write '/no/such/dir/t.bin'") != std::string::npos);
  }
  // -o writes exactly what stdout gets.
  const strings args = {"rope", "--head-dim", "8", "--positions", "3", "--dtype", "bf16", "--format", "safetensors"};
  const cli_result out = ok(args);
  REQUIRE(ok(cat(args, {"-o", file})).out.empty());
  CHECK(posenc_test::read_all(file) == out.out);
}
