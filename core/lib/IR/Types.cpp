//===- Types.cpp - Types of the hd dialect --------------------------------===//

#include "hadron/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hadron::hd;

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  AddressSpace space = AddressSpace::global;
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<AddressSpace> parsed = symbolizeAddressSpace(keyword);
    if (!parsed) {
      parser.emitError(loc) << "unknown address space `" << keyword
                            << "`; expected generic, global or shared";
      return {};
    }
    space = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PointerType>(parser.getContext(), pointee, space);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != AddressSpace::global)
    printer << ", " << stringifyAddressSpace(getAddressSpace());
  printer << ">";
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType, AddressSpace) {
  if (!pointeeType.isIntOrFloat() && !isa<PointerType>(pointeeType))
    return emitError() << "!hd.ptr points to integers, floats or pointers, not "
                       << pointeeType;
  return success();
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

namespace {
/// `<SHAPE x TYPE, #shared`: what !hd.memdesc and !hd.tensor_desc begin
/// with. Fails (with `what` in the message) unless the layout is shared.
ParseResult parseShapeTypeShared(AsmParser &parser, SmallVectorImpl<int64_t> &shape,
                                 Type &elementType, SharedLayoutAttrInterface &shared,
                                 StringRef what) {
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return failure();
  SMLoc encodingLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(encoding))
    return failure();
  shared = dyn_cast<SharedLayoutAttrInterface>(encoding);
  if (!shared)
    return parser.emitError(encodingLoc)
           << what << " needs a shared layout (#hd.swizzled, #hd.padded, #hd.shared_linear or "
                      "#hd.matrix_shared), got "
           << encoding;
  return success();
}
} // namespace

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SharedLayoutAttrInterface shared;
  if (parseShapeTypeShared(parser, shape, elementType, shared, "!hd.memdesc"))
    return {};
  SmallVector<int64_t> allocShape(shape);
  if (succeeded(parser.parseOptionalComma())) {
    allocShape.clear();
    if (parser.parseKeyword("alloc") || parser.parseEqual() ||
        parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType, shared,
                                        allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getAllocShape() != getShape()) {
    printer << ", alloc = ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  SharedLayoutAttrInterface encoding,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "!hd.memdesc needs at least one dimension";
  if (!elementType.isIntOrFloat())
    return emitError() << "!hd.memdesc holds integers or floats, not " << elementType;
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "!hd.memdesc dimensions must be positive, got " << d;
  if (allocShape.size() < shape.size())
    return emitError() << "!hd.memdesc view of rank " << shape.size()
                       << " cannot be larger than its allocation of rank "
                       << allocShape.size();
  for (int64_t d : allocShape) {
    if (d <= 0 || (d & (d - 1)) != 0)
      return emitError() << "!hd.memdesc allocation dimensions must be powers of two, got "
                         << d;
    if (d > (int64_t(1) << hadron::LinearLayout::kMaxDimSizeLog2))
      return emitError() << "!hd.memdesc allocation dimension " << d
                         << " is over the 2^" << hadron::LinearLayout::kMaxDimSizeLog2
                         << " elements a layout dim holds";
  }
  ArrayRef<int64_t> allocTail = allocShape.take_back(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > allocTail[i])
      return emitError() << "!hd.memdesc view dimension " << i << " is " << shape[i]
                         << ", larger than its allocation's " << allocTail[i];
  if (auto matrix = dyn_cast<MatrixSharedLayoutAttr>(encoding))
    if (elementType.getIntOrFloatBitWidth() != matrix.getElementBits())
      return emitError() << "shared layout " << encoding << " holds " << matrix.getElementBits()
                         << "-bit elements, not " << elementType;
  int64_t rank = encoding.getRank();
  if (rank != static_cast<int64_t>(shape.size()) &&
      rank != static_cast<int64_t>(allocShape.size()))
    return emitError() << "shared layout " << encoding << " has rank " << rank
                       << " but the tile has rank " << shape.size();
  if (rank > static_cast<int64_t>(allocShape.size()))
    return emitError() << "shared layout " << encoding << " has rank " << rank
                       << ", more than the allocation's " << allocShape.size();
  Result<hadron::LinearLayout> layout =
      encoding.toLinearLayout(allocShape.take_back(rank));
  if (!layout)
    return emitError() << "shared layout " << encoding << " cannot hold the tile: "
                       << layout.error();
  return success();
}

MemDescType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  ArrayRef<int64_t> newShape = shape ? *shape : getShape();
  return MemDescType::get(newShape, elementType, getEncoding(),
                          shape ? *shape : getAllocShape());
}

//===----------------------------------------------------------------------===//
// TensorDescType
//===----------------------------------------------------------------------===//

Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SharedLayoutAttrInterface shared;
  if (parseShapeTypeShared(parser, shape, elementType, shared,
                           "!hd.tensor_desc (the layout its blocks land in)") ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TensorDescType>(parser.getContext(), shape, elementType, shared);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

LogicalResult TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     ArrayRef<int64_t> shape, Type elementType,
                                     SharedLayoutAttrInterface encoding) {
  // The runtime's hd_tensor_desc holds up to 5 dims.
  if (shape.empty() || shape.size() > 5)
    return emitError() << "!hd.tensor_desc blocks have 1 to 5 dims, got " << shape.size();
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() < 8)
    return emitError() << "!hd.tensor_desc holds integers or floats of 8 bits or more, not "
                       << elementType;
  for (int64_t d : shape)
    if (d <= 0 || (d & (d - 1)) != 0)
      return emitError() << "!hd.tensor_desc block dims must be powers of two, got " << d;
  return MemDescType::verify(emitError, shape, elementType, encoding, shape);
}

#define GET_TYPEDEF_CLASSES
#include "hadron/IR/HadronTypes.cpp.inc"

void HadronDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "hadron/IR/HadronTypes.cpp.inc"
      >();
}
