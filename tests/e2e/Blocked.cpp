//===- Blocked.cpp - The e2e suite's blocked layouts ----------------------===//

#include "Blocked.h"

namespace hadron::e2e {

std::string joinInts(const std::vector<int> &v, const char *sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string listInts(const std::vector<int> &v) { return "[" + joinInts(v, ", ") + "]"; }

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
  } else {
    int divide = static_cast<int>(32 / lanes);
    for (int d : order)
      while (divide > 1 && t[d] > 1) {
        t[d] /= 2;
        divide /= 2;
      }
  }
  return t;
}

int Blocked::tile(int d, unsigned lanes) const { return spt[d] * lanesFor(lanes)[d] * wpc[d]; }

std::string Blocked::str(unsigned lanes) const {
  return "#hd.blocked<{sizePerThread = " + listInts(spt) + ", threadsPerWarp = " +
         listInts(lanesFor(lanes)) + ", warpsPerCTA = " + listInts(wpc) + ", order = " + listInts(order) +
         "}>";
}

std::string Blocked::name() const {
  return "s" + joinInts(spt, "x") + "_t" + joinInts(tpw, "x") + "_w" + joinInts(wpc, "x") + "_o" +
         joinInts(order, "");
}

} // namespace hadron::e2e
