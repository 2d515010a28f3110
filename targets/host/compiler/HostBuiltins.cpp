//===- HostBuiltins.cpp - Conversion helpers every host binary carries ----===//
//
// Where the CPU has no instruction for a half or bfloat conversion, LLVM's
// x86 back end emits a call to a runtime helper: `__truncsfbf2` (f32 to
// bf16) without AVX512-BF16, `__truncdfbf2` (f64 to bf16) on every CPU,
// `__truncdfhf2` without AVX512-FP16, and `__truncsfhf2` / `__extendhfsf2`
// without F16C. A host binary is dlopen'ed into a process that has no
// compiler-rt, and GCC 12's libgcc has no bf16 helpers, so each binary links
// its own: they are written here in LLVM IR with integer operations (and the
// f32/f64 instructions every x86-64 has), compiled for the same machine as
// the kernels, and linked hidden into the shared object.
//
// All round to nearest even, keep the sign of zeros and infinities, return a
// quiet NaN for a NaN (sign and the leading payload bits kept), and handle
// subnormal inputs and results exactly. The f64 conversions round to odd in
// f32 first, which makes the second rounding exact (f32 keeps at least two
// more bits than either 16-bit format).
//
//===----------------------------------------------------------------------===//

#include "HostBuiltins.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace hadron::host {

namespace {

const char kBuiltinsIR[] = R"(
; f32 bits -> bf16 bits, round to nearest even.
define internal i16 @f32_bits_to_bf16(i32 %u) alwaysinline {
  %abs = and i32 %u, 2147483647
  %nan = icmp ugt i32 %abs, 2139095040
  %hi = lshr i32 %u, 16
  %quiet = or i32 %hi, 64
  %odd = and i32 %hi, 1
  %bias = add i32 %odd, 32767
  %sum = add i32 %u, %bias
  %rounded = lshr i32 %sum, 16
  %r = select i1 %nan, i32 %quiet, i32 %rounded
  %t = trunc i32 %r to i16
  ret i16 %t
}

; f32 bits -> f16 bits, round to nearest even.
define internal i16 @f32_bits_to_f16(i32 %u) alwaysinline {
entry:
  %sign32 = lshr i32 %u, 16
  %sign = and i32 %sign32, 32768
  %abs = and i32 %u, 2147483647
  %nan = icmp ugt i32 %abs, 2139095040
  br i1 %nan, label %isnan, label %notnan
isnan:
  %payload = lshr i32 %abs, 13
  %p9 = and i32 %payload, 511
  %qn = or i32 %p9, 32256
  br label %done
notnan:
  ; below 2^-14 the result is subnormal (or zero)
  %small = icmp ult i32 %abs, 947912704
  br i1 %small, label %subnormal, label %normal
subnormal:
  ; adding 0.5 aligns the f16 subnormal step (2^-24) with the f32 ulp, so
  ; the FPU's own round-to-nearest-even does the rounding
  %af = bitcast i32 %abs to float
  %shifted = fadd float %af, 5.000000e-01
  %sb = bitcast float %shifted to i32
  %sub = sub i32 %sb, 1056964608
  br label %done
normal:
  ; rebias the exponent (127 -> 15) and round the 13 dropped bits
  %rebased = sub i32 %abs, 939524096
  %lsb13 = lshr i32 %rebased, 13
  %odd = and i32 %lsb13, 1
  %bias = add i32 %odd, 4095
  %sum = add i32 %rebased, %bias
  %h = lshr i32 %sum, 13
  %over = icmp ugt i32 %h, 31744
  %clamped = select i1 %over, i32 31744, i32 %h
  br label %done
done:
  %mag = phi i32 [ %qn, %isnan ], [ %sub, %subnormal ], [ %clamped, %normal ]
  %r = or i32 %mag, %sign
  %t = trunc i32 %r to i16
  ret i16 %t
}

; f64 -> f32 bits rounded to odd: truncate toward zero, then set the lowest
; bit if anything was dropped. NaNs pass through the hardware conversion.
define internal i32 @f64_to_f32_bits_odd(double %d) alwaysinline {
  %f = fptrunc double %d to float
  %u = bitcast float %f to i32
  %back = fpext float %f to double
  %inexact = fcmp one double %back, %d
  %absback = call double @llvm.fabs.f64(double %back)
  %absd = call double @llvm.fabs.f64(double %d)
  %away = fcmp ogt double %absback, %absd
  %down = sub i32 %u, 1
  %trunc = select i1 %away, i32 %down, i32 %u
  %odd = or i32 %trunc, 1
  %r = select i1 %inexact, i32 %odd, i32 %u
  ret i32 %r
}

declare double @llvm.fabs.f64(double)

define hidden bfloat @__truncsfbf2(float %x) {
  %u = bitcast float %x to i32
  %b = call i16 @f32_bits_to_bf16(i32 %u)
  %r = bitcast i16 %b to bfloat
  ret bfloat %r
}

define hidden bfloat @__truncdfbf2(double %x) {
  %u = call i32 @f64_to_f32_bits_odd(double %x)
  %b = call i16 @f32_bits_to_bf16(i32 %u)
  %r = bitcast i16 %b to bfloat
  ret bfloat %r
}

define hidden half @__truncsfhf2(float %x) {
  %u = bitcast float %x to i32
  %h = call i16 @f32_bits_to_f16(i32 %u)
  %r = bitcast i16 %h to half
  ret half %r
}

define hidden half @__truncdfhf2(double %x) {
  %u = call i32 @f64_to_f32_bits_odd(double %x)
  %h = call i16 @f32_bits_to_f16(i32 %u)
  %r = bitcast i16 %h to half
  ret half %r
}

; f16 -> f32 is exact: move exponent and mantissa into place, rebias, and
; normalise a subnormal by subtracting 2^-14 in f32.
define hidden float @__extendhfsf2(half %x) {
entry:
  %h16 = bitcast half %x to i16
  %h = zext i16 %h16 to i32
  %sign15 = and i32 %h, 32768
  %sign = shl i32 %sign15, 16
  %mag15 = and i32 %h, 32767
  %shifted = shl i32 %mag15, 13
  %exp = and i32 %shifted, 260046848
  %rebased = add i32 %shifted, 939524096
  %infnan = icmp eq i32 %exp, 260046848
  br i1 %infnan, label %special, label %finite
special:
  %e255 = add i32 %rebased, 939524096
  %mant = and i32 %mag15, 1023
  %isnan = icmp ne i32 %mant, 0
  %quiet = or i32 %e255, 4194304
  %sp = select i1 %isnan, i32 %quiet, i32 %e255
  br label %done
finite:
  %zeroexp = icmp eq i32 %exp, 0
  br i1 %zeroexp, label %subnormal, label %done
subnormal:
  %plus = add i32 %rebased, 8388608
  %pf = bitcast i32 %plus to float
  %norm = fsub float %pf, 6.103515625e-05
  %nb = bitcast float %norm to i32
  br label %done
done:
  %bits = phi i32 [ %sp, %special ], [ %rebased, %finite ], [ %nb, %subnormal ]
  %r = or i32 %bits, %sign
  %f = bitcast i32 %r to float
  ret float %f
}
)";

} // namespace

Result<std::string> builtinsObject(llvm::TargetMachine &machine) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(kBuiltinsIR, diag, context);
  if (!module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("host-builtins", os);
    return Error("host builtins do not parse (a compiler bug): " + text);
  }
  std::string broken;
  llvm::raw_string_ostream bos(broken);
  if (llvm::verifyModule(*module, &bos))
    return Error("host builtins do not verify (a compiler bug): " + broken);
  module->setTargetTriple(machine.getTargetTriple());
  module->setDataLayout(machine.createDataLayout());
  optimizeModule(*module, machine, /*optLevel=*/2);
  return emitCode(*module, machine, EmitKind::Object);
}

} // namespace hadron::host
