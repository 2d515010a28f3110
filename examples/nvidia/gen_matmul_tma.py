#!/usr/bin/env python3
"""Generates the TMA + wgmma bf16 GEMM example (hd IR): examples/nvidia/matmul_tma_wgmma_bf16.mlir.

Optional arguments (for experiments): BK STAGES GROUP [persistent | dynamic | ws |
ws-cluster | ws-persistent | ws-dynamic | ws-tail], each writing the example of that name
(matmul_tma_persistent_bf16.mlir, matmul_tma_dynamic_bf16.mlir, matmul_tma_ws_bf16.mlir,
..._ws_cluster_, ..._ws_persistent_, ..._ws_dynamic_, ..._ws_tail_bf16.mlir); BN=128 in the environment for 128x128 tiles."""
import sys

BM, NW = 128, 8
# BN=128 in the environment: 128x128 tiles (experiments; the examples use 256).
BN = int(__import__("os").environ.get("BN", "256"))
BK = int(sys.argv[1]) if len(sys.argv) > 1 else 64
STAGES = int(sys.argv[2]) if len(sys.argv) > 2 else 4
GROUP = int(sys.argv[3]) if len(sys.argv) > 3 else 8
# "persistent": one program per SM walks tiles pid, pid + nprog, ...; its K
# steps over all its tiles are one loop, so the ring runs ahead across tiles.
PERSISTENT = len(sys.argv) > 4 and sys.argv[4] == "persistent"
# "ws": a producer warp fills the ring while the two consumer warpgroups
# multiply; consumers release stages through "empty" barriers instead of a
# CTA barrier before each refill.
WS = len(sys.argv) > 4 and sys.argv[4] == "ws"
# "ws-persistent": both; consumers store each tile from their registers
# while the producer already fills the ring with the next tile's steps.
WSP = len(sys.argv) > 4 and sys.argv[4] == "ws-persistent"
# "ws-cluster": the warp-specialised form in clusters of two programs on
# neighbouring row tiles of one column: each loads its own A block and half
# of the shared B block, multicast into both.
WSC = len(sys.argv) > 4 and sys.argv[4] == "ws-cluster"
# "ws-tail": the warp-specialised form with the last partial wave split
# along K (see ws_tail()).
WST = len(sys.argv) > 4 and sys.argv[4] == "ws-tail"
# "ws-dynamic": ws-persistent with tiles handed out at run time (a counter
# in global memory) instead of pid, pid + nprog, ...
WSD = len(sys.argv) > 4 and sys.argv[4] == "ws-dynamic"
# "dynamic": the persistent form (CTA barrier, no producer warp) with tiles
# from a counter and C stored by the copy engine.
DYN = len(sys.argv) > 4 and sys.argv[4] == "dynamic"
if WSC:
    WS = True
CLUSTER = 2 if WSC else 1
AHEAD = STAGES - 1
STAGE_BYTES = (BM * BK + BK * BN) * 2

def bases(l):
    return "[" + ", ".join("[" + ", ".join(str(x) for x in v) + "]" for v in l) + "]"

acc_regs = [[0, 1], [8, 0], [0, 8]]
c = 16
while c < BN:
    acc_regs.append([0, c]); c *= 2
LANE = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
WARP = [[16, 0], [32, 0]]
INSTR = (f'#hd.matrix_instr<{{name = "wgmma.m64n{BN}k16.bf16", shape = [64, {BN}, 16], '
         f'aType = bf16, bType = bf16, accType = f32, acc = {{register = {bases(acc_regs)}, '
         f'lane = {bases(LANE)}, warp = {bases(WARP)}}}}}>')

A_T = f"!hd.memdesc<{BM}x{BK}xbf16, #ring, alloc = {STAGES}x{BM}x{BK}>"
B_T = f"!hd.memdesc<{BK}x{BN}xbf16, #ring, alloc = {STAGES}x{BK}x{BN}>"
A_RING = f"!hd.memdesc<{STAGES}x{BM}x{BK}xbf16, #ring>"
B_RING = f"!hd.memdesc<{STAGES}x{BK}x{BN}xbf16, #ring>"
BARS = f"!hd.memdesc<{STAGES}x1xi64, #bar_sh>"
BAR = f"!hd.memdesc<1xi64, #bar_sh, alloc = {STAGES}x1>"
A_D = f"!hd.tensor_desc<{BM}x{BK}xbf16, #blk>"
B_D = f"!hd.tensor_desc<{BK}x{BN // CLUSTER}xbf16, #blk>"
# The part of a B block one program of a cluster copies.
B_PART_T = f"!hd.memdesc<{BK}x{BN // CLUSTER}xbf16, #ring, alloc = {STAGES}x{BK}x{BN}>"

L = []
o = L.append
o(f"""// C = A * B on Hopper with the tensor memory accelerator: bf16 A (MxK) and
// B (KxN) read through tensor descriptors, C row-major; M a multiple of
// {BM}, N of {BN}, K of {BK}; f32 accumulation rounded to bf16. Each program
// computes one {BM}x{BN} tile of C with {NW} warps (two warpgroups of 64 rows).
// The same kernel as matmul_wgmma_bf16.mlir, with its loads replaced:
//  - A and B arrive as !hd.tensor_desc arguments (on NVIDIA sm_90a a
//    CUtensorMap the runtime encodes at launch); hd.async_tensor_copy moves
//    a whole {BM}x{BK} or {BK}x{BN} block into a stage of the ring, laid out
//    as the matrix unit reads it (#hd.matrix_shared, 128-byte swizzle), with
//    no thread computing an address;
//  - each of the {STAGES} stages has a barrier: hd.mbarrier_expect announces
//    the stage's {STAGE_BYTES} bytes, the copies complete them, and
//    hd.mbarrier_wait on the step's phase parity ((step / {STAGES}) & 1)
//    is all a consumer waits for (no cp.async groups);
//  - the ring is refilled {AHEAD} K steps ahead after hd.dot_wait pending = 1
//    has retired the previous step's product, which read the stage being
//    refilled; the planner puts a CTA barrier before the refill, so that
//    both warpgroups have retired it. Past the last K step the refill's
//    predicate is false;
//  - tiles are taken in groups of {GROUP} rows of tiles walking down the columns
//    (L2 reuse), and the result goes through shared memory to be stored 16
//    bytes a thread.
// On targets without a copy engine (the host) the copies happen at once
// and the barriers count arrivals in shared memory: same results.
// Generated by examples/nvidia/gen_matmul_tma.py.
#instr = {INSTR}
#acc = #hd.mma<{{instr = #instr, warpsPerCTA = [{NW}, 1]}}>
#blk = #hd.matrix_shared<{{swizzle = 128, elementBits = 16, transposed = false}}>
#ring = #hd.matrix_shared<{{swizzle = 128, elementBits = 16, transposed = false, rank = 3}}>
#bar_sh = #hd.swizzled<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>
#acc_rows = #hd.slice<{{dim = 1, parent = #acc}}>
#acc_cols = #hd.slice<{{dim = 0, parent = #acc}}>
#c_st = #hd.blocked<{{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [{NW}, 1], order = [1, 0]}}>
#c_rows = #hd.slice<{{dim = 1, parent = #c_st}}>
#c_cols = #hd.slice<{{dim = 0, parent = #c_st}}>
@BODY@module attributes {{hd.num_warps = {NW} : i32}} {{
  func.func @matmul_tma_wgmma(%a: {A_D}, %b: {B_D}, %c: !hd.ptr<bf16> {{hd.divisibility = 16 : i32}}, %m: i32 {{hd.divisibility = 16 : i32}}, %n: i32 {{hd.divisibility = 16 : i32}}, %k: i32 {{hd.divisibility = 16 : i32}}) attributes {{hd.kernel}} {{
    %cbm = arith.constant {BM} : i32
    %cbn = arith.constant {BN} : i32
    %cbk = arith.constant {BK} : i32
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %cstages = arith.constant {STAGES} : i32
    %gx = hd.program_id 0
    %gy = hd.program_id 1
    %npm = hd.num_programs 0
    %npn = hd.num_programs 1
    // Tile order: groups of {GROUP} rows of tiles walk down the columns.
    %lin0 = arith.muli %gy, %npm : i32
    %lin = arith.addi %lin0, %gx : i32
    %cgrp = arith.constant {GROUP} : i32
    %per_group = arith.muli %cgrp, %npn : i32
    %group = arith.divsi %lin, %per_group : i32
    %first_m = arith.muli %group, %cgrp : i32
    %left = arith.subi %npm, %first_m : i32
    %gsize = arith.minsi %left, %cgrp : i32
    %in_group = arith.remsi %lin, %per_group : i32
    %pm_off = arith.remsi %in_group, %gsize : i32
    %pid_m = arith.addi %first_m, %pm_off : i32
    %pid_n = arith.divsi %in_group, %gsize : i32
    %m0 = arith.muli %pid_m, %cbm : i32
    %n0 = arith.muli %pid_n, %cbn : i32
    %nk = arith.divsi %k, %cbk : i32
    // The rings and one barrier per stage.
    %a_smem = hd.local_alloc -> {A_RING}
    %b_smem = hd.local_alloc -> {B_RING}
    %bars = hd.local_alloc -> {BARS}""")
for s in range(STAGES):
    o(f"""    %s{s} = arith.constant {s} : i32
    %bar{s} = hd.memdesc_index %bars[%s{s}] : {BARS} -> {BAR}
    hd.mbarrier_init %bar{s}, 1 : {BAR}""")
o(f"    // The first {AHEAD} K steps (where K has them).")
for s in range(AHEAD):
    o(f"""    %kp{s} = arith.constant {s * BK} : i32
    %go{s} = arith.cmpi slt, %s{s}, %nk : i32
    hd.mbarrier_expect %bar{s}, {STAGE_BYTES} pred %go{s} : {BAR}
    %a_dst{s} = hd.memdesc_index %a_smem[%s{s}] : {A_RING} -> {A_T}
    hd.async_tensor_copy %a[%m0, %kp{s}], %bar{s}, %a_dst{s} pred %go{s} : {A_D}, {BAR} -> {A_T}
    %b_dst{s} = hd.memdesc_index %b_smem[%s{s}] : {B_RING} -> {B_T}
    hd.async_tensor_copy %b[%kp{s}, %n0], %bar{s}, %b_dst{s} pred %go{s} : {B_D}, {BAR} -> {B_T}""")
o(f"""    %zero = arith.constant dense<0.0> : tensor<{BM}x{BN}xf32, #acc>
    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub = arith.index_cast %nk : i32 to index
    %res = scf.for %kk = %lb to %ub step %step1 iter_args(%sum = %zero) -> (tensor<{BM}x{BN}xf32, #acc>) {{
      %i = arith.index_cast %kk : index to i32
      %cur = arith.remsi %i, %cstages : i32
      %round = arith.divsi %i, %cstages : i32
      %phase = arith.andi %round, %c1i : i32
      // Stage %cur has landed: multiply it where it stands.
      %bar_cur = hd.memdesc_index %bars[%cur] : {BARS} -> {BAR}
      hd.mbarrier_wait %bar_cur, %phase : {BAR}
      %a_cur = hd.memdesc_index %a_smem[%cur] : {A_RING} -> {A_T}
      %b_cur = hd.memdesc_index %b_smem[%cur] : {B_RING} -> {B_T}
      %issued = hd.dot %a_cur, %b_cur, %sum {{async}} : {A_T} * {B_T} -> tensor<{BM}x{BN}xf32, #acc>
      // The previous step's product is retired: its stage takes step i + {AHEAD}.
      %next = hd.dot_wait %issued pending = 1 : tensor<{BM}x{BN}xf32, #acc>
      %cahead = arith.constant {AHEAD} : i32
      %j = arith.addi %i, %cahead : i32
      %go = arith.cmpi slt, %j, %nk : i32
      %nxs = arith.remsi %j, %cstages : i32
      %kj = arith.muli %j, %cbk : i32
      %bar_nx = hd.memdesc_index %bars[%nxs] : {BARS} -> {BAR}
      hd.mbarrier_expect %bar_nx, {STAGE_BYTES} pred %go : {BAR}
      %a_dst = hd.memdesc_index %a_smem[%nxs] : {A_RING} -> {A_T}
      hd.async_tensor_copy %a[%m0, %kj], %bar_nx, %a_dst pred %go : {A_D}, {BAR} -> {A_T}
      %b_dst = hd.memdesc_index %b_smem[%nxs] : {B_RING} -> {B_T}
      hd.async_tensor_copy %b[%kj, %n0], %bar_nx, %b_dst pred %go : {B_D}, {BAR} -> {B_T}
      scf.yield %next : tensor<{BM}x{BN}xf32, #acc>
    }}
    %done = hd.dot_wait %res pending = 0 : tensor<{BM}x{BN}xf32, #acc>
    %ci = hd.arange 0 to {BM} : tensor<{BM}xi32, #c_rows>
    %m0_c = hd.splat %m0 : tensor<{BM}xi32, #c_rows>
    %c_gi = arith.addi %m0_c, %ci : tensor<{BM}xi32, #c_rows>
    %n_c = hd.splat %n : tensor<{BM}xi32, #c_rows>
    %c_row_start = arith.muli %c_gi, %n_c : tensor<{BM}xi32, #c_rows>
    %cj = hd.arange 0 to {BN} : tensor<{BN}xi32, #c_cols>
    %n0_c = hd.splat %n0 : tensor<{BN}xi32, #c_cols>
    %c_gj = arith.addi %n0_c, %cj : tensor<{BN}xi32, #c_cols>
    %c_row_start2 = hd.expand_dims %c_row_start axis = 1 : tensor<{BM}xi32, #c_rows> -> tensor<{BM}x1xi32, #c_st>
    %c_gj2 = hd.expand_dims %c_gj axis = 0 : tensor<{BN}xi32, #c_cols> -> tensor<1x{BN}xi32, #c_st>
    %c_row_off = hd.broadcast %c_row_start2 : tensor<{BM}x1xi32, #c_st> -> tensor<{BM}x{BN}xi32, #c_st>
    %c_col_off = hd.broadcast %c_gj2 : tensor<1x{BN}xi32, #c_st> -> tensor<{BM}x{BN}xi32, #c_st>
    %c_off = arith.addi %c_row_off, %c_col_off : tensor<{BM}x{BN}xi32, #c_st>
    %cp = hd.splat %c : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>
    %cptrs = hd.addptr %cp, %c_off : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>, tensor<{BM}x{BN}xi32, #c_st>
    %c_acc = arith.truncf %done : tensor<{BM}x{BN}xf32, #acc> to tensor<{BM}x{BN}xbf16, #acc>
    %c_bf16 = hd.convert_layout %c_acc : tensor<{BM}x{BN}xbf16, #acc> -> tensor<{BM}x{BN}xbf16, #c_st>
    hd.store %cptrs, %c_bf16 : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>
    return
  }}
}}""")

# Split the text at the module: what follows is the kernel body.
for idx, text in enumerate(L):
    if "@BODY@" in text:
        head, tail = text.split("@BODY@")
        L[idx:idx + 1] = [head.rstrip("\n"), tail]
        BODY = idx + 1
        break

def retitle(programs, form):
    """The header for kernels whose programs do other than one tile each:
    `programs` replaces "Each program computes one tile ...", `form` (ending
    in the generator's command line) the "Generated by" line."""
    L[0] = L[0].replace("Each program\n// computes one {BM}x{BN} tile of C with".format(BM=BM, BN=BN),
                        programs.format(BM=BM, BN=BN))
    L[0] = L[0].replace("// Generated by examples/nvidia/gen_matmul_tma.py.", form)

def tile_coords(x, tile, ind):
    """Origin (m0, n0) of tile `tile`: groups of GROUP rows of tiles."""
    o(f"""{ind}%group{x} = arith.divsi {tile}, %per_group : i32
{ind}%first_m{x} = arith.muli %group{x}, %cgrp : i32
{ind}%gl{x} = arith.subi %npm, %first_m{x} : i32
{ind}%gsize{x} = arith.minsi %gl{x}, %cgrp : i32
{ind}%in_group{x} = arith.remsi {tile}, %per_group : i32
{ind}%pm_off{x} = arith.remsi %in_group{x}, %gsize{x} : i32
{ind}%pid_m{x} = arith.addi %first_m{x}, %pm_off{x} : i32
{ind}%pid_n{x} = arith.divsi %in_group{x}, %gsize{x} : i32
{ind}%m0{x} = arith.muli %pid_m{x}, %cbm : i32
{ind}%n0{x} = arith.muli %pid_n{x}, %cbn : i32""")

def store_acc(ind):
    """Stores %done (the accumulator) to the tile at (%m0_e, %n0_e) from its registers."""
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    R = f"tensor<{BM}xi32, #acc_rows>"; C = f"tensor<{BN}xi32, #acc_cols>"
    o(f"""{ind}%ci = hd.arange 0 to {BM} : {R}
{ind}%m0c = hd.splat %m0_e : {R}
{ind}%gi = arith.addi %m0c, %ci : {R}
{ind}%nc = hd.splat %n : {R}
{ind}%rs = arith.muli %gi, %nc : {R}
{ind}%cj = hd.arange 0 to {BN} : {C}
{ind}%n0c = hd.splat %n0_e : {C}
{ind}%gj = arith.addi %n0c, %cj : {C}
{ind}%rs2 = hd.expand_dims %rs axis = 1 : {R} -> tensor<{BM}x1xi32, #acc>
{ind}%gj2 = hd.expand_dims %gj axis = 0 : {C} -> tensor<1x{BN}xi32, #acc>
{ind}%rsb = hd.broadcast %rs2 : tensor<{BM}x1xi32, #acc> -> tensor<{BM}x{BN}xi32, #acc>
{ind}%gjb = hd.broadcast %gj2 : tensor<1x{BN}xi32, #acc> -> tensor<{BM}x{BN}xi32, #acc>
{ind}%off = arith.addi %rsb, %gjb : tensor<{BM}x{BN}xi32, #acc>
{ind}%cp = hd.splat %c : tensor<{BM}x{BN}x!hd.ptr<bf16>, #acc>
{ind}%cptrs = hd.addptr %cp, %off : tensor<{BM}x{BN}x!hd.ptr<bf16>, #acc>, tensor<{BM}x{BN}xi32, #acc>
{ind}%c16 = arith.truncf %done : {T} to tensor<{BM}x{BN}xbf16, #acc>
{ind}hd.store %cptrs, %c16 : tensor<{BM}x{BN}x!hd.ptr<bf16>, #acc>""")

C_PTR = "%c: !hd.ptr<bf16> {hd.divisibility = 16 : i32}"

def one_d_head(name, c_arg=C_PTR, more_args="", after_pid=""):
    """The start of the kernels on a 1-D grid: signature (A, B, C, m, n, k
    and `more_args`), constants, %pid (then `after_pid`) and the tile counts."""
    o(f"""module attributes {{hd.num_warps = {NW} : i32}} {{
  func.func @{name}(%a: {A_D}, %b: {B_D}, {c_arg}, %m: i32 {{hd.divisibility = 16 : i32}}, %n: i32 {{hd.divisibility = 16 : i32}}, %k: i32 {{hd.divisibility = 16 : i32}}{more_args}) attributes {{hd.kernel}} {{
    %cbm = arith.constant {BM} : i32
    %cbn = arith.constant {BN} : i32
    %cbk = arith.constant {BK} : i32
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %cstages = arith.constant {STAGES} : i32
    %cgrp = arith.constant {GROUP} : i32
    %pid = hd.program_id 0{after_pid}
    %npm = arith.divsi %m, %cbm : i32
    %npn = arith.divsi %n, %cbn : i32
    %ntiles = arith.muli %npm, %npn : i32
    %nk = arith.divsi %k, %cbk : i32
    %per_group = arith.muli %cgrp, %npn : i32""")

def persistent_head(name, c_arg=C_PTR):
    """The persistent kernels' start: constants, tile counts, this program's share."""
    one_d_head(name, c_arg, after_pid="\n    %nprog = hd.num_programs 0")
    o(f"""    // This program's tiles: pid, pid + nprog, ... below ntiles.
    %left0 = arith.subi %ntiles, %pid : i32
    %left1 = arith.addi %left0, %nprog : i32
    %left2 = arith.subi %left1, %c1i : i32
    %mine = arith.divsi %left2, %nprog : i32""")

def barrier_ring(ind="    "):
    """The barrier kernels' ring and its one barrier per stage."""
    o(f"""{ind}%a_smem = hd.local_alloc -> {A_RING}
{ind}%b_smem = hd.local_alloc -> {B_RING}
{ind}%bars = hd.local_alloc -> {BARS}""")

def barrier_inits(ind="    "):
    for st in range(STAGES):
        o(f"""{ind}%s{st} = arith.constant {st} : i32
{ind}%bar{st} = hd.memdesc_index %bars[%s{st}] : {BARS} -> {BAR}
{ind}hd.mbarrier_init %bar{st}, 1 : {BAR}""")

def ring_load(x, lk, lm, ln, g, ind):
    """Copies of K step `lk` of the tile at (lm, ln) into stage g % STAGES, where %go{x}."""
    o(f"""{ind}%st{x} = arith.remsi {g}, %cstages : i32
{ind}%k0{x} = arith.muli {lk}, %cbk : i32
{ind}%bw{x} = hd.memdesc_index %bars[%st{x}] : {BARS} -> {BAR}
{ind}hd.mbarrier_expect %bw{x}, {STAGE_BYTES} pred %go{x} : {BAR}
{ind}%a_dst{x} = hd.memdesc_index %a_smem[%st{x}] : {A_RING} -> {A_T}
{ind}hd.async_tensor_copy %a[{lm}, %k0{x}], %bw{x}, %a_dst{x} pred %go{x} : {A_D}, {BAR} -> {A_T}
{ind}%b_dst{x} = hd.memdesc_index %b_smem[%st{x}] : {B_RING} -> {B_T}
{ind}hd.async_tensor_copy %b[%k0{x}, {ln}], %bw{x}, %b_dst{x} pred %go{x} : {B_D}, {BAR} -> {B_T}""")

def barrier_product(ind):
    """A persistent barrier kernel's step g: wait for its stage, multiply,
    retire the previous product; %ga is the step the loader fills next."""
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    o(f"""{ind}%cur = arith.remsi %g, %cstages : i32
{ind}%round = arith.divsi %g, %cstages : i32
{ind}%phase = arith.andi %round, %c1i : i32
{ind}%bar_cur = hd.memdesc_index %bars[%cur] : {BARS} -> {BAR}
{ind}hd.mbarrier_wait %bar_cur, %phase : {BAR}
{ind}%a_cur = hd.memdesc_index %a_smem[%cur] : {A_RING} -> {A_T}
{ind}%b_cur = hd.memdesc_index %b_smem[%cur] : {B_RING} -> {B_T}
{ind}%issued = hd.dot %a_cur, %b_cur, %sum {{async}} : {A_T} * {B_T} -> {T}
{ind}%next = hd.dot_wait %issued pending = 1 : {T}""")

def loader_prologue(load, advance, state):
    """The persistent barrier kernels' first AHEAD loader steps from `state`;
    the state after them."""
    for st in range(AHEAD):
        load(f"_p{st}", state, f"%s{st}", "    ")
        state = advance(f"_p{st}", state, "    ")
    return state

def persistent():
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    persistent_head("matmul_tma_persistent")
    o(f"""    %total = arith.muli %mine, %nk : i32""")
    barrier_ring()
    barrier_inits()

    def load(x, state, g, ind):
        """Copies of the loader's step (k index, tile, m0, n0) = state: step g of the program."""
        lk, lt, lm, ln = state
        o(f"{ind}%go{x} = arith.cmpi slt, {g}, %total : i32")
        ring_load(x, lk, lm, ln, g, ind)

    def advance(x, state, ind):
        """The loader's next step: the next K step, or the first of the next tile."""
        lk, lt, lm, ln = state
        o(f"""{ind}%k1{x} = arith.addi {lk}, %c1i : i32
{ind}%wrap{x} = arith.cmpi eq, %k1{x}, %nk : i32
{ind}%kn{x} = arith.select %wrap{x}, %c0i, %k1{x} : i32
{ind}%wrapi{x} = arith.extui %wrap{x} : i1 to i32
{ind}%tn{x} = arith.addi {lt}, %wrapi{x} : i32
{ind}%mn{x}:2 = scf.if %wrap{x} -> (i32, i32) {{
{ind}  %tj{x} = arith.muli %tn{x}, %nprog : i32
{ind}  %tile{x} = arith.addi %pid, %tj{x} : i32""")
        tile_coords(x + "w", f"%tile{x}", ind + "  ")
        o(f"""{ind}  scf.yield %m0{x}w, %n0{x}w : i32, i32
{ind}}} else {{
{ind}  scf.yield {lm}, {ln} : i32, i32
{ind}}}""")
        return (f"%kn{x}", f"%tn{x}", f"%mn{x}#0", f"%mn{x}#1")

    o(f"    // The loader runs {AHEAD} steps ahead: its state is (K step, tile, m0, n0).")
    tile_coords("_first", "%pid", "    ")
    state = loader_prologue(load, advance, ("%c0i", "%c0i", "%m0_first", "%n0_first"))
    ST = "i32, i32, i32, i32"
    o(f"""    %zero = arith.constant dense<0.0> : {T}
    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub_t = arith.index_cast %mine : i32 to index
    %ub_k = arith.index_cast %nk : i32 to index
    %cahead = arith.constant {AHEAD} : i32
    %ld:4 = scf.for %tt = %lb to %ub_t step %step1 iter_args(%ok = {state[0]}, %ot = {state[1]}, %om = {state[2]}, %on = {state[3]}) -> ({ST}) {{
      %t = arith.index_cast %tt : index to i32
      %g0 = arith.muli %t, %nk : i32
      %res:5 = scf.for %kidx = %lb to %ub_k step %step1 iter_args(%sum = %zero, %ik = %ok, %it = %ot, %im = %om, %in = %on) -> ({T}, {ST}) {{
        %k32 = arith.index_cast %kidx : index to i32
        %g = arith.addi %g0, %k32 : i32""")
    barrier_product("        ")
    o(f"""        // Step g + {AHEAD} (of this tile or the next) into the stage step g - 1 read.
        %ga = arith.addi %g, %cahead : i32""")
    inner = ("%ik", "%it", "%im", "%in")
    load("", inner, "%ga", "        ")
    nxt = advance("", inner, "        ")
    o(f"""        scf.yield %next, {nxt[0]}, {nxt[1]}, {nxt[2]}, {nxt[3]} : {T}, {ST}
      }}
      // The tile, stored from the accumulator's registers (two bf16 a thread
      // and row at a time) while the ring fills with the next tile's steps.
      %done = hd.dot_wait %res#0 pending = 0 : {T}
      %tj_e = arith.muli %t, %nprog : i32
      %tile_e = arith.addi %pid, %tj_e : i32""")
    tile_coords("_e", "%tile_e", "      ")
    store_acc("      ")
    o(f"""      scf.yield %res#1, %res#2, %res#3, %res#4 : {ST}
    }}
    return
  }}
}}""")

if PERSISTENT:
    retitle("Programs compute\n// {BM}x{BN} tiles of C with",
            f"""// The persistent form: one program per SM (grid: min(tiles, SMs)) takes
// tiles pid, pid + nprog, ...; the ring's refills run {AHEAD} K steps ahead
// across tiles, so the next tile's first blocks land while this one's
// result is stored, straight from the accumulator's registers.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} persistent.""")
    persistent()

def ring_and_barriers():
    """The ring and, per stage, its "full" and "empty" barriers."""
    o(f"""    %a_smem = hd.local_alloc -> {A_RING}
    %b_smem = hd.local_alloc -> {B_RING}
    %full = hd.local_alloc -> {BARS}
    %empty = hd.local_alloc -> {BARS}""")
    for st in range(STAGES):
        o(f"""    %s{st} = arith.constant {st} : i32
    %fb{st} = hd.memdesc_index %full[%s{st}] : {BARS} -> {BAR}
    hd.mbarrier_init %fb{st}, 1 : {BAR}
    %eb{st} = hd.memdesc_index %empty[%s{st}] : {BARS} -> {BAR}
    hd.mbarrier_init %eb{st}, {NW * CLUSTER} : {BAR}""")

def consumer_step(g, ind):
    """Consumers at step `g`: wait for its stage, multiply, release the previous one."""
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    o(f"""{ind}%cur = arith.remsi {g}, %cstages : i32
{ind}%round = arith.divsi {g}, %cstages : i32
{ind}%phase = arith.andi %round, %c1i : i32
{ind}%full_cur = hd.memdesc_index %full[%cur] : {BARS} -> {BAR}
{ind}hd.mbarrier_wait %full_cur, %phase : {BAR}
{ind}%a_cur = hd.memdesc_index %a_smem[%cur] : {A_RING} -> {A_T}
{ind}%b_cur = hd.memdesc_index %b_smem[%cur] : {B_RING} -> {B_T}
{ind}%issued = hd.dot %a_cur, %b_cur, %sum {{async}} : {A_T} * {B_T} -> {T}
{ind}%next = hd.dot_wait %issued pending = 1 : {T}
{ind}%has_prev = arith.cmpi sgt, {g}, %c0i : i32
{ind}%gp = arith.addi {g}, %cstages : i32
{ind}%gp1 = arith.subi %gp, %c1i : i32
{ind}%prev = arith.remsi %gp1, %cstages : i32
{ind}%empty_prev = hd.memdesc_index %empty[%prev] : {BARS} -> {BAR}""")
    if CLUSTER == 1:
        o(f"""{ind}hd.mbarrier_arrive %empty_prev pred %has_prev {{per_warp}} : {BAR}""")
    else:
        o(f"""{ind}// Both programs' producers refill this stage (B is multicast):
{ind}// release it to each.""")
        for r in range(CLUSTER):
            o(f"""{ind}hd.mbarrier_arrive %empty_prev pred %has_prev rank %r{r} {{per_warp}} : {BAR}""")
    o(f"""{ind}scf.yield %next : {T}""")

def producer_step(g, kstep, m0, n0, ind):
    """The producer at step `g` (K step `kstep` of the tile at m0, n0)."""
    o(f"""{ind}%cur = arith.remsi {g}, %cstages : i32
{ind}%round = arith.divsi {g}, %cstages : i32
{ind}%rp = arith.andi %round, %c1i : i32
{ind}%phase = arith.xori %rp, %c1i : i32
{ind}%empty_cur = hd.memdesc_index %empty[%cur] : {BARS} -> {BAR}
{ind}hd.mbarrier_wait %empty_cur, %phase : {BAR}
{ind}%ki = arith.muli {kstep}, %cbk : i32
{ind}%full_cur = hd.memdesc_index %full[%cur] : {BARS} -> {BAR}
{ind}hd.mbarrier_expect %full_cur, {STAGE_BYTES} : {BAR}
{ind}%a_dst = hd.memdesc_index %a_smem[%cur] : {A_RING} -> {A_T}
{ind}hd.async_tensor_copy %a[{m0}, %ki], %full_cur, %a_dst : {A_D}, {BAR} -> {A_T}
{ind}%b_dst = hd.memdesc_index %b_smem[%cur] : {B_RING} -> {B_T}""")
    if CLUSTER == 1:
        o(f"""{ind}hd.async_tensor_copy %b[%ki, {n0}], %full_cur, %b_dst : {B_D}, {BAR} -> {B_T}""")
        return
    part = BN // CLUSTER
    for r in range(CLUSTER):
        o(f"""{ind}%b_part{r} = hd.memdesc_slice %b_dst [0, {r * part}] : {B_T} -> {B_PART_T}
{ind}%n_part{r} = arith.addi {n0}, %cpart{r} : i32
{ind}hd.async_tensor_copy %b[%ki, %n_part{r}], %full_cur, %b_part{r} pred %is_r{r} multicast %everyone : {B_D}, {BAR} -> {B_PART_T}""")

def producer_partition(comment, kstep_line, end=""):
    """Ends the consumers' region and writes the producer's: `comment`, then
    K step (`kstep_line` defines %kst from %i, or "" for %i itself) into
    stage i % STAGES for each of the program's steps; then the kernel's end,
    with `end` before its return."""
    kst = "%i"
    extra = ""
    if kstep_line:
        kst, extra = "%kst", "\n        " + kstep_line
    o(f"""      hd.warp_return
    }} partitions {{
{comment}
      scf.for %kk = %lb to %ub step %step1 {{
        %i = arith.index_cast %kk : index to i32{extra}""")
    producer_step("%i", kst, "%m0", "%n0", "        ")
    o(f"""      }}
      hd.warp_return
    }}{end}
    return
  }}
}}""")

def warp_specialized():
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    cluster = f", hd.cluster_dims = array<i32: {CLUSTER}, 1, 1>" if CLUSTER > 1 else ""
    name = "matmul_tma_ws_cluster" if CLUSTER > 1 else "matmul_tma_ws"
    o(f"""module attributes {{hd.num_warps = {NW} : i32{cluster}}} {{
  func.func @{name}(%a: {A_D}, %b: {B_D}, %c: !hd.ptr<bf16> {{hd.divisibility = 16 : i32}}, %m: i32 {{hd.divisibility = 16 : i32}}, %n: i32 {{hd.divisibility = 16 : i32}}, %k: i32 {{hd.divisibility = 16 : i32}}) attributes {{hd.kernel}} {{
    %cbm = arith.constant {BM} : i32
    %cbn = arith.constant {BN} : i32
    %cbk = arith.constant {BK} : i32
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %cstages = arith.constant {STAGES} : i32
    %gx = hd.program_id 0
    %gy = hd.program_id 1
    %npm = hd.num_programs 0
    %npn = hd.num_programs 1
    %lin0 = arith.muli %gy, %npm : i32
    %lin = arith.addi %lin0, %gx : i32
    %cgrp = arith.constant {GROUP} : i32
    %per_group = arith.muli %cgrp, %npn : i32
    %group = arith.divsi %lin, %per_group : i32
    %first_m = arith.muli %group, %cgrp : i32
    %left = arith.subi %npm, %first_m : i32
    %gsize = arith.minsi %left, %cgrp : i32
    %in_group = arith.remsi %lin, %per_group : i32
    %pm_off = arith.remsi %in_group, %gsize : i32
    %pid_m = arith.addi %first_m, %pm_off : i32
    %pid_n = arith.divsi %in_group, %gsize : i32
    %m0 = arith.muli %pid_m, %cbm : i32
    %n0 = arith.muli %pid_n, %cbn : i32
    %nk = arith.divsi %k, %cbk : i32
    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub = arith.index_cast %nk : i32 to index
    // The ring; per stage a "full" barrier (the copies landed) and an
    // "empty" one (each of the {NW} consumer warps is done reading it).""")
    ring_and_barriers()
    if CLUSTER > 1:
        o(f"""    // The rank in the cluster ({CLUSTER} programs along x; the grid's x
    // is a multiple of it), and what the producer copies of B: part r of
    // each block, into both programs.
    %ccl = arith.constant {CLUSTER} : i32
    %rank = arith.remsi %gx, %ccl : i32
    %everyone = arith.constant {(1 << CLUSTER) - 1} : i32""")
        for r in range(CLUSTER):
            o(f"""    %r{r} = arith.constant {r} : i32
    %is_r{r} = arith.cmpi eq, %rank, %r{r} : i32
    %cpart{r} = arith.constant {r * (BN // CLUSTER)} : i32""")
        o(f"""    // Every barrier of both programs is initialised before either
    // copies into or arrives on the other's.
    hd.cluster_barrier""")
    o(f"""    hd.warp_specialize warps [1] default {{
      // Consumers ({NW} warps): multiply each stage once it has landed, and
      // hand the previous one back once its product is retired.
      %zero = arith.constant dense<0.0> : {T}
      %res = scf.for %kk = %lb to %ub step %step1 iter_args(%sum = %zero) -> ({T}) {{
        %i = arith.index_cast %kk : index to i32""")
    consumer_step("%i", "        ")
    o(f"""      }}
      %done = hd.dot_wait %res pending = 0 : {T}
      // The tile goes through the A ring, reinterpreted as a {BM}x{BN} staging
      // tile (every copy has landed and been read by now; the planner puts
      // the consumers' barrier between their last reads and these writes),
      // to be stored 16 bytes a thread.""")
    store_staged("      ")
    end = ""
    if CLUSTER > 1:
        end = """
    // Neither program ends while the other may still arrive on its barriers.
    hd.cluster_barrier"""
    producer_partition(f"""      // Producer (one warp): fill stage i % {STAGES} with K step i once its
      // consumers released it (the first round waits on the phase before
      // the first, complete from the start).""", "", end)

def c_offsets(m0, n0, ind, x=""):
    """%c_off{x}: the offsets of the tile at (m0, n0) in row-major C, in #c_st."""
    o(f"""{ind}%ci{x} = hd.arange 0 to {BM} : tensor<{BM}xi32, #c_rows>
{ind}%m0_c{x} = hd.splat {m0} : tensor<{BM}xi32, #c_rows>
{ind}%c_gi{x} = arith.addi %m0_c{x}, %ci{x} : tensor<{BM}xi32, #c_rows>
{ind}%n_c{x} = hd.splat %n : tensor<{BM}xi32, #c_rows>
{ind}%c_row_start{x} = arith.muli %c_gi{x}, %n_c{x} : tensor<{BM}xi32, #c_rows>
{ind}%cj{x} = hd.arange 0 to {BN} : tensor<{BN}xi32, #c_cols>
{ind}%n0_c{x} = hd.splat {n0} : tensor<{BN}xi32, #c_cols>
{ind}%c_gj{x} = arith.addi %n0_c{x}, %cj{x} : tensor<{BN}xi32, #c_cols>
{ind}%c_row_start2{x} = hd.expand_dims %c_row_start{x} axis = 1 : tensor<{BM}xi32, #c_rows> -> tensor<{BM}x1xi32, #c_st>
{ind}%c_gj2{x} = hd.expand_dims %c_gj{x} axis = 0 : tensor<{BN}xi32, #c_cols> -> tensor<1x{BN}xi32, #c_st>
{ind}%c_row_off{x} = hd.broadcast %c_row_start2{x} : tensor<{BM}x1xi32, #c_st> -> tensor<{BM}x{BN}xi32, #c_st>
{ind}%c_col_off{x} = hd.broadcast %c_gj2{x} : tensor<1x{BN}xi32, #c_st> -> tensor<{BM}x{BN}xi32, #c_st>
{ind}%c_off{x} = arith.addi %c_row_off{x}, %c_col_off{x} : tensor<{BM}x{BN}xi32, #c_st>""")

def store_staged(ind):
    """Stores %done (the accumulator) to the tile at (%m0, %n0) through the A
    ring, reinterpreted as a staging tile, 16 bytes a thread."""
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    o(f"""{ind}%c_acc = arith.truncf %done : {T} to tensor<{BM}x{BN}xbf16, #acc>
{ind}%c_stage = hd.memdesc_reinterpret %a_smem : {A_RING} -> !hd.memdesc<{BM}x{BN}xbf16, #c_sh>
{ind}hd.local_store %c_acc, %c_stage : tensor<{BM}x{BN}xbf16, #acc> -> !hd.memdesc<{BM}x{BN}xbf16, #c_sh>
{ind}%c_bf16 = hd.local_load %c_stage : !hd.memdesc<{BM}x{BN}xbf16, #c_sh> -> tensor<{BM}x{BN}xbf16, #c_st>""")
    c_offsets("%m0", "%n0", ind)
    o(f"""{ind}%cp = hd.splat %c : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>
{ind}%cptrs = hd.addptr %cp, %c_off : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>, tensor<{BM}x{BN}xi32, #c_st>
{ind}hd.store %cptrs, %c_bf16 : tensor<{BM}x{BN}x!hd.ptr<bf16>, #c_st>""")

def tile_offsets(layout, rows, cols, ind, x):
    """%t_off{x}: r * BN + c over a BMxBN tile in `layout` (row-major tile)."""
    R = f"tensor<{BM}xi32, #{rows}>"; C = f"tensor<{BN}xi32, #{cols}>"
    T = f"tensor<{BM}x{BN}xi32, #{layout}>"
    o(f"""{ind}%tr{x} = hd.arange 0 to {BM} : {R}
{ind}%tbn{x} = arith.constant dense<{BN}> : {R}
{ind}%trs{x} = arith.muli %tr{x}, %tbn{x} : {R}
{ind}%tc{x} = hd.arange 0 to {BN} : {C}
{ind}%trs2{x} = hd.expand_dims %trs{x} axis = 1 : {R} -> tensor<{BM}x1xi32, #{layout}>
{ind}%tc2{x} = hd.expand_dims %tc{x} axis = 0 : {C} -> tensor<1x{BN}xi32, #{layout}>
{ind}%trb{x} = hd.broadcast %trs2{x} : tensor<{BM}x1xi32, #{layout}> -> {T}
{ind}%tcb{x} = hd.broadcast %tc2{x} : tensor<1x{BN}xi32, #{layout}> -> {T}
{ind}%t_off{x} = arith.addi %trb{x}, %tcb{x} : {T}""")

def ws_tail():
    """The warp-specialised kernel with the last partial wave split along K.

    2048 tiles of 128x256 (8192^3) on 132 SMs are 15.5 waves, run as 16: the
    last wave leaves half of the machine idle. Here the host picks `tail`
    tiles (the remainder of the waves) and `splits`; the grid is 1-D:
    programs below ntiles - tail take a whole tile, and each of the last
    tail * splits programs takes K steps [s * nk / splits, (s + 1) * nk /
    splits) of tile ntiles - tail + q / splits (s = q % splits). A split
    program writes its f32 partial product to its own slot of the workspace
    (tail * splits tiles of f32), then, after a barrier of the consumer
    warps, thread 0 counts it in (hd.atomic_rmw add, acq_rel at GPU scope)
    on the tile's counter; the program that finds the count at splits - 1
    is the last: it adds the splits' slots in order (the same sum whatever
    the arrival order), rounds to bf16, stores the tile of C and resets the
    counter to 0 for the next launch."""
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    P32 = f"tensor<{BM}x{BN}x!hd.ptr<f32>"
    # The last part's chunks of 32 rows.
    TC = f"tensor<32x{BN}xf32, #c_st>"
    IC = f"tensor<32x{BN}xi32, #c_st>"
    P32C = f"tensor<32x{BN}x!hd.ptr<f32>, #c_st>"
    PBC = f"tensor<32x{BN}x!hd.ptr<bf16>, #c_st>"
    one_d_head("matmul_tma_ws_tail", more_args=", %ws: !hd.ptr<f32> {hd.divisibility = 16 : i32}, "
               "%cnt: !hd.ptr<i32>, %tail: i32, %splits: i32")
    o(f"""    // Whole tiles first; then tail tiles in splits parts along K.
    %whole = arith.subi %ntiles, %tail : i32
    %is_part = arith.cmpi sge, %pid, %whole : i32
    %q = arith.subi %pid, %whole : i32
    %qt = arith.divsi %q, %splits : i32
    %qs = arith.remsi %q, %splits : i32
    %ptile = arith.addi %whole, %qt : i32
    %tile = arith.select %is_part, %ptile, %pid : i32
    %part = arith.select %is_part, %qs, %c0i : i32
    %parts = arith.select %is_part, %splits, %c1i : i32
    %klo0 = arith.muli %part, %nk : i32
    %klo = arith.divsi %klo0, %parts : i32
    %part1 = arith.addi %part, %c1i : i32
    %khi0 = arith.muli %part1, %nk : i32
    %khi = arith.divsi %khi0, %parts : i32
    %nsteps = arith.subi %khi, %klo : i32""")
    tile_coords("", "%tile", "    ")
    o(f"""    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub = arith.index_cast %nsteps : i32 to index""")
    ring_and_barriers()
    o(f"""    hd.warp_specialize warps [1] default {{
      // Consumers ({NW} warps): this program's K steps, stage g % {STAGES}.
      %zero = arith.constant dense<0.0> : {T}
      %res = scf.for %kk = %lb to %ub step %step1 iter_args(%sum = %zero) -> ({T}) {{
        %i = arith.index_cast %kk : index to i32""")
    consumer_step("%i", "        ")
    o(f"""      }}
      %done = hd.dot_wait %res pending = 0 : {T}
      scf.if %is_part {{
        // A part: its partial product into workspace slot q.
        %slot_elems = arith.constant {BM * BN} : i32
        %slot = arith.muli %q, %slot_elems : i32""")
    tile_offsets("acc", "acc_rows", "acc_cols", "        ", "_w")
    o(f"""        %slot_v = hd.splat %slot : tensor<{BM}x{BN}xi32, #acc>
        %w_off = arith.addi %t_off_w, %slot_v : tensor<{BM}x{BN}xi32, #acc>
        %wp = hd.splat %ws : {P32}, #acc>
        %wptrs = hd.addptr %wp, %w_off : {P32}, #acc>, tensor<{BM}x{BN}xi32, #acc>
        hd.store %wptrs, %done : {P32}, #acc>
        // Every consumer thread's slot stores before thread 0's release.
        hd.barrier
        %cptr = hd.addptr %cnt, %qt : !hd.ptr<i32>, i32
        %arrived = hd.atomic_rmw add, %cptr, %c1i {{sem = #hd.sem<acq_rel>, scope = #hd.scope<gpu>}} : !hd.ptr<i32> -> i32
        %sm1 = arith.subi %splits, %c1i : i32
        %last = arith.cmpi eq, %arrived, %sm1 : i32
        scf.if %last {{
          // The last part of the tile: the slots' sum, in slot order, 32
          // rows at a time (a whole f32 tile and its loads would not fit in
          // the registers).
          %first = arith.muli %qt, %splits : i32
          %zs = arith.constant dense<0.0> : {TC}
          %wq = hd.splat %ws : {P32C}
          %cq = hd.splat %c : {PBC}
          %ub_s = arith.index_cast %splits : i32 to index
          %ub_rc = arith.constant 4 : index
          %tr = hd.arange 0 to 32 : tensor<32xi32, #c_rows>
          %tbn = arith.constant dense<{BN}> : tensor<32xi32, #c_rows>
          %trs = arith.muli %tr, %tbn : tensor<32xi32, #c_rows>
          %tc = hd.arange 0 to {BN} : tensor<{BN}xi32, #c_cols>
          %trs2 = hd.expand_dims %trs axis = 1 : tensor<32xi32, #c_rows> -> tensor<32x1xi32, #c_st>
          %tc2 = hd.expand_dims %tc axis = 0 : tensor<{BN}xi32, #c_cols> -> tensor<1x{BN}xi32, #c_st>
          %trb = hd.broadcast %trs2 : tensor<32x1xi32, #c_st> -> {IC}
          %tcb = hd.broadcast %tc2 : tensor<1x{BN}xi32, #c_st> -> {IC}
          // Row r, column c of the chunk: r * {BN} + c in a slot.
          %t_off = arith.addi %trb, %tcb : {IC}
          %n_v = hd.splat %n : tensor<32xi32, #c_rows>
          %crs = arith.muli %tr, %n_v : tensor<32xi32, #c_rows>
          %crs2 = hd.expand_dims %crs axis = 1 : tensor<32xi32, #c_rows> -> tensor<32x1xi32, #c_st>
          %crb = hd.broadcast %crs2 : tensor<32x1xi32, #c_st> -> {IC}
          // ... and r * n + c in C.
          %c_rel = arith.addi %crb, %tcb : {IC}
          scf.for %rr = %lb to %ub_rc step %step1 {{
            %rc32 = arith.index_cast %rr : index to i32
            %crc = arith.constant 32 : i32
            %r0 = arith.muli %rc32, %crc : i32
            %chunk0 = arith.muli %r0, %cbn : i32
            %total = scf.for %ss = %lb to %ub_s step %step1 iter_args(%acc_s = %zs) -> ({TC}) {{
              %s32 = arith.index_cast %ss : index to i32
              %sl = arith.addi %first, %s32 : i32
              %sb0 = arith.muli %sl, %slot_elems : i32
              %sb = arith.addi %sb0, %chunk0 : i32
              %sbv = hd.splat %sb : {IC}
              %r_off = arith.addi %t_off, %sbv : {IC}
              %rptrs = hd.addptr %wq, %r_off : {P32C}, {IC}
              // Other SMs wrote the other slots: the acquire (a fence after
              // the count, on every thread) orders these loads after them.
              %got = hd.load %rptrs : {P32C}
              %acc_n = arith.addf %acc_s, %got : {TC}
              scf.yield %acc_n : {TC}
            }}
            %c16_t = arith.truncf %total : {TC} to tensor<32x{BN}xbf16, #c_st>
            %row0 = arith.addi %m0, %r0 : i32
            %cr0 = arith.muli %row0, %n : i32
            %cb = arith.addi %cr0, %n0 : i32
            %cbv = hd.splat %cb : {IC}
            %c_offs = arith.addi %c_rel, %cbv : {IC}
            %cptrs_t = hd.addptr %cq, %c_offs : {PBC}, {IC}
            hd.store %cptrs_t, %c16_t : {PBC}
          }}
          // No part of this tile counts in again in this launch.
          hd.store %cptr, %c0i : !hd.ptr<i32>
        }}
      }} else {{
        // A whole tile, as matmul_tma_ws_bf16.mlir: staged in the A ring.""")
    store_staged("        ")
    o("      }")
    producer_partition(f"      // Producer (one warp): K step klo + i into stage i % {STAGES}.",
                       "%kst = arith.addi %klo, %i : i32")

if WST:
    retitle("Programs compute\n// {BM}x{BN} tiles of C (or parts of them) with",
            f"""// The warp-specialised form (matmul_tma_ws_bf16.mlir) with the last
// partial wave of tiles split along K: a 1-D grid of ntiles - tail whole
// tiles, then tail * splits parts (tail and splits are arguments the host
// picks from the tile count and the SMs: 8192^3 is 2048 tiles, 15.5 waves
// of 132, whose half-empty last wave becomes 204 parts of a third of a
// tile). Each part writes its f32 partial product to its own slot of ws
// ([tail * splits, {BM}, {BN}] f32) and counts in on the tile's counter in
// cnt ([tail] i32, zero before the first launch; hd.atomic_rmw acq_rel at
// GPU scope by one thread after a barrier of the consumers); the last to
// count in adds the slots in order, stores the tile and resets the
// counter, so the next launch needs no clearing. NVIDIA sm_90a only.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} ws-tail.""")
    L[0] = L[0].replace("#c_rows = ", "#c_sh = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n#c_rows = ", 1)
    ws_tail()

if WS:
    L[0] = L[0].replace("// Generated by examples/nvidia/gen_matmul_tma.py.",
                        f"""// The warp-specialised form: hd.warp_specialize adds a producer warp
// (warp {NW}) that issues the copies; the {NW} consumer warps wait on a
// stage's "full" barrier, multiply, and once hd.dot_wait has retired the
// previous step's product each warp arrives on that stage's "empty"
// barrier (hd.mbarrier_arrive per_warp, count {NW}), which the producer
// waits for before refilling it. No CTA barrier in the loop: the
// warpgroups never wait for each other. The result is staged in the A ring
// (hd.memdesc_reinterpret: the ring stays allocated while the regions run,
// and no other 64 KiB fit). Targets that run a CTA as one thread reject
// the kernel.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} {"ws-cluster" if CLUSTER > 1 else "ws"}.""")
    if CLUSTER > 1:
        L[0] = L[0].replace("// Generated by examples/nvidia/gen_matmul_tma.py",
                            f"""// In clusters of {CLUSTER} programs (hd.cluster_dims): neighbouring row tiles of
// one column of C share their B blocks. Each program's producer copies its
// own A block and part r (its rank) of the B block, multicast into every
// program of the cluster, whose "full" barriers count those bytes as well;
// so each stage's "empty" barrier waits for the consumer warps of all
// {CLUSTER} programs (hd.mbarrier_arrive rank r), and the kernel starts and
// ends with hd.cluster_barrier. B's descriptor has blocks of {BK}x{BN // CLUSTER}.
// M must be a multiple of {BM * CLUSTER}, the grid's x of {CLUSTER}.
// Generated by examples/nvidia/gen_matmul_tma.py""")
    L[0] = L[0].replace("#c_rows = ", "#c_sh = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n#c_rows = ", 1)
    warp_specialized()

# The persistent warp-specialised form stores C through the copy engine:
# {CH}-column chunks of the tile, staged in two buffers in turn.
CH = 64
C_D = f"!hd.tensor_desc<{BM}x{CH}xbf16, #blk>"
C_RING = f"!hd.memdesc<2x{BM}x{CH}xbf16, #ring>"
C_T = f"!hd.memdesc<{BM}x{CH}xbf16, #ring, alloc = 2x{BM}x{CH}>"

def acc_chunk_layouts():
    """Linear layouts that take the accumulator apart into its BN / CH column
    chunks by moving registers only: the chunk index is register bits of #acc."""
    def lin(regs, lanes, warps):
        return f"#hd.linear<{{register = {bases(regs)}, lane = {bases(lanes)}, warp = {bases(warps)}, block = []}}>"
    warps = WARP + [[64, 0]] if NW == 8 else WARP
    # (row, c7, c6, col): col = c7 * 128 + c6 * 64 + low.
    def four(b):
        r, c = b
        return [r, (c >> 7) & 1, (c >> 6) & 1, c & 63]
    def perm(b):  # (row, low, c7, c6)
        return [b[0], b[3], b[1], b[2]]
    regs4 = [four(b) for b in acc_regs]
    lanes4 = [four(b) for b in LANE]
    warps4 = [four(b) for b in warps]
    out = {
        "q4": lin(regs4, lanes4, warps4),
        "qp": lin([perm(b) for b in regs4], [perm(b) for b in lanes4], [perm(b) for b in warps4]),
    }
    # After splitting c6 off: (row, low, c7); after c7: (row, low).
    regs3 = [perm(b)[:3] for b in regs4 if perm(b)[3] == 0]
    out["q3"] = lin(regs3, [perm(b)[:3] for b in lanes4], [perm(b)[:3] for b in warps4])
    regs2 = [b[:2] for b in regs3 if b[2] == 0]
    out["q2"] = lin(regs2, [perm(b)[:2] for b in lanes4], [perm(b)[:2] for b in warps4])
    return out

def store_tma(ind):
    """Stores %done (the accumulator) to the tile at (%m0_e, %n0_e) through the
    copy engine: each chunk goes into a staging buffer (once the store that
    last read it has), then out with hd.async_tensor_store."""
    assert BN == 256 and CH == 64
    o(f"""{ind}%c16 = arith.truncf %done : tensor<{BM}x{BN}xf32, #acc> to tensor<{BM}x{BN}xbf16, #acc>
{ind}// Column chunk j of the tile is registers of one value of bits 6 and 7
{ind}// of the column: reshape, permute and split pick them (no data moves).
{ind}%c4 = hd.reshape %c16 : tensor<{BM}x{BN}xbf16, #acc> -> tensor<{BM}x2x2x{CH}xbf16, #q4>
{ind}%cpm = hd.permute %c4, [0, 3, 1, 2] : tensor<{BM}x2x2x{CH}xbf16, #q4> -> tensor<{BM}x{CH}x2x2xbf16, #qp>
{ind}%h0, %h1 = hd.split %cpm : tensor<{BM}x{CH}x2x2xbf16, #qp> -> tensor<{BM}x{CH}x2xbf16, #q3>, tensor<{BM}x{CH}x2xbf16, #q3>
{ind}%q0, %q2 = hd.split %h0 : tensor<{BM}x{CH}x2xbf16, #q3> -> tensor<{BM}x{CH}xbf16, #q2>, tensor<{BM}x{CH}xbf16, #q2>
{ind}%q1, %q3 = hd.split %h1 : tensor<{BM}x{CH}x2xbf16, #q3> -> tensor<{BM}x{CH}xbf16, #q2>, tensor<{BM}x{CH}xbf16, #q2>""")
    for j in range(BN // CH):
        o(f"""{ind}hd.async_tensor_store_wait pending = 1
{ind}%cbuf{j} = hd.memdesc_index %c_smem[%s{j % 2}] : {C_RING} -> {C_T}
{ind}hd.local_store %q{j}, %cbuf{j} : tensor<{BM}x{CH}xbf16, #q2> -> {C_T}
{ind}%cn{j} = arith.constant {j * CH} : i32
{ind}%nj{j} = arith.addi %n0_e, %cn{j} : i32
{ind}hd.async_tensor_store %cd[%m0_e, %nj{j}], %cbuf{j} : {C_T} -> {C_D}""")

def consumer_tile_steps(ind):
    """The consumers' K steps of one tile (global step %g0 + k) and the wait
    for the last product: %done."""
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    o(f"""{ind}%res = scf.for %kk = %lb to %ub_k step %step1 iter_args(%sum = %zero) -> ({T}) {{
{ind}  %k32 = arith.index_cast %kk : index to i32
{ind}  %g = arith.addi %g0, %k32 : i32""")
    consumer_step("%g", ind + "  ")
    o(f"""{ind}}}
{ind}%done = hd.dot_wait %res pending = 0 : {T}""")

def consumer_tile_store(tile, ind):
    """%done out through the copy engine to tile `tile`."""
    tile_coords("_e", tile, ind)
    o(f"""{ind}// The tile goes out through the copy engine while the producer
{ind}// fills the ring with the next tile's steps.""")
    store_tma(ind)

def producer_tile_steps(tile, ind):
    """The producer's K steps of tile `tile` (global step %g0 + k)."""
    tile_coords("_p", tile, ind)
    o(f"""{ind}scf.for %kk = %lb to %ub_k step %step1 {{
{ind}  %k32 = arith.index_cast %kk : index to i32
{ind}  %g = arith.addi %g0, %k32 : i32""")
    producer_step("%g", "%k32", "%m0_p", "%n0_p", ind + "  ")
    o(f"{ind}}}")

def ws_persistent():
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    for name, layout in acc_chunk_layouts().items():
        L[BODY - 1] = L[BODY - 1].rstrip("\n") + f"\n#{name} = {layout}"
    persistent_head("matmul_tma_ws_persistent", f"%cd: {C_D}")
    o(f"""    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub_t = arith.index_cast %mine : i32 to index
    %ub_k = arith.index_cast %nk : i32 to index""")
    ring_and_barriers()
    o(f"""    %c_smem = hd.local_alloc -> {C_RING}""")
    o(f"""    hd.warp_specialize warps [1] default {{
      // Consumers: tile after tile; global step g = t * nk + k picks the
      // stage and phase, and each step hands back the previous one.
      %zero = arith.constant dense<0.0> : {T}
      scf.for %tt = %lb to %ub_t step %step1 {{
        %t = arith.index_cast %tt : index to i32
        %g0 = arith.muli %t, %nk : i32""")
    consumer_tile_steps("        ")
    o(f"""        %tj = arith.muli %t, %nprog : i32
        %tile = arith.addi %pid, %tj : i32""")
    consumer_tile_store("%tile", "        ")
    o(f"""      }}
      // Every store has landed before the kernel ends.
      hd.async_tensor_store_wait pending = 0
      hd.warp_return
    }} partitions {{
      // Producer: the same steps, each into its stage once released.
      scf.for %tt = %lb to %ub_t step %step1 {{
        %t = arith.index_cast %tt : index to i32
        %g0 = arith.muli %t, %nk : i32
        %tj = arith.muli %t, %nprog : i32
        %tile = arith.addi %pid, %tj : i32""")
    producer_tile_steps("%tile", "        ")
    o(f"""      }}
      hd.warp_return
    }}
    return
  }}
}}""")

# The tile-id ring of the dynamic form: two slots, each with a "full" barrier
# (the producer wrote it) and an "empty" one (every consumer warp read it).
TIDS = "!hd.memdesc<2x1xi32, #bar_sh>"
TID = "!hd.memdesc<1xi32, #bar_sh, alloc = 2x1>"
TBARS = "!hd.memdesc<2x1xi64, #bar_sh>"
TBAR = "!hd.memdesc<1xi64, #bar_sh, alloc = 2x1>"

def tile_slot(ind, empty_side):
    """%slot, %tphase for the program's j-th tile id (the empty side waits on the phase before)."""
    o(f"""{ind}%c2i = arith.constant 2 : i32
{ind}%slot = arith.remsi %j, %c2i : i32
{ind}%tround = arith.divsi %j, %c2i : i32
{ind}%tpar = arith.andi %tround, %c1i : i32""")
    if empty_side:
        o(f"{ind}%tphase = arith.xori %tpar, %c1i : i32")
    else:
        o(f"{ind}%tphase = arith.addi %tpar, %c0i : i32")

def counters_reset(ind):
    """The last program out (the second counter, acq_rel: after every
    program's last take from the first) sets both back to zero."""
    o(f"""{ind}// The last program out (the second counter, acq_rel: after every
{ind}// program's last take from the first) sets both back to zero for the
{ind}// next launch.
{ind}%c_exit = hd.addptr %cnt, %c1i : !hd.ptr<i32>, i32
{ind}%out = hd.atomic_rmw add, %c_exit, %c1i {{sem = #hd.sem<acq_rel>, scope = #hd.scope<gpu>}} : !hd.ptr<i32> -> i32
{ind}%np1 = arith.subi %nprog, %c1i : i32
{ind}%last = arith.cmpi eq, %out, %np1 : i32
{ind}scf.if %last {{
{ind}  hd.store %cnt, %c0i : !hd.ptr<i32>
{ind}  hd.store %c_exit, %c0i : !hd.ptr<i32>
{ind}}}""")

def ws_dynamic():
    """ws-persistent with the tiles handed out at run time: each program's
    first tile is its pid, every later one comes from a counter in global
    memory (nprog + an atomic add), so the tiles in flight stay a window of
    consecutive ones as the hardware's own scheduling of one tile a program
    keeps them; the static pid + t * nprog lets fast programs run ahead of
    slow ones onto tiles whose A and B blocks no longer share the L2."""
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    for name, layout in acc_chunk_layouts().items():
        L[BODY - 1] = L[BODY - 1].rstrip("\n") + f"\n#{name} = {layout}"
    L[BODY - 1] = L[BODY - 1].rstrip("\n") + (
        f"\n#one_c = #hd.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{NW}], order = [0]}}>"
        "\n#one_p = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>")
    one_d_head("matmul_tma_ws_dynamic", f"%cd: {C_D}", more_args=", %cnt: !hd.ptr<i32>",
               after_pid="\n    %nprog = hd.num_programs 0")
    o(f"""    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub_k = arith.index_cast %nk : i32 to index""")
    ring_and_barriers()
    o(f"""    %c_smem = hd.local_alloc -> {C_RING}
    // The tile ids the producer hands the consumers, two slots in turn.
    %tids = hd.local_alloc -> {TIDS}
    %tfull = hd.local_alloc -> {TBARS}
    %tempty = hd.local_alloc -> {TBARS}""")
    for st in range(2):
        o(f"""    %tf{st} = hd.memdesc_index %tfull[%s{st}] : {TBARS} -> {TBAR}
    hd.mbarrier_init %tf{st}, 1 : {TBAR}
    %te{st} = hd.memdesc_index %tempty[%s{st}] : {TBARS} -> {TBAR}
    hd.mbarrier_init %te{st}, {NW} : {TBAR}""")
    o(f"""    hd.warp_specialize warps [1] default {{
      // Consumers: the j-th tile id from slot j % 2, until one is past the
      // last tile; global step g = j * nk + k picks the stage and phase.
      %zero = arith.constant dense<0.0> : {T}
      %jn:2 = scf.while (%j = %c0i) : (i32) -> (i32, i32) {{""")
    tile_slot("        ", False)
    o(f"""        %tfc = hd.memdesc_index %tfull[%slot] : {TBARS} -> {TBAR}
        hd.mbarrier_wait %tfc, %tphase : {TBAR}
        %tslot = hd.memdesc_index %tids[%slot] : {TIDS} -> {TID}
        %tv = hd.local_load %tslot : {TID} -> tensor<1xi32, #one_c>
        %tile = hd.reduce(%tv) axis = 0 : (tensor<1xi32, #one_c>) -> i32 {{
        ^bb0(%x: i32, %y: i32):
          %mx = arith.maxsi %x, %y : i32
          hd.yield %mx : i32
        }}
        %tec = hd.memdesc_index %tempty[%slot] : {TBARS} -> {TBAR}
        hd.mbarrier_arrive %tec {{per_warp}} : {TBAR}
        %more = arith.cmpi slt, %tile, %ntiles : i32
        scf.condition(%more) %j, %tile : i32, i32
      }} do {{
      ^bb0(%jb: i32, %tile_b: i32):
        %g0 = arith.muli %jb, %nk : i32""")
    consumer_tile_steps("        ")
    consumer_tile_store("%tile_b", "        ")
    o(f"""        %jnext = arith.addi %jb, %c1i : i32
        scf.yield %jnext : i32
      }}
      // Every store has landed before the kernel ends.
      hd.async_tensor_store_wait pending = 0
      hd.warp_return
    }} partitions {{
      // Producer: the j-th tile id (pid first, then nprog + the counter's
      // old value) into slot j % 2 once every consumer warp read the id
      // before it there, then that tile's steps, each into its stage once
      // released.
      %jp:2 = scf.while (%j = %c0i) : (i32) -> (i32, i32) {{""")
    tile_slot("        ", True)
    o(f"""        %tep = hd.memdesc_index %tempty[%slot] : {TBARS} -> {TBAR}
        hd.mbarrier_wait %tep, %tphase : {TBAR}
        %first = arith.cmpi eq, %j, %c0i : i32
        %tile = scf.if %first -> (i32) {{
          scf.yield %pid : i32
        }} else {{
          %taken = hd.atomic_rmw add, %cnt, %c1i {{sem = #hd.sem<relaxed>, scope = #hd.scope<gpu>}} : !hd.ptr<i32> -> i32
          %tn = arith.addi %taken, %nprog : i32
          scf.yield %tn : i32
        }}
        %tvp = hd.splat %tile : tensor<1xi32, #one_p>
        %tslotp = hd.memdesc_index %tids[%slot] : {TIDS} -> {TID}
        hd.local_store %tvp, %tslotp : tensor<1xi32, #one_p> -> {TID}
        %tfp = hd.memdesc_index %tfull[%slot] : {TBARS} -> {TBAR}
        hd.mbarrier_arrive %tfp : {TBAR}
        %more = arith.cmpi slt, %tile, %ntiles : i32
        scf.condition(%more) %j, %tile : i32, i32
      }} do {{
      ^bb0(%jb: i32, %tile_b: i32):
        %g0 = arith.muli %jb, %nk : i32""")
    producer_tile_steps("%tile_b", "        ")
    o(f"""        %jnext = arith.addi %jb, %c1i : i32
        scf.yield %jnext : i32
      }}""")
    counters_reset("      ")
    o(f"""      hd.warp_return
    }}
    return
  }}
}}""")

def dynamic():
    """The persistent form with tiles handed out at run time and C stored by
    the copy engine. The loader (thread 0 of the CTA, AHEAD steps ahead of
    the products) takes each next tile from the counter when its K steps
    wrap, and writes the tile id of every step it loads next to the stage
    (tid_smem), where the consumers read it at the first step of a tile:
    the loader may be several tiles ahead when K has fewer steps than AHEAD."""
    del L[BODY:]
    T = f"tensor<{BM}x{BN}xf32, #acc>"
    for name, layout in acc_chunk_layouts().items():
        L[BODY - 1] = L[BODY - 1].rstrip("\n") + f"\n#{name} = {layout}"
    L[BODY - 1] = L[BODY - 1].rstrip("\n") + (
        f"\n#one = #hd.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{NW}], order = [0]}}>")
    TIDS_S = f"!hd.memdesc<{STAGES}x1xi32, #bar_sh>"
    TID_S = f"!hd.memdesc<1xi32, #bar_sh, alloc = {STAGES}x1>"
    one_d_head("matmul_tma_dynamic", f"%cd: {C_D}", more_args=", %cnt: !hd.ptr<i32>",
               after_pid="\n    %nprog = hd.num_programs 0")
    o(f"""    %ntm1 = arith.subi %ntiles, %c1i : i32""")
    barrier_ring()
    o(f"""    %c_smem = hd.local_alloc -> {C_RING}
    // The tile id of the step each stage holds.
    %tid_smem = hd.local_alloc -> {TIDS_S}""")
    barrier_inits()

    def load(x, state, g, ind):
        """The loader's step g, (k index, tile id, m0, n0) = state: its copies
        where the tile exists, and its tile id next to the stage."""
        lk, lt, lm, ln = state
        o(f"{ind}%go{x} = arith.cmpi slt, {lt}, %ntiles : i32")
        ring_load(x, lk, lm, ln, g, ind)
        o(f"""{ind}%tw{x} = hd.splat {lt} : tensor<1xi32, #one>
{ind}%ts{x} = hd.memdesc_index %tid_smem[%st{x}] : {TIDS_S} -> {TID_S}
{ind}hd.local_store %tw{x}, %ts{x} : tensor<1xi32, #one> -> {TID_S}""")

    def advance(x, state, ind):
        """The loader's next step: the next K step, or the first of the tile
        the counter hands out (none once a tile id is past the last)."""
        lk, lt, lm, ln = state
        o(f"""{ind}%k1{x} = arith.addi {lk}, %c1i : i32
{ind}%wrap{x} = arith.cmpi eq, %k1{x}, %nk : i32
{ind}%kn{x} = arith.select %wrap{x}, %c0i, %k1{x} : i32
{ind}%tn{x}:3 = scf.if %wrap{x} -> (i32, i32, i32) {{
{ind}  %live{x} = arith.cmpi slt, {lt}, %ntiles : i32
{ind}  %tnew{x} = scf.if %live{x} -> (i32) {{
{ind}    %taken{x} = hd.atomic_rmw add, %cnt, %c1i {{sem = #hd.sem<relaxed>, scope = #hd.scope<gpu>}} : !hd.ptr<i32> -> i32
{ind}    %tt{x} = arith.addi %taken{x}, %nprog : i32
{ind}    scf.yield %tt{x} : i32
{ind}  }} else {{
{ind}    scf.yield {lt} : i32
{ind}  }}
{ind}  // Coordinates of a tile that exists (the copies of one past the last are off).
{ind}  %tcl{x} = arith.minsi %tnew{x}, %ntm1 : i32""")
        tile_coords(x + "w", f"%tcl{x}", ind + "  ")
        o(f"""{ind}  scf.yield %tnew{x}, %m0{x}w, %n0{x}w : i32, i32, i32
{ind}}} else {{
{ind}  scf.yield {lt}, {lm}, {ln} : i32, i32, i32
{ind}}}""")
        return (f"%kn{x}", f"%tn{x}#0", f"%tn{x}#1", f"%tn{x}#2")

    o(f"    // The loader runs {AHEAD} steps ahead: its state is (K step, tile id, m0, n0).")
    o(f"    %pcl = arith.minsi %pid, %ntm1 : i32")
    tile_coords("_first", "%pcl", "    ")
    state = loader_prologue(load, advance, ("%c0i", "%pid", "%m0_first", "%n0_first"))
    ST = "i32, i32, i32, i32"
    o(f"""    %zero = arith.constant dense<0.0> : {T}
    %lb = arith.constant 0 : index
    %step1 = arith.constant 1 : index
    %ub_k = arith.index_cast %nk : i32 to index
    %cahead = arith.constant {AHEAD} : i32
    %ld:6 = scf.while (%wg = %c0i, %wk = {state[0]}, %wt = {state[1]}, %wm = {state[2]}, %wn = {state[3]}) : (i32, {ST}) -> (i32, {ST}, i32) {{
      // The consumers' next tile: the id the loader wrote with its first step.
      %cs = arith.remsi %wg, %cstages : i32
      %ctr = hd.memdesc_index %tid_smem[%cs] : {TIDS_S} -> {TID_S}
      %ctv = hd.local_load %ctr : {TID_S} -> tensor<1xi32, #one>
      %ctile = hd.reduce(%ctv) axis = 0 : (tensor<1xi32, #one>) -> i32 {{
      ^bb0(%x: i32, %y: i32):
        %mx = arith.maxsi %x, %y : i32
        hd.yield %mx : i32
      }}
      %more = arith.cmpi slt, %ctile, %ntiles : i32
      scf.condition(%more) %wg, %wk, %wt, %wm, %wn, %ctile : i32, {ST}, i32
    }} do {{
    ^bb0(%g0: i32, %ok: i32, %ot: i32, %om: i32, %on: i32, %tile: i32):
      %res:5 = scf.for %kidx = %lb to %ub_k step %step1 iter_args(%sum = %zero, %ik = %ok, %it = %ot, %im = %om, %in = %on) -> ({T}, {ST}) {{
        %k32 = arith.index_cast %kidx : index to i32
        %g = arith.addi %g0, %k32 : i32""")
    barrier_product("        ")
    o(f"""        // Step g + {AHEAD} (of this tile or a later one) into the stage step g - 1 read.
        %ga = arith.addi %g, %cahead : i32""")
    inner = ("%ik", "%it", "%im", "%in")
    load("", inner, "%ga", "        ")
    nxt = advance("", inner, "        ")
    o(f"""        scf.yield %next, {nxt[0]}, {nxt[1]}, {nxt[2]}, {nxt[3]} : {T}, {ST}
      }}
      %done = hd.dot_wait %res#0 pending = 0 : {T}""")
    tile_coords("_e", "%tile", "      ")
    o(f"""      // The tile goes out through the copy engine while the ring fills
      // with the next tile's steps.""")
    store_tma("      ")
    o(f"""      %g0n = arith.addi %g0, %nk : i32
      scf.yield %g0n, %res#1, %res#2, %res#3, %res#4 : i32, {ST}
    }}
    // Every store has landed before the kernel ends.
    hd.async_tensor_store_wait pending = 0""")
    counters_reset("    ")
    o(f"""    return
  }}
}}""")

if DYN:
    retitle("Programs compute\n// {BM}x{BN} tiles of C with",
            f"""// The persistent form with tiles handed out at run time: one program per SM
// (grid: min(tiles, SMs)); a program's first tile is its pid, each later one
// nprog + the old value of cnt[0], which the loader (thread 0, {AHEAD} K steps
// ahead of the products, hd.atomic_rmw) adds 1 to when its steps wrap into a
// new tile. So the tiles in flight stay consecutive ones (L2 reuse of their A
// and B blocks) however unevenly the SMs progress. The loader writes each
// step's tile id next to its stage, where the products of a tile's first step
// read it. C is a tensor descriptor of {BM}x64 blocks stored by the copy engine
// from two staging buffers while the ring fills with the next tile. cnt is two
// i32, zero before the first launch: the last program to finish (cnt[1],
// acq_rel) sets both back to zero.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} dynamic.""")
    dynamic()

if WSD:
    retitle("Programs compute\n// {BM}x{BN} tiles of C with",
            f"""// The warp-specialised persistent form with tiles handed out at run time:
// one program per SM (grid: min(tiles, SMs)); a program's first tile is its
// pid, each later one nprog + the old value of cnt[0], which the producer
// warp adds 1 to (hd.atomic_rmw) and passes to the consumer warps through
// a two-slot ring of tile ids in shared memory with its own barriers. So
// the tiles in flight stay consecutive ones (L2 reuse of their A and B
// blocks) however unevenly the SMs progress. cnt is two i32, zero before
// the first launch: the last program to finish (cnt[1], acq_rel) sets both
// back to zero. Otherwise as matmul_tma_ws_persistent_bf16.mlir: the
// producer runs ahead across tiles, C goes out through the copy engine.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} ws-dynamic.""")
    ws_dynamic()

if WSP:
    retitle("Programs compute\n// {BM}x{BN} tiles of C with",
            f"""// The warp-specialised persistent form: one program per SM (grid:
// min(tiles, SMs)) takes tiles pid, pid + nprog, ...; a producer warp
// (hd.warp_specialize) fills the ring step after step across tiles as the
// {NW} consumer warps release stages (hd.mbarrier_arrive per_warp), so the
// next tile's first steps land while the consumers store this one. C is a
// tensor descriptor of {BM}x64 blocks: the consumers put each 64-column chunk
// of the accumulator (registers only: reshape, permute, split) into one of
// two staging buffers and hd.async_tensor_store sends it out, waiting only
// for the store that last read that buffer (hd.async_tensor_store_wait
// pending = 1), so the stores overlap the next tile's products.
// Generated by examples/nvidia/gen_matmul_tma.py {BK} {STAGES} {GROUP} ws-persistent.""")
    ws_persistent()
print("\n".join(L))
