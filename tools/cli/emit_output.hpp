// emit_output.hpp: writing `posenc emit` output to a file given with -o, atomically.
//
// The data is written to a temporary file created (mkstemp) next to the target, in the same
// directory so that rename(2) is atomic, then renamed over the target. A failure removes the
// temporary file: the target is either the complete new output or untouched, never partial. The
// whole output is built in memory first, so bad input never even creates the temporary file.
// A failure the user's path causes (no such directory, no permission, a read-only file system, a
// directory where the file should be) is bad input: usage_error, exit 2, one line naming the path.
// Others (a full disk, an I/O error) stay internal errors, exit 1.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.hpp"

namespace posenc::cli::emit {

// errno values that say the path is wrong, not the machine.
inline bool path_errno(int e) {
  return e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM || e == EROFS || e == EISDIR || e == ENAMETOOLONG ||
         e == ELOOP || e == EEXIST;
}

[[noreturn]] inline void throw_write_error(const std::string& what, int e) {
  if (path_errno(e)) throw usage_error(what + ": " + std::strerror(e));
  throw std::runtime_error(what + ": " + std::strerror(e));
}

inline void write_file_atomically(const std::string& path, const std::string& data) {
  std::string templ = path + ".tmp.XXXXXX";
  std::vector<char> name(templ.begin(), templ.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw_write_error("cannot write " + quote(path) + " (creating a temporary file beside it)", errno);
  const std::string tmp(name.data());
  const auto fail = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw_write_error(std::string(what) + " " + quote(path), e);
  };
  // mkstemp makes the file 0600; give it the mode a plain open(O_CREAT, 0666) would (umask applied).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, static_cast<mode_t>(0666 & ~mask)) != 0) fail("cannot set the mode of");
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail("cannot flush");
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw_write_error("cannot write " + quote(path), e);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw_write_error("cannot write " + quote(path), e);
  }
}

}  // namespace posenc::cli::emit
