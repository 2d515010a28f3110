//===- HadronAttrDefs.td - Layout and target attributes ---*- tablegen -*-===//
#ifndef HADRON_ATTR_DEFS_TD
#define HADRON_ATTR_DEFS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "hadron/IR/HadronDialect.td"
include "hadron/IR/HadronAttrInterfaces.td"
include "hadron/IR/HadronEnums.td"

class Hadron_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hadron_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Hadron_LinearLayoutParam : AttrParameter<"::hadron::LinearLayout", "a linear layout"> {
  let cppStorageType = "::hadron::LinearLayout";
}

class Hadron_DistributedLayout<string name, string attrMnemonic,
                               list<string> overrides = []>
    : Hadron_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<Hadron_LayoutAttrInterface>,
        DeclareAttrInterfaceMethods<Hadron_DistributedLayoutAttrInterface, overrides>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]>;

class Hadron_SharedLayout<string name, string attrMnemonic, list<Trait> traits = []>
    : Hadron_Attr<name, attrMnemonic, !listconcat(traits, [
        DeclareAttrInterfaceMethods<Hadron_LayoutAttrInterface>,
        DeclareAttrInterfaceMethods<Hadron_SharedLayoutAttrInterface>])>;

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def Hadron_BlockedLayoutAttr : Hadron_DistributedLayout<"BlockedLayout", "blocked"> {
  let summary = "Each thread holds a block of sizePerThread contiguous elements";
  let description = [{
    The tile of one CTA is sizePerThread x threadsPerWarp x warpsPerCTA along
    each dimension; `order` lists the dimensions from fastest to slowest.
    A tensor larger than the tile repeats it in registers; a smaller one is
    replicated over the threads that fall outside it.

    ```mlir
    #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
                 warpsPerCTA = [4, 1], order = [1, 0]}>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_SliceLayoutAttr : Hadron_DistributedLayout<"SliceLayout", "slice", ["isPlaceholder"]> {
  let summary = "The parent layout with dimension `dim` removed";
  let description = [{
    What a reduction along `dim` produces, and what expand_dims along `dim`
    takes back to the parent.

    ```mlir
    #hd.slice<{dim = 1, parent = #blocked}>
    ```
  }];
  let parameters = (ins "unsigned":$dim,
                        "DistributedLayoutAttrInterface":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_LinearLayoutAttr : Hadron_DistributedLayout<"LinearLayout", "linear"> {
  let summary = "A layout given directly by its linear-layout bases";
  let description = [{
    Bases of the inputs register, lane, warp and block; each basis has one
    entry per tensor dimension. The layout's output sizes are the tensor's
    shape.

    ```mlir
    #hd.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [], block = []}>
    ```
  }];
  let parameters = (ins Hadron_LinearLayoutParam:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_MatrixInstrAttr : Hadron_Attr<"MatrixInstr", "matrix_instr"> {
  let summary = "A matrix instruction a target declares, with its fragments";
  let description = [{
    D (m x n) = A (m x k) * B (k x n) + C, issued by one warp. `a`, `b` and
    `acc` are the fragments: which register of which lane holds which element
    of the instruction's operand, as linear-layout bases (row, column). The
    target's model provides these; `instr` of an `#hd.mma` layout names one.
    An instruction that a group of warps issues together has `warp` bases
    too (stepping along rows); an operand it reads from shared memory has
    no fragment (the key is left out), and the dot then takes that operand
    as a `!hd.memdesc`.
    `aType`/`bType` are the operand element types the instruction reads (tf32
    for f32 operands read at tf32 precision), `accType` the accumulator's.

    ```mlir
    #instr = #hd.matrix_instr<{name = "mma.m16n8k8.f16", shape = [16, 8, 8],
        aType = f16, bType = f16, accType = f32,
        a = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]},
        b = {register = [[1, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]},
        acc = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>
    ```
  }];
  let parameters = (ins StringRefParameter<"instruction name">:$name,
                        "unsigned":$m, "unsigned":$n, "unsigned":$k,
                        "::mlir::Type":$aType, "::mlir::Type":$bType,
                        "::mlir::Type":$accType,
                        Hadron_LinearLayoutParam:$a,
                        Hadron_LinearLayoutParam:$b,
                        Hadron_LinearLayoutParam:$acc);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Lanes of the warp that issues it.
    int64_t getWarpSize() const { return getAcc().getInDimSize("lane"); }
    /// Warps that issue one instruction together (1 for a warp-level one).
    int64_t getWarpsPerInstr() const {
      return getAcc().hasInDim("warp") ? getAcc().getInDimSize("warp") : 1;
    }
    /// True when operand `opIdx` (0: A, 1: B) has no register fragment: the
    /// instruction reads it from shared memory.
    bool readsFromShared(unsigned opIdx) const {
      return (opIdx == 0 ? getA() : getB()).getNumInDims() == 0;
    }
  }];
}

def Hadron_MmaLayoutAttr : Hadron_DistributedLayout<"MmaLayout", "mma"> {
  let summary = "The accumulator layout of a dot on a matrix instruction";
  let description = [{
    The instruction's accumulator fragment tiled over a warpsPerCTA = [wm, wn]
    grid of warps, then repeated in registers over the tensor (see
    `matrixOperandLayout` in LayoutFactories.h). Its `#hd.dot_op` operands
    tile the instruction's A and B fragments the same way.

    ```mlir
    #mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 2]}>
    ```
  }];
  let parameters = (ins "MatrixInstrAttr":$instr,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_DotOperandLayoutAttr : Hadron_DistributedLayout<"DotOperandLayout", "dot_op", ["isPlaceholder"]> {
  let summary = "Layout of operand `opIdx` of a dot whose result has layout `parent`";
  let description = [{
    ```mlir
    #hd.dot_op<{opIdx = 0, parent = #blocked, kWidth = 1}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx,
                        "DistributedLayoutAttrInterface":$parent,
                        "unsigned":$kWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_AutoLayoutAttr : Hadron_DistributedLayout<"AutoLayout", "auto", ["isPlaceholder"]> {
  let summary = "A placeholder the compiler replaces by a layout of its choice";
}

def Hadron_CoalescedLayoutAttr : Hadron_DistributedLayout<"CoalescedLayout", "coalesced", ["isPlaceholder"]> {
  let summary = "A placeholder for the blocked layout that coalesces global accesses";
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

def Hadron_SwizzledSharedLayoutAttr : Hadron_SharedLayout<"SwizzledSharedLayout", "swizzled"> {
  let summary = "Row-major in `order` with an XOR swizzle of vec-element groups";
  let description = [{
    Element (row, col) of the two fastest dimensions lives at column
    `col ^ (((row / perPhase) % maxPhase) * vec)`.

    ```mlir
    #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_PaddedSharedLayoutAttr : Hadron_SharedLayout<"PaddedSharedLayout", "padded"> {
  let summary = "Row-major in `order`, with `paddings[i]` elements after every `intervals[i]`";
  let description = [{
    ```mlir
    #hd.padded<{intervals = [32], paddings = [4], order = [1, 0]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_MatrixSharedLayoutAttr : Hadron_SharedLayout<"MatrixSharedLayout", "matrix_shared"> {
  let summary = "The swizzled tiles that matrix units read from shared memory";
  let description = [{
    The layout of a matrix-instruction operand in shared memory (NVMMA-style swizzles,
    as Gluon's `NVMMASharedLayout`), for the last two dims;
    leading dims stack whole tiles. The contiguous dim is dim 1, or dim 0
    when `transposed`. Memory holds atoms of 8 rows of `swizzle` bytes: the
    contiguous dim in runs of `swizzle` bytes, the other dim at a stride of
    `swizzle` bytes, then further runs of the contiguous dim after all rows.
    Within each 1024-byte span the 16-byte chunk bits (4..6) of the byte
    offset are XORed with bits 7..9, as far as the swizzle width reaches
    (128: 3 bits, 64: 2, 32: 1). The layout is `elementBits` wide elements;
    the memdesc's element type must match. `rank` (2 when left out) counts
    the leading dims too, as a ring of stages has rank 3.

    ```mlir
    #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
    #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = true, rank = 3}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzle, "unsigned":$elementBits, "bool":$transposed,
                        "unsigned":$dims);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_SharedLinearLayoutAttr : Hadron_SharedLayout<"SharedLinearLayout", "shared_linear"> {
  let summary = "A shared layout given by the bases of its element offset";
  let description = [{
    ```mlir
    #hd.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}>
    ```
  }];
  let parameters = (ins Hadron_LinearLayoutParam:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Memory-access policies, printed as #hd.cache<streaming> etc.
//===----------------------------------------------------------------------===//

def Hadron_CacheModifierAttr : EnumAttr<Hadron_Dialect, Hadron_CacheModifier, "cache"> {
  let assemblyFormat = "`<` $value `>`";
}
def Hadron_EvictionPolicyAttr : EnumAttr<Hadron_Dialect, Hadron_EvictionPolicy, "evict"> {
  let assemblyFormat = "`<` $value `>`";
}
def Hadron_MemSemanticAttr : EnumAttr<Hadron_Dialect, Hadron_MemSemantic, "sem"> {
  let assemblyFormat = "`<` $value `>`";
}
def Hadron_MemScopeAttr : EnumAttr<Hadron_Dialect, Hadron_MemScope, "scope"> {
  let assemblyFormat = "`<` $value `>`";
}
def Hadron_InputPrecisionAttr : EnumAttr<Hadron_Dialect, Hadron_InputPrecision, "precision"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

def Hadron_TargetAttr : Hadron_Attr<"Target", "target"> {
  let summary = "What the module's target allows; verifiers consult it";
  let description = [{
    Attached to the module as `hd.target`. A target plugin fills it from its
    memory-hierarchy model.

    ```mlir
    module attributes {hd.target = #hd.target<{name = "host", arch = "generic",
        warpSizes = [1], numWarps = 4, maxThreadsPerCTA = 1024,
        sharedMemoryBytes = 65536}>} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"target name">:$name,
                        StringRefParameter<"architecture">:$arch,
                        ArrayRefParameter<"unsigned">:$warpSizes,
                        "unsigned":$numWarps,
                        "unsigned":$maxThreadsPerCTA,
                        "uint64_t":$sharedMemoryBytes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool allowsWarpSize(int64_t size) const;
    /// The warp sizes as "32" or "32 or 64", for messages.
    std::string describeWarpSizes() const;
  }];
}

#endif // HADRON_ATTR_DEFS_TD
