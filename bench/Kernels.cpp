//===- Kernels.cpp - The benchmarks' hd kernels ---------------------------===//

#include "Kernels.h"

namespace hadron::bench {

namespace {

/// Replaces every "{KEY}" of `text` by its value.
std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>> &subs) {
  for (const auto &[key, value] : subs) {
    std::string pattern = "{" + key + "}";
    for (size_t at = text.find(pattern); at != std::string::npos;
         at = text.find(pattern, at + value.size()))
      text.replace(at, pattern.size(), value);
  }
  return text;
}

const char *const kHeader = R"(#blocked = #hd.blocked<{sizePerThread = [{SPT}], threadsPerWarp = [32], warpsPerCTA = [{W}], order = [0]}>

module attributes {hd.num_warps = {W} : i32} {
)";

// The offsets of this program's block and the mask of those below %n.
const char *const kBlockOffsets = R"(    %cB = arith.constant {B} : i32
    %pid = hd.program_id 0
    %base = arith.muli %pid, %cB : i32
    %range = hd.arange 0 to {B} : tensor<{B}xi32, #blocked>
    %base_t = hd.splat %base : tensor<{B}xi32, #blocked>
    %offsets = arith.addi %base_t, %range : tensor<{B}xi32, #blocked>
    %n_t = hd.splat %n : tensor<{B}xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %n_t : tensor<{B}xi32, #blocked>
)";

const char *const kCopy = R"(  func.func @bench_copy(%src: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %dst: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n: i32 {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
{OFFSETS}    %sp = hd.splat %src : tensor<{B}x!hd.ptr<f32>, #blocked>
    %sptrs = hd.addptr %sp, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    %v = hd.load %sptrs mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    %dp = hd.splat %dst : tensor<{B}x!hd.ptr<f32>, #blocked>
    %dptrs = hd.addptr %dp, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    hd.store %dptrs, %v mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    return
  }
}
)";

const char *const kAdd = R"(  func.func @bench_add(%a: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %b: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %c: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n: i32 {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
{OFFSETS}    %ap = hd.splat %a : tensor<{B}x!hd.ptr<f32>, #blocked>
    %aptrs = hd.addptr %ap, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    %bp = hd.splat %b : tensor<{B}x!hd.ptr<f32>, #blocked>
    %bptrs = hd.addptr %bp, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    %av = hd.load %aptrs mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    %bv = hd.load %bptrs mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    %sum = arith.addf %av, %bv : tensor<{B}xf32, #blocked>
    %cp = hd.splat %c : tensor<{B}x!hd.ptr<f32>, #blocked>
    %cptrs = hd.addptr %cp, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    hd.store %cptrs, %sum mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    return
  }
}
)";

// Row softmax as examples/row_softmax.mlir, with the row tile a parameter
// (and, like it, afn on exp and the divide: what Triton's softmax computes).
const char *const kSoftmax = R"(  func.func @bench_softmax(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n_cols: i32 {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %row = hd.program_id 0
    %start = arith.muli %row, %n_cols : i32
    %cols = hd.arange 0 to {B} : tensor<{B}xi32, #blocked>
    %n = hd.splat %n_cols : tensor<{B}xi32, #blocked>
    %mask = arith.cmpi slt, %cols, %n : tensor<{B}xi32, #blocked>
    %base = hd.splat %start : tensor<{B}xi32, #blocked>
    %offsets = arith.addi %base, %cols : tensor<{B}xi32, #blocked>
    %ip = hd.splat %in : tensor<{B}x!hd.ptr<f32>, #blocked>
    %iptrs = hd.addptr %ip, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    %ninf = arith.constant dense<0xFF800000> : tensor<{B}xf32, #blocked>
    %x = hd.load %iptrs mask %mask other %ninf : tensor<{B}x!hd.ptr<f32>, #blocked>
    %max = hd.reduce(%x) axis = 0 : (tensor<{B}xf32, #blocked>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %m = arith.maximumf %p, %q : f32
      hd.yield %m : f32
    }
    %maxs = hd.splat %max : tensor<{B}xf32, #blocked>
    %shifted = arith.subf %x, %maxs : tensor<{B}xf32, #blocked>
    %e = math.exp %shifted fastmath<afn> : tensor<{B}xf32, #blocked>
    %sum = hd.reduce(%e) axis = 0 : (tensor<{B}xf32, #blocked>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      hd.yield %s : f32
    }
    %sums = hd.splat %sum : tensor<{B}xf32, #blocked>
    %y = arith.divf %e, %sums fastmath<afn> : tensor<{B}xf32, #blocked>
    %op = hd.splat %out : tensor<{B}x!hd.ptr<f32>, #blocked>
    %optrs = hd.addptr %op, %offsets : tensor<{B}x!hd.ptr<f32>, #blocked>, tensor<{B}xi32, #blocked>
    hd.store %optrs, %y mask %mask : tensor<{B}x!hd.ptr<f32>, #blocked>
    return
  }
}
)";

} // namespace

std::string Config::describe() const {
  return "block=" + std::to_string(block) + " spt=" + std::to_string(spt) +
         " warps=" + std::to_string(warps);
}

std::string Config::tag() const {
  return "b" + std::to_string(block) + "_s" + std::to_string(spt) + "_w" + std::to_string(warps);
}

const char *opName(Op op) {
  switch (op) {
  case Op::Copy:
    return "copy";
  case Op::Add:
    return "add";
  case Op::Softmax:
    return "softmax";
  }
  return "?";
}

std::string kernelName(Op op) { return std::string("bench_") + opName(op); }

std::string kernelIR(Op op, const Config &c) {
  std::string body = op == Op::Copy ? kCopy : op == Op::Add ? kAdd : kSoftmax;
  body = fill(body, {{"OFFSETS", kBlockOffsets}});
  return fill(std::string(kHeader) + body, {{"B", std::to_string(c.block)},
                                            {"SPT", std::to_string(c.spt)},
                                            {"W", std::to_string(c.warps)}});
}

std::vector<Config> sweep(const std::vector<uint32_t> &blocks, const std::vector<uint32_t> &spts,
                          const std::vector<uint32_t> &warps) {
  std::vector<Config> out;
  for (uint32_t b : blocks)
    for (uint32_t w : warps)
      for (uint32_t s : spts)
        if (static_cast<uint64_t>(s) * 32 * w <= b)
          out.push_back({b, s, w});
  return out;
}

uint32_t nextPowerOfTwo(uint32_t v) {
  uint32_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

} // namespace hadron::bench
