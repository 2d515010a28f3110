//===- Debug.h - tests/e2e's assert and hint kernels ------------*- C++ -*-===//
//
// out[i] = in[i] + 1 over a masked block (masked-off elements load 0), in
// and out 16-divisible i32 pointers, with, between the load and the store:
//   assert_ok (in, out, n)      device_assert(x < 1000, "hadron-e2e: x out
//                               of range")
//   assert_fails (in, out, n)   device_assert(x != 4242, e2eAssertMessage())
//   hints (in, out, n)          assume(n > 0); the block's start and its
//                               splat multiple_of 512, both pointers
//                               multiple_of 16, the load and store through
//                               them
// ints {block}. tests/e2e's print kernels stay IR text: they test how the
// parser reads hd.print (an attribute dictionary, a bare print before a
// result), which the builder cannot write.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_DEBUG_H
#define HADRON_TESTS_KERNELS_DEBUG_H

#include "kernels/KernelUse.h"

#include <string>
#include <vector>

namespace hadron::kernels {

/// The failing assert's message, which the test looks for in the error.
inline const char *e2eAssertMessage() { return "hadron-e2e: planted value found"; }

namespace e2edebug {
inline const Blocked kWide{{4}, {32}, {4}, {0}};
inline KernelUse assertOk() { return {"assert_ok", kWide, Elem::I32, {}, {512}}; }
inline KernelUse assertFails() { return {"assert_fails", kWide, Elem::I32, {}, {512}}; }
inline KernelUse hints() { return {"hints", kWide, Elem::I32, {}, {512}}; }
} // namespace e2edebug

inline std::vector<KernelUse> e2eDebugUses() {
  return {e2edebug::assertOk(), e2edebug::assertFails(), e2edebug::hints()};
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_DEBUG_H
