// scheme_command.hpp: what a table of `posenc emit` other than RoPE's declares to the command
// (schemes/<scheme>.hpp defines one, schemes.hpp lists them): its name, its usage line, its config
// flags, whether its values are reals, and the function that builds and writes it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "args.hpp"
#include "emit_table.hpp"

namespace posenc::cli::emit {

struct scheme_command {
  std::string_view name;
  std::string_view synopsis;         // the usage line(s), after "posenc emit "
  std::span<const flag_spec> flags;  // its config flags, besides the output ones
  bool real;                         // real-valued: --dtype and --decimal apply
  std::string (*run)(const parsed_args&, const table_options&);
};

}  // namespace posenc::cli::emit
