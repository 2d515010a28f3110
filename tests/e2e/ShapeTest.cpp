//===- ShapeTest.cpp - expand_dims, broadcast, reshape, permute, join, split, convert_layout -===//
//
// Each kernel computes the addresses it stores to in the layout it stores
// from, so an element that a shape op or a layout conversion puts in the
// wrong place lands at the wrong address and fails the comparison.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

/// blocked(...) with its dimensions permuted: result dimension i is
/// dimension perm[i] of `b` (what hd.permute keeps in the same threads).
Blocked permuted(const Blocked &b, const std::vector<int> &perm) {
  Blocked p;
  const int rank = b.rank();
  std::vector<int> where(rank);
  for (int i = 0; i < rank; ++i) {
    p.spt.push_back(b.spt[perm[i]]);
    p.tpw.push_back(b.tpw[perm[i]]);
    p.wpc.push_back(b.wpc[perm[i]]);
    where[perm[i]] = i;
  }
  for (int d : b.order)
    p.order.push_back(where[d]);
  return p;
}

std::string pid(KernelBuilder &k, int axis, int scale) {
  return k.let("arith.muli " + k.let("hd.program_id " + std::to_string(axis)) + ", " +
               k.constI32(scale) + " : i32");
}

struct Layout2D {
  Blocked layout;
  std::vector<int> shape;
  std::string name() const {
    return layout.name() + "_" + std::to_string(shape[0]) + "x" + std::to_string(shape[1]);
  }
};

const Layout2D kLayouts2D[] = {
    {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {16, 32}},
    {{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {32, 16}},
    {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {8, 64}},
    {{{1, 1}, {32, 1}, {1, 1}, {0, 1}}, {64, 8}},
    {{{1, 2}, {1, 32}, {8, 1}, {1, 0}}, {8, 64}},
};

//===----------------------------------------------------------------------===//
// expand_dims + broadcast
//===----------------------------------------------------------------------===//

class OuterSum : public ::testing::TestWithParam<Layout2D> {};

// out[i][j] = a[i] * 4096 + b[j]: a row vector and a column vector (the two
// slices of the layout) expanded and broadcast to the tile, over a grid with
// tails in both dimensions.
TEST_P(OuterSum, ExpandDimsAndBroadcast) {
  E2E_BEGIN();
  const Layout2D &c = GetParam();
  const int m = c.shape[0], n = c.shape[1];
  KernelBuilder k("outer_sum", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string rl = k.layout("l_r", slice(1, l)), cl = k.layout("l_c", slice(0, l));
  std::string a = k.arg("!hd.ptr<i32>"), b = k.arg("!hd.ptr<i32>"), out = k.arg("!hd.ptr<i32>");
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  std::string r0 = pid(k, 0, m), c0 = pid(k, 1, n);
  auto ra = k.tile1d(m, rl, r0, rows);
  auto cb = k.tile1d(n, cl, c0, cols);
  std::string av = k.let("hd.load " + k.pointers(a, "i32", ra.offsets, {m}, rl) + " mask " +
                         ra.mask + " : " + tensor({m}, "!hd.ptr<i32>", rl));
  std::string bv = k.let("hd.load " + k.pointers(b, "i32", cb.offsets, {n}, cl) + " mask " +
                         cb.mask + " : " + tensor({n}, "!hd.ptr<i32>", cl));
  std::string rt = tensor({m}, "i32", rl);
  std::string scaled = k.let("arith.muli " + av + ", " +
                             k.let("arith.constant dense<4096> : " + rt) + " : " + rt);
  std::string a2 = k.let("hd.expand_dims " + scaled + " axis = 1 : " + rt + " -> " +
                         tensor({m, 1}, "i32", l));
  std::string b2 = k.let("hd.expand_dims " + bv + " axis = 0 : " + tensor({n}, "i32", cl) +
                         " -> " + tensor({1, n}, "i32", l));
  std::string full = tensor({m, n}, "i32", l);
  std::string ab = k.let("hd.broadcast " + a2 + " : " + tensor({m, 1}, "i32", l) + " -> " + full);
  std::string bb = k.let("hd.broadcast " + b2 + " : " + tensor({1, n}, "i32", l) + " -> " + full);
  std::string sum = k.let("arith.addi " + ab + ", " + bb + " : " + full);
  auto t = k.tile2d({m, n}, l, r0, c0, cols, rows, cols);
  k.line("hd.store " + k.pointers(out, "i32", t.offsets, {m, n}, l) + ", " + sum + " mask " +
         t.mask + " : " + tensor({m, n}, "!hd.ptr<i32>", l));

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int rowsN = tailSize(rng, m, 3 * m), colsN = tailSize(rng, n, 3 * n);
  std::vector<int32_t> ha = randomVector<int32_t>(rng, rowsN, -1000, 1000);
  std::vector<int32_t> hb = randomVector<int32_t>(rng, colsN, -1000, 1000);
  auto ba = p.input(ha), bbuf = p.input(hb);
  auto bo = p.output<int32_t>(rowsN * colsN + 16);
  E2E_LAUNCH(p, kid, {ceilDiv(rowsN, m), ceilDiv(colsN, n), 1},
             {ba.arg(), bbuf.arg(), bo.arg(), i32(rowsN), i32(colsN)}, {io(bo)});
  std::vector<int32_t> want(rowsN * colsN);
  for (int i = 0; i < rowsN; ++i)
    for (int j = 0; j < colsN; ++j)
      want[i * colsN + j] = ha[i] * 4096 + hb[j];
  expectExact(bo.host(), want, "outer sum");
  expectPoisoned(bo.host(), want.size(), bo.size(), "past the matrix");
}

INSTANTIATE_TEST_SUITE_P(Layouts, OuterSum, ::testing::ValuesIn(kLayouts2D),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

struct ReshapeCase {
  Blocked flat;          ///< 1-D
  Layout2D shaped;       ///< 2-D, shape[0] * shape[1] elements
  std::string name() const { return "from_" + flat.name() + "_to_" + shaped.name(); }
};

class Reshape : public ::testing::TestWithParam<ReshapeCase> {};

// A 1-D tile reshaped to 2-D keeps row-major order: element (r, c) of the
// 2-D tile is element r * N + c of the 1-D one. The kernel reshapes there
// and back, storing both: out2[r * N + c] from the 2-D tile's own offsets,
// out1[i] from the 1-D tile that came back.
TEST_P(Reshape, RowMajorBothWays) {
  E2E_BEGIN();
  const ReshapeCase &c = GetParam();
  const int m = c.shaped.shape[0], n = c.shaped.shape[1], total = m * n;
  KernelBuilder k("reshape", c.flat.numWarps());
  std::string f = k.layout("f", c.flat.str(S.lanes));
  std::string l = k.layout("l", c.shaped.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<f32>"), out2 = k.arg("!hd.ptr<f32>"), out1 = k.arg("!hd.ptr<f32>");
  std::string base = pid(k, 0, total);
  auto t1 = k.tile1d(total, f, base, "");
  std::string ft = tensor({total}, "f32", f), lt = tensor({m, n}, "f32", l);
  std::string x = k.let("hd.load " + k.pointers(in, "f32", t1.offsets, {total}, f) + " : " +
                        tensor({total}, "!hd.ptr<f32>", f));
  std::string y = k.let("hd.reshape " + x + " : " + ft + " -> " + lt);
  std::string z = k.let("hd.reshape " + y + " : " + lt + " -> " + ft);
  auto t2 = k.tile2d({m, n}, l, k.constI32(0), k.constI32(0), k.constI32(n), "", "");
  std::string off2 = k.let("arith.addi " + t2.offsets + ", " +
                           k.splat(base, tensor({m, n}, "i32", l)) + " : " +
                           tensor({m, n}, "i32", l));
  k.line("hd.store " + k.pointers(out2, "f32", off2, {m, n}, l) + ", " + y + " : " +
         tensor({m, n}, "!hd.ptr<f32>", l));
  k.line("hd.store " + k.pointers(out1, "f32", t1.offsets, {total}, f) + ", " + z + " : " +
         tensor({total}, "!hd.ptr<f32>", f));

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const uint32_t programs = 3;
  std::vector<float> hx = randomVector<float>(rng, programs * total, -5, 5);
  auto bi = p.input(hx);
  auto b2 = p.output<float>(programs * total), b1 = p.output<float>(programs * total);
  E2E_LAUNCH(p, kid, {programs, 1, 1}, {bi.arg(), b2.arg(), b1.arg()}, {io(b2), io(b1)});
  expectExact(b2.host(), hx, "1-D reshaped to 2-D");
  expectExact(b1.host(), hx, "and back to 1-D");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, Reshape,
    ::testing::Values(ReshapeCase{{{4}, {32}, {4}, {0}}, kLayouts2D[0]},
                      ReshapeCase{{{1}, {32}, {4}, {0}}, kLayouts2D[1]},
                      ReshapeCase{{{2}, {32}, {8}, {0}}, kLayouts2D[2]},
                      ReshapeCase{{{8}, {32}, {1}, {0}}, kLayouts2D[3]},
                      ReshapeCase{{{1}, {32}, {8}, {0}}, kLayouts2D[4]}),
    ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

struct PermuteCase {
  Blocked layout;
  std::vector<int> shape, perm;
  std::string name() const {
    std::string s = layout.name() + "_";
    for (int d : shape)
      s += std::to_string(d) + "x";
    s.back() = '_';
    s += "perm";
    for (int d : perm)
      s += std::to_string(d);
    return s;
  }
};

class Permute : public ::testing::TestWithParam<PermuteCase> {};

// out[permuted index] = in[index]: the permuted tile is stored from offsets
// computed in its own (permuted) layout, with the strides of the input's
// dimensions, so element (i0, i1, ...) of the result lands at the input's
// offset of the source element it must hold.
TEST_P(Permute, ElementsFollowTheirCoordinates) {
  E2E_BEGIN();
  const PermuteCase &c = GetParam();
  const int rank = static_cast<int>(c.shape.size());
  Blocked pl = permuted(c.layout, c.perm);
  std::vector<int> outShape(rank), stride(rank);
  int total = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = total;
    total *= c.shape[d];
  }
  for (int i = 0; i < rank; ++i)
    outShape[i] = c.shape[c.perm[i]];

  KernelBuilder k("permute", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string q = k.layout("q", pl.str(S.lanes));
  std::string in = k.arg("!hd.ptr<i32>"), out = k.arg("!hd.ptr<i32>");

  // Offsets of a tile of `shape` in `lay`: the sum over d of arange(shape[d])
  // * strides[d]. Dimension d's range lives in `lay` sliced along every
  // other dimension (from the highest down, so each slice dimension is the
  // original index), and is expanded back in the reverse order.
  auto offsets = [&](const std::string &lay, const std::vector<int> &shape,
                     const std::vector<int> &strides) {
    std::string acc;
    const std::string full = tensor(shape, "i32", lay);
    for (int d = 0; d < rank; ++d) {
      std::vector<int> others;
      for (int e = rank - 1; e >= 0; --e)
        if (e != d)
          others.push_back(e);
      std::vector<std::string> chain{lay};
      for (int e : others)
        chain.push_back(k.layout(lay + "_d" + std::to_string(d) + "_" + std::to_string(chain.size()),
                                 slice(e, chain.back())));
      std::string t = tensor({shape[d]}, "i32", chain.back());
      std::string v = k.let("arith.muli " +
                            k.let("hd.arange 0 to " + std::to_string(shape[d]) + " : " + t) + ", " +
                            k.let("arith.constant dense<" + std::to_string(strides[d]) + "> : " + t) +
                            " : " + t);
      std::vector<int> cur{shape[d]};
      for (int i = static_cast<int>(others.size()) - 1; i >= 0; --i) {
        std::vector<int> next = cur;
        next.insert(next.begin() + others[i], 1);
        v = k.let("hd.expand_dims " + v + " axis = " + std::to_string(others[i]) + " : " +
                  tensor(cur, "i32", chain[i + 1]) + " -> " + tensor(next, "i32", chain[i]));
        cur = next;
      }
      v = k.let("hd.broadcast " + v + " : " + tensor(cur, "i32", lay) + " -> " + full);
      acc = acc.empty() ? v : k.let("arith.addi " + acc + ", " + v + " : " + full);
    }
    return acc;
  };
  std::string inOffs = offsets(l, c.shape, stride);
  std::vector<int> outStride(rank);
  for (int i = 0; i < rank; ++i)
    outStride[i] = stride[c.perm[i]];
  std::string outOffs = offsets(q, outShape, outStride);
  std::string x = k.let("hd.load " + k.pointers(in, "i32", inOffs, c.shape, l) + " : " +
                        tensor(c.shape, "!hd.ptr<i32>", l));
  std::string order;
  for (int i = 0; i < rank; ++i)
    order += (i ? ", " : "") + std::to_string(c.perm[i]);
  std::string y = k.let("hd.permute " + x + ", [" + order + "] : " + tensor(c.shape, "i32", l) +
                        " -> " + tensor(outShape, "i32", q));
  k.line("hd.store " + k.pointers(out, "i32", outOffs, outShape, q) + ", " + y + " : " +
         tensor(outShape, "!hd.ptr<i32>", q));

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, total, INT32_MIN, INT32_MAX);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(total);
  E2E_LAUNCH(p, kid, {1, 1, 1}, {bi.arg(), bo.arg()}, {io(bo)});
  // Stored at the source element's own offset: the output equals the input.
  expectExact(bo.host(), hx, "permuted tile stored at its source coordinates");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, Permute,
    ::testing::Values(PermuteCase{{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {32, 32}, {1, 0}},
                      PermuteCase{{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {64, 16}, {1, 0}},
                      PermuteCase{{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {16, 64}, {1, 0}},
                      PermuteCase{{{1, 2, 2}, {2, 4, 4}, {2, 2, 1}, {2, 1, 0}}, {8, 8, 16}, {2, 0, 1}},
                      PermuteCase{{{2, 1, 1}, {1, 8, 4}, {1, 1, 4}, {0, 2, 1}}, {4, 16, 16}, {1, 2, 0}}),
    ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// join / split
//===----------------------------------------------------------------------===//

struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
  /// The layout join produces: a minor dimension of 2 held in registers.
  Blocked joined() const {
    return Blocked{{layout.spt[0], 2}, {layout.tpw[0], 1}, {layout.wpc[0], 1}, {1, 0}};
  }
};

const Layout1D kLayouts1D[] = {
    {{{4}, {32}, {4}, {0}}, 512},
    {{{1}, {32}, {8}, {0}}, 256},
    {{{2}, {32}, {1}, {0}}, 128},
};

class JoinSplit : public ::testing::TestWithParam<Layout1D> {};

// join: out[2i] = a[i], out[2i + 1] = b[i] (the pair dimension is the minor
// one of a row-major N x 2 tile). split: lo[i] = x[2i], hi[i] = x[2i + 1].
// Both with a tail.
TEST_P(JoinSplit, InterleaveAndDeinterleave) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  const int n = c.block;
  auto build = [&](bool join) {
    KernelBuilder k(join ? "join" : "split", c.layout.numWarps());
    std::string l = k.layout("l", c.layout.str(S.lanes));
    std::string j = k.layout("j", c.joined().str(S.lanes));
    std::string p0 = k.arg("!hd.ptr<f32>"), p1 = k.arg("!hd.ptr<f32>"), p2 = k.arg("!hd.ptr<f32>");
    std::string count = k.arg("i32");
    std::string start = pid(k, 0, n);
    auto t = k.tile1d(n, l, start, count);
    auto pair = k.tile2d({n, 2}, j, start, k.constI32(0), k.constI32(2), count, k.constI32(2));
    std::string pt = tensor({n}, "!hd.ptr<f32>", l), lt = tensor({n}, "f32", l);
    std::string jt = tensor({n, 2}, "f32", j), jpt = tensor({n, 2}, "!hd.ptr<f32>", j);
    if (join) {
      std::string a = k.let("hd.load " + k.pointers(p0, "f32", t.offsets, {n}, l) + " mask " +
                            t.mask + " : " + pt);
      std::string b = k.let("hd.load " + k.pointers(p1, "f32", t.offsets, {n}, l) + " mask " +
                            t.mask + " : " + pt);
      std::string x = k.let("hd.join " + a + ", " + b + " : " + lt + " -> " + jt);
      k.line("hd.store " + k.pointers(p2, "f32", pair.offsets, {n, 2}, j) + ", " + x + " mask " +
             pair.mask + " : " + jpt);
    } else {
      std::string x = k.let("hd.load " + k.pointers(p0, "f32", pair.offsets, {n, 2}, j) +
                            " mask " + pair.mask + " : " + jpt);
      auto halves = k.letMany(2, "hd.split " + x + " : " + jt + " -> " + lt + ", " + lt);
      k.line("hd.store " + k.pointers(p1, "f32", t.offsets, {n}, l) + ", " + halves[0] +
             " mask " + t.mask + " : " + pt);
      k.line("hd.store " + k.pointers(p2, "f32", t.offsets, {n}, l) + ", " + halves[1] +
             " mask " + t.mask + " : " + pt);
    }
    return k;
  };
  Program p;
  int kj = p.add(build(true)), ks = p.add(build(false));
  E2E_READY(p);
  const int count = tailSize(rng, n, 4 * n);
  const uint32_t grid = ceilDiv(count, n);
  std::vector<float> ha = randomVector<float>(rng, count, -1, 1);
  std::vector<float> hb = randomVector<float>(rng, count, -1, 1);
  std::vector<float> hx = randomVector<float>(rng, 2 * count, -1, 1);
  auto ba = p.input(ha), bb = p.input(hb), bx = p.input(hx);
  auto joined = p.output<float>(2 * count + 8);
  auto lo = p.output<float>(count + 8), hi = p.output<float>(count + 8);
  E2E_LAUNCH(p, kj, {grid, 1, 1}, {ba.arg(), bb.arg(), joined.arg(), i32(count)}, {io(joined)});
  E2E_LAUNCH(p, ks, {grid, 1, 1}, {bx.arg(), lo.arg(), hi.arg(), i32(count)}, {io(lo), io(hi)});
  std::vector<float> wantJoined(2 * count), wantLo(count), wantHi(count);
  for (int i = 0; i < count; ++i) {
    wantJoined[2 * i] = ha[i];
    wantJoined[2 * i + 1] = hb[i];
    wantLo[i] = hx[2 * i];
    wantHi[i] = hx[2 * i + 1];
  }
  expectExact(joined.host(), wantJoined, "join");
  expectPoisoned(joined.host(), 2 * count, joined.size(), "join past n");
  expectExact(lo.host(), wantLo, "split, first half");
  expectExact(hi.host(), wantHi, "split, second half");
  expectPoisoned(lo.host(), count, lo.size(), "split past n");
}

INSTANTIATE_TEST_SUITE_P(Layouts, JoinSplit, ::testing::ValuesIn(kLayouts1D),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

/// A 2-D layout given either as a blocked layout or as a linear one (a
/// permutation of the index bits, see linearLayout).
struct AnyLayout {
  std::optional<Blocked> blocked;
  std::vector<int> linearPerm;
  int warps = 4;
  std::string label;
  std::string str(const std::vector<int> &shape, unsigned lanes) const {
    return blocked ? blocked->str(lanes) : linearLayout(shape, lanes, warps, linearPerm);
  }
  int numWarps() const { return blocked ? blocked->numWarps() : warps; }
  std::string name() const { return blocked ? blocked->name() : label; }
};

AnyLayout B(Blocked b) { return AnyLayout{b, {}, b.numWarps(), ""}; }
AnyLayout Lin(std::string label, std::vector<int> perm, int warps) {
  return AnyLayout{std::nullopt, std::move(perm), warps, std::move(label)};
}

struct ConvertCase {
  AnyLayout from, to;
  std::vector<int> shape;
  std::string elem = "i32";
  /// Elements move between lanes or warps (on a GPU: shuffles or shared
  /// memory); false when only registers are renamed.
  bool crossThread = true;
  /// A core bug that keeps the kernel from compiling (see
  /// E2E_READY_UNLESS_KNOWN_BUG).
  std::string knownBug{};
  std::string name() const {
    return from.name() + "_to_" + to.name() + "_" + std::to_string(shape[0]) + "x" +
           std::to_string(shape[1]) + "_" + elem;
  }
};

class ConvertLayout : public ::testing::TestWithParam<ConvertCase> {};

// A tile (with tails in both dimensions) loaded in one layout, converted,
// and stored from offsets computed in the other. For f16 and pointer tiles
// too: the pointer case converts the tensor of addresses and loads through
// it after the conversion.
TEST_P(ConvertLayout, ElementsKeepTheirCoordinates) {
  E2E_BEGIN();
  const ConvertCase &c = GetParam();
  if (c.crossThread)
    E2E_REQUIRE(CrossLaneConvert);
  const int m = c.shape[0], n = c.shape[1];
  const bool pointers = c.elem == "ptr";
  const std::string e = pointers ? "i32" : c.elem;
  KernelBuilder k("convert", c.from.numWarps());
  std::string a = k.layout("a", c.from.str(c.shape, S.lanes));
  std::string b = k.layout("b", c.to.str(c.shape, S.lanes));
  std::string in = k.arg("!hd.ptr<" + e + ">"), out = k.arg("!hd.ptr<" + e + ">");
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  std::string r0 = pid(k, 0, m), c0 = pid(k, 1, n);
  auto ta = k.tile2d(c.shape, a, r0, c0, cols, rows, cols);
  auto tb = k.tile2d(c.shape, b, r0, c0, cols, rows, cols);
  std::string at = tensor(c.shape, e, a), bt = tensor(c.shape, e, b);
  std::string apt = tensor(c.shape, "!hd.ptr<" + e + ">", a);
  std::string bpt = tensor(c.shape, "!hd.ptr<" + e + ">", b);
  std::string y;
  if (pointers) {
    std::string ptrs = k.pointers(in, e, ta.offsets, c.shape, a);
    std::string moved = k.let("hd.convert_layout " + ptrs + " : " + apt + " -> " + bpt);
    y = k.let("hd.load " + moved + " mask " + tb.mask + " : " + bpt);
  } else {
    std::string x = k.let("hd.load " + k.pointers(in, e, ta.offsets, c.shape, a) + " mask " +
                          ta.mask + " : " + apt);
    y = k.let("hd.convert_layout " + x + " : " + at + " -> " + bt);
  }
  k.line("hd.store " + k.pointers(out, e, tb.offsets, c.shape, b) + ", " + y + " mask " +
         tb.mask + " : " + bpt);

  Program p;
  int kid = p.add(k);
  E2E_READY_UNLESS_KNOWN_BUG(p, c.knownBug);
  const int rowsN = tailSize(rng, m, 2 * m + 3), colsN = tailSize(rng, n, 2 * n + 3);
  const uint32_t gx = ceilDiv(rowsN, m), gy = ceilDiv(colsN, n);
  auto run = [&](auto sample) {
    using T = decltype(sample);
    std::vector<T> hx = randomVector<T>(rng, rowsN * colsN, -30000, 30000);
    auto bi = p.input(hx);
    auto bo = p.output<T>(rowsN * colsN + 8);
    E2E_LAUNCH(p, kid, {gx, gy, 1}, {bi.arg(), bo.arg(), i32(rowsN), i32(colsN)}, {io(bo)});
    expectExact(bo.host(), hx, "converted tile");
    expectPoisoned(bo.host(), hx.size(), bo.size(), "past the matrix");
  };
  if (e == "f16")
    run(Half());
  else if (e == "f32")
    run(float());
  else
    run(int32_t());
}

// 32 x 32: 10 index bits, 0-4 the column, 5-9 the row. lin_a spreads
// neighbours over lanes and warps; lin_b differs from lin_a only in the
// order of its register bits (a pure register permutation).
const std::vector<int> kScrambled = {7, 2, 9, 0, 5, 1, 8, 3, 6, 4};
const std::vector<int> kScrambledRegs = {9, 7, 2, 0, 5, 1, 8, 3, 6, 4};

const Blocked kRows{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
const Blocked kCols{{4, 1}, {8, 4}, {1, 4}, {0, 1}};

INSTANTIATE_TEST_SUITE_P(
    Pairs, ConvertLayout,
    ::testing::Values(
        // The transpose of examples/transpose.mlir: lanes and warps move.
        ConvertCase{B(kRows), B(kCols), {32, 32}},
        ConvertCase{B(kCols), B(kRows), {16, 16}, "f16"},
        // Other sizePerThread, same order.
        ConvertCase{B(kRows), B({{2, 2}, {8, 4}, {2, 2}, {1, 0}}), {32, 32}},
        // Warps side by side vs. stacked.
        ConvertCase{B({{1, 1}, {1, 32}, {4, 1}, {1, 0}}), B({{1, 1}, {32, 1}, {1, 4}, {0, 1}}),
                    {32, 32}, "f32"},
        // Into and out of a linear layout (the 2-D tile's offsets come from
        // slices of it).
        ConvertCase{B(kRows), Lin("lin_a", kScrambled, 4), {32, 32}, "i32", true},
        ConvertCase{Lin("lin_a", kScrambled, 4), B(kCols), {32, 32}, "i32", true},
        // Only the registers are renamed.
        ConvertCase{Lin("lin_a", kScrambled, 4), Lin("lin_b", kScrambledRegs, 4), {32, 32},
                    "i32", false},
        // One warp, eight warps; a tile smaller than the layout's reach.
        ConvertCase{B({{1, 2}, {8, 4}, {1, 1}, {1, 0}}), B({{2, 1}, {4, 8}, {1, 1}, {0, 1}}),
                    {16, 16}},
        ConvertCase{B({{2, 2}, {2, 16}, {2, 4}, {1, 0}}), B({{1, 1}, {16, 2}, {8, 1}, {0, 1}}),
                    {16, 64}},
        // Addresses converted, then loaded through.
        ConvertCase{B(kRows), B(kCols), {32, 32}, "ptr"}),
    ::testing::PrintToStringParamName());

struct Convert1DCase {
  AnyLayout from, to;
  int len;
  bool crossThread = true;
  std::string name() const { return from.name() + "_to_" + to.name() + "_" + std::to_string(len); }
};

/// A 1-D layout, for Convert1DCase: blocked or linear over `len` elements.
std::string layout1d(const AnyLayout &l, int len, unsigned lanes) {
  return l.str({len}, lanes);
}

class ConvertLayout1D : public ::testing::TestWithParam<Convert1DCase> {};

// 1-D conversions, with linear layouts (a 1-D tile's offsets need no
// slice): out[i] = in[i] for i < n.
TEST_P(ConvertLayout1D, ElementsKeepTheirIndex) {
  E2E_BEGIN();
  const Convert1DCase &c = GetParam();
  if (c.crossThread)
    E2E_REQUIRE(CrossLaneConvert);
  KernelBuilder k("convert1d", c.from.numWarps());
  std::string a = k.layout("a", layout1d(c.from, c.len, S.lanes));
  std::string b = k.layout("b", layout1d(c.to, c.len, S.lanes));
  std::string in = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>"), n = k.arg("i32");
  std::string start = pid(k, 0, c.len);
  auto ta = k.tile1d(c.len, a, start, n);
  auto tb = k.tile1d(c.len, b, start, n);
  std::string x = k.let("hd.load " + k.pointers(in, "f32", ta.offsets, {c.len}, a) + " mask " +
                        ta.mask + " : " + tensor({c.len}, "!hd.ptr<f32>", a));
  std::string y = k.let("hd.convert_layout " + x + " : " + tensor({c.len}, "f32", a) + " -> " +
                        tensor({c.len}, "f32", b));
  k.line("hd.store " + k.pointers(out, "f32", tb.offsets, {c.len}, b) + ", " + y + " mask " +
         tb.mask + " : " + tensor({c.len}, "!hd.ptr<f32>", b));
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int count = tailSize(rng, c.len, 3 * c.len);
  std::vector<float> hx = randomVector<float>(rng, count, -1, 1);
  auto bi = p.input(hx);
  auto bo = p.output<float>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.len), 1, 1}, {bi.arg(), bo.arg(), i32(count)}, {io(bo)});
  expectExact(bo.host(), hx, "converted");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

// 512 elements: 9 index bits.
const std::vector<int> kScrambled1D = {3, 8, 0, 5, 1, 7, 2, 6, 4};
const std::vector<int> kScrambled1DRegs = {8, 0, 3, 5, 1, 7, 2, 6, 4};

INSTANTIATE_TEST_SUITE_P(
    Pairs, ConvertLayout1D,
    ::testing::Values(
        Convert1DCase{B({{1}, {32}, {4}, {0}}), B({{4}, {32}, {4}, {0}}), 512},
        Convert1DCase{B({{4}, {32}, {4}, {0}}), Lin("lin_a", kScrambled1D, 4), 512},
        Convert1DCase{Lin("lin_a", kScrambled1D, 4), B({{2}, {32}, {4}, {0}}), 512},
        Convert1DCase{Lin("lin_a", kScrambled1D, 4), Lin("lin_b", kScrambled1DRegs, 4), 512,
                      false},
        Convert1DCase{B({{2}, {32}, {8}, {0}}), B({{8}, {32}, {8}, {0}}), 256}),
    ::testing::PrintToStringParamName());

// Slices: a column vector (slice of one layout) converted to a 1-D blocked
// layout and to the slice of another 2-D layout, where lanes replicate it
// differently.
TEST(ConvertLayoutSlices, SliceToBlockedAndToAnotherSlice) {
  E2E_BEGIN();
  E2E_REQUIRE(CrossLaneConvert);
  KernelBuilder k("slices", 4);
  std::string a = k.layout("a", kRows.str(S.lanes));
  std::string b = k.layout("b", kCols.str(S.lanes));
  std::string flat = k.layout("flat", Blocked{{2}, {32}, {4}, {0}}.str(S.lanes));
  std::string sa = k.layout("sa", slice(1, a)), sb = k.layout("sb", slice(0, b));
  std::string in = k.arg("!hd.ptr<f32>"), o1 = k.arg("!hd.ptr<f32>"), o2 = k.arg("!hd.ptr<f32>");
  std::string n = k.arg("i32");
  const int len = 64;
  auto ti = k.tile1d(len, sa, "", n);
  std::string x = k.let("hd.load " + k.pointers(in, "f32", ti.offsets, {len}, sa) + " mask " +
                        ti.mask + " : " + tensor({len}, "!hd.ptr<f32>", sa));
  std::string toFlat = k.let("hd.convert_layout " + x + " : " + tensor({len}, "f32", sa) +
                             " -> " + tensor({len}, "f32", flat));
  std::string toSb = k.let("hd.convert_layout " + x + " : " + tensor({len}, "f32", sa) +
                           " -> " + tensor({len}, "f32", sb));
  auto tf = k.tile1d(len, flat, "", n);
  auto ts = k.tile1d(len, sb, "", n);
  k.line("hd.store " + k.pointers(o1, "f32", tf.offsets, {len}, flat) + ", " + toFlat + " mask " +
         tf.mask + " : " + tensor({len}, "!hd.ptr<f32>", flat));
  k.line("hd.store " + k.pointers(o2, "f32", ts.offsets, {len}, sb) + ", " + toSb + " mask " +
         ts.mask + " : " + tensor({len}, "!hd.ptr<f32>", sb));
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int count = tailSize(rng, len, len);
  std::vector<float> hx = randomVector<float>(rng, count, -1, 1);
  auto bi = p.input(hx);
  auto b1 = p.output<float>(len), b2 = p.output<float>(len);
  E2E_LAUNCH(p, kid, {1, 1, 1}, {bi.arg(), b1.arg(), b2.arg(), i32(count)}, {io(b1), io(b2)});
  expectExact(b1.host(), hx, "slice to blocked");
  expectPoisoned(b1.host(), count, len, "slice to blocked past n");
  expectExact(b2.host(), hx, "slice to another slice");
  expectPoisoned(b2.host(), count, len, "slice to slice past n");
}

} // namespace
} // namespace hadron::e2e
