//===- hadron-opt.cpp - The MLIR opt driver for Hadron --------------------===//
//
// Registers only what Hadron kernels use (the hd dialect, func, arith, math,
// scf, cf) and the generic passes our tests run; InitAllDialects.h would cost
// a minute and gigabytes to compile for no benefit.
//
//===----------------------------------------------------------------------===//

#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<hadron::hd::HadronDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerInlinerPass();
  hadron::registerHadronPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Hadron optimizer driver\n", registry));
}
