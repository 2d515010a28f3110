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
// and tests/e2e's, which take blocks of several tiles (ints {relaxedCta,
// block}) and three more:
//   ticket (counter, tickets: i32)  a scalar atomic_add(counter, 1) per
//                                   program, its old value to tickets[pid]
//   cas_winner (slot, seen: i32)    every element tries cas(slot, 0, i + 1)
//                                   and stores what it saw, unmasked
//   cas_each (mem, cmp, val, olds, n)
//                                   olds[i] = cas(mem + i, cmp[i], val[i]);
//                                   lanes past n go to element 0 with a
//                                   comparison (-7777777) that never holds
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
/// With a block of `block` elements a program (a multiple of the tile).
inline KernelUse rmw(const std::string &kind, Elem e, const Blocked &l, bool relaxedCta,
                     int block) {
  return {"rmw", l, e, {}, {relaxedCta ? 1 : 0, block}, kind};
}
inline KernelUse ticket(int warps) { return {"ticket", {{1}, {32}, {warps}, {0}}, Elem::I32}; }
inline KernelUse casWinner(const Blocked &l, int block) {
  return {"cas_winner", l, Elem::I32, {}, {block}};
}
inline KernelUse casEach(const Blocked &l, int block, Elem e) {
  return {"cas_each", l, e, {}, {block}};
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

/// tests/e2e's atomic layouts and blocks; the rmw tests take the first two.
struct E2EAtomicLayout {
  Blocked layout;
  int block;
};
inline const std::vector<E2EAtomicLayout> &e2eAtomicLayouts() {
  static const std::vector<E2EAtomicLayout> l = {
      {{{1}, {32}, {4}, {0}}, 256},
      {{{4}, {32}, {1}, {0}}, 128},
      {{{2}, {32}, {8}, {0}}, 512},
  };
  return l;
}

/// tests/e2e's rmw kinds, in its order.
struct E2ERmwKind {
  const char *kind;
  Elem e;
  bool relaxedCta;
};
inline const std::vector<E2ERmwKind> &e2eRmwKinds() {
  static const std::vector<E2ERmwKind> k = {
      {"add", Elem::I32, false},  {"max", Elem::I32, false},  {"min", Elem::I32, false},
      {"umax", Elem::I32, false}, {"umin", Elem::I32, false}, {"and", Elem::I32, false},
      {"or", Elem::I32, false},   {"xor", Elem::I32, false},  {"xchg", Elem::I32, false},
      {"add", Elem::I64, false},  {"max", Elem::I64, false},  {"xchg", Elem::I64, false},
      {"fadd", Elem::F32, false}, {"fmax", Elem::F32, false}, {"fmin", Elem::F32, false},
      {"xchg", Elem::F32, false}, {"add", Elem::I32, true},
  };
  return k;
}

/// What tests/e2e's atomic tests take.
inline std::vector<KernelUse> e2eAtomicUses() {
  std::vector<KernelUse> uses;
  const auto &l = e2eAtomicLayouts();
  for (const E2ERmwKind &k : e2eRmwKinds())
    for (size_t i = 0; i < 2; ++i)
      uses.push_back(atomic::rmw(k.kind, k.e, l[i].layout, k.relaxedCta, l[i].block));
  for (int warps : {1, 4, 8})
    uses.push_back(atomic::ticket(warps));
  for (const E2EAtomicLayout &x : l) {
    uses.push_back(atomic::casWinner(x.layout, x.block));
    for (Elem e : {Elem::I32, Elem::I64})
      uses.push_back(atomic::casEach(x.layout, x.block, e));
  }
  return uses;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_ATOMIC_H
