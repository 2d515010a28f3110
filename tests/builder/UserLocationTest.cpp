//===- UserLocationTest.cpp - What front ends in other languages use -------===//
//
// The Python package traces kernels through the builder: errors and op
// locations must name the user's Python line (set_user_location), and a
// trace error must come back at the call that made it (catch_trace_error).
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

namespace hadron::builder::test {
namespace {

const Layout L = Blocked{{4}, {32}, {4}, {0}};

/// Restores the C++ callers' locations however a test ends.
struct UserLocationScope {
  explicit UserLocationScope(UserLocation loc) { set_user_location(std::move(loc)); }
  ~UserLocationScope() { set_user_location({}); }
};

TEST(BuilderUserLocation, ErrorsNameTheUsersLine) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L);
    set_user_location({"kernel.py", 12, 9});
    (void)(a + arange(0, 256, L));
  });
  std::string error;
  {
    UserLocationScope scope({"kernel.py", 3, 1});
    error = errorOf(k.specialize({.numWarps = 4}));
  }
  EXPECT_EQ(error, "kernel.py:12:9: error: +: shapes [128] and [256] differ "
                   "(dimension 0: 128 vs 256)");
}

TEST(BuilderUserLocation, OpsCarryTheUsersLine) {
  auto k = jit("k", [] {
    Tensor p = arg(pointer_type(float32));
    set_user_location({"kernel.py", 7, 5});
    store(p + arange(0, 128, L), 1.0f);
  });
  Result<Module> m = [&] {
    UserLocationScope scope({"kernel.py", 2, 1});
    return k.specialize({.numWarps = 4});
  }();
  ASSERT_TRUE(m.ok()) << m.error();
  std::string text;
  llvm::raw_string_ostream os(text);
  m->op()->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  EXPECT_TRUE(containsInOrder(text, {"hd.store", "loc(", "\"kernel.py\":7:5"}));
  EXPECT_EQ(text.find("UserLocationTest.cpp"), std::string::npos) << text;
}

TEST(BuilderUserLocation, CatchTraceErrorReturnsTheError) {
  std::optional<std::string> caught;
  auto k = jit("k", [&] {
    Tensor p = arg(pointer_type(float32));
    Tensor offsets = arange(0, 128, L);
    caught = catch_trace_error([&] { (void)(offsets - 0.5); });
    store(p + offsets, 2.0f);
  });
  Result<Module> m = k.specialize({.numWarps = 4});
  ASSERT_TRUE(m.ok()) << m.error();
  ASSERT_TRUE(caught.has_value());
  EXPECT_NE(caught->find("UserLocationTest.cpp:"), std::string::npos) << *caught;
  EXPECT_NE(caught->find("-: the number 0.500000 is not an integer"), std::string::npos) << *caught;
  EXPECT_FALSE(catch_trace_error([] {}).has_value());
}

TEST(BuilderUserLocation, ClearedLocationGoesBackToCpp) {
  auto k = jit("k", [] { (void)program_id(3); });
  set_user_location({"kernel.py", 1, 1});
  set_user_location({});
  std::string error = errorOf(k.specialize({.numWarps = 4}));
  EXPECT_EQ(error.rfind(at(__FILE__, __LINE__ - 4), 0), 0u) << error;
}

} // namespace
} // namespace hadron::builder::test
