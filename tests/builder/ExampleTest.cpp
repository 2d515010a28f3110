//===- ExampleTest.cpp - The example docs/frontend-cpp.md shows -----------===//
//
// docs/frontend-cpp.md quotes examples/cpp/vector_add.cpp and the launch
// code between the `[launch]` markers below; these tests run both on the
// host and fail when the page no longer quotes them word for word.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"
#include "Examples.h"

#include <fstream>
#include <sstream>

namespace hadron::builder::test {
namespace {

std::string readSource(const std::string &path) {
  std::ifstream in(std::string(HADRON_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Adds x and y (n floats) on the host through the runtime, as the page
/// shows; false with a message on any failure.
bool addOnHost(const std::vector<float> &x, const std::vector<float> &y, std::vector<float> &out,
               std::string &error) {
  // [launch]
  Result<Module> kernel = examples::vectorAdd();
  if (!kernel) {
    error = kernel.error(); // "vector_add.cpp:17:5: error: ..."
    return false;
  }

  auto context = runtime::Context::create();
  auto device = context->select("host"); // or "auto", "nvidia", ...
  auto module = device->loadIR(kernel->str());
  if (!module) {
    error = module.status().message();
    return false;
  }
  auto add = module->kernel(kernel->kernelName());

  int32_t n = static_cast<int32_t>(x.size());
  auto dx = device->alloc(n * sizeof(float));
  auto dy = device->alloc(n * sizeof(float));
  auto dout = device->alloc(n * sizeof(float));
  uint32_t programs = (n + 1023) / 1024; // BLOCK = 1024
  runtime::Status status = dx->upload(x);
  if (status)
    status = dy->upload(y);
  if (status)
    status = add->launch({programs, 1, 1},
                         {dx->arg(), dy->arg(), dout->arg(), runtime::arg::i32(n)});
  if (status)
    status = device->synchronize();
  if (status)
    status = dout->download(out);
  if (!status) {
    error = status.message();
    return false;
  }
  // [launch]
  return true;
}

TEST(BuilderExample, VectorAddRunsOnTheHost) {
  const size_t n = 100000 + rng()() % 1000;
  std::vector<float> x = randomF32(n), y = randomF32(n), out = poisoned<float>(n), want(n);
  std::string error;
  ASSERT_TRUE(addOnHost(x, y, out, error)) << error;
  for (size_t i = 0; i < n; ++i)
    want[i] = x[i] + y[i];
  EXPECT_TRUE(close(out, want, 0, 0));
}

TEST(BuilderExample, ThePageQuotesTheTestedSource) {
  std::string page = readSource("docs/frontend-cpp.md");
  ASSERT_FALSE(page.empty()) << "docs/frontend-cpp.md not found";
  std::string example = readSource("examples/cpp/vector_add.cpp");
  ASSERT_FALSE(example.empty());
  EXPECT_NE(page.find(example), std::string::npos)
      << "docs/frontend-cpp.md does not quote examples/cpp/vector_add.cpp as it is";

  std::string self = readSource("tests/builder/ExampleTest.cpp");
  const std::string marker = "  // [launch]\n";
  size_t begin = self.find(marker), end = self.find(marker, begin + 1);
  ASSERT_NE(end, std::string::npos);
  std::string launch = self.substr(begin + marker.size(), end - begin - marker.size());
  // The page shows it unindented by one level.
  std::string shown;
  std::istringstream lines(launch);
  for (std::string line; std::getline(lines, line);)
    shown += (line.rfind("  ", 0) == 0 ? line.substr(2) : line) + "\n";
  EXPECT_NE(page.find(shown), std::string::npos)
      << "docs/frontend-cpp.md does not quote the launch code of ExampleTest.cpp:\n"
      << shown;
}

TEST(BuilderExample, EveryDemoExampleBuilds) {
  for (const examples::Example &e : examples::examples()) {
    auto m = e.build();
    ASSERT_TRUE(m) << e.name << ": " << m.error();
    EXPECT_EQ(m->kernelName(), e.name);
    EXPECT_EQ(m->key().rfind(std::string(e.name) + ".", 0), 0u) << m->key();
  }
}

} // namespace
} // namespace hadron::builder::test
