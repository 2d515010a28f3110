//===- Cli.cpp - Option parsing, files and error reporting ----------------===//

#include "Cli.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace hadron::cli {

std::string ParsedArgs::get(const std::string &key, const std::string &fallback) const {
  auto it = options.find(key);
  return it == options.end() ? fallback : it->second.back();
}

std::vector<std::string> ParsedArgs::all(const std::string &key) const {
  auto it = options.find(key);
  return it == options.end() ? std::vector<std::string>{} : it->second;
}

Status usageError(const std::string &message) { return Status(HD_ERROR_INVALID_ARGUMENT, message); }

Expected<ParsedArgs> parseArgs(const std::vector<std::string> &args,
                               const std::vector<OptionSpec> &specs) {
  ParsedArgs parsed;
  auto find = [&](const std::string &name) -> const OptionSpec * {
    for (const OptionSpec &spec : specs)
      for (const std::string &n : spec.names)
        if (n == name)
          return &spec;
    return nullptr;
  };
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &word = args[i];
    if (optionsEnded || word.size() < 2 || word[0] != '-') {
      parsed.positionals.push_back(word);
      continue;
    }
    if (word == "--") {
      optionsEnded = true;
      continue;
    }
    if (word == "-h" || word == "--help") {
      parsed.help = true;
      continue;
    }
    std::string name = word, value;
    bool inlineValue = false;
    if (size_t eq = word.find('='); word.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = word.substr(0, eq);
      value = word.substr(eq + 1);
      inlineValue = true;
    }
    const OptionSpec *spec = find(name);
    // A one-letter option glued to its value: -O2, -oout.bin.
    if (!spec && word[1] != '-' && word.size() > 2) {
      name = word.substr(0, 2);
      spec = find(name);
      if (spec && spec->takesValue) {
        value = word.substr(2);
        inlineValue = true;
      } else {
        spec = nullptr;
      }
    }
    if (!spec)
      return usageError("unknown option '" + word + "'");
    const std::string &key = spec->names.front();
    if (!spec->takesValue && inlineValue)
      return usageError("option '" + name + "' takes no value");
    if (spec->takesValue && !inlineValue) {
      if (i + 1 == args.size())
        return usageError("option '" + name + "' needs a value");
      value = args[++i];
    }
    if (!spec->repeatable && parsed.has(key))
      return usageError("option '" + name + "' given twice");
    parsed.options[key].push_back(value);
  }
  return parsed;
}

std::optional<ParsedArgs> parseCommand(const char *subcommand, const std::vector<std::string> &args,
                                       const std::vector<OptionSpec> &specs, size_t positionals,
                                       const char *usage, int &exitCode) {
  auto parsed = parseArgs(args, specs);
  if (parsed && parsed->help) {
    std::fputs(usage, stdout);
    exitCode = kExitOk;
    return std::nullopt;
  }
  Status error = parsed ? Status() : parsed.status();
  if (parsed && parsed->positionals.size() != positionals) {
    if (positionals == 0)
      error = usageError("unexpected argument '" + parsed->positionals[0] + "'");
    else if (parsed->positionals.empty())
      error = usageError("no kernel file given");
    else
      error = usageError("more than one kernel file given");
  }
  if (!error.ok()) {
    exitCode = reportUsage(subcommand, error, usage);
    return std::nullopt;
  }
  return std::move(parsed.value());
}

Expected<uint64_t> seedOption(const ParsedArgs &parsed) {
  if (!parsed.has("--seed"))
    return static_cast<uint64_t>(std::random_device()());
  return parseUnsigned(parsed.get("--seed"), "--seed");
}

Expected<uint64_t> parseUnsigned(const std::string &text, const std::string &what,
                                 uint64_t minValue, uint64_t maxValue) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return usageError(what + ": '" + text + "' is not an unsigned integer");
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < minValue || v > maxValue)
    return usageError(what + ": " + text + " is out of range [" + std::to_string(minValue) + ", " +
                      std::to_string(maxValue) + "]");
  return static_cast<uint64_t>(v);
}

Expected<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(HD_ERROR_INVALID_ARGUMENT, "cannot read '" + path + "': " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status writeFile(const std::string &path, const void *data, size_t size) {
  FILE *f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!f)
    return Status(HD_ERROR_INVALID_ARGUMENT,
                  "cannot write '" + path + "': " + std::strerror(errno));
  bool ok = std::fwrite(data, 1, size, f) == size;
  ok = (f == stdout ? std::fflush(f) : std::fclose(f)) == 0 && ok;
  if (!ok)
    return Status(HD_ERROR_INTERNAL, "writing '" + path + "' failed: " + std::strerror(errno));
  return Status();
}

int report(const char *subcommand, const Status &status) {
  std::fprintf(stderr, "hadron %s: %s\n", subcommand, status.message().c_str());
  return kExitFailure;
}

int reportUsage(const char *subcommand, const Status &status, const char *usage) {
  std::fprintf(stderr, "hadron %s: %s\n\n%s", subcommand, status.message().c_str(), usage);
  return kExitUsage;
}

Status namingSource(const Status &status, const std::string &path) {
  std::string message = status.message();
  const std::string placeholder = "<kernel>:";
  for (size_t at = message.find(placeholder); at != std::string::npos;
       at = message.find(placeholder, at + path.size() + 1))
    message.replace(at, placeholder.size(), path + ":");
  return Status(status.code(), message);
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

} // namespace hadron::cli
