// verify_unavailable.hpp: `posenc verify` in a build without the verify layer (MPFR and
// Boost) or without nlohmann-json: the command exists and says why it cannot run.
#pragma once

#include <string>
#include <string_view>

#include "args.hpp"

namespace posenc::cli {

inline int command_status = 0;

namespace verify_cmd {
inline constexpr std::string_view usage =
    "usage: posenc verify rope ... | posenc verify <scheme> ... | posenc verify merge REPORT...\n"
    "\n"
    "This posenc was built without MPFR, Boost or nlohmann-json: verify is not available.\n";
inline void run(const parsed_args&, std::string&) {
  throw usage_error("verify: not available: posenc was built without the verify layer (MPFR, Boost) or nlohmann-json");
}
}  // namespace verify_cmd

inline constexpr command verify_command{
    "verify", "verify a table (not available in this build)", verify_cmd::usage, {}, verify_cmd::run};

}  // namespace posenc::cli
