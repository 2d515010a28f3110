//===- HadronTypes.td - Types of the hd dialect -----------*- tablegen -*-===//
#ifndef HADRON_TYPES_TD
#define HADRON_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "hadron/IR/HadronDialect.td"
include "hadron/IR/HadronEnums.td"

class Hadron_Type<string name, string attrMnemonic, list<Trait> traits = []>
    : TypeDef<Hadron_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Hadron_PointerType : Hadron_Type<"Pointer", "ptr"> {
  let summary = "Pointer to elements of `pointeeType` in an address space";
  let description = [{
    ```mlir
    !hd.ptr<f32>            // global memory (the default)
    !hd.ptr<f16, shared>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType,
                        "::hadron::hd::AddressSpace":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
        CArg<"::hadron::hd::AddressSpace", "::hadron::hd::AddressSpace::global">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def Hadron_MemDescType : Hadron_Type<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "A tile in shared memory, with its shared layout";
  let description = [{
    `allocShape` is the shape of the allocation the view belongs to; it is
    printed only when it differs from the view's shape (after a slice or an
    index).

    ```mlir
    !hd.memdesc<64x64xf16, #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>
    !hd.memdesc<32x64xf16, #shared, alloc = 2x64x64>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::hadron::hd::SharedLayoutAttrInterface":$encoding,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType,
        "::hadron::hd::SharedLayoutAttrInterface":$encoding), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, shape);
    }]>,
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType,
        "::hadron::hd::SharedLayoutAttrInterface":$encoding,
        "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, allocShape);
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def Hadron_TensorDescType : Hadron_Type<"TensorDesc", "tensor_desc"> {
  let summary = "A global tensor read in blocks of `shape` into shared memory";
  let description = [{
    A kernel argument (HD_ARG_TENSOR_DESC) standing for a tensor in global
    memory of any shape and strides, which the kernel reads in blocks of
    `shape` elements with hd.async_tensor_copy; a block lands in shared
    memory laid out as `encoding` says. Elements outside the tensor read as
    zero. The runtime checks the tensor against the block at launch; a
    target with a hardware copy engine encodes the descriptor for it.

    ```mlir
    !hd.tensor_desc<128x64xbf16, #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::hadron::hd::SharedLayoutAttrInterface":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hadron_AsyncTokenType : Hadron_Type<"AsyncToken", "async_token"> {
  let summary = "Stands for outstanding asynchronous copies";
}

#endif // HADRON_TYPES_TD
