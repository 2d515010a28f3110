//===- HadronAttrInterfaces.td - Layout interfaces --------*- tablegen -*-===//
#ifndef HADRON_ATTR_INTERFACES_TD
#define HADRON_ATTR_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Hadron_LayoutAttrInterface : AttrInterface<"LayoutAttrInterface"> {
  let cppNamespace = "::hadron::hd";
  let description = [{
    Common to every layout: the rank it describes and its canonical form, a
    linear layout for a given shape. Distributed layouts map
    (register, lane, warp, block) to tensor coordinates; shared layouts map
    (offset) to tensor coordinates.
  }];
  let methods = [
    InterfaceMethod<"The tensor rank this layout describes, or -1 when it fits any rank.",
      "int64_t", "getRank">,
    InterfaceMethod<"The canonical linear layout of this layout for `shape`.",
      "::hadron::Result<::hadron::LinearLayout>", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

def Hadron_DistributedLayoutAttrInterface
    : AttrInterface<"DistributedLayoutAttrInterface", [Hadron_LayoutAttrInterface]> {
  let cppNamespace = "::hadron::hd";
  let description = [{
    A layout that spreads a tensor over the registers, lanes, warps and CTAs
    of a program. Placeholders (auto, coalesced) implement it too and report
    that they are unresolved.
  }];
  let methods = [
    InterfaceMethod<"Lanes per warp, or 0 when the layout does not fix it (placeholders).",
      "int64_t", "getWarpSize">,
    InterfaceMethod<"Warps per CTA, or 0 when the layout does not fix it.",
      "int64_t", "getNumWarps">,
    InterfaceMethod<"True for layouts a pass must still resolve.",
      "bool", "isPlaceholder", (ins), [{}], [{ return false; }]>,
  ];
}

def Hadron_SharedLayoutAttrInterface
    : AttrInterface<"SharedLayoutAttrInterface", [Hadron_LayoutAttrInterface]> {
  let cppNamespace = "::hadron::hd";
  let description = [{
    A layout of a tensor in shared memory: element offset to coordinates.
  }];
  let methods = [
    InterfaceMethod<[{Elements the layout occupies for `shape`, padding
      included (what the allocator must reserve).}],
      "int64_t", "getAllocatedElements", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

#endif // HADRON_ATTR_INTERFACES_TD
