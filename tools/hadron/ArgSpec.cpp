//===- ArgSpec.cpp - Parsing --arg and generating buffer contents ---------===//

#include "ArgSpec.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace hadron::cli {
namespace {

struct TypeInfo {
  ElementType type;
  const char *name;
  size_t bytes;
  hd_arg_kind kind;
};

const TypeInfo kTypes[] = {
    {ElementType::I1, "i1", 1, HD_ARG_I1},       {ElementType::I8, "i8", 1, HD_ARG_I8},
    {ElementType::I16, "i16", 2, HD_ARG_I16},    {ElementType::I32, "i32", 4, HD_ARG_I32},
    {ElementType::I64, "i64", 8, HD_ARG_I64},    {ElementType::F16, "f16", 2, HD_ARG_F16},
    {ElementType::BF16, "bf16", 2, HD_ARG_BF16}, {ElementType::F32, "f32", 4, HD_ARG_F32},
    {ElementType::F64, "f64", 8, HD_ARG_F64},
};

const TypeInfo &info(ElementType type) { return kTypes[static_cast<int>(type)]; }

bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

const char kGrammar[] = "expected [name=]type[shape][:init], e.g. x=f32[4096]:rand, "
                        "out=f32[64x64]:poison, n=i32:4096";

Status specError(const std::string &text, const std::string &why) {
  return usageError("--arg '" + text + "': " + why + " (" + kGrammar + ")");
}

/// Writes `value` as element i of a buffer of `type`.
void store(std::vector<unsigned char> &bytes, ElementType type, size_t i, double value) {
  unsigned char *p = bytes.data() + i * elementBytes(type);
  auto put = [p](auto v) { std::memcpy(p, &v, sizeof(v)); };
  switch (type) {
  case ElementType::I1: put(static_cast<uint8_t>(value != 0)); break;
  case ElementType::I8: put(static_cast<int8_t>(value)); break;
  case ElementType::I16: put(static_cast<int16_t>(value)); break;
  case ElementType::I32: put(static_cast<int32_t>(value)); break;
  case ElementType::I64: put(static_cast<int64_t>(value)); break;
  case ElementType::F16: put(floatToHalf(static_cast<float>(value))); break;
  case ElementType::BF16: put(floatToBFloat16(static_cast<float>(value))); break;
  case ElementType::F32: put(static_cast<float>(value)); break;
  case ElementType::F64: put(value); break;
  }
}

Expected<hd_arg> parseScalar(const std::string &spec, ElementType type, const std::string &text) {
  hd_arg a{};
  a.kind = argKind(type);
  char *end = nullptr;
  errno = 0;
  if (isFloat(type)) {
    a.value.f = std::strtod(text.c_str(), &end);
  } else if (type == ElementType::I1 && (text == "true" || text == "false")) {
    a.value.i = text == "true";
    return a;
  } else {
    a.value.i = std::strtoll(text.c_str(), &end, 0);
  }
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return specError(spec, "'" + text + "' is not a " + elementTypeName(type) + " value");
  return a;
}

} // namespace

const char *elementTypeName(ElementType type) { return info(type).name; }
size_t elementBytes(ElementType type) { return info(type).bytes; }
hd_arg_kind argKind(ElementType type) { return info(type).kind; }
bool isFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 || type == ElementType::F32 ||
         type == ElementType::F64;
}

std::string ArgSpec::typeText() const {
  std::string t = elementTypeName(type);
  return isBuffer ? t + "[" + shape + "]" : t;
}

Expected<ArgSpec> parseArgSpec(const std::string &text, unsigned index) {
  ArgSpec spec;
  std::string rest = text;
  size_t eq = rest.find('=');
  if (eq != std::string::npos) {
    spec.name = rest.substr(0, eq);
    if (!isIdentifier(spec.name))
      return specError(text, "'" + spec.name + "' is not a name");
    rest = rest.substr(eq + 1);
  } else {
    spec.name = "arg" + std::to_string(index);
  }

  size_t typeEnd = rest.find_first_of("[:");
  std::string typeName = rest.substr(0, typeEnd);
  const TypeInfo *type = nullptr;
  for (const TypeInfo &t : kTypes)
    if (typeName == t.name)
      type = &t;
  if (!type)
    return specError(text, "unknown type '" + typeName +
                               "' (i1, i8, i16, i32, i64, f16, bf16, f32, f64)");
  spec.type = type->type;
  rest = typeEnd == std::string::npos ? "" : rest.substr(typeEnd);

  if (!rest.empty() && rest[0] == '[') {
    size_t close = rest.find(']');
    if (close == std::string::npos)
      return specError(text, "no ']' after the shape");
    spec.isBuffer = true;
    spec.shape = rest.substr(1, close - 1);
    spec.count = 1;
    size_t start = 0;
    while (true) {
      size_t x = spec.shape.find('x', start);
      std::string dim = spec.shape.substr(start, x == std::string::npos ? x : x - start);
      auto n = parseUnsigned(dim, "--arg '" + text + "' shape", 0, uint64_t(1) << 40);
      if (!n)
        return specError(text, "shape '" + spec.shape + "' is not NxMx...");
      spec.count *= *n;
      if (spec.count > (uint64_t(1) << 40))
        return specError(text, "shape '" + spec.shape + "' has more than 2^40 elements");
      if (x == std::string::npos)
        break;
      start = x + 1;
    }
    rest = rest.substr(close + 1);
  }

  std::string init;
  if (!rest.empty()) {
    if (rest[0] != ':')
      return specError(text, "unexpected '" + rest + "'");
    init = rest.substr(1);
  }
  if (!spec.isBuffer) {
    if (init.empty())
      return specError(text, "a scalar needs a value");
    auto value = parseScalar(text, spec.type, init);
    if (!value)
      return value.status();
    spec.scalar = *value;
    return spec;
  }
  if (init.empty() || init == "zeros")
    spec.init = Init::Zeros;
  else if (init == "rand")
    spec.init = Init::Rand;
  else if (init == "randn")
    spec.init = Init::Randn;
  else if (init == "ones")
    spec.init = Init::Ones;
  else if (init == "iota")
    spec.init = Init::Iota;
  else if (init == "poison")
    spec.init = Init::Poison;
  else if (init.rfind("file:", 0) == 0 && init.size() > 5) {
    spec.init = Init::File;
    spec.file = init.substr(5);
  } else
    return specError(text, "unknown init '" + init +
                               "' (rand, randn, zeros, ones, iota, poison, file:PATH)");
  if (spec.init == Init::Randn && !isFloat(spec.type))
    return specError(text, "randn needs a float type");
  return spec;
}

bool usesSeed(const ArgSpec &spec) {
  return spec.isBuffer && (spec.init == Init::Rand || spec.init == Init::Randn);
}

Expected<std::vector<unsigned char>> generate(const ArgSpec &spec, uint64_t seed, unsigned index) {
  const size_t bytes = spec.count * elementBytes(spec.type);
  std::vector<unsigned char> out(bytes);
  switch (spec.init) {
  case Init::Zeros: break;
  case Init::Ones:
  case Init::Iota:
    for (size_t i = 0; i < spec.count; ++i)
      store(out, spec.type, i, spec.init == Init::Ones ? 1.0 : static_cast<double>(i));
    break;
  case Init::Rand:
  case Init::Randn: {
    std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), index};
    std::mt19937_64 rng(seq);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::uniform_int_distribution<int> integers(-100, 100);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (size_t i = 0; i < spec.count; ++i) {
      double v = spec.init == Init::Randn ? normal(rng)
                 : isFloat(spec.type)     ? uniform(rng)
                                          : static_cast<double>(integers(rng));
      store(out, spec.type, i, v);
    }
    break;
  }
  case Init::Poison:
    for (size_t i = 0; i < spec.count; ++i) {
      if (isFloat(spec.type)) {
        store(out, spec.type, i, std::nan(""));
      } else {
        static const unsigned char kPattern[] = {0xEF, 0xBE, 0xAD, 0xDE};
        for (size_t b = 0; b < elementBytes(spec.type); ++b)
          out[i * elementBytes(spec.type) + b] = kPattern[b % 4];
      }
    }
    break;
  case Init::File: {
    auto contents = readFile(spec.file);
    if (!contents)
      return contents.status();
    if (contents->size() != bytes)
      return Status(HD_ERROR_INVALID_ARGUMENT, "--arg " + spec.name + ": file '" + spec.file +
                                                   "' holds " + std::to_string(contents->size()) +
                                                   " bytes, " + spec.typeText() + " needs " +
                                                   std::to_string(bytes));
    std::memcpy(out.data(), contents->data(), bytes);
    break;
  }
  }
  return out;
}

double elementAt(const std::vector<unsigned char> &bytes, ElementType type, size_t i) {
  const unsigned char *p = bytes.data() + i * elementBytes(type);
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (type) {
  case ElementType::I1: return get(uint8_t()) & 1;
  case ElementType::I8: return get(int8_t());
  case ElementType::I16: return get(int16_t());
  case ElementType::I32: return get(int32_t());
  case ElementType::I64: return static_cast<double>(get(int64_t()));
  case ElementType::F16: return halfToFloat(get(uint16_t()));
  case ElementType::BF16: return bfloat16ToFloat(get(uint16_t()));
  case ElementType::F32: return get(float());
  case ElementType::F64: return get(double());
  }
  return 0;
}

std::string formatElements(const std::vector<unsigned char> &bytes, ElementType type,
                           size_t limit) {
  const size_t count = bytes.size() / elementBytes(type);
  std::string out = "[";
  for (size_t i = 0; i < count && i < limit; ++i) {
    char buf[64];
    if (type == ElementType::I64) {
      int64_t v;
      std::memcpy(&v, bytes.data() + i * 8, 8);
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    } else {
      std::snprintf(buf, sizeof(buf), isFloat(type) ? "%.7g" : "%.0f", elementAt(bytes, type, i));
    }
    out += (i ? ", " : "") + std::string(buf);
  }
  if (count > limit)
    out += ", ...";
  return out + "]";
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000, abs = x & 0x7fffffff;
  if (abs >= 0x7f800000) // inf, NaN (kept quiet)
    return sign | (abs > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (abs >= 0x477ff000) // >= 65520 rounds to infinity
    return sign | 0x7c00;
  if (abs < 0x38800000) { // below 2^-14: a subnormal half, in units of 2^-24
    float a;
    std::memcpy(&a, &abs, 4);
    return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f));
  }
  uint32_t h = ((((abs >> 23) - 127 + 15) << 10) | ((abs & 0x7fffff) >> 13));
  const uint32_t rest = abs & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is the correct rounding
  return static_cast<uint16_t>(sign | h);
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16, exp = (h >> 10) & 0x1f,
                 mant = h & 0x3ff;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  uint32_t bits =
      sign | (exp == 31 ? 0x7f800000 | (mant << 13) : ((exp - 15 + 127) << 23) | (mant << 13));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToBFloat16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  return static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float bfloat16ToFloat(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace hadron::cli
