//===- Bench.cpp - Workloads, statistics and the JSON report --------------===//

#include "Bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hadron::bench {

std::string Workload::key() const {
  if (op == Op::Softmax)
    return "softmax" + std::to_string(rows) + "x" + std::to_string(cols);
  return opName(op);
}

std::string Workload::describe() const {
  if (op == Op::Softmax)
    return "softmax " + std::to_string(rows) + "x" + std::to_string(cols);
  return std::string(opName(op)) + " n=" + std::to_string(n);
}

uint64_t Workload::bytes() const {
  uint64_t floats = op == Op::Add ? 3 * n : 2 * elements();
  return floats * sizeof(float);
}

uint32_t Workload::grid(const Config &c) const {
  if (op == Op::Softmax)
    return rows;
  return static_cast<uint32_t>((n + c.block - 1) / c.block);
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double hi = v[mid];
  if (v.size() % 2)
    return hi;
  return (*std::max_element(v.begin(), v.begin() + mid) + hi) / 2;
}

namespace {

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

} // namespace

void JsonReport::number(const std::string &key, double value) {
  char buf[64];
  if (std::isfinite(value))
    std::snprintf(buf, sizeof buf, "%.6g", value);
  else
    std::snprintf(buf, sizeof buf, "null");
  entries_.emplace_back(key, buf);
}

void JsonReport::string(const std::string &key, const std::string &value) {
  entries_.emplace_back(key, quote(value));
}

std::string JsonReport::text() const {
  std::string out = "{";
  for (size_t i = 0; i < entries_.size(); ++i)
    out += (i ? ",\n " : "\n ") + quote(entries_[i].first) + ": " + entries_[i].second;
  return out + "\n}\n";
}

bool JsonReport::write(const std::string &path, std::string &why) const {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    why = "cannot write " + path;
    return false;
  }
  std::string t = text();
  bool ok = std::fwrite(t.data(), 1, t.size(), f) == t.size();
  ok &= std::fclose(f) == 0;
  if (!ok)
    why = "writing " + path + " failed";
  return ok;
}

} // namespace hadron::bench
