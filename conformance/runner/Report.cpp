//===- Report.cpp - The matrix as JSON, Markdown and HTML -----------------===//

#include "Report.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

namespace hadron::conformance {

namespace {

std::string jsonString(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    case '\r': o += "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        o += buf;
      } else {
        o += static_cast<char>(c);
      }
    }
  }
  return o + "\"";
}

std::string html(const std::string &s) {
  std::string o;
  for (char c : s) {
    switch (c) {
    case '<': o += "&lt;"; break;
    case '>': o += "&gt;"; break;
    case '&': o += "&amp;"; break;
    case '"': o += "&quot;"; break;
    default: o += c;
    }
  }
  return o;
}

std::string md(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '|')
      o += "\\|";
    else if (c == '\n')
      o += " ";
    else
      o += c;
  }
  return o;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string now() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return buf;
}

const char *kindName(Target::Kind k) {
  return k == Target::Device ? "device" : k == Target::CompileOnly ? "compile-only" : "no-device";
}

/// results[case][target]
std::map<std::string, std::map<std::string, const Result *>> matrix(Runner &r) {
  std::map<std::string, std::map<std::string, const Result *>> m;
  for (const Result &x : r.results())
    m[x.caseName][x.target] = &x;
  return m;
}

std::vector<std::string> caseOrder(Runner &r) {
  std::vector<std::string> names;
  std::map<std::string, bool> seen;
  for (const Result &x : r.results())
    if (!seen[x.caseName]) {
      seen[x.caseName] = true;
      names.push_back(x.caseName);
    }
  return names;
}

std::string shortMismatch(const Result &x) {
  if (!x.mismatch)
    return "";
  return "[" + std::to_string(x.mismatch->index) + "] expected " + x.mismatch->expected +
         ", got " + x.mismatch->got;
}

} // namespace

std::string jsonReport(Runner &r) {
  std::ostringstream o;
  Summary s = r.summary();
  o << "{\n  \"suite\": \"hadron-conformance\",\n  \"generated\": " << jsonString(now())
    << ",\n  \"seed\": " << r.seed() << ",\n  \"filter\": " << jsonString(r.options().filter)
    << ",\n  \"summary\": {";
  for (int k = 0; k < 7; ++k)
    o << (k ? ", " : "") << jsonString(outcomeName(static_cast<Outcome>(k))) << ": " << s.counts[k];
  o << ", \"differential_failures\": " << s.differentialFailures
    << ", \"failed\": " << (s.failed() ? "true" : "false") << "},\n  \"targets\": [";
  bool first = true;
  for (const Target &t : r.targets()) {
    o << (first ? "\n" : ",\n") << "    {\"id\": " << jsonString(t.id)
      << ", \"kind\": " << jsonString(kindName(t.kind)) << ", \"plugin\": " << jsonString(t.plugin)
      << ", \"arch\": " << jsonString(t.arch) << ", \"lanes\": " << t.lanes
      << ", \"description\": " << jsonString(t.description) << ", \"expectations\": [";
    for (size_t i = 0; i < t.expectations.files().size(); ++i)
      o << (i ? ", " : "") << jsonString(t.expectations.files()[i]);
    o << "]}";
    first = false;
  }
  o << "\n  ],\n  \"results\": [";
  first = true;
  for (const Result &x : r.results()) {
    o << (first ? "\n" : ",\n") << "    {\"case\": " << jsonString(x.caseName)
      << ", \"target\": " << jsonString(x.target)
      << ", \"outcome\": " << jsonString(outcomeName(x.outcome)) << ", \"seed\": " << x.seed
      << ", \"compile_ms\": " << num(x.compileMs) << ", \"run_ms\": " << num(x.runMs);
    if (!x.message.empty())
      o << ", \"message\": " << jsonString(x.message);
    if (!x.validation.empty())
      o << ", \"validation\": " << jsonString(x.validation);
    if (!x.note.empty())
      o << ", \"note\": " << jsonString(x.note);
    if (x.mismatch)
      o << ", \"mismatch\": {\"buffer\": " << jsonString(x.mismatch->what)
        << ", \"index\": " << x.mismatch->index
        << ", \"expected\": " << jsonString(x.mismatch->expected)
        << ", \"got\": " << jsonString(x.mismatch->got) << ", \"count\": " << x.mismatch->count
        << "}";
    if (failsRun(x.outcome))
      o << ", \"replay\": " << jsonString(r.replay(x.caseName, x.target));
    o << "}";
    first = false;
  }
  o << "\n  ],\n  \"differential\": [";
  first = true;
  for (const DiffResult &d : r.differences()) {
    o << (first ? "\n" : ",\n") << "    {\"case\": " << jsonString(d.caseName)
      << ", \"first\": " << jsonString(d.first) << ", \"second\": " << jsonString(d.second)
      << ", \"comparable\": " << (d.comparable ? "true" : "false")
      << ", \"agree\": " << (d.agree ? "true" : "false")
      << ", \"message\": " << jsonString(d.message) << "}";
    first = false;
  }
  o << "\n  ],\n  \"unused_expectations\": [";
  std::vector<std::string> unused = r.unusedExpectations();
  for (size_t i = 0; i < unused.size(); ++i)
    o << (i ? ", " : "") << jsonString(unused[i]);
  o << "]\n}\n";
  return o.str();
}

std::string markdownReport(Runner &r) {
  std::ostringstream o;
  Summary s = r.summary();
  o << "# Hadron conformance\n\n"
    << "Generated " << now() << ", seed " << r.seed() << " (replay with `--seed " << r.seed()
    << "`).\n\n**" << (s.failed() ? "FAILED" : "PASSED") << "**: " << s.str() << "\n\n";
  o << "## Targets\n\n| target | kind | model |\n| --- | --- | --- |\n";
  for (const Target &t : r.targets())
    o << "| " << md(t.id) << " | " << kindName(t.kind) << " | " << md(t.description) << " |\n";
  auto m = matrix(r);
  std::vector<std::string> names = caseOrder(r);
  o << "\n## Matrix\n\n| case |";
  for (const Target &t : r.targets())
    o << " " << md(t.id) << " |";
  o << "\n| --- |";
  for (size_t i = 0; i < r.targets().size(); ++i)
    o << " --- |";
  o << "\n";
  for (const std::string &name : names) {
    o << "| " << md(name) << " |";
    for (const Target &t : r.targets()) {
      const Result *x = m[name][t.id];
      o << " " << (x ? outcomeName(x->outcome) : "") << " |";
    }
    o << "\n";
  }
  o << "\n## Failures, expected failures and unsupported cases\n\n";
  bool any = false;
  for (const Result &x : r.results()) {
    if (x.outcome == Outcome::Pass || x.outcome == Outcome::CompileOnly ||
        x.outcome == Outcome::NoDevice)
      continue;
    any = true;
    o << "- **" << outcomeName(x.outcome) << "** `" << x.caseName << "` on " << x.target
      << " (seed " << x.seed << "): " << md(x.message) << "\n";
  }
  if (!any)
    o << "None.\n";
  if (!r.differences().empty()) {
    o << "\n## Differential\n\n";
    for (const DiffResult &d : r.differences())
      o << "- `" << d.caseName << "` " << d.first << " vs " << d.second << ": " << md(d.message)
        << "\n";
  }
  std::vector<std::string> unused = r.unusedExpectations();
  if (!unused.empty()) {
    o << "\n## Expectations that matched nothing\n\n";
    for (const std::string &u : unused)
      o << "- " << md(u) << "\n";
  }
  return o.str();
}

std::string htmlReport(Runner &r) {
  std::ostringstream o;
  Summary s = r.summary();
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<title>Hadron conformance</title>\n<style>\n"
       "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}\n"
       "h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 8px}\n"
       ".verdict{display:inline-block;padding:4px 12px;border-radius:4px;color:#fff;font-weight:700}\n"
       ".verdict.ok{background:#1a7f37}.verdict.bad{background:#cf222e}\n"
       "table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:3px 8px;"
       "vertical-align:top}\n"
       "th{background:#f6f8fa;text-align:left}th.t{max-width:260px;font-weight:600}\n"
       "th.t small{display:block;font-weight:400;color:#57606a}\n"
       "td.case{font-family:ui-monospace,monospace;white-space:nowrap}\n"
       "td.c{font-weight:600;min-width:90px}td.c small{display:block;font-weight:400;"
       "font-family:ui-monospace,monospace;max-width:360px;word-break:break-all}\n"
       ".pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}\n"
       ".xfail{background:#fff8c5;color:#7d4e00}.xpass{background:#ffd8b5;color:#953800}\n"
       ".unsupported{background:#eaeef2;color:#57606a}"
       ".compile-only{background:#ddf4ff;color:#0550ae}\n"
       ".no-device{background:#f6f8fa;color:#8c959f}\n"
       ".legend span{display:inline-block;padding:2px 8px;margin-right:6px;border-radius:3px}\n"
       "</style></head><body>\n";
  o << "<h1>Hadron conformance</h1>\n<p><span class=\"verdict " << (s.failed() ? "bad" : "ok")
    << "\">" << (s.failed() ? "FAILED" : "PASSED") << "</span> " << html(s.str()) << "</p>\n"
    << "<p>Generated " << html(now()) << ", run seed <b>" << r.seed()
    << "</b>; replay a case with <code>hadron conformance --seed " << r.seed()
    << " --filter NAME</code>.</p>\n";
  o << "<p class=\"legend\">";
  for (int k = 0; k < 7; ++k) {
    const char *n = outcomeName(static_cast<Outcome>(k));
    o << "<span class=\"" << n << "\">" << n << " " << s.counts[k] << "</span>";
  }
  o << "</p>\n<h2>Targets</h2>\n<table><tr><th>target</th><th>kind</th><th>device model</th></tr>\n";
  for (const Target &t : r.targets())
    o << "<tr><td class=\"case\">" << html(t.id) << "</td><td>" << kindName(t.kind)
      << "</td><td>" << html(t.description) << "</td></tr>\n";
  o << "</table>\n";
  bool anyFailure = false;
  for (const Result &x : r.results()) {
    if (!failsRun(x.outcome))
      continue;
    if (!anyFailure)
      o << "<h2>Failures</h2>\n<table><tr><th>case</th><th>target</th><th>outcome</th>"
           "<th>first mismatch / message</th><th>seed</th><th>replay</th></tr>\n";
    anyFailure = true;
    o << "<tr><td class=\"case\">" << html(x.caseName) << "</td><td>" << html(x.target)
      << "</td><td class=\"c " << outcomeName(x.outcome) << "\">" << outcomeName(x.outcome)
      << "</td><td><code>" << html(x.mismatch ? shortMismatch(x) : x.message.substr(0, 600))
      << "</code></td><td>" << x.seed << "</td><td><code>" << html(r.replay(x.caseName, x.target))
      << "</code></td></tr>\n";
  }
  if (anyFailure)
    o << "</table>\n";
  o << "<h2>Matrix</h2>\n<table>\n<tr><th>case</th>";
  for (const Target &t : r.targets())
    o << "<th class=\"t\">" << html(t.id) << "<small>" << html(t.description) << "</small></th>";
  o << "</tr>\n";
  auto m = matrix(r);
  for (const std::string &name : caseOrder(r)) {
    o << "<tr><td class=\"case\">" << html(name) << "</td>";
    for (const Target &t : r.targets()) {
      const Result *x = m[name][t.id];
      if (!x) {
        o << "<td></td>";
        continue;
      }
      const char *n = outcomeName(x->outcome);
      o << "<td class=\"c " << n << "\" title=\"" << html(x->message) << "\">" << n;
      if (x->outcome == Outcome::Fail || x->outcome == Outcome::XPass) {
        std::string detail = x->mismatch ? shortMismatch(*x) : x->message.substr(0, 300);
        o << "<small>" << html(detail) << "</small><small>seed " << x->seed << "</small>";
      } else if (x->outcome == Outcome::XFail || x->outcome == Outcome::Unsupported) {
        o << "<small>" << html(x->message.substr(0, 160)) << "</small>";
      } else if (x->outcome == Outcome::Pass || x->outcome == Outcome::CompileOnly) {
        o << "<small>" << num(x->compileMs + x->runMs) << " ms"
          << (x->validation.empty() ? "" : ", " + html(x->validation)) << "</small>";
      }
      o << "</td>";
    }
    o << "</tr>\n";
  }
  o << "</table>\n";
  if (!r.differences().empty()) {
    o << "<h2>Differential</h2>\n<table><tr><th>case</th><th>first</th><th>second</th>"
         "<th>result</th></tr>\n";
    for (const DiffResult &d : r.differences())
      o << "<tr><td class=\"case\">" << html(d.caseName) << "</td><td>" << html(d.first)
        << "</td><td>" << html(d.second) << "</td><td class=\"c "
        << (!d.comparable ? "unsupported" : d.agree ? "pass" : "fail") << "\">"
        << html(d.message) << "</td></tr>\n";
    o << "</table>\n";
  }
  std::vector<std::string> unused = r.unusedExpectations();
  if (!unused.empty()) {
    o << "<h2>Expectations that matched nothing</h2><ul>";
    for (const std::string &u : unused)
      o << "<li>" << html(u) << "</li>";
    o << "</ul>\n";
  }
  o << "</body></html>\n";
  return o.str();
}

runtime::Status writeReports(Runner &r, const std::string &dir) {
  std::string path;
  for (size_t i = 0; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') {
      path = dir.substr(0, i);
      if (!path.empty() && mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
        return runtime::Status(HD_ERROR_INVALID_ARGUMENT,
                               "cannot create " + path + ": " + std::strerror(errno));
    }
  const std::pair<const char *, std::string> files[] = {
      {"conformance.json", jsonReport(r)},
      {"conformance.md", markdownReport(r)},
      {"conformance.html", htmlReport(r)},
  };
  for (const auto &f : files) {
    std::string p = dir + "/" + f.first;
    std::ofstream out(p);
    out << f.second;
    if (!out)
      return runtime::Status(HD_ERROR_INVALID_ARGUMENT, "cannot write " + p);
  }
  return {};
}

} // namespace hadron::conformance
