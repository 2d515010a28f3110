//===- ArgSpec.h - Kernel arguments written on the command line -*- C++ -*-===//
//
// `hadron run --arg SPEC` describes one kernel argument:
//
//   spec   := [name '='] type ['[' shape ']'] [':' init]
//   shape  := count ('x' count)*            a buffer of that many elements
//   init   := rand | randn | zeros | ones | iota | poison | file:PATH   (buffers)
//           | VALUE                                                     (scalars)
//   type   := i1 | i8 | i16 | i32 | i64 | f16 | bf16 | f32 | f64
//
// `x=f32[4096]:rand` is a buffer of 4096 floats, uniform in [-1, 1);
// `n=i32:4096` the scalar 4096. A buffer without an init is zeros.
// Generators: rand (floats uniform in [-1, 1), integers uniform in
// [-100, 100]), randn (floats, normal with mean 0 and deviation 1), zeros,
// ones, iota (0, 1, 2, ...), poison (NaN for floats, the bytes 0xDEADBEEF
// repeated for integers: what a kernel leaves unwritten stands out), file:PATH
// (raw bytes, exactly the buffer's size). Random buffers are seeded from the
// run's seed and the argument's index, so one seed replays a run.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TOOLS_HADRON_ARGSPEC_H
#define HADRON_TOOLS_HADRON_ARGSPEC_H

#include "Cli.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hadron::cli {

enum class ElementType { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

const char *elementTypeName(ElementType type);
size_t elementBytes(ElementType type);
bool isFloat(ElementType type);
hd_arg_kind argKind(ElementType type);

enum class Init { Rand, Randn, Zeros, Ones, Iota, Poison, File };

struct ArgSpec {
  std::string name; ///< Given, or "arg<index>".
  ElementType type = ElementType::F32;
  bool isBuffer = false;
  std::string shape; ///< As written: "4096", "64x64".
  uint64_t count = 0;
  Init init = Init::Zeros;
  std::string file; ///< For Init::File.
  hd_arg scalar{};  ///< For scalars: kind and value.

  /// "f32[4096]" or "i32".
  std::string typeText() const;
};

/// Parses one --arg; `index` is its position (for the default name).
Expected<ArgSpec> parseArgSpec(const std::string &text, unsigned index);

/// True when the spec draws random numbers (so the seed matters).
bool usesSeed(const ArgSpec &spec);

/// The initial contents of a buffer argument.
Expected<std::vector<unsigned char>> generate(const ArgSpec &spec, uint64_t seed, unsigned index);

/// Element i of `bytes` as a double (halves and bfloats widened).
double elementAt(const std::vector<unsigned char> &bytes, ElementType type, size_t i);

/// The first `limit` elements, "[1, 2, 3, ...]".
std::string formatElements(const std::vector<unsigned char> &bytes, ElementType type, size_t limit);

/// IEEE half and bfloat16 from float, rounding to nearest even.
uint16_t floatToHalf(float f);
uint16_t floatToBFloat16(float f);
float halfToFloat(uint16_t h);
float bfloat16ToFloat(uint16_t b);

} // namespace hadron::cli

#endif // HADRON_TOOLS_HADRON_ARGSPEC_H
