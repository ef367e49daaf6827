// hf_config_flag.hpp: `--hf-config FILE` of `posenc emit rope`, `rope-freq`, `alibi` and
// `t5-bucket`: the file (a HuggingFace config.json) gives the values, and explicit flags override
// them (each command starts from the file's config and reads its flags over it). Reading goes
// through the library's posenc::io (posenc/io/read_text_file.hpp, posenc/io/rope_hf_config.hpp); any problem with the file is bad
// input: a usage_error naming the file and the field, before any output exists.
//
// Without nlohmann-json the tool is built without posenc::io (POSENC_CLI_HAVE_IO unset) and the
// flag says so when used.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <posenc/rope/config.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/read_text_file.hpp>
#include <posenc/io/rope_hf_config.hpp>
#endif

#include "args.hpp"

namespace posenc::cli::emit {

inline constexpr std::string_view hf_config_flag = "hf-config";

#if defined(POSENC_CLI_HAVE_IO)

// The file's text, or nothing without --hf-config.
inline std::optional<std::string> hf_config_text(const parsed_args& a, std::string_view ctx) {
  const auto path = a.value(hf_config_flag);
  if (!path) return std::nullopt;
  if (path->empty()) throw usage_error(std::string(ctx) + ": --hf-config has an empty value");
  auto text = io::read_text_file(std::string(*path));
  if (!text) throw usage_error(std::string(ctx) + ": --hf-config " + text.error());
  return std::move(text).value();
}

template <class T>
T hf_value(const io::parse_result<T>& r, const parsed_args& a, std::string_view ctx) {
  if (!r)
    throw usage_error(std::string(ctx) + ": --hf-config " + std::string(*a.value(hf_config_flag)) + ": " + r.error());
  return r.value();
}

inline std::optional<io::rope_settings> hf_rope_settings(const parsed_args& a, std::string_view ctx) {
  const auto text = hf_config_text(a, ctx);
  if (!text) return std::nullopt;
  return hf_value(io::rope_from_hf_config(*text), a, ctx);
}

// A scheme's config from --hf-config FILE, read by read(text) (posenc::io's <scheme>_from_hf_config),
// or nothing without the flag (schemes/alibi.hpp, schemes/t5.hpp).
template <class Read>
auto hf_config_value(const parsed_args& a, std::string_view ctx, Read read)
    -> std::optional<std::remove_cvref_t<decltype(read(std::string_view()).value())>> {
  const auto text = hf_config_text(a, ctx);
  if (!text) return std::nullopt;
  return hf_value(read(std::string_view(*text)), a, ctx);
}

#else

inline void no_hf_config(const parsed_args& a, std::string_view ctx) {
  if (a.has(hf_config_flag))
    throw usage_error(std::string(ctx) + ": --hf-config is not available (posenc was built without nlohmann-json)");
}

// The RoPE reader's result type without posenc::io: never holds a value.
struct no_rope_settings {
  rope::config config() const { return {}; }
};
inline std::optional<no_rope_settings> hf_rope_settings(const parsed_args& a, std::string_view ctx) {
  no_hf_config(a, ctx);
  return std::nullopt;
}
// A scheme's config without posenc::io: nothing, or the error if --hf-config was given.
template <class Config>
std::optional<Config> no_hf_config(const parsed_args& a, std::string_view ctx) {
  no_hf_config(a, ctx);
  return std::nullopt;
}

#endif

}  // namespace posenc::cli::emit
