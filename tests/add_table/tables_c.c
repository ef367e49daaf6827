/* The generated headers compiled as C (static const arrays), for check_tables.cpp to compare with
   the same headers compiled as C++ (inline constexpr arrays). */
#include "alibi_f16.h"
#include "llama31_bf16.h"
#include "mrope_f64.h"
#include "rope_f32.h"

const void* posenc_test_c_table(int which);

const void* posenc_test_c_table(int which) {
  switch (which) {
    case 0: return llama31_bf16_cos;
    case 1: return rope_f32_sin;
    case 2: return alibi_f16_slope;
    default: return mrope_f64_cos;
  }
}
