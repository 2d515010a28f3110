//===- HadronEnums.td - Enumerations of the hd dialect ----*- tablegen -*-===//
#ifndef HADRON_ENUMS_TD
#define HADRON_ENUMS_TD

include "mlir/IR/EnumAttr.td"

// Address spaces are the dialect's own; a target maps them to its numbers.
def Hadron_AddressSpace : I32EnumAttr<"AddressSpace", "pointer address space", [
    I32EnumAttrCase<"generic", 0>,
    I32EnumAttrCase<"global", 1>,
    I32EnumAttrCase<"shared", 2>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

def Hadron_CacheModifier : I32EnumAttr<"CacheModifier", "cache policy of a global access", [
    I32EnumAttrCase<"normal", 0>,
    I32EnumAttrCase<"cache_all", 1>,      // keep in every level
    I32EnumAttrCase<"cache_global", 2>,   // bypass the first level
    I32EnumAttrCase<"streaming", 3>,      // likely accessed once
    I32EnumAttrCase<"no_cache", 4>,       // fetch again, never reuse
    I32EnumAttrCase<"write_back", 5>,
    I32EnumAttrCase<"write_through", 6>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

def Hadron_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "eviction priority of a global access", [
    I32EnumAttrCase<"normal", 0>,
    I32EnumAttrCase<"evict_first", 1>,
    I32EnumAttrCase<"evict_last", 2>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

def Hadron_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "atomic read-modify-write operation", [
    I32EnumAttrCase<"add", 0>,
    I32EnumAttrCase<"fadd", 1>,
    I32EnumAttrCase<"max", 2>,
    I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"umax", 4>,
    I32EnumAttrCase<"umin", 5>,
    I32EnumAttrCase<"fmax", 6>,
    I32EnumAttrCase<"fmin", 7>,
    I32EnumAttrCase<"band", 8, "and">,
    I32EnumAttrCase<"bor", 9, "or">,
    I32EnumAttrCase<"bxor", 10, "xor">,
    I32EnumAttrCase<"xchg", 11>,
  ]> {
  let cppNamespace = "::hadron::hd";
}

def Hadron_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"relaxed", 0>,
    I32EnumAttrCase<"acquire", 1>,
    I32EnumAttrCase<"release", 2>,
    I32EnumAttrCase<"acq_rel", 3>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

def Hadron_MemScope : I32EnumAttr<"MemScope", "scope of an atomic", [
    I32EnumAttrCase<"cta", 0>,
    I32EnumAttrCase<"gpu", 1>,
    I32EnumAttrCase<"system", 2>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

def Hadron_InputPrecision : I32EnumAttr<"InputPrecision", "precision of dot inputs", [
    I32EnumAttrCase<"ieee", 0>,
    I32EnumAttrCase<"tf32", 1>,
  ]> {
  let cppNamespace = "::hadron::hd";
  let genSpecializedAttr = 0;
}

#endif // HADRON_ENUMS_TD
