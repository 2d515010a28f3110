//===- TextKernel.cpp - Writing hd kernels as text ------------------------===//

#include "testkit/TextKernel.h"

namespace hadron::testkit {

std::string tensor(const std::vector<int> &shape, const std::string &elem,
                   const std::string &layout) {
  return "tensor<" + shapeStr(shape) + "x" + elem + ", " + layout + ">";
}

std::string ptr(const std::string &elem) { return "!hd.ptr<" + elem + ">"; }

std::string Kernel::layout(const std::string &alias, const std::string &definition) {
  std::string name = alias[0] == '#' ? alias : "#" + alias;
  for (const auto &entry : layouts_)
    if (entry.first == name)
      return name;
  layouts_.emplace_back(name, definition);
  return name;
}

std::string Kernel::arg(const std::string &type, const std::string &attrs) {
  std::string name = "%arg" + std::to_string(args_.size());
  args_.push_back(name + ": " + type + (attrs.empty() ? "" : " " + attrs));
  return name;
}

std::string Kernel::fresh() { return "%v" + std::to_string(next_++); }

std::string Kernel::let(const std::string &rhs) {
  std::string name = fresh();
  body_.push_back(name + " = " + rhs);
  return name;
}

std::vector<std::string> Kernel::letMany(int count, const std::string &rhs) {
  std::string name = fresh();
  body_.push_back(name + ":" + std::to_string(count) + " = " + rhs);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i)
    names.push_back(name + "#" + std::to_string(i));
  return names;
}

void Kernel::line(const std::string &text) { body_.push_back(text); }

std::string Kernel::constI32(long long v) {
  return let("arith.constant " + std::to_string(v) + " : i32");
}

std::string Kernel::constIndex(long long v) {
  return let("arith.constant " + std::to_string(v) + " : index");
}

std::string Kernel::dense(const std::string &value, const std::string &type) {
  return let("arith.constant dense<" + value + "> : " + type);
}

std::string Kernel::splat(const std::string &scalar, const std::string &type) {
  return let("hd.splat " + scalar + " : " + type);
}

std::string Kernel::programId(int axis) { return let("hd.program_id " + std::to_string(axis)); }

std::string Kernel::pointers(const std::string &base, const std::string &elem,
                             const std::string &offsets, const std::vector<int> &shape,
                             const std::string &layout) {
  std::string pt = tensor(shape, ptr(elem), layout);
  std::string p = splat(base, pt);
  return let("hd.addptr " + p + ", " + offsets + " : " + pt + ", " + tensor(shape, "i32", layout));
}

std::string Kernel::load(const std::string &ptrs, const std::string &elem,
                         const std::vector<int> &shape, const std::string &layout,
                         const std::string &mask, const std::string &other) {
  std::string s = "hd.load " + ptrs;
  if (!mask.empty())
    s += " mask " + mask;
  if (!other.empty())
    s += " other " + other;
  return let(s + " : " + tensor(shape, ptr(elem), layout));
}

void Kernel::store(const std::string &ptrs, const std::string &value, const std::string &elem,
                   const std::vector<int> &shape, const std::string &layout,
                   const std::string &mask) {
  line("hd.store " + ptrs + ", " + value + (mask.empty() ? "" : " mask " + mask) + " : " +
       tensor(shape, ptr(elem), layout));
}

Kernel::Tile Kernel::tile1d(int n, const std::string &layout, const std::string &start,
                            const std::string &limit) {
  std::string t = tensor({n}, "i32", layout);
  std::string offs = let("hd.arange 0 to " + std::to_string(n) + " : " + t);
  if (!start.empty())
    offs = let("arith.addi " + splat(start, t) + ", " + offs + " : " + t);
  std::string mask;
  if (!limit.empty())
    mask = let("arith.cmpi slt, " + offs + ", " + splat(limit, t) + " : " + t);
  return {offs, mask};
}

Kernel::Tile Kernel::tile2d(const std::vector<int> &shape, const std::string &lay,
                            const std::string &row0, const std::string &col0,
                            const std::string &ld, const std::string &rows,
                            const std::string &cols) {
  const int m = shape[0], n = shape[1];
  std::string rl = layout(lay + "_r", slice(1, lay));
  std::string cl = layout(lay + "_c", slice(0, lay));
  Tile r = tile1d(m, rl, row0, rows);
  Tile c = tile1d(n, cl, col0, cols);
  std::string rt = tensor({m}, "i32", rl), ct = tensor({n}, "i32", cl);
  std::string full = tensor(shape, "i32", lay);
  std::string rowStart = let("arith.muli " + r.offsets + ", " + splat(ld, rt) + " : " + rt);
  auto widen = [&](const std::string &v, int axis, const std::string &elem,
                   const std::string &from) {
    std::vector<int> s1 = axis == 1 ? std::vector<int>{m, 1} : std::vector<int>{1, n};
    std::string e = let("hd.expand_dims " + v + " axis = " + std::to_string(axis) + " : " +
                        tensor({axis == 1 ? m : n}, elem, from) + " -> " + tensor(s1, elem, lay));
    return let("hd.broadcast " + e + " : " + tensor(s1, elem, lay) + " -> " +
               tensor(shape, elem, lay));
  };
  std::string offs =
      let("arith.addi " + widen(rowStart, 1, "i32", rl) + ", " + widen(c.offsets, 0, "i32", cl) +
          " : " + full);
  std::string mask;
  if (!rows.empty() && !cols.empty())
    mask = let("arith.andi " + widen(r.mask, 1, "i1", rl) + ", " + widen(c.mask, 0, "i1", cl) +
               " : " + tensor(shape, "i1", lay));
  return {offs, mask};
}

void Kernel::combine(const std::string &elem, const std::string &op) {
  std::string a = fresh(), b = fresh();
  line("^bb0(" + a + ": " + elem + ", " + b + ": " + elem + "):");
  std::string s = let(op + " " + a + ", " + b + " : " + elem);
  line("hd.yield " + s + " : " + elem);
  line("}");
}

std::string Kernel::str() const {
  std::string s;
  for (const auto &entry : layouts_)
    s += entry.first + " = " + entry.second + "\n";
  s += "module attributes {hd.num_warps = " + std::to_string(numWarps_) + " : i32} {\n";
  s += "  func.func @" + name_ + "(";
  for (size_t i = 0; i < args_.size(); ++i)
    s += (i ? ", " : "") + args_[i];
  s += ") attributes {hd.kernel} {\n";
  for (const std::string &l : body_)
    s += "    " + l + "\n";
  s += "    return\n  }\n}\n";
  return s;
}

} // namespace hadron::testkit
