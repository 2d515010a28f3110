//===- TypeConverter.h - Per-thread types of the distribute lowering -*- C++ -*-===//
//
// What each hd type becomes in the code one thread runs:
//  - a tensor with a distributed layout: an LLVM vector with one lane per
//    register of its layout (TileInfo::numRegs), so that elementwise ops
//    stay one op each;
//  - !hd.ptr: an LLVM pointer in the target's global or shared address
//    space (TargetHooks);
//  - !hd.memdesc (a view of shared memory): {ptr base, i32 origin}, the
//    address of its allocation moved along the stacked leading dims and the
//    XOR offset of the view's origin in the swizzled tile (SharedAddressing.h,
//    unpackMemDesc in LoweringUtils.h);
//  - !hd.async_token: i32; !hd.tensor_desc: TargetHooks::tensorDescType.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONVERSION_TYPECONVERTER_H
#define HADRON_CONVERSION_TYPECONVERTER_H

#include "hadron/Analysis/TileInfo.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace hadron::lowering {

/// The LLVM type converter of the distribute lowering, extended with the hd
/// types. Tiles take their register count from `tiles`.
class TileTypeConverter : public mlir::LLVMTypeConverter {
public:
  TileTypeConverter(mlir::MLIRContext *ctx, TargetHooks &hooks, TileInfoCache &tiles);

  /// The lowered form of every !hd.memdesc: {ptr base (shared address
  /// space), i32 origin}.
  mlir::Type memDescStruct(mlir::MLIRContext *ctx) const;

  /// The LLVM pointer of an !hd.ptr in the target's address space.
  mlir::Type convertPointer(hd::PointerType type) const;

  TargetHooks &hooks;
};

} // namespace hadron::lowering

#endif // HADRON_CONVERSION_TYPECONVERTER_H
