//===- Values.h - Host arrays of any hd element type ------------*- C++ -*-===//
//
// An Array is a typed vector of raw bytes (what a device buffer holds), with
// element access as int64 or double. f16 and bf16 are converted here with
// round-to-nearest-even, so references round exactly as IEEE hardware does.
// Each element type has a poison pattern the suites fill outputs with: a
// NaN no kernel computes for floats, 0xAA bytes for integers.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTKIT_VALUES_H
#define HADRON_TESTKIT_VALUES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hadron::testkit {

enum class Elem { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

const char *irName(Elem e);
size_t elemSize(Elem e);
bool isFloat(Elem e);
int bitWidth(Elem e);

uint16_t toHalfBits(float f);
float fromHalfBits(uint16_t h);
uint16_t toBf16Bits(float f);
float fromBf16Bits(uint16_t h);
/// `v` rounded to the precision of `e` (floats), or wrapped to its width and
/// sign-extended (integers; i1 is 0 or 1).
double roundTo(Elem e, double v);
int64_t wrapTo(Elem e, int64_t v);

class Array {
public:
  Array() = default;
  Array(Elem elem, size_t n) : elem_(elem), bytes_(n * elemSize(elem)) {}

  Elem elem() const { return elem_; }
  size_t size() const { return bytes_.empty() ? 0 : bytes_.size() / elemSize(elem_); }
  void resize(size_t n) { bytes_.resize(n * elemSize(elem_)); }
  uint8_t *data() { return bytes_.data(); }
  const uint8_t *data() const { return bytes_.data(); }
  size_t bytes() const { return bytes_.size(); }

  /// Integers sign-extended (i1: 0/1); floats truncated toward zero.
  int64_t i(size_t k) const;
  /// Floats widened; integers converted.
  double f(size_t k) const;
  /// The element's bits, zero-extended.
  uint64_t bits(size_t k) const;
  void setI(size_t k, int64_t v);
  /// Rounds to the element type (RNE for f16/bf16/f32).
  void setF(size_t k, double v);
  void setBits(size_t k, uint64_t b);

  void fillPoison();
  void setPoison(size_t k) { setBits(k, poisonBits(elem_)); }
  bool isPoison(size_t k) const { return bits(k) == poisonBits(elem_); }
  static uint64_t poisonBits(Elem e);

  /// The element as text: "3", "-0.5", "nan (0x7fc00000)".
  std::string show(size_t k) const;

private:
  Elem elem_ = Elem::I32;
  std::vector<uint8_t> bytes_;
};

/// Units in the last place between two finite values of `e`'s precision.
int64_t ulpDistance(Elem e, double a, double b);

} // namespace hadron::testkit

#endif // HADRON_TESTKIT_VALUES_H
