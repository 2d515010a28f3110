//===- ToolRun.cpp - One run of an external tool on temporary files -------===//

#include "hadron/Compiler/ToolRun.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace hadron {

ToolRun::ToolRun(llvm::StringRef prefix) : prefix(prefix.str()) {}

ToolRun::~ToolRun() {
  for (const std::string &file : files)
    llvm::sys::fs::remove(file);
}

Result<std::string> ToolRun::input(llvm::StringRef contents, llvm::StringRef suffix) {
  int fd = -1;
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile(prefix, suffix, fd, path))
    return Error("cannot create a temporary ." + suffix.str() + " file for " + prefix);
  files.push_back(path.str().str());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (os.has_error()) {
    os.clear_error();
    return Error("cannot write the temporary file " + files.back());
  }
  return files.back();
}

Result<std::string> ToolRun::output(llvm::StringRef suffix) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile(prefix, suffix, path))
    return Error("cannot create a temporary ." + suffix.str() + " file for " + prefix);
  files.push_back(path.str().str());
  return files.back();
}

Status ToolRun::execute(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                        unsigned timeoutSeconds, llvm::StringRef title) {
  Result<std::string> log = output("log");
  if (!log)
    return Error(log.error());
  llvm::SmallVector<llvm::StringRef> argv{program};
  argv.append(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(*log),
                                                llvm::StringRef(*log)};
  std::string launchError;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, timeoutSeconds,
                                     /*MemoryLimit=*/0, &launchError);
  if (rc == 0)
    return {};
  std::string message =
      (title.empty() ? program : title).str() + " failed (exit " + std::to_string(rc) + ")";
  if (!launchError.empty())
    message += ": " + launchError;
  if (auto printed = llvm::MemoryBuffer::getFile(*log); printed && (*printed)->getBufferSize())
    message += ":\n" + (*printed)->getBuffer().rtrim().str();
  return Error(message);
}

Result<std::string> ToolRun::read(llvm::StringRef path, bool nonEmpty) const {
  auto bytes = llvm::MemoryBuffer::getFile(path);
  if (!bytes)
    return Error("cannot read " + path.str() + ": " + bytes.getError().message());
  if (nonEmpty && (*bytes)->getBufferSize() == 0)
    return Error(path.str() + " is empty");
  return (*bytes)->getBuffer().str();
}

} // namespace hadron
