// main.cpp: the `posenc` command-line tool.
//
//   posenc <command> [args] [--flag value ...]
//   posenc --help | help [<command>]      usage on stdout, exit 0
//   posenc --version                      "posenc <version>", exit 0
//
// Exit status: 0 on success; 1 when a check ran and failed (verify); 2 on bad input (one line "posenc: error: ..." on stderr, nothing on
// stdout); 1 on an internal or output failure. The whole output is built in memory and written
// only once everything succeeded, so a failing command never leaves partial output. No exception
// leaves main(). Conventions: docs/cli.md.
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/version.hpp>

#include "args.hpp"
#include "commands_emit.hpp"
#include "commands_math.hpp"
#if POSENC_CLI_HAVE_VERIFY
#include "commands_verify_schemes.hpp"
#else
#include "verify_unavailable.hpp"
#endif
#include "commands_report.hpp"

namespace posenc::cli {
namespace {

// Every subcommand; a new command is one header and one line here.
constexpr const command* commands[] = {&math_command, &emit_command, &verify_command, &report_command};

const command* find_command(std::string_view name) {
  for (const command* c : commands)
    if (c->name == name) return c;
  return nullptr;
}

std::string top_usage() {
  std::string s =
      "usage: posenc <command> [args] [--flag value ...]\n"
      "       posenc --help | help [<command>]\n"
      "       posenc --version\n"
      "\n"
      "posenc evaluates the library's correctly rounded functions from the command line.\n"
      "Reals are printed as exact C99 hex floats (%a); --decimal prints the shortest decimal\n"
      "that reads back to the same value. Bad input exits with status 2 and one error line.\n"
      "\n"
      "commands:\n";
  for (const command* c : commands) {
    std::string head = "  " + std::string(c->name);
    head.resize(12, ' ');
    s += head + std::string(c->summary) + "\n";
  }
  s += "\nRun 'posenc <command> --help' for a command's arguments and flags.\n";
  return s;
}

std::string command_usage(const command& c) { return std::string(c.usage) + describe_flags(c.flags); }

void run(std::span<const std::string_view> tokens, std::string& out) {
  const std::string try_help = " (try 'posenc --help')";
  if (tokens.empty()) throw usage_error("no command given" + try_help);
  const std::string_view first = tokens[0];
  const auto rest = tokens.subspan(1);
  if (first == "--help" || first == "-h" || first == "help") {
    if (rest.empty()) {
      out += top_usage();
      return;
    }
    if (rest.size() > 1) throw usage_error("help: unexpected extra argument " + quote(rest[1]));
    const command* c = find_command(rest[0]);
    if (c == nullptr) throw usage_error("help: unknown command " + quote(rest[0]) + try_help);
    out += c->help != nullptr ? c->help(parsed_args{}) : command_usage(*c);
    return;
  }
  if (first == "--version") {
    if (!rest.empty()) throw usage_error("--version: unexpected argument " + quote(rest[0]));
    out += "posenc " POSENC_VERSION_STRING "\n";
    return;
  }
  if (first.substr(0, 1) == "-") throw usage_error("unknown flag " + quote(first) + try_help);
  const command* c = find_command(first);
  if (c == nullptr) throw usage_error("unknown command " + quote(first) + try_help);
  const parsed_args args = parse_args(rest, c->flags, c->name);
  if (args.has(help_flag.name)) {
    out += c->help != nullptr ? c->help(args) : command_usage(*c);
    return;
  }
  c->run(args, out);
}

// One line, whatever the message holds. Allocates nothing, so it is safe in a catch handler.
void print_error(std::string_view prefix, std::string_view message) noexcept {
  std::fputs("posenc: error: ", stderr);
  for (const std::string_view part : {prefix, message})
    for (const char ch : part) std::fputc((ch == '\n' || ch == '\r') ? ' ' : ch, stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace
}  // namespace posenc::cli

int main(int argc, char** argv) {
  using namespace posenc::cli;
  std::string out;
  try {
    std::vector<std::string_view> tokens;
    for (int i = 1; i < argc; ++i) tokens.emplace_back(argv[i]);
    run(tokens, out);
  } catch (const usage_error& e) {
    print_error("", e.what());
    return 2;
  } catch (const std::exception& e) {
    print_error("internal error: ", e.what());
    return 1;
  } catch (...) {
    print_error("internal error", "");
    return 1;
  }
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
    print_error("cannot write the output", "");
    return 1;
  }
  return command_status;  // 0, or 1 when a check ran to the end and failed (verify)
}
