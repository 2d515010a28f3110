//===- Layout.cpp - Element types and layouts as text ---------------------===//

#include "hadron/Builder/Layout.h"

#include <cstdio>
#include <sstream>

namespace hadron::builder {

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

DType DType::fromText(std::string text) {
  DType t;
  t.text_ = std::move(text);
  return t;
}

bool DType::isPointer() const { return text_.rfind("!hd.ptr<", 0) == 0; }
bool DType::isInteger() const { return text_.size() > 1 && text_[0] == 'i'; }
bool DType::isFloat() const {
  return text_ == "f16" || text_ == "bf16" || text_ == "f32" || text_ == "f64" || text_ == "tf32";
}

unsigned DType::bits() const {
  if (text_ == "bf16")
    return 16;
  if (isInteger() || isFloat())
    return static_cast<unsigned>(std::stoul(text_.substr(1)));
  return 0;
}

DType DType::pointee() const {
  if (!isPointer())
    return {};
  // "!hd.ptr<T>" or "!hd.ptr<T, space>": T may itself be a pointer, so cut
  // at the last top-level comma.
  std::string inner = text_.substr(8, text_.size() - 9);
  int depth = 0;
  size_t cut = std::string::npos;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '<')
      ++depth;
    else if (inner[i] == '>')
      --depth;
    else if (inner[i] == ',' && depth == 0)
      cut = i;
  }
  return fromText(cut == std::string::npos ? inner : inner.substr(0, cut));
}

const DType int1 = DType::fromText("i1");
const DType int8 = DType::fromText("i8");
const DType int16 = DType::fromText("i16");
const DType int32 = DType::fromText("i32");
const DType int64 = DType::fromText("i64");
const DType float16 = DType::fromText("f16");
const DType bfloat16 = DType::fromText("bf16");
const DType float32 = DType::fromText("f32");
const DType float64 = DType::fromText("f64");

DType pointer_type(const DType &pointee, AddressSpace space) {
  switch (space) {
  case AddressSpace::global:
    return DType::fromText("!hd.ptr<" + pointee.str() + ">");
  case AddressSpace::shared:
    return DType::fromText("!hd.ptr<" + pointee.str() + ", shared>");
  case AddressSpace::generic:
    return DType::fromText("!hd.ptr<" + pointee.str() + ", generic>");
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

namespace {

template <typename T> std::string list(const std::vector<T> &v) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < v.size(); ++i)
    s << (i ? ", " : "") << v[i];
  s << ']';
  return s.str();
}

std::string bases(const Bases &b) {
  std::string s = "[";
  for (size_t i = 0; i < b.size(); ++i)
    s += (i ? ", " : "") + list(b[i]);
  return s + "]";
}

} // namespace

Layout::Layout(const Blocked &l)
    : Layout(Kind::distributed, "#hd.blocked<{sizePerThread = " + list(l.sizePerThread) +
                                    ", threadsPerWarp = " + list(l.threadsPerWarp) +
                                    ", warpsPerCTA = " + list(l.warpsPerCTA) +
                                    ", order = " + list(l.order) + "}>") {}

Layout::Layout(const Slice &l)
    : Layout(Kind::distributed, "#hd.slice<{dim = " + std::to_string(l.dim) +
                                    ", parent = " + l.parent.str() + "}>") {}

Layout::Layout(const Linear &l)
    : Layout(Kind::distributed, "#hd.linear<{register = " + bases(l.reg) + ", lane = " +
                                    bases(l.lane) + ", warp = " + bases(l.warp) +
                                    ", block = " + bases(l.block) + "}>") {}

Layout::Layout(const DotOperand &l)
    : Layout(Kind::distributed, "#hd.dot_op<{opIdx = " + std::to_string(l.opIdx) +
                                    ", parent = " + l.parent.str() +
                                    ", kWidth = " + std::to_string(l.kWidth) + "}>") {}

Layout::Layout(const Mma &l)
    : Layout(Kind::distributed, "#hd.mma<{instr = " + l.instr +
                                    ", warpsPerCTA = " + list(l.warpsPerCTA) + "}>") {}

Layout::Layout(const AutoLayout &) : Layout(Kind::distributed, "#hd.auto") {}
Layout::Layout(const Coalesced &) : Layout(Kind::distributed, "#hd.coalesced") {}

Layout::Layout(const Swizzled &l)
    : Layout(Kind::shared, "#hd.swizzled<{vec = " + std::to_string(l.vec) +
                               ", perPhase = " + std::to_string(l.perPhase) +
                               ", maxPhase = " + std::to_string(l.maxPhase) +
                               ", order = " + list(l.order) + "}>") {}

Layout::Layout(const Padded &l)
    : Layout(Kind::shared, "#hd.padded<{intervals = " + list(l.intervals) + ", paddings = " +
                               list(l.paddings) + ", order = " + list(l.order) + "}>") {}

Layout::Layout(const SharedLinear &l)
    : Layout(Kind::shared, "#hd.shared_linear<{offset = " + bases(l.offset) + "}>") {}

Layout::Layout(const MatrixShared &l)
    : Layout(Kind::shared, "#hd.matrix_shared<{swizzle = " + std::to_string(l.swizzle) +
                               ", elementBits = " + std::to_string(l.elementBits) +
                               ", transposed = " + (l.transposed ? "true" : "false") +
                               (l.rank != 2 ? ", rank = " + std::to_string(l.rank) : "") +
                               "}>") {}

Layout Layout::fromText(std::string text) {
  bool shared = text.rfind("#hd.swizzled", 0) == 0 || text.rfind("#hd.padded", 0) == 0 ||
                text.rfind("#hd.shared_linear", 0) == 0 || text.rfind("#hd.matrix_shared", 0) == 0;
  return Layout(shared ? Kind::shared : Kind::distributed, std::move(text));
}

std::string Layout::mangle() const {
  // The attribute's mnemonic, then a 32-bit FNV-1a hash of the whole text:
  // short, an identifier, and distinct for distinct layouts in practice.
  size_t start = text_.rfind("#hd.", 0) == 0 ? 4 : 0;
  size_t end = text_.find_first_of("<", start);
  std::string kind = text_.substr(start, end == std::string::npos ? end : end - start);
  uint32_t h = 2166136261u;
  for (unsigned char c : text_)
    h = (h ^ c) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", h);
  return kind + "_" + hex;
}

} // namespace hadron::builder
