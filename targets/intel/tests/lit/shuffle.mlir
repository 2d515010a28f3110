// Cross-lane reductions: sub_group_shuffle_xor (OpGroupNonUniformShuffleXor)
// over the lanes of a sub-group, then across sub-groups through shared
// memory: lane and sub-group ids (SubgroupLocalInvocationId, SubgroupId)
// and the work-group barrier with local and global fences
// (OpControlBarrier Workgroup Workgroup, SequentiallyConsistent |
// WorkgroupMemory | CrossWorkgroupMemory = 0x310 = 784).

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %examples/row_softmax.mlir --target intel:pvc --emit=llvm -o %t/softmax.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/softmax.ll
// RUN: hadron compile %examples/row_softmax.mlir --target intel:pvc -o %t/softmax.spv
// RUN: spirv-val %t/softmax.spv
// RUN: spirv-dis %t/softmax.spv | FileCheck %s --check-prefix=SPIRV

// LLVM-DAG: call spir_func float @_Z21sub_group_shuffle_xorfj(float %{{.*}}, i32 16)
// LLVM-DAG: call spir_func float @_Z21sub_group_shuffle_xorfj(float %{{.*}}, i32 1)
// LLVM-DAG: call spir_func i32 @_Z22get_sub_group_local_idv()
// LLVM-DAG: call spir_func i32 @_Z16get_sub_group_idv()
// LLVM-DAG: call spir_func void @_Z7barrierj(i32 3)

// SPIRV-DAG: OpCapability GroupNonUniformShuffle
// SPIRV-DAG: OpDecorate %{{.*}} BuiltIn SubgroupLocalInvocationId
// SPIRV-DAG: OpDecorate %{{.*}} BuiltIn SubgroupId
// SPIRV-DAG: %[[TWO:uint_2]] = OpConstant %uint 2
// SPIRV-DAG: %[[SEM:uint_784]] = OpConstant %uint 784
// SPIRV-DAG: %[[SCOPE:uint_3]] = OpConstant %uint 3
// SPIRV-DAG: OpGroupNonUniformShuffleXor %float %[[SCOPE]] %{{.*}} %uint_16
// SPIRV-DAG: OpControlBarrier %[[TWO]] %[[TWO]] %[[SEM]]
