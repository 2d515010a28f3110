//===- HadronDialect.td - The hd dialect ------------------*- tablegen -*-===//
#ifndef HADRON_DIALECT_TD
#define HADRON_DIALECT_TD

include "mlir/IR/OpBase.td"

def Hadron_Dialect : Dialect {
  let name = "hd";
  let cppNamespace = "::hadron::hd";
  let summary = "Distributed tiles with explicit layouts and shared memory";
  let description = [{
    The hd dialect describes a GPU kernel at the tile level. Values are
    ranked tensors whose encoding is a distributed layout saying which
    register of which lane of which warp holds each element; shared memory is
    a descriptor type carrying a shared layout. The dialect is
    hardware-neutral: what a particular machine allows (warp sizes, number of
    warps, shared memory capacity) comes from the module's `hd.target`
    attribute, filled by a target plugin.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect",
  ];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// The module attribute naming the target the module compiles for.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("hd.target");
    }
    /// The function attribute marking a kernel entry point.
    static constexpr ::llvm::StringLiteral getKernelAttrName() {
      return ::llvm::StringLiteral("hd.kernel");
    }
    /// Set on a lowered kernel whose CTA runs more warps than the module's
    /// hd.num_warps (hd.warp_specialize partitions): the warps to launch.
    static constexpr ::llvm::StringLiteral getKernelWarpsAttrName() {
      return ::llvm::StringLiteral("hd.kernel_warps");
    }
  private:
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

#endif // HADRON_DIALECT_TD
