// scheme_verify.hpp: verify the table of any scheme other than RoPE, posenc's own or one someone
// else built, against its exact values and every law of the registry that applies (`posenc verify
// <scheme>`; RoPE is rope_verify.hpp). The engines, one per family:
//   <scheme>_verify.hpp   verify_<scheme>: alibi, sinusoidal, transformer_xl, xpos, kerple (log and
//                         power), sandwich, logn, attn_temperature; t5, deberta, shaw (integers)
// and what they share: scheme_verify_core.hpp; the report (RoPE's type): report.hpp.
//
//   posenc::verify::alibi_verify_request q{.config = {.heads = 16}};       // the slopes
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_alibi(q, own);
//   std::vector<float> theirs = ...;                                       // a framework's slopes
//   const posenc::verify::values_input given[] = {posenc::verify::given_values<float>(theirs)};
//   if (!posenc::verify::verify_alibi(q, given).passed()) ...
//
// What is checked, for each table (one per dtype):
//  - every entry against RN_T of its exact value, from the scheme's MPFR oracle (alibi_oracle.hpp,
//    ...), each proven to round alike to every format (mpfr.hpp's Ziv loop): whether it is that
//    correctly rounded value, how many representable steps it is from it (at most max_ulp
//    allowed), and its error in ULPs of the exact value; the same counts and figures as a RoPE
//    report (dtype_findings). An integer table (buckets) is compared with the exact integers of the
//    published formula evaluated independently (t5_oracle.hpp, deberta_oracle.hpp, shaw_oracle.hpp).
//  - every law of registry::every_scheme_law that applies to the config, by its core (constexpr)
//    definition, on the table verified; a law that reads a table the request does not hold (the
//    ALiBi bias laws on the slopes) is listed as skipped, with the reason.
// Each exact value is computed once per block and serves every dtype. The blocks (verify_block_entries
// entries) run on request.run's threads, and request.run.shard takes a slice of them, as for RoPE
// (blocks.hpp): the merged reports of the slices equal the report of one run. The laws read the
// whole table: they run once, in the slice that holds block 0. BLOOM's 16 slopes take about a
// millisecond. The engines are listed once, with the descriptors, in registry/schemes.hpp.
#pragma once

#include "posenc/verify/registry/schemes.hpp"  // every scheme's engine, with its descriptor
#include "posenc/verify/report.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
