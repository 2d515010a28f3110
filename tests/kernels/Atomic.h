//===- Atomic.h - The atomic kernels and their uses -------------*- C++ -*-===//
//
// The kernels of the conformance suite's atomic.* cases; element i of
// program pid's block (offsets pid * B + arange(B), masked by n) hits bin
// offset % kAtomicBins:
//   rmw (vals, bins, olds, n)  variant: the kind (add max min umax umin and
//                              or xor xchg fadd fmax fmin); olds[i] = the
//                              old value of atomic_<kind>(bins + bin, vals[i]);
//                              masked-off lanes carry 1048577, a value that
//                              would change every bin. ints {1}: relaxed at
//                              CTA scope instead of acq_rel at GPU scope
//   cas (bins, olds, n)        olds[i] = atomic_cas(bins + bin, 0, i + 1);
//                              lanes past n compare with -5, which no bin
//                              holds
//   histogram (in, hist, n)    relaxed atomic_add(hist + (in[i] & 15), 1)
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_ATOMIC_H
#define HADRON_TESTS_KERNELS_ATOMIC_H

#include "kernels/Frame.h"
#include "kernels/KernelUse.h"

#include <vector>

namespace hadron::kernels {

constexpr int kAtomicBins = 7;

namespace atomic {
inline KernelUse rmw(const std::string &kind, Elem e, const Blocked &l, bool relaxedCta) {
  return {"rmw", l, e, {}, {relaxedCta ? 1 : 0}, kind};
}
inline KernelUse cas(Elem e) { return {"cas", frameLayouts()[1], e}; }
inline KernelUse histogram() { return {"histogram", frameLayouts()[0], Elem::I32}; }
} // namespace atomic

/// What the conformance suite's atomic.* cases take, in its order; the rmw
/// uses take the 1-D frame layouts in turn.
inline std::vector<KernelUse> atomicUses() {
  struct Kind {
    const char *kind;
    Elem e;
    bool relaxedCta;
  };
  static const Kind kinds[] = {
      {"add", Elem::I32, false},  {"add", Elem::I64, false},  {"max", Elem::I32, false},
      {"min", Elem::I64, false},  {"umax", Elem::I32, false}, {"umin", Elem::I64, false},
      {"and", Elem::I32, false},  {"or", Elem::I64, false},   {"xor", Elem::I32, false},
      {"xchg", Elem::I32, false}, {"xchg", Elem::F32, false}, {"fadd", Elem::F32, false},
      {"fmax", Elem::F32, false}, {"fmin", Elem::F32, false}, {"add", Elem::I32, true},
  };
  std::vector<KernelUse> uses;
  for (const Kind &k : kinds)
    uses.push_back(atomic::rmw(k.kind, k.e, frameLayouts()[uses.size() % 3], k.relaxedCta));
  uses.push_back(atomic::cas(Elem::I32));
  uses.push_back(atomic::cas(Elem::I64));
  uses.push_back(atomic::histogram());
  return uses;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_ATOMIC_H
