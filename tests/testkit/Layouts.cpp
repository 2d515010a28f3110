//===- Layouts.cpp - Test layouts for any warp size -----------------------===//

#include "testkit/Layouts.h"

#include <algorithm>

namespace hadron::testkit {

namespace {

int log2i(long v) {
  int k = 0;
  while ((1L << k) < v)
    ++k;
  return k;
}

} // namespace

std::string join(const std::vector<int> &v, const char *sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string list(const std::vector<int> &v) { return "[" + join(v, ", ") + "]"; }

std::string shapeStr(const std::vector<int> &shape) { return join(shape, "x"); }

int Blocked::numWarps() const {
  int n = 1;
  for (int w : wpc)
    n *= w;
  return n;
}

std::vector<int> Blocked::lanesFor(unsigned lanes) const {
  std::vector<int> t = tpw;
  if (lanes > 32) {
    t[order[0]] *= static_cast<int>(lanes / 32);
    return t;
  }
  int divide = static_cast<int>(32 / lanes);
  for (int d : order)
    while (divide > 1 && t[d] > 1) {
      t[d] /= 2;
      divide /= 2;
    }
  return t;
}

int Blocked::tile(int d, unsigned lanes) const { return spt[d] * lanesFor(lanes)[d] * wpc[d]; }

std::string Blocked::str(unsigned lanes) const {
  return "#hd.blocked<{sizePerThread = " + list(spt) + ", threadsPerWarp = " +
         list(lanesFor(lanes)) + ", warpsPerCTA = " + list(wpc) + ", order = " + list(order) +
         "}>";
}

std::string Blocked::name() const {
  return "s" + join(spt, "x") + "_t" + join(tpw, "x") + "_w" + join(wpc, "x") + "_o" +
         join(order, "");
}

std::string slice(int dim, const std::string &parent) {
  return "#hd.slice<{dim = " + std::to_string(dim) + ", parent = " + parent + "}>";
}

std::string linearLayout(const std::vector<int> &shape, unsigned lanes, int numWarps,
                         const std::vector<int> &perm) {
  const int rank = static_cast<int>(shape.size());
  // Bit p of the row-major index is bit (p - low[d]) of coordinate d.
  std::vector<int> low(rank), bits(rank);
  int total = 0;
  for (int d = rank - 1; d >= 0; --d) {
    low[d] = total;
    bits[d] = log2i(shape[d]);
    total += bits[d];
  }
  auto basis = [&](int p) {
    std::vector<int> c(rank, 0);
    for (int d = 0; d < rank; ++d)
      if (p >= low[d] && p < low[d] + bits[d])
        c[d] = 1 << (p - low[d]);
    return list(c);
  };
  const std::string zero = list(std::vector<int>(rank, 0));
  const int laneBits = log2i(lanes), warpBits = log2i(numWarps);
  const int regBits = std::max(0, total - laneBits - warpBits);
  std::vector<std::string> reg, lane, warp;
  size_t next = 0;
  for (int i = 0; i < regBits; ++i)
    reg.push_back(basis(perm[next++]));
  for (int i = 0; i < laneBits; ++i)
    lane.push_back(next < perm.size() ? basis(perm[next++]) : zero);
  for (int i = 0; i < warpBits; ++i)
    warp.push_back(next < perm.size() ? basis(perm[next++]) : zero);
  auto bases = [](const std::vector<std::string> &b) {
    std::string s = "[";
    for (size_t i = 0; i < b.size(); ++i)
      s += (i ? ", " : "") + b[i];
    return s + "]";
  };
  return "#hd.linear<{register = " + bases(reg) + ", lane = " + bases(lane) +
         ", warp = " + bases(warp) + ", block = []}>";
}

} // namespace hadron::testkit
