// emit_schemes.hpp: `posenc emit <scheme>` for every scheme but RoPE (issue 9). Each command reads
// the scheme's config from flags, checks it with the scheme's validate (whose sentence becomes the
// error), calls the scheme's run-time generator on a buffer (the same bits as its constexpr
// tables), and lays the result out with emit_table.hpp. No formula is evaluated here.
//
//   sinusoidal       sinusoidal::fill_table                 position,dim,value
//   transformer-xl   transformer_xl::fill_table / position  row,position,dim,value
//   alibi            alibi::fill_slopes                     head,slope
//   alibi --bias     alibi::fill_bias_by_distance           head,query,key,bias
//   t5-bucket        t5::fill_buckets                       relative_position,bucket
//   deberta-bucket   deberta::fill_buckets                  relative_position,bucket
//   shaw             shaw::fill_index_table                 query,key,index
//   xpos             xpos::fill_scales                      position,pair,scale
//   kerple-log       kerple::log_bias                       head,distance,bias
//   kerple-power     kerple::power_bias                     head,distance,bias
//   sandwich         sandwich::bias                         head,distance,bias
//   logn             logn::fill_factors                     n,factor
//
// Docs: docs/cli.md, section `posenc emit` for the other schemes.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "args.hpp"
#include "emit_biases.hpp"
#include "emit_buckets.hpp"
#include "emit_sinusoids.hpp"
#include "emit_table.hpp"
#include "scheme_configs.hpp"

namespace posenc::cli::emit {

// ---- the table of schemes ------------------------------------------------------------------

struct scheme_command {
  std::string_view name;
  std::string_view synopsis;         // the usage line(s), after "posenc emit "
  std::span<const flag_spec> flags;  // its config flags (scheme_configs.hpp), besides the output ones
  bool real;                         // real-valued: --dtype and --decimal apply
  std::string (*run)(const parsed_args&, const table_options&);
};

inline std::string run_kerple_log(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, true); }
inline std::string run_kerple_power(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, false); }

inline constexpr scheme_command schemes[] = {
    {"sinusoidal",
     "sinusoidal --dim D --positions N [--start P] [--base 10000] [--exponent paper|fairseq] [--layout "
     "interleaved|concat]",
     sinusoidal_flags, true, emit_sinusoidal},
    {"transformer-xl",
     "transformer-xl --d-model D --klen K [--clamp-len C] [--model transformer-xl|xlnet] [--qlen Q] [--attn-type "
     "bi|uni] [--bi-data]",
     transformer_xl_flags, true, emit_transformer_xl},
    {"alibi", "alibi (--heads H | --hf-config FILE) [--max-bias 8] [--bias --positions N [--symmetric]]", alibi_flags,
     true, emit_alibi},
    {"t5-bucket", "t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--causal] --range R", t5_flags,
     false, emit_t5},
    {"deberta-bucket", "deberta-bucket --bucket-size S --max-position M --range R", deberta_flags, false, emit_deberta},
    {"shaw", "shaw --positions N [--max-relative-position 20]", shaw_flags, false, emit_shaw},
    {"xpos", "xpos --head-dim D --positions N [--start P] [--scale-base 512] [--inverse]", xpos_flags, true, emit_xpos},
    {"kerple-log", "kerple-log --p P0,P1,... --a A0,A1,... --distances N", kerple_flags, true, run_kerple_log},
    {"kerple-power", "kerple-power --p P0,P1,... --a A0,A1,... --distances N", kerple_flags, true, run_kerple_power},
    {"sandwich", "sandwich --dim D --heads H --distances N", sandwich_flags, true, emit_sandwich},
    {"logn", "logn --positions N [--start 1] [--base 512] [--at-least-one]", logn_flags, true, emit_logn},
};

inline const scheme_command* find_scheme(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace posenc::cli::emit
