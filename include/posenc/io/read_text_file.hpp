// read_text_file.hpp: a file's contents as a parse_result, for the config.json readers
// (io/<scheme>_hf_config.hpp): the text, or one line "PATH: cannot open for reading".
//
//   auto text = posenc::io::read_text_file("config.json");
//   if (!text) { std::cerr << text.error() << '\n'; return 2; }
#pragma once

#include <exception>
#include <fstream>
#include <ios>
#include <sstream>
#include <string>

#include "posenc/io/parse_result.hpp"

namespace posenc::io {

// The contents of a file, or "PATH: cannot read".
inline parse_result<std::string> read_text_file(const std::string& path) {
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in) return parse_result<std::string>::failure(path + ": cannot open for reading");
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) return parse_result<std::string>::failure(path + ": read error");
    return s.str();
  } catch (const std::exception& e) {
    return parse_result<std::string>::failure(path + ": " + e.what());
  }
}

}  // namespace posenc::io
