//===- LinearLayout.cpp - Linear maps over GF(2) with named dims ----------===//
//
// The algebra runs on bit matrices: each in bit (bit i of in dim d) is one
// column, a uint64_t holding its basis with the out dims packed side by side,
// first out dim in the low bits. The size limits keep both sides under 64
// bits, so a column and a set of columns each fit one word.
//
//===----------------------------------------------------------------------===//

#include "hadron/Layout/LinearLayout.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace hadron {

namespace {

bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int log2Exact(int64_t x) {
  assert(isPowerOf2(x));
  int k = 0;
  while ((int64_t(1) << k) < x)
    ++k;
  return k;
}

std::string formatList(const std::vector<int32_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::string formatNames(const std::vector<std::string> &names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i)
    s += (i ? ", " : "") + names[i];
  return s + "]";
}

/// Where each out dim's bits sit in a packed column.
struct OutPacking {
  std::vector<int> offset;
  std::vector<int> width;

  explicit OutPacking(const std::vector<LinearLayout::OutDim> &outs) {
    int bit = 0;
    for (const auto &out : outs) {
      offset.push_back(bit);
      width.push_back(log2Exact(out.size));
      bit += width.back();
    }
  }

  uint64_t pack(const LinearLayout::Basis &basis) const {
    uint64_t word = 0;
    for (size_t j = 0; j < basis.size(); ++j)
      word |= uint64_t(basis[j]) << offset[j];
    return word;
  }

  LinearLayout::Basis unpack(uint64_t word) const {
    LinearLayout::Basis basis(offset.size());
    for (size_t j = 0; j < offset.size(); ++j)
      basis[j] = int32_t((word >> offset[j]) & ((uint64_t(1) << width[j]) - 1));
    return basis;
  }
};

/// The in bits of a layout, in order: in dim by in dim, low bit first. A set
/// of in bits is a mask over this numbering.
std::vector<uint64_t> packedColumns(const LinearLayout &layout) {
  OutPacking packing(layout.getOutDims());
  std::vector<uint64_t> columns;
  for (const auto &in : layout.getInDims())
    for (const auto &basis : in.bases)
      columns.push_back(packing.pack(basis));
  return columns;
}

/// Splits a mask over the in bits of `ins` back into one value per in dim.
LinearLayout::Basis unpackInBits(uint64_t mask,
                                 const std::vector<LinearLayout::InDim> &ins) {
  LinearLayout::Basis values;
  int bit = 0;
  for (const auto &in : ins) {
    int width = static_cast<int>(in.bases.size());
    values.push_back(int32_t((mask >> bit) & ((uint64_t(1) << width) - 1)));
    bit += width;
  }
  return values;
}

/// Gaussian elimination over the columns of a bit matrix. Columns enter in
/// index order and a column joins the basis only when the earlier ones do not
/// already span it, so every solution is written with the lowest columns
/// possible. That makes solve() return the numerically smallest solution:
/// the solutions form x0 + kernel, every kernel vector's top bit is a
/// column that never joined the basis, and x0 uses none of those.
class ColumnEchelon {
public:
  explicit ColumnEchelon(const std::vector<uint64_t> &columns) {
    assert(columns.size() < 64);
    for (size_t i = 0; i < columns.size(); ++i) {
      uint64_t vector = columns[i];
      uint64_t combo = uint64_t(1) << i;
      reduce(vector, combo);
      if (vector == 0)
        continue;
      int top = 63 - __builtin_clzll(vector);
      vectors_[top] = vector;
      combos_[top] = combo;
      ++rank_;
    }
  }

  int rank() const { return rank_; }

  /// The smallest set of columns XOR-ing to `target`, if any.
  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t combo = 0;
    reduce(target, combo);
    if (target != 0)
      return std::nullopt;
    return combo;
  }

private:
  void reduce(uint64_t &vector, uint64_t &combo) const {
    for (int bit = 63; bit >= 0; --bit) {
      if (!((vector >> bit) & 1) || vectors_[bit] == 0)
        continue;
      vector ^= vectors_[bit];
      combo ^= combos_[bit];
    }
  }

  // vectors_[b] has b as its top bit; combos_[b] is the columns it sums.
  std::array<uint64_t, 64> vectors_{};
  std::array<uint64_t, 64> combos_{};
  int rank_ = 0;
};

/// Whether `names` is a permutation of `expected`; otherwise why not.
std::optional<std::string>
checkPermutation(const std::vector<std::string> &names,
                 const std::vector<std::string> &expected, const char *what) {
  std::vector<std::string> a = names, b = expected;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a == b)
    return std::nullopt;
  return std::string(what) + " " + formatNames(names) +
         " is not a permutation of " + formatNames(expected);
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Result<LinearLayout> LinearLayout::create(std::vector<InDim> ins,
                                          std::vector<OutDim> outs,
                                          bool requireSurjective) {
  std::set<std::string> seen;
  int64_t totalOutLog2 = 0;
  for (size_t j = 0; j < outs.size(); ++j) {
    const OutDim &out = outs[j];
    if (out.name.empty())
      return Error("out dim #" + std::to_string(j) + " has an empty name");
    if (!seen.insert(out.name).second)
      return Error("out dim '" + out.name + "' appears twice");
    if (!isPowerOf2(out.size))
      return Error("out dim '" + out.name + "' has size " +
                   std::to_string(out.size) + ", not a power of two");
    int sizeLog2 = log2Exact(out.size);
    if (sizeLog2 > kMaxDimSizeLog2)
      return Error("out dim '" + out.name + "' has size " +
                   std::to_string(out.size) + ", over the limit 2^" +
                   std::to_string(kMaxDimSizeLog2));
    totalOutLog2 += sizeLog2;
  }
  if (totalOutLog2 > kMaxTotalSizeLog2)
    return Error("out dims have a total size of 2^" +
                 std::to_string(totalOutLog2) + ", over the limit 2^" +
                 std::to_string(kMaxTotalSizeLog2));

  seen.clear();
  int64_t totalInLog2 = 0;
  for (size_t d = 0; d < ins.size(); ++d) {
    const InDim &in = ins[d];
    if (in.name.empty())
      return Error("in dim #" + std::to_string(d) + " has an empty name");
    if (!seen.insert(in.name).second)
      return Error("in dim '" + in.name + "' appears twice");
    if (in.bases.size() > size_t(kMaxDimSizeLog2))
      return Error("in dim '" + in.name + "' has " +
                   std::to_string(in.bases.size()) + " bases, over the limit " +
                   std::to_string(kMaxDimSizeLog2));
    totalInLog2 += in.bases.size();
    for (size_t i = 0; i < in.bases.size(); ++i) {
      const Basis &basis = in.bases[i];
      std::string where =
          "basis " + std::to_string(i) + " of in dim '" + in.name + "'";
      if (basis.size() != outs.size())
        return Error(where + " " + formatList(basis) + " has " +
                     std::to_string(basis.size()) +
                     " entries, expected one "
                     "per out dim (" +
                     std::to_string(outs.size()) + ")");
      for (size_t j = 0; j < outs.size(); ++j)
        if (basis[j] < 0 || basis[j] >= outs[j].size)
          return Error(where + " has entry " + std::to_string(basis[j]) +
                       " for out dim '" + outs[j].name + "', outside [0, " +
                       std::to_string(outs[j].size) + ")");
    }
  }
  if (totalInLog2 > kMaxTotalSizeLog2)
    return Error("in dims have a total size of 2^" +
                 std::to_string(totalInLog2) + ", over the limit 2^" +
                 std::to_string(kMaxTotalSizeLog2));

  LinearLayout layout(std::move(ins), std::move(outs));
  if (requireSurjective && !layout.isSurjective())
    return Error("layout is not surjective: its bases span 2^" +
                 std::to_string(ColumnEchelon(packedColumns(layout)).rank()) +
                 " of the 2^" + std::to_string(totalOutLog2) + " outputs\n" +
                 layout.toString());
  return layout;
}

LinearLayout LinearLayout::identity1D(int32_t size, std::string in,
                                      std::string out) {
  return strided1D(size, 1, std::move(in), std::move(out));
}

LinearLayout LinearLayout::strided1D(int32_t size, int32_t stride,
                                     std::string in, std::string out) {
  assert(isPowerOf2(size) && isPowerOf2(stride) &&
         "strided1D: size and stride must be powers of two");
  int sizeLog2 = log2Exact(size);
  assert(sizeLog2 + log2Exact(stride) <= kMaxDimSizeLog2 &&
         "strided1D: size * stride over the dim size limit");
  std::vector<Basis> bases;
  for (int i = 0; i < sizeLog2; ++i)
    bases.push_back({stride << i});
  return LinearLayout({{std::move(in), std::move(bases)}},
                      {{std::move(out), size * stride}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, std::string in,
                                   std::string out, int32_t outSize) {
  assert(isPowerOf2(size) && isPowerOf2(outSize) &&
         "zeros1D: sizes must be powers of two");
  assert(log2Exact(size) <= kMaxDimSizeLog2 &&
         log2Exact(outSize) <= kMaxDimSizeLog2 &&
         "zeros1D: size over the dim size limit");
  std::vector<Basis> bases(log2Exact(size), Basis{0});
  return LinearLayout({{std::move(in), std::move(bases)}},
                      {{std::move(out), outSize}});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int LinearLayout::inDimIndex(const std::string &name) const {
  for (size_t d = 0; d < ins_.size(); ++d)
    if (ins_[d].name == name)
      return static_cast<int>(d);
  return -1;
}

int LinearLayout::outDimIndex(const std::string &name) const {
  for (size_t j = 0; j < outs_.size(); ++j)
    if (outs_[j].name == name)
      return static_cast<int>(j);
  return -1;
}

std::vector<std::string> LinearLayout::getInDimNames() const {
  std::vector<std::string> names;
  for (const auto &in : ins_)
    names.push_back(in.name);
  return names;
}

std::vector<std::string> LinearLayout::getOutDimNames() const {
  std::vector<std::string> names;
  for (const auto &out : outs_)
    names.push_back(out.name);
  return names;
}

bool LinearLayout::hasInDim(const std::string &name) const {
  return inDimIndex(name) >= 0;
}

bool LinearLayout::hasOutDim(const std::string &name) const {
  return outDimIndex(name) >= 0;
}

int LinearLayout::getInDimSizeLog2(const std::string &name) const {
  int d = inDimIndex(name);
  assert(d >= 0 && "no such in dim");
  return static_cast<int>(ins_[d].bases.size());
}

int32_t LinearLayout::getInDimSize(const std::string &name) const {
  return int32_t(1) << getInDimSizeLog2(name);
}

int32_t LinearLayout::getOutDimSize(const std::string &name) const {
  int j = outDimIndex(name);
  assert(j >= 0 && "no such out dim");
  return outs_[j].size;
}

int LinearLayout::getOutDimSizeLog2(const std::string &name) const {
  return log2Exact(getOutDimSize(name));
}

int LinearLayout::getTotalInDimSizeLog2() const {
  int total = 0;
  for (const auto &in : ins_)
    total += static_cast<int>(in.bases.size());
  return total;
}

int64_t LinearLayout::getTotalInDimSize() const {
  return int64_t(1) << getTotalInDimSizeLog2();
}

int LinearLayout::getTotalOutDimSizeLog2() const {
  int total = 0;
  for (const auto &out : outs_)
    total += log2Exact(out.size);
  return total;
}

int64_t LinearLayout::getTotalOutDimSize() const {
  return int64_t(1) << getTotalOutDimSizeLog2();
}

const LinearLayout::Basis &LinearLayout::getBasis(const std::string &in,
                                                  int i) const {
  int d = inDimIndex(in);
  assert(d >= 0 && "no such in dim");
  assert(i >= 0 && size_t(i) < ins_[d].bases.size() && "no such basis");
  return ins_[d].bases[i];
}

int32_t LinearLayout::getBasis(const std::string &in, int i,
                               const std::string &out) const {
  int j = outDimIndex(out);
  assert(j >= 0 && "no such out dim");
  return getBasis(in, i)[j];
}

bool LinearLayout::isSurjective() const {
  return ColumnEchelon(packedColumns(*this)).rank() == getTotalOutDimSizeLog2();
}

bool LinearLayout::isInjective() const {
  return ColumnEchelon(packedColumns(*this)).rank() == getTotalInDimSizeLog2();
}

//===----------------------------------------------------------------------===//
// Apply
//===----------------------------------------------------------------------===//

Result<LinearLayout::Point> LinearLayout::apply(const Point &in) const {
  std::vector<int32_t> values(ins_.size());
  std::vector<bool> given(ins_.size(), false);
  for (const auto &[name, value] : in) {
    int d = inDimIndex(name);
    if (d < 0)
      return Error("apply: '" + name + "' is not an in dim of the layout " +
                   formatNames(getInDimNames()));
    if (given[d])
      return Error("apply: in dim '" + name + "' is given twice");
    int32_t size = getInDimSize(name);
    if (value < 0 || value >= size)
      return Error("apply: " + name + " = " + std::to_string(value) +
                   " is outside [0, " + std::to_string(size) + ")");
    given[d] = true;
    values[d] = value;
  }
  Point ordered;
  for (size_t d = 0; d < ins_.size(); ++d) {
    if (!given[d])
      return Error("apply: in dim '" + ins_[d].name + "' is missing");
    ordered.emplace_back(ins_[d].name, values[d]);
  }
  return applyUnchecked(ordered);
}

LinearLayout::Point LinearLayout::applyUnchecked(const Point &in) const {
  assert(in.size() <= ins_.size() && "applyUnchecked: at most one value per in dim");
  Basis result(outs_.size(), 0);
  for (size_t d = 0; d < std::min(in.size(), ins_.size()); ++d) {
    assert(in[d].first == ins_[d].name && "applyUnchecked: in dim order");
    uint32_t value = uint32_t(in[d].second);
    assert(value < (uint32_t(1) << ins_[d].bases.size()) &&
           "applyUnchecked: value out of range");
    for (size_t i = 0; i < ins_[d].bases.size(); ++i)
      if ((value >> i) & 1)
        for (size_t j = 0; j < outs_.size(); ++j)
          result[j] ^= ins_[d].bases[i][j];
  }
  Point out;
  for (size_t j = 0; j < outs_.size(); ++j)
    out.emplace_back(outs_[j].name, result[j]);
  return out;
}

//===----------------------------------------------------------------------===//
// Product and composition
//===----------------------------------------------------------------------===//

LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer) {
  using Basis = LinearLayout::Basis;
  std::vector<LinearLayout::OutDim> outs = inner.outs_;
  // For each of outer's out dims: its index in the product and the factor
  // that lifts outer's entries above inner's range.
  std::vector<int> outerToProduct;
  std::vector<int32_t> scale;
  for (const auto &out : outer.outs_) {
    int j = inner.outDimIndex(out.name);
    if (j < 0) {
      outerToProduct.push_back(static_cast<int>(outs.size()));
      scale.push_back(1);
      outs.push_back(out);
      continue;
    }
    assert(log2Exact(outs[j].size) + log2Exact(out.size) <=
               LinearLayout::kMaxDimSizeLog2 &&
           "operator*: out dim over the size limit");
    outerToProduct.push_back(j);
    scale.push_back(outs[j].size);
    outs[j].size *= out.size;
  }

  std::vector<LinearLayout::InDim> ins;
  for (const auto &in : inner.ins_) {
    std::vector<Basis> bases;
    for (const auto &basis : in.bases) {
      Basis widened = basis;
      widened.resize(outs.size(), 0);
      bases.push_back(std::move(widened));
    }
    ins.push_back({in.name, std::move(bases)});
  }
  for (const auto &in : outer.ins_) {
    int d = inner.inDimIndex(in.name);
    if (d < 0) {
      d = static_cast<int>(ins.size());
      ins.push_back({in.name, {}});
    }
    for (const auto &basis : in.bases) {
      Basis lifted(outs.size(), 0);
      for (size_t j = 0; j < basis.size(); ++j)
        lifted[outerToProduct[j]] = basis[j] * scale[j];
      ins[d].bases.push_back(std::move(lifted));
    }
    assert(ins[d].bases.size() <= size_t(LinearLayout::kMaxDimSizeLog2) &&
           "operator*: in dim over the size limit");
  }
  LinearLayout product(std::move(ins), std::move(outs));
  assert(product.getTotalInDimSizeLog2() <= LinearLayout::kMaxTotalSizeLog2 &&
         product.getTotalOutDimSizeLog2() <= LinearLayout::kMaxTotalSizeLog2 &&
         "operator*: total size over the limit");
  return product;
}

Result<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  if (auto why = checkPermutation(getOutDimNames(), outer.getInDimNames(),
                                  "compose: out dims"))
    return Error(*why + " (outer's in dims)");
  // Position in outer's in-dim order of each of this's out dims.
  std::vector<int> outerIn;
  for (const auto &out : outs_) {
    int d = outer.inDimIndex(out.name);
    if (out.size > outer.getInDimSize(out.name))
      return Error("compose: out dim '" + out.name + "' has size " +
                   std::to_string(out.size) + " but outer's in dim has size " +
                   std::to_string(outer.getInDimSize(out.name)));
    outerIn.push_back(d);
  }
  std::vector<InDim> ins;
  for (const auto &in : ins_) {
    std::vector<Basis> bases;
    for (const auto &basis : in.bases) {
      Point point(outer.ins_.size());
      for (size_t d = 0; d < outer.ins_.size(); ++d)
        point[d] = {outer.ins_[d].name, 0};
      for (size_t j = 0; j < outs_.size(); ++j)
        point[outerIn[j]].second = basis[j];
      Basis image;
      for (const auto &[name, value] : outer.applyUnchecked(point))
        image.push_back(value);
      bases.push_back(std::move(image));
    }
    ins.push_back({in.name, std::move(bases)});
  }
  return LinearLayout(std::move(ins), outer.outs_);
}

//===----------------------------------------------------------------------===//
// Inverses
//===----------------------------------------------------------------------===//

Result<LinearLayout> LinearLayout::pseudoinvert() const {
  ColumnEchelon echelon(packedColumns(*this));
  if (echelon.rank() != getTotalOutDimSizeLog2())
    return Error("pseudoinvert: layout is not surjective (rank " +
                 std::to_string(echelon.rank()) + " of " +
                 std::to_string(getTotalOutDimSizeLog2()) + " out bits)\n" +
                 toString());
  std::vector<InDim> ins;
  OutPacking packing(outs_);
  for (size_t j = 0; j < outs_.size(); ++j) {
    std::vector<Basis> bases;
    for (int b = 0; b < packing.width[j]; ++b) {
      std::optional<uint64_t> preimage =
          echelon.solve(uint64_t(1) << (packing.offset[j] + b));
      assert(preimage && "surjective layouts reach every output");
      bases.push_back(unpackInBits(*preimage, ins_));
    }
    ins.push_back({outs_[j].name, std::move(bases)});
  }
  std::vector<OutDim> outs;
  for (const auto &in : ins_)
    outs.push_back({in.name, int32_t(1) << in.bases.size()});
  return LinearLayout(std::move(ins), std::move(outs));
}

Result<LinearLayout> LinearLayout::invert() const {
  if (!isInjective())
    return Error("invert: layout is not injective (some inputs share an "
                 "output)\n" +
                 toString());
  if (!isSurjective())
    return Error("invert: layout is not surjective (some outputs are not "
                 "reached)\n" +
                 toString());
  return pseudoinvert();
}

Result<LinearLayout>
LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (auto why = checkPermutation(getOutDimNames(), outer.getOutDimNames(),
                                  "invertAndCompose: out dims"))
    return Error(*why + " (outer's out dims)");
  // This layout's outputs packed the way outer packs its own.
  OutPacking outerPacking(outer.outs_);
  std::vector<int> outerOut;
  for (const auto &out : outs_) {
    if (out.size > outer.getOutDimSize(out.name))
      return Error("invertAndCompose: out dim '" + out.name + "' has size " +
                   std::to_string(out.size) + " but outer's has size " +
                   std::to_string(outer.getOutDimSize(out.name)));
    outerOut.push_back(outer.outDimIndex(out.name));
  }
  ColumnEchelon echelon(packedColumns(outer));
  std::vector<InDim> ins;
  for (const auto &in : ins_) {
    std::vector<Basis> bases;
    for (size_t i = 0; i < in.bases.size(); ++i) {
      Basis reordered(outer.outs_.size(), 0);
      for (size_t j = 0; j < outs_.size(); ++j)
        reordered[outerOut[j]] = in.bases[i][j];
      std::optional<uint64_t> preimage =
          echelon.solve(outerPacking.pack(reordered));
      if (!preimage)
        return Error("invertAndCompose: basis " + std::to_string(i) +
                     " of in dim '" + in.name + "' maps to " +
                     formatList(reordered) +
                     " (outer's out order), which "
                     "outer does not reach\n" +
                     outer.toString());
      bases.push_back(unpackInBits(*preimage, outer.ins_));
    }
    ins.push_back({in.name, std::move(bases)});
  }
  std::vector<OutDim> outs;
  for (const auto &in : outer.ins_)
    outs.push_back({in.name, int32_t(1) << in.bases.size()});
  return LinearLayout(std::move(ins), std::move(outs));
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

Result<LinearLayout>
LinearLayout::sublayout(const std::vector<std::string> &ins,
                        const std::vector<std::string> &outs) const {
  std::vector<bool> keepIn(ins_.size(), false), keepOut(outs_.size(), false);
  for (const auto &name : ins) {
    int d = inDimIndex(name);
    if (d < 0)
      return Error("sublayout: '" + name + "' is not an in dim of " +
                   formatNames(getInDimNames()));
    if (keepIn[d])
      return Error("sublayout: in dim '" + name + "' is listed twice");
    keepIn[d] = true;
  }
  for (const auto &name : outs) {
    int j = outDimIndex(name);
    if (j < 0)
      return Error("sublayout: '" + name + "' is not an out dim of " +
                   formatNames(getOutDimNames()));
    if (keepOut[j])
      return Error("sublayout: out dim '" + name + "' is listed twice");
    keepOut[j] = true;
  }
  std::vector<OutDim> newOuts;
  for (size_t j = 0; j < outs_.size(); ++j)
    if (keepOut[j])
      newOuts.push_back(outs_[j]);
  std::vector<InDim> newIns;
  for (size_t d = 0; d < ins_.size(); ++d) {
    if (!keepIn[d])
      continue;
    std::vector<Basis> bases;
    for (const auto &basis : ins_[d].bases) {
      Basis kept;
      for (size_t j = 0; j < outs_.size(); ++j)
        if (keepOut[j])
          kept.push_back(basis[j]);
      bases.push_back(std::move(kept));
    }
    newIns.push_back({ins_[d].name, std::move(bases)});
  }
  return LinearLayout(std::move(newIns), std::move(newOuts));
}

Result<LinearLayout> LinearLayout::reshapeIns(
    const std::vector<std::pair<std::string, int32_t>> &ins) const {
  std::vector<Basis> allBases;
  for (const auto &in : ins_)
    allBases.insert(allBases.end(), in.bases.begin(), in.bases.end());
  std::vector<InDim> newIns;
  size_t next = 0;
  for (const auto &[name, size] : ins) {
    if (!isPowerOf2(size))
      return Error("reshapeIns: in dim '" + name + "' has size " +
                   std::to_string(size) + ", not a power of two");
    size_t count = log2Exact(size);
    if (next + count > allBases.size())
      return Error("reshapeIns: the new in dims exceed the total in size 2^" +
                   std::to_string(allBases.size()) + " at '" + name + "'");
    newIns.push_back(
        {name, std::vector<Basis>(allBases.begin() + next,
                                  allBases.begin() + next + count)});
    next += count;
  }
  if (next != allBases.size())
    return Error("reshapeIns: the new in dims have a total size of 2^" +
                 std::to_string(next) + ", expected 2^" +
                 std::to_string(allBases.size()));
  return create(std::move(newIns), outs_, /*requireSurjective=*/false);
}

Result<LinearLayout> LinearLayout::reshapeOuts(
    const std::vector<std::pair<std::string, int32_t>> &outs) const {
  int64_t totalLog2 = 0;
  std::vector<OutDim> newOuts;
  for (const auto &[name, size] : outs) {
    if (!isPowerOf2(size))
      return Error("reshapeOuts: out dim '" + name + "' has size " +
                   std::to_string(size) + ", not a power of two");
    totalLog2 += log2Exact(size);
    newOuts.push_back({name, size});
  }
  if (totalLog2 != getTotalOutDimSizeLog2())
    return Error("reshapeOuts: the new out dims have a total size of 2^" +
                 std::to_string(totalLog2) + ", expected 2^" +
                 std::to_string(getTotalOutDimSizeLog2()));
  OutPacking oldPacking(outs_), newPacking(newOuts);
  std::vector<InDim> newIns;
  for (const auto &in : ins_) {
    std::vector<Basis> bases;
    for (const auto &basis : in.bases)
      bases.push_back(newPacking.unpack(oldPacking.pack(basis)));
    newIns.push_back({in.name, std::move(bases)});
  }
  return create(std::move(newIns), std::move(newOuts),
                /*requireSurjective=*/false);
}

Result<LinearLayout>
LinearLayout::transposeIns(const std::vector<std::string> &order) const {
  if (auto why = checkPermutation(order, getInDimNames(), "transposeIns:"))
    return Error(*why);
  std::vector<InDim> ins;
  for (const auto &name : order)
    ins.push_back(ins_[inDimIndex(name)]);
  return LinearLayout(std::move(ins), outs_);
}

Result<LinearLayout>
LinearLayout::transposeOuts(const std::vector<std::string> &order) const {
  if (auto why = checkPermutation(order, getOutDimNames(), "transposeOuts:"))
    return Error(*why);
  std::vector<int> from;
  std::vector<OutDim> outs;
  for (const auto &name : order) {
    from.push_back(outDimIndex(name));
    outs.push_back(outs_[from.back()]);
  }
  std::vector<InDim> ins;
  for (const auto &in : ins_) {
    std::vector<Basis> bases;
    for (const auto &basis : in.bases) {
      Basis permuted;
      for (int j : from)
        permuted.push_back(basis[j]);
      bases.push_back(std::move(permuted));
    }
    ins.push_back({in.name, std::move(bases)});
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

Result<LinearLayout> LinearLayout::flattenIns() const {
  if (ins_.empty())
    return *this;
  int totalLog2 = getTotalInDimSizeLog2();
  if (totalLog2 > kMaxDimSizeLog2)
    return Error("flattenIns: total in size 2^" + std::to_string(totalLog2) +
                 " is over the dim size limit 2^" +
                 std::to_string(kMaxDimSizeLog2));
  return reshapeIns({{ins_[0].name, int32_t(1) << totalLog2}});
}

Result<LinearLayout> LinearLayout::flattenOuts() const {
  if (outs_.empty())
    return *this;
  int totalLog2 = getTotalOutDimSizeLog2();
  if (totalLog2 > kMaxDimSizeLog2)
    return Error("flattenOuts: total out size 2^" + std::to_string(totalLog2) +
                 " is over the dim size limit 2^" +
                 std::to_string(kMaxDimSizeLog2));
  return reshapeOuts({{outs_[0].name, int32_t(1) << totalLog2}});
}

int32_t LinearLayout::getNumConsecutiveInOut() const {
  if (ins_.empty() || outs_.empty())
    return 1;
  const std::vector<Basis> &first = ins_[0].bases;
  int k = 0;
  for (; size_t(k) < first.size(); ++k) {
    const Basis &basis = first[k];
    if (basis[0] != (int32_t(1) << k) ||
        std::any_of(basis.begin() + 1, basis.end(),
                    [](int32_t v) { return v != 0; }))
      break;
  }
  // Any other basis with a low bit set in the first out dim would shift the
  // run off its alignment, so it caps the width at that bit.
  for (size_t d = 0; d < ins_.size(); ++d)
    for (size_t i = d == 0 ? k : 0; i < ins_[d].bases.size(); ++i) {
      int32_t entry = ins_[d].bases[i][0];
      if (entry != 0)
        k = std::min(k, __builtin_ctz(uint32_t(entry)));
    }
  return int32_t(1) << k;
}

LinearLayout
LinearLayout::removeZeroBasesAlongDim(const std::string &in) const {
  int d = inDimIndex(in);
  assert(d >= 0 && "no such in dim");
  std::vector<InDim> ins = ins_;
  auto &bases = ins[d].bases;
  bases.erase(std::remove_if(bases.begin(), bases.end(),
                             [](const Basis &basis) {
                               return std::all_of(
                                   basis.begin(), basis.end(),
                                   [](int32_t v) { return v == 0; });
                             }),
              bases.end());
  return LinearLayout(std::move(ins), outs_);
}

bool LinearLayout::sublayoutIsZero(const std::vector<std::string> &ins,
                                   const std::vector<std::string> &outs) const {
  for (const auto &in : ins) {
    int d = inDimIndex(in);
    assert(d >= 0 && "no such in dim");
    for (const auto &out : outs) {
      int j = outDimIndex(out);
      assert(j >= 0 && "no such out dim");
      for (const auto &basis : ins_[d].bases)
        if (basis[j] != 0)
          return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Equality and printing
//===----------------------------------------------------------------------===//

bool operator==(const LinearLayout &a, const LinearLayout &b) {
  if (a.ins_.size() != b.ins_.size() || a.outs_.size() != b.outs_.size())
    return false;
  for (size_t d = 0; d < a.ins_.size(); ++d)
    if (a.ins_[d].name != b.ins_[d].name || a.ins_[d].bases != b.ins_[d].bases)
      return false;
  for (size_t j = 0; j < a.outs_.size(); ++j)
    if (a.outs_[j].name != b.outs_[j].name ||
        a.outs_[j].size != b.outs_[j].size)
      return false;
  return true;
}

std::string LinearLayout::toString() const {
  std::ostringstream os;
  for (const auto &in : ins_) {
    os << in.name << " (" << (int64_t(1) << in.bases.size()) << "):";
    if (in.bases.empty())
      os << " -";
    for (const auto &basis : in.bases)
      os << " " << formatList(basis);
    os << "\n";
  }
  os << "->";
  if (outs_.empty())
    os << " -";
  for (size_t j = 0; j < outs_.size(); ++j)
    os << (j ? ", " : " ") << outs_[j].name << " (" << outs_[j].size << ")";
  return os.str();
}

std::ostream &operator<<(std::ostream &os, const LinearLayout &layout) {
  return os << layout.toString();
}

} // namespace hadron
