//===- TypeConverter.cpp - Per-thread types of the distribute lowering ----===//

#include "hadron/Conversion/TypeConverter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace hadron::hd;

namespace hadron::lowering {

TileTypeConverter::TileTypeConverter(MLIRContext *ctx, TargetHooks &hooks, TileInfoCache &tiles)
    : LLVMTypeConverter(ctx), hooks(hooks) {
  addConversion([this](PointerType type) -> Type { return convertPointer(type); });
  addConversion([this, &tiles](RankedTensorType type) -> std::optional<Type> {
    if (!isa_and_nonnull<LayoutAttrInterface>(type.getEncoding()))
      return std::nullopt;
    const TileInfo *info = tiles.get(type);
    if (!info)
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    return VectorType::get({info->numRegs}, element);
  });
  addConversion([this](MemDescType type) -> Type { return memDescStruct(type.getContext()); });
  addConversion(
      [](AsyncTokenType type) -> Type { return IntegerType::get(type.getContext(), 32); });
  addConversion([this](TensorDescType type) -> Type {
    return this->hooks.tensorDescType(type.getContext(), type.getShape().size());
  });
}

Type TileTypeConverter::memDescStruct(MLIRContext *ctx) const {
  return LLVM::LLVMStructType::getLiteral(
      ctx, {LLVM::LLVMPointerType::get(ctx, hooks.sharedAddressSpace()),
            IntegerType::get(ctx, 32)});
}

Type TileTypeConverter::convertPointer(PointerType type) const {
  unsigned space = 0;
  switch (type.getAddressSpace()) {
  case AddressSpace::global:
    space = hooks.globalAddressSpace();
    break;
  case AddressSpace::shared:
    space = hooks.sharedAddressSpace();
    break;
  case AddressSpace::generic:
    space = 0;
    break;
  }
  return LLVM::LLVMPointerType::get(type.getContext(), space);
}

} // namespace hadron::lowering
