// main.cpp: posenc's tables in a firmware image. The tables of model_tables.hpp are stored in flash
// under C names (a C file, a debugger or nm finds them), and at run time the firmware rotates a q/k
// pair with the RoPE table at a few positions (in float, and in q15 with the q15 table), computes a causal query's logits with the ALiBi
// biases, and prints the results and a checksum of tables and results over semihosting
// (console.hpp). Exit status 0 when every step ran.
//
// The tables are read through a volatile pointer, so every result is computed by the target from the
// bytes in its flash, never folded by the compiler: a change to one stored bit changes the checksum
// (the posenc tests flip one and check that).
#include <array>
#include <cstddef>
#include <cstdint>

#include "attention_demo.hpp"
#include "console.hpp"
#include "model_tables.hpp"

// Constant-initialised copies of the constexpr tables, under C names: read-only data (.rodata, in
// flash), no start-up code. Their bytes are the constexpr tables' bytes.
extern "C" {
extern const firmware::rope_table_type posenc_fw_rope_table;
extern const std::array<float, firmware::alibi_heads> posenc_fw_alibi_slopes;
extern const std::array<float, firmware::alibi_bias_entries> posenc_fw_alibi_bias;
extern const firmware::rope_q15_table_type posenc_fw_rope_q15_table;
}
constexpr firmware::rope_table_type posenc_fw_rope_table = firmware::rope_table;
constexpr std::array<float, firmware::alibi_heads> posenc_fw_alibi_slopes = firmware::alibi_slopes;
constexpr std::array<float, firmware::alibi_bias_entries> posenc_fw_alibi_bias = firmware::alibi_bias;
constexpr firmware::rope_q15_table_type posenc_fw_rope_q15_table = firmware::rope_q15_table;

namespace {

namespace con = firmware::console;

template <class T>
const T& from_flash(const T& object) {
  const T* volatile p = &object;  // the compiler cannot know what p points to
  return *p;
}

// "  m = M, n = N: ", the start of a score's line.
void print_positions(std::size_t i) {
  const auto p = firmware::score_positions[i];
  con::text("  m = ");
  con::unsigned_decimal(p.m);
  con::text(", n = ");
  con::unsigned_decimal(p.n);
  con::text(": ");
}

void print_scores(const firmware::demo_results& r) {
  con::text("RoPE (Llama-3.2-1B, 64 x 64 float): score <R_m q, R_n k>\n");
  for (std::size_t i = 0; i < firmware::score_positions.size(); ++i) {
    print_positions(i);
    con::fixed6(r.scores[i].score);
    con::text("\n");
  }
}

void print_logits(const firmware::demo_results& r) {
  con::text("ALiBi (BLOOM-560m, 16 heads): logits q.k/8 - m_h (7 - j) of query 7, keys j = 0..7\n");
  for (std::size_t i = 0; i < firmware::alibi_shown_heads.size(); ++i) {
    con::text("  head ");
    con::unsigned_decimal(firmware::alibi_shown_heads[i]);
    con::text(":");
    for (const float l : r.logits[i]) {
      con::text(" ");
      con::fixed6(l);
    }
    con::text("\n");
  }
}

void print_q15_scores(const firmware::demo_results& r) {
  con::text("RoPE in q15 (rope::rotate_fixed, integer arithmetic): score <R_m q, R_n k> x 2^30\n");
  for (std::size_t i = 0; i < firmware::score_positions.size(); ++i) {
    print_positions(i);
    const std::int64_t s = r.q15_scores[i].score;
    if (s < 0) con::text("-");
    con::unsigned_decimal(static_cast<std::uint64_t>(s < 0 ? -s : s));
    con::text("\n");
  }
}

}  // namespace

int main() {
  con::text("posenc firmware example on " FIRMWARE_BOARD_NAME "\n");
  const firmware::rope_table_type& rope_t = from_flash(posenc_fw_rope_table);
  const auto& slopes = from_flash(posenc_fw_alibi_slopes);
  const auto& bias = from_flash(posenc_fw_alibi_bias);
  const firmware::rope_q15_table_type& q15_t = from_flash(posenc_fw_rope_q15_table);
  con::text("tables in flash: RoPE ");
  con::unsigned_decimal(sizeof posenc_fw_rope_table);
  con::text(" bytes, ALiBi slopes ");
  con::unsigned_decimal(sizeof posenc_fw_alibi_slopes);
  con::text(" + biases ");
  con::unsigned_decimal(sizeof posenc_fw_alibi_bias);
  con::text(" bytes, RoPE q15 ");
  con::unsigned_decimal(sizeof posenc_fw_rope_q15_table);
  con::text(" bytes (");
  con::unsigned_decimal(q15_t.saturated);
  con::text(" values saturated)\n");

  const firmware::demo_results r = firmware::run_demo(rope_t, bias.data(), q15_t);
  print_scores(r);
  print_logits(r);
  print_q15_scores(r);
  con::text("checksum ");
  con::hex32(firmware::checksum(rope_t, slopes.data(), bias.data(), q15_t, r));
  con::text("\n");
  if (!r.ok) {
    con::text("FAILED: rope::rotate or rope::rotate_fixed refused the shape\n");
    return 1;
  }
  con::text("done\n");
  return 0;
}
