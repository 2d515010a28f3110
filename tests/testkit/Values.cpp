//===- Values.cpp - Host arrays, f16/bf16 rounding, poison ----------------===//

#include "testkit/Values.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace hadron::testkit {

const char *irName(Elem e) {
  switch (e) {
  case Elem::I1: return "i1";
  case Elem::I8: return "i8";
  case Elem::I16: return "i16";
  case Elem::I32: return "i32";
  case Elem::I64: return "i64";
  case Elem::F16: return "f16";
  case Elem::BF16: return "bf16";
  case Elem::F32: return "f32";
  case Elem::F64: return "f64";
  }
  return "?";
}

size_t elemSize(Elem e) {
  switch (e) {
  case Elem::I1:
  case Elem::I8: return 1;
  case Elem::I16:
  case Elem::F16:
  case Elem::BF16: return 2;
  case Elem::I32:
  case Elem::F32: return 4;
  case Elem::I64:
  case Elem::F64: return 8;
  }
  return 1;
}

bool isFloat(Elem e) {
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}

int bitWidth(Elem e) { return e == Elem::I1 ? 1 : static_cast<int>(elemSize(e) * 8); }

uint16_t toHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t a = x & 0x7fffffff;
  if (a > 0x7f800000) // NaN: quiet, top payload bits kept
    return static_cast<uint16_t>(sign | 0x7e00 | ((a >> 13) & 0x3ff));
  if (a == 0x7f800000)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (a >= 0x477ff000) // 65520 and up round to infinity
    return static_cast<uint16_t>(sign | 0x7c00);
  if (a < 0x38800000) { // a half subnormal, in units of 2^-24, rounded to even
    float v;
    std::memcpy(&v, &a, 4);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(v * 16777216.0f)));
  }
  uint32_t h = (((a >> 23) - 127 + 15) << 10) | ((a & 0x7fffff) >> 13);
  const uint32_t rest = a & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is the right result
  return static_cast<uint16_t>(sign | h);
}

float fromHalfBits(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) {
    float v = std::ldexp(static_cast<float>(m), -24);
    return sign ? -v : v;
  }
  uint32_t bits = e == 31 ? (sign | 0x7f800000 | (m << 13)) : (sign | ((e - 15 + 127) << 23) | (m << 13));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t toBf16Bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  const uint32_t lsb = (x >> 16) & 1;
  x += 0x7fff + lsb;
  return static_cast<uint16_t>(x >> 16);
}

float fromBf16Bits(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

double roundTo(Elem e, double v) {
  switch (e) {
  case Elem::F16: return fromHalfBits(toHalfBits(static_cast<float>(v)));
  case Elem::BF16: return fromBf16Bits(toBf16Bits(static_cast<float>(v)));
  case Elem::F32: return static_cast<float>(v);
  case Elem::F64: return v;
  default: return static_cast<double>(wrapTo(e, static_cast<int64_t>(v)));
  }
}

int64_t wrapTo(Elem e, int64_t v) {
  switch (e) {
  case Elem::I1: return v & 1;
  case Elem::I8: return static_cast<int8_t>(static_cast<uint8_t>(v));
  case Elem::I16: return static_cast<int16_t>(static_cast<uint16_t>(v));
  case Elem::I32: return static_cast<int32_t>(static_cast<uint32_t>(v));
  default: return v;
  }
}

uint64_t Array::bits(size_t k) const {
  uint64_t b = 0;
  std::memcpy(&b, bytes_.data() + k * elemSize(elem_), elemSize(elem_));
  return b;
}

void Array::setBits(size_t k, uint64_t b) {
  std::memcpy(bytes_.data() + k * elemSize(elem_), &b, elemSize(elem_));
}

int64_t Array::i(size_t k) const {
  if (isFloat(elem_))
    return static_cast<int64_t>(f(k));
  const uint64_t b = bits(k);
  switch (elem_) {
  case Elem::I1: return b & 1;
  case Elem::I8: return static_cast<int8_t>(b);
  case Elem::I16: return static_cast<int16_t>(b);
  case Elem::I32: return static_cast<int32_t>(b);
  default: return static_cast<int64_t>(b);
  }
}

double Array::f(size_t k) const {
  const uint64_t b = bits(k);
  switch (elem_) {
  case Elem::F16: return fromHalfBits(static_cast<uint16_t>(b));
  case Elem::BF16: return fromBf16Bits(static_cast<uint16_t>(b));
  case Elem::F32: {
    uint32_t u = static_cast<uint32_t>(b);
    float v;
    std::memcpy(&v, &u, 4);
    return v;
  }
  case Elem::F64: {
    double v;
    std::memcpy(&v, &b, 8);
    return v;
  }
  default: return static_cast<double>(i(k));
  }
}

void Array::setI(size_t k, int64_t v) {
  if (isFloat(elem_))
    return setF(k, static_cast<double>(v));
  setBits(k, static_cast<uint64_t>(wrapTo(elem_, v)));
}

void Array::setF(size_t k, double v) {
  switch (elem_) {
  case Elem::F16: return setBits(k, toHalfBits(static_cast<float>(v)));
  case Elem::BF16: return setBits(k, toBf16Bits(static_cast<float>(v)));
  case Elem::F32: {
    float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return setBits(k, u);
  }
  case Elem::F64: {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return setBits(k, u);
  }
  default: return setI(k, static_cast<int64_t>(v));
  }
}

uint64_t Array::poisonBits(Elem e) {
  switch (e) {
  case Elem::F16: return 0x7d55;
  case Elem::BF16: return 0x7fa5;
  case Elem::F32: return 0x7fa5a5a5;
  case Elem::F64: return 0x7ff4a5a5a5a5a5a5ull;
  case Elem::I1:
  case Elem::I8: return 0xaa;
  case Elem::I16: return 0xaaaa;
  case Elem::I32: return 0xaaaaaaaa;
  case Elem::I64: return 0xaaaaaaaaaaaaaaaaull;
  }
  return 0;
}

void Array::fillPoison() {
  for (size_t k = 0, n = size(); k < n; ++k)
    setPoison(k);
}

std::string Array::show(size_t k) const {
  std::ostringstream s;
  if (isPoison(k) && isFloat(elem_))
    s << "poison ";
  if (isFloat(elem_)) {
    s.precision(elem_ == Elem::F64 ? 17 : 9);
    s << f(k) << " (0x" << std::hex << bits(k) << ")";
  } else {
    s << i(k);
    if (isPoison(k))
      s << " (poison)";
  }
  return s.str();
}

int64_t ulpDistance(Elem e, double a, double b) {
  if (e == Elem::F16 || e == Elem::BF16) {
    auto ord = [e](double v) -> int64_t {
      uint16_t h = e == Elem::F16 ? toHalfBits(static_cast<float>(v)) : toBf16Bits(static_cast<float>(v));
      return (h & 0x8000) ? -int64_t(h & 0x7fff) : int64_t(h);
    };
    return std::llabs(ord(a) - ord(b));
  }
  if (e == Elem::F32) {
    auto ord = [](double v) -> int64_t {
      float f = static_cast<float>(v);
      int32_t i;
      std::memcpy(&i, &f, 4);
      return i < 0 ? -int64_t(i & 0x7fffffff) : i;
    };
    return std::llabs(ord(a) - ord(b));
  }
  auto ord = [](double v) -> int64_t {
    int64_t i;
    std::memcpy(&i, &v, 8);
    return i < 0 ? -(i & 0x7fffffffffffffffll) : i;
  };
  int64_t d = ord(a) - ord(b);
  return d < 0 ? -d : d;
}

} // namespace hadron::testkit
