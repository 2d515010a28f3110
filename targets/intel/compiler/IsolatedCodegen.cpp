//===- IsolatedCodegen.cpp - The SPIR-V backend in a child process --------===//
//
// The child writes one record to a pipe: a status byte (0 ok, 1 error),
// then for ok the binary's and the assembly's sizes (u64) and bytes, for an
// error the message. Its stderr goes to a temporary file, which is what a
// report_fatal_error leaves behind.
//
//===----------------------------------------------------------------------===//

#include "IsolatedCodegen.h"

#include "hadron/Compiler/Backend.h"

#include "llvm/Target/TargetMachine.h"

#include "llvm/Support/ErrorHandling.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hadron::intel {
namespace {

bool writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool writeString(int fd, const std::string &s) {
  uint64_t size = s.size();
  return writeAll(fd, &size, sizeof(size)) && writeAll(fd, s.data(), s.size());
}

/// The child's pipe, for the fatal-error handler.
int childOut = -1;

/// LLVM's fatal errors (report_fatal_error, "LLVM ERROR: ...") in the child:
/// the message goes to the parent as the compile's error and the child ends
/// with _exit, never exit(): exit would run the parent's atexit handlers and
/// static destructors (a thread pool's among them) in a process that has
/// only this one thread, and can hang there.
void childFatalError(void *, const char *reason, bool) {
  uint8_t status = 1;
  writeAll(childOut, &status, 1);
  std::string message = std::string("LLVM ERROR: ") + (reason ? reason : "fatal error");
  writeAll(childOut, message.data(), message.size());
  ::_exit(0);
}

[[noreturn]] void runChild(int out, const llvm::Module &module,
                           const std::function<Result<std::unique_ptr<llvm::TargetMachine>>()>
                               &makeMachine) {
  childOut = out;
  llvm::remove_fatal_error_handler();
  llvm::install_fatal_error_handler(childFatalError, nullptr);
  auto failWith = [&](const std::string &message) {
    uint8_t status = 1;
    writeAll(out, &status, 1);
    writeAll(out, message.data(), message.size());
    ::_exit(0);
  };
  auto objectMachine = makeMachine();
  if (!objectMachine)
    failWith(objectMachine.error());
  auto binary = emitCode(module, **objectMachine, EmitKind::Object);
  if (!binary)
    failWith(binary.error());
  auto asmMachine = makeMachine();
  if (!asmMachine)
    failWith(asmMachine.error());
  auto assembly = emitCode(module, **asmMachine, EmitKind::Assembly);
  if (!assembly)
    failWith(assembly.error());
  uint8_t status = 0;
  bool ok = writeAll(out, &status, 1) && writeString(out, *binary) && writeString(out, *assembly);
  ::_exit(ok ? 0 : 1);
}

std::string readFileAll(FILE *f) {
  std::string text;
  if (!f)
    return text;
  std::fflush(f);
  std::rewind(f);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    text.append(buf, n);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

} // namespace

Result<SpirvCode> generateIsolated(
    const llvm::Module &module,
    const std::function<Result<std::unique_ptr<llvm::TargetMachine>>()> &makeMachine,
    unsigned timeoutSeconds) {
  int fds[2];
  if (::pipe(fds) != 0)
    return Error(std::string("the SPIR-V backend's process: pipe: ") + std::strerror(errno));
  FILE *errors = std::tmpfile();
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    if (errors)
      std::fclose(errors);
    return Error(std::string("the SPIR-V backend's process: fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    ::close(fds[0]);
    if (errors)
      ::dup2(fileno(errors), 2);
    runChild(fds[1], module, makeMachine);
  }
  ::close(fds[1]);

  std::string record;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  bool timedOut = false;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      timedOut = r == 0;
      break;
    }
    char buf[65536];
    ssize_t n = ::read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    record.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string printed = readFileAll(errors);
  if (errors)
    std::fclose(errors);

  auto failure = [&](const std::string &what) {
    return Error("the SPIR-V backend " + what + (printed.empty() ? "" : ": " + printed));
  };
  if (timedOut)
    return failure("ran longer than " + std::to_string(timeoutSeconds) + " s and was stopped");
  if (WIFSIGNALED(status))
    return failure("aborted (signal " + std::to_string(WTERMSIG(status)) + ")");
  if (record.empty())
    return failure("ended without a result (exit code " +
                   std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  if (record[0] == 1)
    return Error(record.substr(1));
  size_t at = 1;
  auto take = [&](std::string &out) {
    uint64_t size = 0;
    if (at + sizeof(size) > record.size())
      return false;
    std::memcpy(&size, record.data() + at, sizeof(size));
    at += sizeof(size);
    if (size > record.size() - at)
      return false;
    out.assign(record.data() + at, size);
    at += size;
    return true;
  };
  SpirvCode code;
  if (!take(code.binary) || !take(code.assembly))
    return failure("returned a truncated result");
  return code;
}

} // namespace hadron::intel
