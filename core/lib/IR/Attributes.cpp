//===- Attributes.cpp - Layout and target attributes ----------------------===//
//
// Parsing, printing and verification of the hd attributes, and their
// conversion to linear layouts. Layout attributes print as a dictionary
// (`#hd.blocked<{sizePerThread = [1, 4], ...}>`) so that fields are named
// and order-independent when written by hand.
//
//===----------------------------------------------------------------------===//

#include "hadron/IR/Dialect.h"
#include "hadron/Layout/LayoutFactories.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hadron;
using namespace hadron::hd;

llvm::hash_code hadron::hash_value(const LinearLayout &layout) {
  llvm::hash_code h = llvm::hash_value(layout.getNumInDims());
  for (const LinearLayout::InDim &in : layout.getInDims()) {
    h = llvm::hash_combine(h, in.name);
    for (const LinearLayout::Basis &basis : in.bases)
      h = llvm::hash_combine(h, llvm::hash_combine_range(basis.begin(), basis.end()));
  }
  for (const LinearLayout::OutDim &out : layout.getOutDims())
    h = llvm::hash_combine(h, out.name, out.size);
  return h;
}

//===----------------------------------------------------------------------===//
// Dictionary-style parsing
//===----------------------------------------------------------------------===//

namespace {

/// Reads the fields of `#hd.name<{key = value, ...}>`, reporting missing,
/// mistyped and unknown keys at the attribute's location.
class FieldReader {
public:
  FieldReader(AsmParser &parser, StringRef attrName)
      : parser(parser), attrName(attrName), loc(parser.getCurrentLocation()) {}

  /// Parses `<{...}>`; fails (after reporting) on a syntax error.
  LogicalResult parseDict() {
    Attribute attr;
    if (parser.parseLess() || parser.parseAttribute(attr) ||
        parser.parseGreater())
      return failure();
    dict = dyn_cast<DictionaryAttr>(attr);
    if (!dict)
      return error() << "expects a dictionary of fields, got " << attr;
    return success();
  }

  bool has(StringRef key) const { return dict.get(key) != nullptr; }

  LogicalResult readUnsigned(StringRef key, unsigned &out) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    auto intAttr = dyn_cast<IntegerAttr>(attr);
    if (!intAttr || intAttr.getType().isSignlessInteger(1) ||
        intAttr.getValue().isNegative() || intAttr.getValue().getActiveBits() > 32)
      return error() << "`" << key << "` must be a non-negative 32-bit integer, got "
                     << attr;
    out = intAttr.getValue().getZExtValue();
    return success();
  }

  LogicalResult readUInt64(StringRef key, uint64_t &out) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    auto intAttr = dyn_cast<IntegerAttr>(attr);
    if (!intAttr || intAttr.getValue().isNegative())
      return error() << "`" << key << "` must be a non-negative integer, got "
                     << attr;
    out = intAttr.getValue().getZExtValue();
    return success();
  }

  LogicalResult readUnsignedArray(StringRef key, SmallVectorImpl<unsigned> &out) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array)
      return error() << "`" << key << "` must be an array of integers, got "
                     << attr;
    for (Attribute elt : array) {
      auto intAttr = dyn_cast<IntegerAttr>(elt);
      if (!intAttr || intAttr.getValue().isNegative() ||
          intAttr.getValue().getActiveBits() > 32)
        return error() << "`" << key
                       << "` must hold non-negative 32-bit integers, got " << elt;
      out.push_back(intAttr.getValue().getZExtValue());
    }
    return success();
  }

  LogicalResult readString(StringRef key, std::string &out) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    auto str = dyn_cast<StringAttr>(attr);
    if (!str)
      return error() << "`" << key << "` must be a string, got " << attr;
    out = str.getValue().str();
    return success();
  }

  template <typename AttrT>
  LogicalResult readAttr(StringRef key, AttrT &out, StringRef what) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    out = dyn_cast<AttrT>(attr);
    if (!out)
      return error() << "`" << key << "` must be " << what << ", got " << attr;
    return success();
  }

  /// Bases: an array of arrays of integers.
  LogicalResult readType(StringRef key, Type &out) {
    Attribute attr = take(key);
    if (!attr)
      return missing(key);
    auto typeAttr = dyn_cast<TypeAttr>(attr);
    if (!typeAttr)
      return error() << "`" << key << "` must be a type, got " << attr;
    out = typeAttr.getValue();
    return success();
  }

  LogicalResult readBases(StringRef key, std::vector<LinearLayout::Basis> &out,
                          bool optional) {
    Attribute attr = take(key);
    if (!attr)
      return optional ? success() : missing(key);
    return readBasesValue(key, attr, out);
  }

  /// A matrix fragment `key = {register = [...], lane = [...]}`: one warp's
  /// share of a rows x cols operand tile, or with `warp = [...]` the share of
  /// the group of warps that issues the instruction together. With
  /// `optional`, an absent key is an empty layout: the operand has no
  /// register fragment (the instruction reads it from shared memory).
  LogicalResult readFragment(StringRef key, int32_t rows, int32_t cols, LinearLayout &out,
                             bool optional = false) {
    if (optional && !has(key)) {
      out = LinearLayout();
      return success();
    }
    DictionaryAttr fields;
    if (failed(readAttr(key, fields, "a dictionary {register = [...], lane = [...]}")))
      return failure();
    std::vector<LinearLayout::InDim> ins;
    for (const char *name : {"register", "lane", "warp"}) {
      LinearLayout::InDim in{name, {}};
      Attribute bases = fields.get(name);
      if (!bases) {
        if (StringRef(name) == "warp")
          continue;
        return error() << "`" << key << "` is missing `" << name << "`";
      }
      if (failed(readBasesValue((key + "." + name).str(), bases, in.bases)))
        return failure();
      ins.push_back(std::move(in));
    }
    if (fields.size() != ins.size())
      return error() << "`" << key << "` has fields other than `register`, `lane` and `warp`";
    Result<LinearLayout> layout = LinearLayout::create(
        std::move(ins), {{"dim0", rows}, {"dim1", cols}}, /*requireSurjective=*/true);
    if (!layout)
      return error() << "`" << key << "` is not a fragment of a " << rows << "x" << cols
                     << " tile: " << layout.error();
    out = std::move(layout).value();
    return success();
  }

  LogicalResult readBasesValue(StringRef key, Attribute attr,
                               std::vector<LinearLayout::Basis> &out) {
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array)
      return error() << "`" << key << "` must be a list of bases, got " << attr;
    for (Attribute basisAttr : array) {
      auto basisArray = dyn_cast<ArrayAttr>(basisAttr);
      if (!basisArray)
        return error() << "`" << key << "` basis must be a list of integers, got "
                       << basisAttr;
      LinearLayout::Basis basis;
      for (Attribute elt : basisArray) {
        auto intAttr = dyn_cast<IntegerAttr>(elt);
        if (!intAttr || intAttr.getValue().isNegative() ||
            intAttr.getValue().getActiveBits() > 31)
          return error() << "`" << key
                         << "` basis entries must be non-negative int32, got "
                         << elt;
        basis.push_back(intAttr.getValue().getZExtValue());
      }
      out.push_back(std::move(basis));
    }
    return success();
  }

  /// Reports the first key that no read consumed.
  LogicalResult finish() {
    for (NamedAttribute field : dict)
      if (!consumed.contains(field.getName().getValue()))
        return error() << "has no field `" << field.getName().getValue() << "`";
    return success();
  }

  InFlightDiagnostic error() {
    return parser.emitError(loc) << "#hd." << attrName << " ";
  }

private:
  Attribute take(StringRef key) {
    consumed.insert(key);
    return dict.get(key);
  }
  LogicalResult missing(StringRef key) {
    return error() << "is missing the field `" << key << "`";
  }

  AsmParser &parser;
  StringRef attrName;
  SMLoc loc;
  DictionaryAttr dict;
  llvm::StringSet<> consumed;
};

void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

void printBases(AsmPrinter &printer, const std::vector<LinearLayout::Basis> &bases) {
  printer << "[";
  llvm::interleaveComma(bases, printer, [&](const LinearLayout::Basis &basis) {
    printer << "[";
    llvm::interleaveComma(basis, printer);
    printer << "]";
  });
  printer << "]";
}

std::string formatArray(ArrayRef<unsigned> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

bool isPowerOf2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

int64_t product(ArrayRef<unsigned> values) {
  int64_t p = 1;
  for (unsigned v : values)
    p *= v;
  return p;
}

LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                          StringRef attrName, ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return emitError() << "#hd." << attrName << " order " << formatArray(order)
                         << " is not a permutation of [0, " << order.size() << ")";
    seen[d] = true;
  }
  return success();
}

LogicalResult verifyPowersOf2(function_ref<InFlightDiagnostic()> emitError,
                              StringRef attrName, StringRef field,
                              ArrayRef<unsigned> values) {
  for (auto [i, v] : llvm::enumerate(values))
    if (!isPowerOf2(v))
      return emitError() << "#hd." << attrName << " " << field << "[" << i
                         << "] = " << v << " is not a power of two";
  return success();
}

/// Checks what every distributed layout needs of a tensor type.
LogicalResult verifyEncodingCommon(DistributedLayoutAttrInterface layout,
                                   ArrayRef<int64_t> shape,
                                   function_ref<InFlightDiagnostic()> emitError) {
  int64_t rank = layout.getRank();
  if (rank >= 0 && rank != static_cast<int64_t>(shape.size()))
    return emitError() << "layout " << layout << " has rank " << rank
                       << " but the tensor has rank " << shape.size();
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(d) || !isPowerOf2(d))
      return emitError() << "tensor dimension " << i << " is " << d
                         << "; tiles with a layout need power-of-two dimensions";
    if (d > (int64_t(1) << LinearLayout::kMaxDimSizeLog2))
      return emitError() << "tensor dimension " << i << " is " << d
                         << "; a layout dim holds at most 2^"
                         << LinearLayout::kMaxDimSizeLog2 << " elements";
  }
  if (layout.isPlaceholder())
    return success();
  Result<LinearLayout> ll = layout.toLinearLayout(shape);
  if (!ll)
    return emitError() << "layout " << layout << " cannot hold a tensor of shape ["
                       << shape << "]: " << ll.error();
  return success();
}

Result<LinearLayout> placeholderError(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "layout " << attr
     << " is a placeholder: resolve it (hd-resolve-layouts) before lowering";
  return Error(s);
}

std::vector<int32_t> toVector(ArrayRef<int64_t> shape) {
  return std::vector<int32_t>(shape.begin(), shape.end());
}
std::vector<int32_t> toVector(ArrayRef<unsigned> values) {
  return std::vector<int32_t>(values.begin(), values.end());
}

} // namespace

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

Attribute BlockedLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "blocked");
  SmallVector<unsigned> spt, tpw, wpc, order;
  if (failed(reader.parseDict()) ||
      failed(reader.readUnsignedArray("sizePerThread", spt)) ||
      failed(reader.readUnsignedArray("threadsPerWarp", tpw)) ||
      failed(reader.readUnsignedArray("warpsPerCTA", wpc)) ||
      failed(reader.readUnsignedArray("order", order)) || failed(reader.finish()))
    return {};
  return parser.getChecked<BlockedLayoutAttr>(parser.getContext(), spt, tpw, wpc,
                                              order);
}

void BlockedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        ArrayRef<unsigned> sizePerThread,
                                        ArrayRef<unsigned> threadsPerWarp,
                                        ArrayRef<unsigned> warpsPerCTA,
                                        ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "#hd.blocked needs at least one dimension";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "#hd.blocked fields disagree on the rank: sizePerThread has "
                       << sizePerThread.size() << ", threadsPerWarp "
                       << threadsPerWarp.size() << ", warpsPerCTA "
                       << warpsPerCTA.size() << ", order " << rank;
  if (failed(verifyPowersOf2(emitError, "blocked", "sizePerThread", sizePerThread)) ||
      failed(verifyPowersOf2(emitError, "blocked", "threadsPerWarp", threadsPerWarp)) ||
      failed(verifyPowersOf2(emitError, "blocked", "warpsPerCTA", warpsPerCTA)))
    return failure();
  // The tile of one CTA must fit one linear-layout dim; products of larger
  // fields overflow the integers the layout is built with.
  for (size_t d = 0; d < rank; ++d) {
    unsigned tileLog2 = llvm::Log2_32(sizePerThread[d]) + llvm::Log2_32(threadsPerWarp[d]) +
                        llvm::Log2_32(warpsPerCTA[d]);
    if (tileLog2 > LinearLayout::kMaxDimSizeLog2)
      return emitError() << "#hd.blocked tile along dim " << d << " is 2^" << tileLog2
                         << " elements (sizePerThread * threadsPerWarp * warpsPerCTA); "
                            "a layout dim holds at most 2^"
                         << LinearLayout::kMaxDimSizeLog2;
  }
  return verifyOrder(emitError, "blocked", order);
}

int64_t BlockedLayoutAttr::getRank() const { return getOrder().size(); }
int64_t BlockedLayoutAttr::getWarpSize() const { return product(getThreadsPerWarp()); }
int64_t BlockedLayoutAttr::getNumWarps() const { return product(getWarpsPerCTA()); }

Result<LinearLayout> BlockedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return blockedLayout(toVector(shape), toVector(getSizePerThread()),
                       toVector(getThreadsPerWarp()), toVector(getWarpsPerCTA()),
                       toVector(getOrder()));
}

LogicalResult BlockedLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

Attribute SliceLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "slice");
  unsigned dim;
  DistributedLayoutAttrInterface parent;
  if (failed(reader.parseDict()) || failed(reader.readUnsigned("dim", dim)) ||
      failed(reader.readAttr("parent", parent, "a distributed layout")) ||
      failed(reader.finish()))
    return {};
  return parser.getChecked<SliceLayoutAttr>(parser.getContext(), dim, parent);
}

void SliceLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned dim,
                                      DistributedLayoutAttrInterface parent) {
  if (!parent)
    return emitError() << "#hd.slice needs a parent layout";
  int64_t parentRank = parent.getRank();
  if (parentRank >= 0 && dim >= parentRank)
    return emitError() << "#hd.slice dim " << dim << " is out of range for parent "
                       << parent << " of rank " << parentRank;
  if (parentRank == 1)
    return emitError() << "#hd.slice of the rank-1 layout " << parent
                       << " has no dimension left; a reduction of it is a scalar";
  return success();
}

int64_t SliceLayoutAttr::getRank() const {
  int64_t parentRank = getParent().getRank();
  return parentRank < 0 ? -1 : parentRank - 1;
}
int64_t SliceLayoutAttr::getWarpSize() const { return getParent().getWarpSize(); }
int64_t SliceLayoutAttr::getNumWarps() const { return getParent().getNumWarps(); }
bool SliceLayoutAttr::isPlaceholder() const { return getParent().isPlaceholder(); }

Result<LinearLayout> SliceLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (getParent().isPlaceholder())
    return placeholderError(*this);
  SmallVector<int64_t> parentShape(shape);
  if (getDim() > parentShape.size())
    return Error("#hd.slice dim " + std::to_string(getDim()) +
                 " is out of range for a tensor of rank " +
                 std::to_string(shape.size()));
  // The sliced dim is size 1 in the parent, except where the parent's shape
  // is fixed by its bases (#hd.linear): there it is what the parent covers,
  // and slicing drops it, so what moved only along it becomes a broadcast.
  int64_t slicedExtent = 1;
  if (auto linear = dyn_cast<LinearLayoutAttr>(getParent()))
    if (getDim() < static_cast<unsigned>(linear.getLayout().getNumOutDims()))
      slicedExtent = linear.getLayout().getOutDims()[getDim()].size;
  parentShape.insert(parentShape.begin() + getDim(), slicedExtent);
  Result<LinearLayout> parent = getParent().toLinearLayout(parentShape);
  if (!parent)
    return parent;
  return sliceLayout(*parent, getDim());
}

LogicalResult SliceLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                              function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

namespace {
constexpr const char *kDistributedInDims[] = {"register", "lane", "warp", "block"};

/// Builds a layout from bases, with out dims dim0.. sized by the smallest
/// power of two covering each dim's largest entry.
Result<LinearLayout> layoutFromBases(std::vector<LinearLayout::InDim> ins,
                                     size_t rank) {
  std::vector<int32_t> maxEntry(rank, 0);
  for (const LinearLayout::InDim &in : ins)
    for (const LinearLayout::Basis &basis : in.bases) {
      if (basis.size() != rank)
        return Error("basis of `" + in.name + "` has " +
                     std::to_string(basis.size()) + " entries; the layout has rank " +
                     std::to_string(rank));
      for (size_t d = 0; d < rank; ++d)
        maxEntry[d] = std::max(maxEntry[d], basis[d]);
    }
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < rank; ++d) {
    int32_t size = 1;
    while (size <= maxEntry[d] && size < (1 << 30))
      size *= 2;
    outs.push_back({"dim" + std::to_string(d), size});
  }
  return LinearLayout::create(std::move(ins), std::move(outs),
                              /*requireSurjective=*/true);
}

size_t rankOfBases(const std::vector<LinearLayout::InDim> &ins) {
  for (const LinearLayout::InDim &in : ins)
    if (!in.bases.empty())
      return in.bases.front().size();
  return 0;
}
} // namespace

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "linear");
  std::vector<LinearLayout::InDim> ins;
  if (failed(reader.parseDict()))
    return {};
  for (const char *name : kDistributedInDims) {
    LinearLayout::InDim in{name, {}};
    if (failed(reader.readBases(name, in.bases, /*optional=*/true)))
      return {};
    ins.push_back(std::move(in));
  }
  if (failed(reader.finish()))
    return {};
  size_t rank = rankOfBases(ins);
  if (rank == 0) {
    reader.error() << "needs at least one basis with one entry per tensor dimension";
    return {};
  }
  Result<LinearLayout> layout = layoutFromBases(std::move(ins), rank);
  if (!layout) {
    reader.error() << layout.error();
    return {};
  }
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), *layout);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{";
  llvm::interleaveComma(getLayout().getInDims(), printer,
                        [&](const LinearLayout::InDim &in) {
                          printer << in.name << " = ";
                          printBases(printer, in.bases);
                        });
  printer << "}>";
}

LogicalResult LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       LinearLayout layout) {
  std::vector<std::string> names = layout.getInDimNames();
  if (names != std::vector<std::string>(std::begin(kDistributedInDims),
                                        std::end(kDistributedInDims)))
    return emitError() << "#hd.linear needs the in dims register, lane, warp, block";
  if (!layout.isSurjective())
    return emitError() << "#hd.linear must cover every element of the tile (its bases "
                          "are not surjective)";
  return success();
}

int64_t LinearLayoutAttr::getRank() const { return getLayout().getNumOutDims(); }
int64_t LinearLayoutAttr::getWarpSize() const { return getLayout().getInDimSize("lane"); }
int64_t LinearLayoutAttr::getNumWarps() const { return getLayout().getInDimSize("warp"); }

Result<LinearLayout> LinearLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  const LinearLayout &layout = getLayout();
  if (shape.size() != static_cast<size_t>(layout.getNumOutDims()))
    return Error("#hd.linear has rank " + std::to_string(layout.getNumOutDims()) +
                 ", the tensor " + std::to_string(shape.size()));
  bool smaller = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (layout.getOutDims()[d].size < shape[d])
      return Error("#hd.linear covers " + std::to_string(layout.getOutDims()[d].size) +
                   " elements along dim " + std::to_string(d) + ", the tensor has " +
                   std::to_string(shape[d]));
    smaller |= layout.getOutDims()[d].size != shape[d];
  }
  if (!smaller)
    return layout;
  // A tensor smaller than the layout along some dims (an expand_dims of a
  // slice of it, say): coordinates wrap, so what the layout spreads past the
  // tensor's extent holds replicas, as a blocked layout larger than its
  // tensor does. Duplicate registers are dropped.
  std::vector<LinearLayout::InDim> ins;
  for (const std::string &name : layout.getInDimNames()) {
    LinearLayout::InDim in{name, {}};
    for (int i = 0; i < layout.getInDimSizeLog2(name); ++i) {
      LinearLayout::Basis b = layout.getBasis(name, i);
      for (size_t d = 0; d < shape.size(); ++d)
        b[d] &= static_cast<int32_t>(shape[d] - 1);
      in.bases.push_back(std::move(b));
    }
    ins.push_back(std::move(in));
  }
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({layout.getOutDims()[d].name, static_cast<int32_t>(shape[d])});
  Result<LinearLayout> wrapped =
      LinearLayout::create(std::move(ins), std::move(outs), /*requireSurjective=*/true);
  if (!wrapped || !wrapped->hasInDim("register"))
    return wrapped;
  return wrapped->removeZeroBasesAlongDim("register");
}

LogicalResult LinearLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                               function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// DotOperandLayoutAttr
//===----------------------------------------------------------------------===//

Attribute DotOperandLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "dot_op");
  unsigned opIdx, kWidth = 1;
  DistributedLayoutAttrInterface parent;
  if (failed(reader.parseDict()) || failed(reader.readUnsigned("opIdx", opIdx)) ||
      failed(reader.readAttr("parent", parent, "a distributed layout")))
    return {};
  if (reader.has("kWidth") && failed(reader.readUnsigned("kWidth", kWidth)))
    return {};
  if (failed(reader.finish()))
    return {};
  return parser.getChecked<DotOperandLayoutAttr>(parser.getContext(), opIdx, parent,
                                                 kWidth);
}

void DotOperandLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent()
          << ", kWidth = " << getKWidth() << "}>";
}

LogicalResult DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                           unsigned opIdx,
                                           DistributedLayoutAttrInterface parent,
                                           unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "#hd.dot_op opIdx is " << opIdx << "; a dot has operands 0 and 1";
  if (!parent)
    return emitError() << "#hd.dot_op needs a parent layout";
  int64_t rank = parent.getRank();
  if (rank >= 0 && rank != 2 && rank != 3)
    return emitError() << "#hd.dot_op parent " << parent << " has rank " << rank
                       << "; a dot needs rank 2 (or 3 with a batch dimension)";
  if (!isPowerOf2(kWidth))
    return emitError() << "#hd.dot_op kWidth = " << kWidth << " is not a power of two";
  if (isa<SliceLayoutAttr, DotOperandLayoutAttr>(parent))
    return emitError() << "#hd.dot_op parent must be the accumulator layout, got "
                       << parent;
  return success();
}

int64_t DotOperandLayoutAttr::getRank() const { return getParent().getRank(); }
int64_t DotOperandLayoutAttr::getWarpSize() const { return getParent().getWarpSize(); }
int64_t DotOperandLayoutAttr::getNumWarps() const { return getParent().getNumWarps(); }
bool DotOperandLayoutAttr::isPlaceholder() const { return getParent().isPlaceholder(); }

Result<LinearLayout> DotOperandLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (getParent().isPlaceholder())
    return placeholderError(*this);
  if (auto mma = dyn_cast<MmaLayoutAttr>(getParent())) {
    MatrixInstrAttr instr = mma.getInstr();
    bool isA = getOpIdx() == 0;
    if (instr.readsFromShared(getOpIdx()))
      return Error("\"" + instr.getName().str() + "\" reads operand " + (isA ? "A" : "B") +
                   " from shared memory: it has no register layout; pass the dot a !hd.memdesc");
    return matrixOperandLayout(isA ? MatrixOperand::A : MatrixOperand::B, toVector(shape),
                               isA ? instr.getA() : instr.getB(),
                               toVector(mma.getWarpsPerCTA()));
  }
  auto blocked = dyn_cast<BlockedLayoutAttr>(getParent());
  if (!blocked) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "#hd.dot_op with parent " << getParent()
       << " has no operand layout; only #hd.blocked (FMA dot) and #hd.mma "
          "(matrix instruction) parents define one";
    return Error(s);
  }
  return dotOperandLayout(getOpIdx(), toVector(shape), toVector(blocked.getSizePerThread()),
                          toVector(blocked.getThreadsPerWarp()),
                          toVector(blocked.getWarpsPerCTA()), toVector(blocked.getOrder()));
}

LogicalResult DotOperandLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                   function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// MatrixInstrAttr
//===----------------------------------------------------------------------===//

Attribute MatrixInstrAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "matrix_instr");
  std::string name;
  SmallVector<unsigned> shape;
  Type aType, bType, accType;
  if (failed(reader.parseDict()) || failed(reader.readString("name", name)) ||
      failed(reader.readUnsignedArray("shape", shape)) ||
      failed(reader.readType("aType", aType)) || failed(reader.readType("bType", bType)) ||
      failed(reader.readType("accType", accType)))
    return {};
  if (shape.size() != 3 || !isPowerOf2(shape[0]) || !isPowerOf2(shape[1]) ||
      !isPowerOf2(shape[2]) || shape[0] > (1u << 16) || shape[1] > (1u << 16) ||
      shape[2] > (1u << 16)) {
    reader.error() << "`shape` must be [m, n, k], powers of two up to 65536, got "
                   << formatArray(shape);
    return {};
  }
  int32_t m = shape[0], n = shape[1], k = shape[2];
  LinearLayout a, b, acc;
  if (failed(reader.readFragment("a", m, k, a, /*optional=*/true)) ||
      failed(reader.readFragment("b", k, n, b, /*optional=*/true)) ||
      failed(reader.readFragment("acc", m, n, acc)) || failed(reader.finish()))
    return {};
  return parser.getChecked<MatrixInstrAttr>(parser.getContext(), name, m, n, k, aType, bType,
                                            accType, a, b, acc);
}

namespace {
void printFragment(AsmPrinter &printer, const LinearLayout &fragment) {
  printer << "{register = ";
  printBases(printer, fragment.getInDims()[0].bases);
  printer << ", lane = ";
  printBases(printer, fragment.getInDims()[1].bases);
  if (fragment.hasInDim("warp")) {
    printer << ", warp = ";
    printBases(printer, fragment.getInDims()[2].bases);
  }
  printer << "}";
}
} // namespace

void MatrixInstrAttr::print(AsmPrinter &printer) const {
  printer << "<{name = \"" << getName() << "\", shape = [" << getM() << ", " << getN()
          << ", " << getK() << "], aType = " << getAType() << ", bType = " << getBType()
          << ", accType = " << getAccType();
  const std::pair<const char *, LinearLayout> fragments[] = {
      {"a", getA()}, {"b", getB()}, {"acc", getAcc()}};
  for (const auto &[key, fragment] : fragments) {
    if (fragment.getNumInDims() == 0)
      continue;
    printer << ", " << key << " = ";
    printFragment(printer, fragment);
  }
  printer << "}>";
}

LogicalResult MatrixInstrAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      StringRef name, unsigned m, unsigned n, unsigned k,
                                      Type aType, Type bType, Type accType, LinearLayout a,
                                      LinearLayout b, LinearLayout acc) {
  if (name.empty())
    return emitError() << "#hd.matrix_instr needs a name";
  if (!aType || !bType || !accType)
    return emitError() << "#hd.matrix_instr \"" << name << "\" needs aType, bType and accType";
  struct Expected {
    const char *what;
    const LinearLayout &layout;
    unsigned rows, cols;
  } fragments[] = {{"a", a, m, k}, {"b", b, k, n}, {"acc", acc, m, n}};
  for (const Expected &f : fragments) {
    const LinearLayout &l = f.layout;
    // Only the accumulator must live in registers; an operand without a
    // fragment is read from shared memory.
    if (l.getNumInDims() == 0 && &l != &acc)
      continue;
    std::vector<std::string> ins = l.getInDimNames();
    bool dimsOk = ins == std::vector<std::string>{"register", "lane"} ||
                  ins == std::vector<std::string>{"register", "lane", "warp"};
    if (!dimsOk || l.getNumOutDims() != 2 || l.getOutDims()[0].size != int32_t(f.rows) ||
        l.getOutDims()[1].size != int32_t(f.cols) || !l.isSurjective())
      return emitError() << "#hd.matrix_instr \"" << name << "\" fragment `" << f.what
                         << "` must map (register, lane[, warp]) onto its " << f.rows << "x"
                         << f.cols << " tile";
    if (l.getInDimSize("lane") != acc.getInDimSize("lane"))
      return emitError() << "#hd.matrix_instr \"" << name
                         << "\" fragments disagree on the lanes of a warp: " << f.what
                         << " has " << l.getInDimSize("lane") << ", acc "
                         << acc.getInDimSize("lane");
    int64_t warps = l.hasInDim("warp") ? l.getInDimSize("warp") : 1;
    int64_t accWarps = acc.hasInDim("warp") ? acc.getInDimSize("warp") : 1;
    if (warps != accWarps)
      return emitError() << "#hd.matrix_instr \"" << name
                         << "\" fragments disagree on the warps that issue it: " << f.what
                         << " spans " << warps << ", acc " << accWarps;
  }
  // The warps issuing one instruction together split its rows (M).
  if (acc.hasInDim("warp"))
    for (int i = 0; i < acc.getInDimSizeLog2("warp"); ++i)
      if (acc.getBasis("warp", i)[1] != 0)
        return emitError() << "#hd.matrix_instr \"" << name
                           << "\" acc.warp bases must step along rows (dim 0)";
  return success();
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

Attribute MmaLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "mma");
  MatrixInstrAttr instr;
  SmallVector<unsigned> warps;
  if (failed(reader.parseDict()) ||
      failed(reader.readAttr("instr", instr, "a #hd.matrix_instr")) ||
      failed(reader.readUnsignedArray("warpsPerCTA", warps)) || failed(reader.finish()))
    return {};
  return parser.getChecked<MmaLayoutAttr>(parser.getContext(), instr, warps);
}

void MmaLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{instr = " << getInstr() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << "}>";
}

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    MatrixInstrAttr instr, ArrayRef<unsigned> warpsPerCTA) {
  if (!instr)
    return emitError() << "#hd.mma needs a matrix instruction";
  if (warpsPerCTA.size() != 2)
    return emitError() << "#hd.mma warpsPerCTA has " << warpsPerCTA.size()
                       << " entries; a matrix-instruction dot has rank 2";
  if (failed(verifyPowersOf2(emitError, "mma", "warpsPerCTA", warpsPerCTA)))
    return failure();
  if (warpsPerCTA[0] > (1u << 10) || warpsPerCTA[1] > (1u << 10))
    return emitError() << "#hd.mma warpsPerCTA " << formatArray(warpsPerCTA)
                       << " exceeds 1024 warps along a dim";
  if (warpsPerCTA[0] % instr.getWarpsPerInstr() != 0)
    return emitError() << "#hd.mma warpsPerCTA " << formatArray(warpsPerCTA) << ": \""
                       << instr.getName() << "\" is issued by " << instr.getWarpsPerInstr()
                       << " warps together along M, so warpsPerCTA[0] must be a multiple of "
                       << instr.getWarpsPerInstr();
  return success();
}

int64_t MmaLayoutAttr::getRank() const { return 2; }
int64_t MmaLayoutAttr::getWarpSize() const { return getInstr().getWarpSize(); }
int64_t MmaLayoutAttr::getNumWarps() const { return product(getWarpsPerCTA()); }

Result<LinearLayout> MmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return matrixOperandLayout(MatrixOperand::Accumulator, toVector(shape), getInstr().getAcc(),
                             toVector(getWarpsPerCTA()));
}

LogicalResult MmaLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                            function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// Placeholders
//===----------------------------------------------------------------------===//

int64_t AutoLayoutAttr::getRank() const { return -1; }
int64_t AutoLayoutAttr::getWarpSize() const { return 0; }
int64_t AutoLayoutAttr::getNumWarps() const { return 0; }
bool AutoLayoutAttr::isPlaceholder() const { return true; }
Result<LinearLayout> AutoLayoutAttr::toLinearLayout(ArrayRef<int64_t>) const {
  return placeholderError(*this);
}
LogicalResult AutoLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                             function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

int64_t CoalescedLayoutAttr::getRank() const { return -1; }
int64_t CoalescedLayoutAttr::getWarpSize() const { return 0; }
int64_t CoalescedLayoutAttr::getNumWarps() const { return 0; }
bool CoalescedLayoutAttr::isPlaceholder() const { return true; }
Result<LinearLayout> CoalescedLayoutAttr::toLinearLayout(ArrayRef<int64_t>) const {
  return placeholderError(*this);
}
LogicalResult CoalescedLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                  function_ref<InFlightDiagnostic()> emitError) const {
  return verifyEncodingCommon(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "swizzled");
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned> order;
  if (failed(reader.parseDict()) || failed(reader.readUnsigned("vec", vec)) ||
      failed(reader.readUnsigned("perPhase", perPhase)) ||
      failed(reader.readUnsigned("maxPhase", maxPhase)) ||
      failed(reader.readUnsignedArray("order", order)) || failed(reader.finish()))
    return {};
  return parser.getChecked<SwizzledSharedLayoutAttr>(parser.getContext(), vec, perPhase,
                                                     maxPhase, order);
}

void SwizzledSharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult SwizzledSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               unsigned vec, unsigned perPhase,
                                               unsigned maxPhase, ArrayRef<unsigned> order) {
  if (order.empty())
    return emitError() << "#hd.swizzled needs at least one dimension";
  unsigned values[] = {vec, perPhase, maxPhase};
  const char *names[] = {"vec", "perPhase", "maxPhase"};
  for (int i = 0; i < 3; ++i)
    if (!isPowerOf2(values[i]))
      return emitError() << "#hd.swizzled " << names[i] << " = " << values[i]
                         << " is not a power of two";
  return verifyOrder(emitError, "swizzled", order);
}

int64_t SwizzledSharedLayoutAttr::getRank() const { return getOrder().size(); }

Result<LinearLayout> SwizzledSharedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return swizzledSharedLayout(toVector(shape), getVec(), getPerPhase(), getMaxPhase(),
                              toVector(getOrder()));
}

int64_t SwizzledSharedLayoutAttr::getAllocatedElements(ArrayRef<int64_t> shape) const {
  return ShapedType::getNumElements(shape);
}

Attribute PaddedSharedLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "padded");
  SmallVector<unsigned> intervals, paddings, order;
  if (failed(reader.parseDict()) ||
      failed(reader.readUnsignedArray("intervals", intervals)) ||
      failed(reader.readUnsignedArray("paddings", paddings)) ||
      failed(reader.readUnsignedArray("order", order)) || failed(reader.finish()))
    return {};
  return parser.getChecked<PaddedSharedLayoutAttr>(parser.getContext(), intervals,
                                                   paddings, order);
}

void PaddedSharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{intervals = ";
  printArray(printer, getIntervals());
  printer << ", paddings = ";
  printArray(printer, getPaddings());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult PaddedSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             ArrayRef<unsigned> intervals,
                                             ArrayRef<unsigned> paddings,
                                             ArrayRef<unsigned> order) {
  if (order.empty())
    return emitError() << "#hd.padded needs at least one dimension";
  if (intervals.empty() || intervals.size() != paddings.size())
    return emitError() << "#hd.padded needs one padding per interval, got "
                       << intervals.size() << " intervals and " << paddings.size()
                       << " paddings";
  if (failed(verifyPowersOf2(emitError, "padded", "intervals", intervals)))
    return failure();
  for (auto [i, p] : llvm::enumerate(paddings))
    if (p == 0)
      return emitError() << "#hd.padded paddings[" << i << "] is 0";
  return verifyOrder(emitError, "padded", order);
}

int64_t PaddedSharedLayoutAttr::getRank() const { return getOrder().size(); }

Result<LinearLayout> PaddedSharedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // The linear part of a padded layout is unswizzled row-major in `order`;
  // the padding is applied to offsets afterwards (getPaddedOffset).
  return swizzledSharedLayout(toVector(shape), 1, 1, 1, toVector(getOrder()));
}

int64_t PaddedSharedLayoutAttr::getAllocatedElements(ArrayRef<int64_t> shape) const {
  int64_t elements = ShapedType::getNumElements(shape);
  int64_t total = elements;
  for (auto [interval, padding] : llvm::zip(getIntervals(), getPaddings()))
    total += (elements / interval) * padding;
  return total;
}

Attribute MatrixSharedLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "matrix_shared");
  unsigned swizzle, elementBits, rank = 2;
  BoolAttr transposed;
  if (failed(reader.parseDict()) || failed(reader.readUnsigned("swizzle", swizzle)) ||
      failed(reader.readUnsigned("elementBits", elementBits)) ||
      failed(reader.readAttr("transposed", transposed, "true or false")) ||
      (reader.has("rank") && failed(reader.readUnsigned("rank", rank))) ||
      failed(reader.finish()))
    return {};
  return parser.getChecked<MatrixSharedLayoutAttr>(parser.getContext(), swizzle, elementBits,
                                                   transposed.getValue(), rank);
}

void MatrixSharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzle = " << getSwizzle() << ", elementBits = " << getElementBits()
          << ", transposed = " << (getTransposed() ? "true" : "false");
  if (getRank() != 2)
    printer << ", rank = " << getRank();
  printer << "}>";
}

LogicalResult MatrixSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned swizzle, unsigned elementBits,
                                             bool transposed, unsigned dims) {
  if (dims < 2 || dims > 8)
    return emitError() << "#hd.matrix_shared rank = " << dims << "; it is 2 to 8";
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "#hd.matrix_shared swizzle = " << swizzle
                       << " bytes; it is 32, 64 or 128";
  if (elementBits != 8 && elementBits != 16 && elementBits != 32)
    return emitError() << "#hd.matrix_shared elementBits = " << elementBits
                       << "; it is 8, 16 or 32";
  return success();
}



Result<LinearLayout> MatrixSharedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (int64_t(shape.size()) != int64_t(getRank()))
    return Error("#hd.matrix_shared of rank " + std::to_string(getRank()) +
                 " describes a tile of rank " + std::to_string(shape.size()));
  return matrixSharedLayout(toVector(shape), int32_t(getSwizzle()), int32_t(getElementBits()),
                            getTransposed());
}

int64_t MatrixSharedLayoutAttr::getRank() const { return getDims(); }

int64_t MatrixSharedLayoutAttr::getAllocatedElements(ArrayRef<int64_t> shape) const {
  return ShapedType::getNumElements(shape);
}

Attribute SharedLinearLayoutAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "shared_linear");
  std::vector<LinearLayout::InDim> ins(1);
  ins[0].name = "offset";
  if (failed(reader.parseDict()) ||
      failed(reader.readBases("offset", ins[0].bases, /*optional=*/false)) ||
      failed(reader.finish()))
    return {};
  size_t rank = rankOfBases(ins);
  if (rank == 0) {
    reader.error() << "needs at least one basis with one entry per tensor dimension";
    return {};
  }
  Result<LinearLayout> layout = layoutFromBases(std::move(ins), rank);
  if (!layout) {
    reader.error() << layout.error();
    return {};
  }
  return parser.getChecked<SharedLinearLayoutAttr>(parser.getContext(), *layout);
}

void SharedLinearLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getLayout().getInDims().front().bases);
  printer << "}>";
}

LogicalResult SharedLinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             LinearLayout layout) {
  if (layout.getInDimNames() != std::vector<std::string>{"offset"})
    return emitError() << "#hd.shared_linear needs the single in dim offset";
  if (!layout.isInvertible())
    return emitError() << "#hd.shared_linear must store each element exactly once "
                          "(its offset bases are not a bijection)";
  return success();
}

int64_t SharedLinearLayoutAttr::getRank() const { return getLayout().getNumOutDims(); }

Result<LinearLayout> SharedLinearLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  const LinearLayout &layout = getLayout();
  for (size_t d = 0; d < shape.size() && d < (size_t)layout.getNumOutDims(); ++d)
    if (layout.getOutDims()[d].size != shape[d])
      return Error("#hd.shared_linear covers " +
                   std::to_string(layout.getOutDims()[d].size) + " elements along dim " +
                   std::to_string(d) + ", the tile has " + std::to_string(shape[d]));
  if (shape.size() != static_cast<size_t>(layout.getNumOutDims()))
    return Error("#hd.shared_linear has rank " + std::to_string(layout.getNumOutDims()) +
                 ", the tile " + std::to_string(shape.size()));
  return layout;
}

int64_t SharedLinearLayoutAttr::getAllocatedElements(ArrayRef<int64_t> shape) const {
  return ShapedType::getNumElements(shape);
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  FieldReader reader(parser, "target");
  std::string name, arch;
  SmallVector<unsigned> warpSizes;
  unsigned numWarps, maxThreads;
  uint64_t smem;
  if (failed(reader.parseDict()) || failed(reader.readString("name", name)) ||
      failed(reader.readString("arch", arch)) ||
      failed(reader.readUnsignedArray("warpSizes", warpSizes)) ||
      failed(reader.readUnsigned("numWarps", numWarps)) ||
      failed(reader.readUnsigned("maxThreadsPerCTA", maxThreads)) ||
      failed(reader.readUInt64("sharedMemoryBytes", smem)) || failed(reader.finish()))
    return {};
  return parser.getChecked<TargetAttr>(parser.getContext(), name, arch, warpSizes,
                                       numWarps, maxThreads, smem);
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<{name = \"" << getName() << "\", arch = \"" << getArch()
          << "\", warpSizes = ";
  printArray(printer, getWarpSizes());
  printer << ", numWarps = " << getNumWarps()
          << ", maxThreadsPerCTA = " << getMaxThreadsPerCTA()
          << ", sharedMemoryBytes = " << getSharedMemoryBytes() << "}>";
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, StringRef arch,
                                 ArrayRef<unsigned> warpSizes, unsigned numWarps,
                                 unsigned maxThreadsPerCTA, uint64_t sharedMemoryBytes) {
  if (name.empty())
    return emitError() << "#hd.target needs a name";
  if (warpSizes.empty())
    return emitError() << "#hd.target " << name << " allows no warp size";
  if (failed(verifyPowersOf2(emitError, "target", "warpSizes", warpSizes)))
    return failure();
  if (!isPowerOf2(numWarps))
    return emitError() << "#hd.target numWarps = " << numWarps
                       << " is not a power of two";
  unsigned smallest = *llvm::min_element(warpSizes);
  if (static_cast<uint64_t>(numWarps) * smallest > maxThreadsPerCTA)
    return emitError() << "#hd.target numWarps = " << numWarps << " of " << smallest
                       << " lanes is " << uint64_t(numWarps) * smallest
                       << " threads; target " << name << " allows "
                       << maxThreadsPerCTA << " per CTA";
  return success();
}

bool TargetAttr::allowsWarpSize(int64_t size) const {
  return llvm::is_contained(getWarpSizes(), static_cast<unsigned>(size));
}

std::string TargetAttr::describeWarpSizes() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(getWarpSizes(), os, " or ");
  return s;
}

//===----------------------------------------------------------------------===//
// Free functions
//===----------------------------------------------------------------------===//

Result<LinearLayout> hadron::hd::toLinearLayout(RankedTensorType type) {
  auto layout = dyn_cast_or_null<LayoutAttrInterface>(type.getEncoding());
  if (!layout)
    return Error("tensor type has no hd layout");
  return layout.toLinearLayout(type.getShape());
}

Result<LinearLayout> hadron::hd::toLinearLayout(MemDescType type) {
  return type.getEncoding().toLinearLayout(type.getAllocShape().take_back(
      type.getEncoding().getRank()));
}

Result<LinearLayoutAttr> hadron::hd::toLinearLayoutAttr(MLIRContext *ctx,
                                                        const LinearLayout &layout) {
  std::vector<std::string> names = layout.getInDimNames();
  for (const char *name : kDistributedInDims)
    if (!layout.hasInDim(name))
      return Error(std::string("layout has no in dim `") + name + "`");
  if (names.size() != 4)
    return Error("a #hd.linear layout has exactly the in dims register, lane, warp, block");
  Result<LinearLayout> ordered = layout.transposeIns(
      std::vector<std::string>(std::begin(kDistributedInDims), std::end(kDistributedInDims)));
  if (!ordered)
    return Error(ordered.error());
  return LinearLayoutAttr::get(ctx, *ordered);
}

TargetAttr hadron::hd::getTarget(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto module = dyn_cast<ModuleOp>(cur))
      if (auto target = module->getAttrOfType<TargetAttr>(
              HadronDialect::getTargetAttrName()))
        return target;
  return {};
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#include "hadron/IR/HadronAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "hadron/IR/HadronAttrs.cpp.inc"

void HadronDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "hadron/IR/HadronAttrs.cpp.inc"
      >();
}
