// cli_spawn.hpp: run the `posenc` executable from a test and capture its exit status, stdout
// and stderr (test-only helper, POSIX). stdout and stderr go to scratch files rather than pipes,
// so a child writing a lot can never block on a full pipe.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace posenc_test {

struct cli_result {
  int status = -1;  // the exit code, or -1 when the child did not exit normally
  std::string out;
  std::string err;
};

inline std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A fresh directory under $TMPDIR (or /tmp), removed with its files by the destructor.
class temp_dir {
 public:
  temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string t = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/posenc_test_XXXXXX";
    std::vector<char> buf(t.begin(), t.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ~temp_dir() {
    for (const std::string& f : files()) std::remove((path_ + "/" + f).c_str());
    ::rmdir(path_.c_str());
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // The names of the files in the directory (to check that nothing was left behind).
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (const dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
      }
      ::closedir(d);
    }
    return names;
  }

 private:
  std::string path_;
};

// Runs `exe args...` with stdout and stderr redirected to files in a private temp dir.
inline cli_result run_cli(const std::string& exe, const std::vector<std::string>& args) {
  temp_dir scratch;
  const std::string out_path = scratch.file("stdout"), err_path = scratch.file("stderr");
  std::vector<std::string> strings{exe};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  cli_result r;
  if (rc != 0) {
    r.err = "posix_spawn failed for " + exe;
    return r;
  }
  int ws = 0;
  while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(ws)) r.status = WEXITSTATUS(ws);
  r.out = read_all(out_path);
  r.err = read_all(err_path);
  return r;
}

// "posenc 'a' 'b'", for failure messages.
inline std::string describe_cli(const std::vector<std::string>& args) {
  std::string s = "posenc";
  for (const std::string& a : args) s += " '" + a + "'";
  return s;
}

}  // namespace posenc_test
