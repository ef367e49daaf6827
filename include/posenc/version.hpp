// posenc: compile-time positional-encoding tables.
// version.hpp: the library version, as macros (for #if) and as constexpr values.
#pragma once

#define POSENC_VERSION_MAJOR 0
#define POSENC_VERSION_MINOR 1
#define POSENC_VERSION_PATCH 0
#define POSENC_VERSION_STRING "0.1.0"

namespace posenc {
inline constexpr int version_major = POSENC_VERSION_MAJOR;
inline constexpr int version_minor = POSENC_VERSION_MINOR;
inline constexpr int version_patch = POSENC_VERSION_PATCH;
inline constexpr const char* version_string = POSENC_VERSION_STRING;
}  // namespace posenc
