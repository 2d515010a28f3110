//===- HadronOps.td - Operations of the hd dialect --------*- tablegen -*-===//
#ifndef HADRON_OPS_TD
#define HADRON_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "hadron/IR/HadronDialect.td"
include "hadron/IR/HadronEnums.td"
include "hadron/IR/HadronAttrDefs.td"
include "hadron/IR/HadronTypes.td"

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

def Hadron_GlobalMemory : Resource<"::hadron::hd::GlobalMemory">;
def Hadron_SharedMemory : Resource<"::hadron::hd::SharedMemory">;

def Hadron_Tensor : RankedTensorOf<[AnyType]>;
def Hadron_PtrTensor : RankedTensorOf<[Hadron_PointerType]>;
def Hadron_PtrLike : AnyTypeOf<[Hadron_PointerType, Hadron_PtrTensor]>;
def Hadron_IntTensor : RankedTensorOf<[AnyInteger]>;
def Hadron_IntLike : AnyTypeOf<[AnyInteger, Hadron_IntTensor]>;
def Hadron_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Hadron_Scalar : AnyTypeOf<[AnyInteger, AnyFloat, Index, Hadron_PointerType]>;
def Hadron_ScalarOrTensor : AnyTypeOf<[Hadron_Scalar, Hadron_Tensor]>;

// `mask` has the shape and layout of `ptr`, with i1 elements.
class Hadron_MaskMatchesPtr<string ptr, string mask, int before>
    : TypesMatchWith<"mask has the shape of the pointers, with i1 elements",
                     ptr, mask, "::hadron::hd::getI1TypeLike($_self)",
                     "($_op.getOperands().size() <= " # before # ") || std::equal_to<>()">;
// `value` is what `ptr` points to, shape and layout included.
class Hadron_PointeeMatchesPtr<string ptr, string value>
    : TypesMatchWith<"value type matches the pointee type of the pointers",
                     ptr, value, "::hadron::hd::getPointeeTypeLike($_self)">;

class Hadron_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hadron_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

def Hadron_AxisAttr : ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>;

def Hadron_ProgramIdOp : Hadron_Op<"program_id", [Pure]> {
  let summary = "Index of this program (CTA) along grid axis 0, 1 or 2";
  let arguments = (ins Hadron_AxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Hadron_NumProgramsOp : Hadron_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along grid axis 0, 1 or 2";
  let arguments = (ins Hadron_AxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

//===----------------------------------------------------------------------===//
// Tensor creation and shape manipulation
//===----------------------------------------------------------------------===//

def Hadron_ArangeOp : Hadron_Op<"arange", [Pure]> {
  let summary = "The 1-D tensor start, start + 1, ..., end - 1";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `to` $end attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_SplatOp : Hadron_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar", "result", "src",
                   "::mlir::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A tensor with every element equal to a scalar (hd.full when constant)";
  let arguments = (ins Hadron_Scalar:$src);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($result))";
  let hasFolder = 1;
}

def Hadron_BroadcastOp : Hadron_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Broadcast dimensions of size 1 to the result shape";
  let arguments = (ins Hadron_Tensor:$src);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Hadron_ExpandDimsOp : Hadron_Op<"expand_dims", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>, SameOperandsAndResultElementType]> {
  let summary = "Insert a dimension of size 1 at `axis`";
  let description = [{
    The operand's layout must be a slice along `axis`; the result takes the
    slice's parent.
  }];
  let arguments = (ins Hadron_Tensor:$src, I32Attr:$axis);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src `axis` `=` $axis attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasCanonicalizer = 1;
}

def Hadron_ReshapeOp : Hadron_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Same elements in row-major order, another shape and layout";
  let arguments = (ins Hadron_Tensor:$src);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Hadron_PermuteOp : Hadron_Op<"permute", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute dimensions: result dim i is operand dim order[i]";
  let arguments = (ins Hadron_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src `,` $order attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Hadron_JoinOp : Hadron_Op<"join", [Pure, SameTypeOperands]> {
  let summary = "Stack two tensors along a new minor dimension of size 2";
  let arguments = (ins Hadron_Tensor:$lhs, Hadron_Tensor:$rhs);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_SplitOp : Hadron_Op<"split", [Pure]> {
  let summary = "Split a tensor along its minor dimension of size 2";
  let arguments = (ins Hadron_Tensor:$src);
  let results = (outs Hadron_Tensor:$lhs, Hadron_Tensor:$rhs);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($lhs)) `,` qualified(type($rhs))";
  let hasVerifier = 1;
}

def Hadron_ConvertLayoutOp : Hadron_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move elements to the threads another layout assigns them to";
  let arguments = (ins Hadron_Tensor:$src);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and global memory
//===----------------------------------------------------------------------===//

def Hadron_AddPtrOp : Hadron_Op<"addptr", [Pure, SameOperandsAndResultShape,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by element offsets";
  let arguments = (ins Hadron_PtrLike:$ptr, Hadron_IntLike:$offset);
  let results = (outs Hadron_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` qualified(type($ptr)) `,` qualified(type($offset))";
  let hasFolder = 1;
}

def Hadron_LoadOp : Hadron_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<Hadron_GlobalMemory>]>,
    Hadron_PointeeMatchesPtr<"ptr", "result">, Hadron_MaskMatchesPtr<"ptr", "mask", 1>,
    TypesMatchWith<"other matches the pointee type", "ptr", "other",
                   "::hadron::hd::getPointeeTypeLike($_self)",
                   "$_op.getOperands().size() <= 2 || std::equal_to<>()">]> {
  let summary = "Load from global memory; masked-off elements take `other`";
  let arguments = (ins Hadron_PtrLike:$ptr,
                       Optional<Hadron_BoolLike>:$mask,
                       Optional<Hadron_ScalarOrTensor>:$other,
                       DefaultValuedAttr<Hadron_CacheModifierAttr, "::hadron::hd::CacheModifier::normal">:$cache,
                       DefaultValuedAttr<Hadron_EvictionPolicyAttr, "::hadron::hd::EvictionPolicy::normal">:$evict,
                       UnitAttr:$isVolatile);
  let results = (outs Hadron_ScalarOrTensor:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? attr-dict `:` qualified(type($ptr))
  }];
  let hasVerifier = 1;
}

def Hadron_StoreOp : Hadron_Op<"store", [
    MemoryEffects<[MemWrite<Hadron_GlobalMemory>]>,
    Hadron_PointeeMatchesPtr<"ptr", "value">, Hadron_MaskMatchesPtr<"ptr", "mask", 2>]> {
  let summary = "Store to global memory where `mask` is set";
  let arguments = (ins Hadron_PtrLike:$ptr, Hadron_ScalarOrTensor:$value,
                       Optional<Hadron_BoolLike>:$mask,
                       DefaultValuedAttr<Hadron_CacheModifierAttr, "::hadron::hd::CacheModifier::normal">:$cache,
                       DefaultValuedAttr<Hadron_EvictionPolicyAttr, "::hadron::hd::EvictionPolicy::normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`mask` $mask^)? attr-dict `:` qualified(type($ptr))
  }];
  let hasVerifier = 1;
}

def Hadron_AtomicRMWOp : Hadron_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<Hadron_GlobalMemory>, MemWrite<Hadron_GlobalMemory>]>,
    Hadron_PointeeMatchesPtr<"ptr", "val">, AllTypesMatch<["val", "result"]>,
    Hadron_MaskMatchesPtr<"ptr", "mask", 2>]> {
  let summary = "Atomically combine `val` into memory and return the old value";
  let arguments = (ins Hadron_AtomicRMWKind:$kind, Hadron_PtrLike:$ptr,
                       Hadron_ScalarOrTensor:$val, Optional<Hadron_BoolLike>:$mask,
                       DefaultValuedAttr<Hadron_MemSemanticAttr, "::hadron::hd::MemSemantic::acq_rel">:$sem,
                       DefaultValuedAttr<Hadron_MemScopeAttr, "::hadron::hd::MemScope::gpu">:$scope);
  let results = (outs Hadron_ScalarOrTensor:$result);
  let assemblyFormat = [{
    $kind `,` $ptr `,` $val (`mask` $mask^)? attr-dict `:` qualified(type($ptr)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Hadron_AtomicCASOp : Hadron_Op<"atomic_cas", [
    MemoryEffects<[MemRead<Hadron_GlobalMemory>, MemWrite<Hadron_GlobalMemory>]>,
    Hadron_PointeeMatchesPtr<"ptr", "result">, AllTypesMatch<["result", "cmp", "val"]>]> {
  let summary = "Atomically replace `cmp` by `val`; returns the old value";
  let arguments = (ins Hadron_PtrLike:$ptr, Hadron_ScalarOrTensor:$cmp,
                       Hadron_ScalarOrTensor:$val,
                       DefaultValuedAttr<Hadron_MemSemanticAttr, "::hadron::hd::MemSemantic::acq_rel">:$sem,
                       DefaultValuedAttr<Hadron_MemScopeAttr, "::hadron::hd::MemScope::gpu">:$scope);
  let results = (outs Hadron_ScalarOrTensor:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` qualified(type($ptr)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Hadron_ReduceOp : Hadron_Op<"reduce", [Pure, SingleBlock,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reduce tensors along `axis` with the combine region";
  let description = [{
    The region takes the accumulators then the new elements, one of each per
    operand, and yields the combined accumulators. Reducing a 1-D tensor
    gives scalars; otherwise the result layout is a slice of the operand's.

    ```mlir
    %s = hd.reduce(%x) axis = 1 : (tensor<64x128xf32, #b>) -> tensor<64xf32, #hd.slice<{dim = 1, parent = #b}>> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      hd.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Hadron_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, $results) $combine
  }];
  let hasRegionVerifier = 1;
}

def Hadron_ScanOp : Hadron_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive prefix scan along `axis` with the combine region";
  let arguments = (ins Variadic<Hadron_Tensor>:$srcs, I32Attr:$axis,
                       BoolAttr:$reverse);
  let results = (outs Variadic<Hadron_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis `reverse` `=` $reverse attr-dict `:`
    functional-type($srcs, $results) $combine
  }];
  let hasRegionVerifier = 1;
}

def Hadron_YieldOp : Hadron_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "Yield the combined values of a reduce or scan region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def Hadron_LocalAllocOp : Hadron_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Allocate a tile of shared memory, optionally initialised from a tensor";
  let arguments = (ins Optional<Hadron_Tensor>:$src);
  let results = (outs Hadron_MemDescType:$result);
  let assemblyFormat = "($src^ `:` qualified(type($src)))? attr-dict `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_LocalDeallocOp : Hadron_Op<"local_dealloc", [
    MemoryEffects<[MemFree<Hadron_SharedMemory>]>]> {
  let summary = "End the lifetime of a shared-memory allocation";
  let arguments = (ins Hadron_MemDescType:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def Hadron_LocalLoadOp : Hadron_Op<"local_load", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>]>]> {
  let summary = "Read a shared-memory tile into a distributed tensor";
  let arguments = (ins Hadron_MemDescType:$src);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_LocalStoreOp : Hadron_Op<"local_store", [
    MemoryEffects<[MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Write a distributed tensor into a shared-memory tile";
  let arguments = (ins Hadron_Tensor:$value, Hadron_MemDescType:$dst);
  let assemblyFormat = "$value `,` $dst attr-dict `:` qualified(type($value)) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def Hadron_MemDescSliceOp : Hadron_Op<"memdesc_slice", [Pure]> {
  let summary = "A static sub-tile view of a shared-memory tile";
  let arguments = (ins Hadron_MemDescType:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs Hadron_MemDescType:$result);
  let assemblyFormat = "$src $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_MemDescIndexOp : Hadron_Op<"memdesc_index", [Pure]> {
  let summary = "View of element `index` along the leading dimension (dynamic)";
  let arguments = (ins Hadron_MemDescType:$src, I32:$index);
  let results = (outs Hadron_MemDescType:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_MemDescReinterpretOp : Hadron_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "View a whole allocation as another tile of at most its size";
  let description = [{
    The bytes of `src`, a whole allocation (its shape is its allocation
    shape), seen as a tile of another shape, element type or layout that
    needs no more bytes: a ring of stages reused for an epilogue's staging
    tile once nothing reads or writes the ring any more (Gluon's
    `_reinterpret`). Accesses through either view are ordered like any two
    views of the allocation.

    ```mlir
    %c = hd.memdesc_reinterpret %ring : !hd.memdesc<4x128x64xbf16, #ring> -> !hd.memdesc<128x256xbf16, #sw>
    ```
  }];
  let arguments = (ins Hadron_MemDescType:$src);
  let results = (outs Hadron_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Hadron_MemDescPermuteOp : Hadron_Op<"memdesc_permute", [Pure]> {
  let summary = "View a shared-memory tile with its dimensions permuted";
  let arguments = (ins Hadron_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs Hadron_MemDescType:$result);
  let assemblyFormat = "$src `,` $order attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Hadron_BarrierOp : Hadron_Op<"barrier", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Wait for every thread of the CTA; orders shared-memory accesses";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

def Hadron_AsyncCopyOp : Hadron_Op<"async_copy", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<Hadron_GlobalMemory>, MemWrite<Hadron_SharedMemory>]>,
    TypesMatchWith<"other matches the pointee type", "ptr", "other",
                   "::hadron::hd::getPointeeTypeLike($_self)",
                   "$_op.getOperands().size() <= 3 || std::equal_to<>()">,
    Hadron_MaskMatchesPtr<"ptr", "mask", 2>]> {
  let summary = "Start copying global memory into a shared-memory tile";
  let arguments = (ins Hadron_PtrTensor:$ptr, Hadron_MemDescType:$dst,
                       Optional<RankedTensorOf<[I1]>>:$mask,
                       Optional<Hadron_Tensor>:$other,
                       DefaultValuedAttr<Hadron_CacheModifierAttr, "::hadron::hd::CacheModifier::normal">:$cache,
                       DefaultValuedAttr<Hadron_EvictionPolicyAttr, "::hadron::hd::EvictionPolicy::normal">:$evict);
  let results = (outs Hadron_AsyncTokenType:$token);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)? (`other` $other^)? attr-dict `:` qualified(type($ptr)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Hadron_AsyncCommitGroupOp : Hadron_Op<"async_commit_group"> {
  let summary = "Close the group of async copies started since the last commit";
  let arguments = (ins Variadic<Hadron_AsyncTokenType>:$tokens);
  let results = (outs Hadron_AsyncTokenType:$token);
  let assemblyFormat = "$tokens attr-dict";
}

def Hadron_AsyncWaitOp : Hadron_Op<"async_wait"> {
  let summary = "Wait until at most `pending` committed groups are in flight";
  let arguments = (ins Variadic<Hadron_AsyncTokenType>:$tokens, I32Attr:$pending);
  let results = (outs Hadron_AsyncTokenType:$token);
  let assemblyFormat = "$tokens `pending` `=` $pending attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Barriers in shared memory and bulk tensor copies
//===----------------------------------------------------------------------===//

def Hadron_BarrierMemDesc : Type<
    And<[Hadron_MemDescType.predicate,
         CPred<"::hadron::hd::isBarrierMemDesc($_self)">]>,
    "a memdesc of one i64 (a barrier)">;

def Hadron_MBarrierInitOp : Hadron_Op<"mbarrier_init", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Make a barrier that completes a phase after `count` arrivals";
  let description = [{
    Every op on barriers and bulk tensor copies is executed by the whole CTA
    (all threads, uniform control flow); the target decides which of its
    threads does the work. A barrier is one i64 in shared memory. Its
    current phase completes when `count` arrivals (hd.mbarrier_arrive,
    hd.mbarrier_expect) have been made and every byte expected of it has
    landed (hd.async_tensor_copy); then the next phase starts, with the same
    count. Phases alternate parity 0, 1, 0, ...; the first has parity 0.
    The init is visible to the whole CTA when the op returns.

    ```mlir
    hd.mbarrier_init %bar, 1 : !hd.memdesc<1xi64, #bar_layout>
    ```
  }];
  let arguments = (ins Hadron_BarrierMemDesc:$barrier, ConfinedAttr<I32Attr, [IntMinValue<1>]>:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
}

def Hadron_MBarrierExpectOp : Hadron_Op<"mbarrier_expect", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Arrive once at a barrier and expect `bytes` more to land on it";
  let description = [{
    The CTA arrives once and announces that copies completing on this
    barrier will bring `bytes` bytes in its current phase, which does not
    complete before they have landed. With `pred` false nothing happens.

    ```mlir
    hd.mbarrier_expect %bar, 32768 : !hd.memdesc<1xi64, #bar_layout>
    ```
  }];
  let arguments = (ins Hadron_BarrierMemDesc:$barrier, ConfinedAttr<I32Attr, [IntMinValue<0>]>:$bytes,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $bytes (`pred` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def Hadron_MBarrierArriveOp : Hadron_Op<"mbarrier_arrive", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Arrive `count` times at a barrier";
  let description = [{
    The CTA's shared-memory reads and writes before the arrival are ordered
    before anything that waits for the phase it completes. With `pred` false
    nothing happens.

    With `per_warp`, each warp arrives on its own (`count` times), once its
    own threads are done, without waiting for the other warps: a barrier
    initialised with a count of the warps that arrive completes when the
    last of them has. This is how consumers release a stage of a ring to a
    producer without a CTA barrier.

    With `rank`, the arrival is on the barrier at the same place in the
    shared memory of program `rank` of this program's cluster
    (`hd.cluster_dims`): how consumers release a stage that a peer's copies
    fill (hd.async_tensor_copy `multicast`). Without clusters `rank` is 0.
  }];
  let arguments = (ins Hadron_BarrierMemDesc:$barrier,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntMinValue<1>]>, "1">:$count,
                       Optional<I1>:$pred, Optional<I32>:$rank, UnitAttr:$per_warp);
  let assemblyFormat = [{
    $barrier (`pred` $pred^)? (`rank` $rank^)? attr-dict `:` qualified(type($barrier))
  }];
}

def Hadron_MBarrierWaitOp : Hadron_Op<"mbarrier_wait", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Wait until the barrier's phase of parity `phase` has completed";
  let description = [{
    Returns once the phase with parity `phase` (0 or 1; higher bits are
    ignored) is complete: what was written before its arrivals, and the
    bytes copied onto it, are then visible to the whole CTA. A wait that can
    never complete (no arrival left that could finish the phase) hangs on a
    GPU; a target that runs a CTA as one thread reports it as a failed
    assertion instead.
  }];
  let arguments = (ins Hadron_BarrierMemDesc:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
}

def Hadron_AsyncTensorCopyOp : Hadron_Op<"async_tensor_copy", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<Hadron_GlobalMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Start copying one block of a tensor descriptor into shared memory";
  let description = [{
    Copies the block of `desc` whose first element is at `coords` (one per
    dim, outermost first; any value, elements outside the tensor read as
    zero) into `dst`, and completes its size in bytes on `barrier`: wait for
    the barrier's phase (after an hd.mbarrier_expect of those bytes) before
    reading `dst`. `dst` has the descriptor's block shape, element type and
    shared layout. With `pred` false nothing happens.

    With `multicast`, a mask of ranks in this program's cluster
    (`hd.cluster_dims`; bit r for program r), the block lands in `dst` and
    completes its bytes on `barrier` at the same places in the shared
    memory of every program of the mask (which may leave out this one):
    programs that need the same block load a part each and share it. The
    mask names programs of the cluster only; without clusters it is 1.

    ```mlir
    hd.async_tensor_copy %desc[%row, %col], %bar, %dst : !hd.tensor_desc<128x64xbf16, #sh>, !hd.memdesc<1xi64, #bl> -> !hd.memdesc<128x64xbf16, #sh>
    ```
  }];
  let arguments = (ins Hadron_TensorDescType:$desc, Variadic<I32>:$coords,
                       Hadron_BarrierMemDesc:$barrier, Hadron_MemDescType:$dst,
                       Optional<I1>:$pred, Optional<I32>:$multicast);
  let assemblyFormat = [{
    $desc `[` $coords `]` `,` $barrier `,` $dst (`pred` $pred^)? (`multicast` $multicast^)?
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Hadron_AsyncTensorStoreOp : Hadron_Op<"async_tensor_store", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_GlobalMemory>]>]> {
  let summary = "Start copying a shared-memory tile into one block of a tensor descriptor";
  let description = [{
    The inverse of hd.async_tensor_copy: the block of `desc` whose first
    element is at `coords` (one per dim, outermost first; elements outside
    the tensor are not written) receives `src`, which has the descriptor's
    block shape, element type and shared layout. The CTA's shared-memory
    writes before the op (to `src` or anything else) are what the copy reads.

    The copy runs in the background: `src` must not be written again before
    an hd.async_tensor_store_wait has retired it, and the kernel must wait
    for its last stores (pending = 0) before it ends. Stores started by the
    CTA are retired in the order they were started.

    ```mlir
    hd.async_tensor_store %desc[%row, %col], %src : !hd.memdesc<128x64xbf16, #sh> -> !hd.tensor_desc<128x64xbf16, #sh>
    ```
  }];
  let arguments = (ins Hadron_TensorDescType:$desc, Variadic<I32>:$coords,
                       Hadron_MemDescType:$src);
  let assemblyFormat = [{
    $desc `[` $coords `]` `,` $src attr-dict `:` qualified(type($src)) `->` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

def Hadron_AsyncTensorStoreWaitOp : Hadron_Op<"async_tensor_store_wait", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Wait until at most `pending` tensor stores still read shared memory";
  let description = [{
    Returns once all but the last `pending` hd.async_tensor_store ops the CTA
    started have read their tiles: those tiles may be written again by any
    thread of the CTA. With `pending` = 0 every store has also completed
    its writes to global memory.

    ```mlir
    hd.async_tensor_store_wait pending = 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pending);
  let assemblyFormat = "`pending` `=` $pending attr-dict";
}

def Hadron_FenceAsyncSharedOp : Hadron_Op<"fence_async_shared", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Order the CTA's shared-memory writes before asynchronous units read them";
  let description = [{
    Where matrix units or copy engines read shared memory through a path of
    their own, plain stores before this fence are visible to them after it.
    Elsewhere it does nothing.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialisation
//===----------------------------------------------------------------------===//

def Hadron_ClusterBarrierOp : Hadron_Op<"cluster_barrier", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<Hadron_SharedMemory>]>]> {
  let summary = "Wait for every thread of every program of the cluster";
  let description = [{
    A kernel module may group its programs into clusters
    (`hd.cluster_dims = array<i32: X, Y, Z>` on the module): programs
    (x, y, z) whose coordinates divided by (X, Y, Z) agree run at the same
    time and may reach each other's shared memory (hd.async_tensor_copy
    `multicast`, hd.mbarrier_arrive `rank`). The rank of a program in its
    cluster is (x mod X) + X * ((y mod Y) + Y * (z mod Z)); the grid must be
    a multiple of the cluster in every dim.

    This op meets every thread of the cluster's programs. Shared-memory
    writes and barrier inits before it are visible to all of them after it.
    A program must not finish while a peer may still reach its shared
    memory: such kernels end with this op. Without clusters it is
    hd.barrier. Not inside hd.warp_specialize regions (it needs every
    thread).

    ```mlir
    hd.cluster_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}
def Hadron_WarpSpecializeOp : Hadron_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "Run regions concurrently on disjoint groups of warps";
  let description = [{
    The CTA gets more warps than the module's `hd.num_warps`: the default
    region runs on warps [0, num_warps), each partition on the next
    `partitionNumWarps[i]` warps, all at the same time. Inside a region, the
    region's warps are the CTA as far as its ops can tell: layouts have that
    many warps, warp 0 is the region's first, `hd.barrier` (and every barrier
    the compiler places) waits for the region's threads only, and collective
    ops (`hd.mbarrier_*`, `hd.async_tensor_copy`) are the region's. Regions
    talk through shared memory ordered by `hd.mbarrier_*` (a producer fills a
    ring, consumers release its stages), never through CTA barriers.
    Regions read values defined above; a partition does not read tiles
    defined above (they are distributed over other warps). Everyone meets
    again after the op.

    Targets need concurrent warps and a barrier per region; one whose CTA
    is one thread (the host) or that has no barriers for subsets of warps
    rejects the op.

    `regs` (optional, one per region, the default region's first) asks for
    that many registers a thread in each region, moving them from regions
    that need few (a producer) to those that need many (consumers holding
    accumulators). The default region's may be 0: it then gets what the
    others leave, as the target computes it. A target that cannot set
    registers per group of warps, or whose register file or grouping rules
    the budgets break, rejects the op naming the limit.

    ```mlir
    hd.warp_specialize warps [1] default {
      // consumers: hd.num_warps warps
      hd.warp_return
    } partitions {
      // producer: one warp
      hd.warp_return
    }
    ```
  }];
  let arguments = (ins DenseI32ArrayAttr:$partitionNumWarps, OptionalAttr<DenseI32ArrayAttr>:$regs);
  let regions = (region AnyRegion:$defaultRegion, VariadicRegion<AnyRegion>:$partitions);
  let assemblyFormat = [{
    `warps` $partitionNumWarps (`regs` $regs^)? `default` $defaultRegion `partitions` $partitions attr-dict
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The first warp and the number of warps of region `index` (0 is the
    /// default region, i + 1 partition i), given the module's num_warps.
    std::pair<unsigned, unsigned> regionWarps(unsigned index, unsigned numWarps);
    /// Warps the CTA runs: num_warps plus every partition's.
    unsigned totalWarps(unsigned numWarps);
  }];
}

def Hadron_WarpReturnOp : Hadron_Op<"warp_return", [Pure, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "End a region of hd.warp_specialize";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

def Hadron_DotOp : Hadron_Op<"dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "result = a * b + acc for tiles a: MxK, b: KxN, acc: MxN";
  let description = [{
    `a` and `b` are tensors with dot_op layouts of operand 0 and 1 whose
    parent is the accumulator's layout (or placeholders), or shared-memory
    tiles (`!hd.memdesc`), which the op reads where it stands. Every target
    can run it (an FMA lowering, reading shared operands into registers
    first); targets with matrix units use them, and an `#hd.mma`
    accumulator whose instruction has no register fragment for an operand
    takes that operand from shared memory only.

    With `async`, a target whose matrix unit runs asynchronously (reading
    shared memory) may return before the product is complete: the result
    must then go through `hd.dot_wait` before anything but another async
    dot (as its accumulator) reads it, and the shared memory it reads must
    not be overwritten until a `hd.dot_wait` has retired it. Everywhere else
    the dot completes at once and `async` changes nothing.
  }];
  let arguments = (ins AnyTypeOf<[Hadron_Tensor, Hadron_MemDescType]>:$a,
                       AnyTypeOf<[Hadron_Tensor, Hadron_MemDescType]>:$b,
                       Hadron_Tensor:$acc,
                       DefaultValuedAttr<Hadron_InputPrecisionAttr, "::hadron::hd::InputPrecision::ieee">:$inputPrecision,
                       UnitAttr:$async);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `*` qualified(type($b)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Hadron_DotWaitOp : Hadron_Op<"dot_wait", [
    MemoryEffects<[MemRead<Hadron_SharedMemory>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "Wait for async dots until at most `pending` groups are in flight";
  let description = [{
    Each async `hd.dot` is one group of the calling threads' matrix
    operations. `hd.dot_wait` returns once at most `pending` of them are
    still running, the oldest retiring first; its result is `value` (an
    async dot's result, or one derived from it), safe to read. Where dots
    complete at once it returns `value` unchanged.

    ```mlir
    %d = hd.dot %a, %b, %c {async} : ...
    %r = hd.dot_wait %d pending = 1 : tensor<128x256xf32, #mma>
    ```
  }];
  let arguments = (ins Hadron_Tensor:$value, I32Attr:$pending);
  let results = (outs Hadron_Tensor:$result);
  let assemblyFormat = "$value `pending` `=` $pending attr-dict `:` qualified(type($value))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging and hints
//===----------------------------------------------------------------------===//

def Hadron_PrintOp : Hadron_Op<"print", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Print a prefix and values from every thread that holds them";
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex,
                       Variadic<Hadron_ScalarOrTensor>:$args);
  // The values follow a colon (as in Triton's tt.print), so that a print
  // without values is never read as taking the next line's result name.
  let assemblyFormat =
      "$prefix (`hex` $hex^)? attr-dict (`:` $args^ `:` qualified(type($args)))?";
}

def Hadron_AssertOp : Hadron_Op<"assert", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Stop the kernel with `message` where `condition` is false";
  let arguments = (ins Hadron_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` qualified(type($condition))";
}

def Hadron_AssumeOp : Hadron_Op<"assume"> {
  let summary = "Promise the compiler that a scalar condition holds";
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def Hadron_MultipleOfOp : Hadron_Op<"multiple_of", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Promise that values are multiples of `divisors` (one per dimension)";
  let arguments = (ins Hadron_ScalarOrTensor:$src, DenseI32ArrayAttr:$divisors);
  let results = (outs Hadron_ScalarOrTensor:$result);
  let assemblyFormat = "$src `,` $divisors attr-dict `:` qualified(type($src))";
  let hasVerifier = 1;
}

#endif // HADRON_OPS_TD
