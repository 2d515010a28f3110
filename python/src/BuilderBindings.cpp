//===- BuilderBindings.cpp - hadron._builder over the C++ builder ---------===//
//
// The Python front end (hadron/frontend.py) walks a kernel's AST and calls
// these functions, each a thin shell over one function of Builder.h: the IR
// is built by the same C++ code as a C++ kernel's. Each call runs under
// catch_trace_error, so a trace error surfaces as hadron.CompileError at the
// Python call that made it (its message already names the user's Python
// line, which the front end sets with set_location before the call).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "hadron/Builder/Builder.h"

#include <nanobind/stl/array.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>

namespace nb = nanobind;
namespace hb = hadron::builder;

namespace hadron::python {
namespace {

/// Runs `fn` (builder calls); a trace error becomes CompileError.
template <typename F> auto guarded(F &&fn) {
  using R = std::invoke_result_t<F &>;
  if constexpr (std::is_void_v<R>) {
    if (auto error = hb::catch_trace_error(fn))
      throw CompileError(*error);
  } else {
    std::optional<R> result;
    if (auto error = hb::catch_trace_error([&] { result.emplace(fn()); }))
      throw CompileError(*error);
    return std::move(*result);
  }
}

/// A Python number or hadron._builder.Tensor as a builder operand.
hb::Operand operand(nb::handle h) {
  if (nb::isinstance<hb::Tensor>(h))
    return hb::Operand(nb::cast<hb::Tensor>(h));
  if (PyBool_Check(h.ptr()))
    return hb::Operand(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr()))
    return hb::Operand(nb::cast<int64_t>(h));
  if (PyFloat_Check(h.ptr()))
    return hb::Operand(nb::cast<double>(h));
  throw nb::type_error(("expected a tensor or a number, got " +
                        std::string(nb::str(nb::type_name(h.type())).c_str()))
                           .c_str());
}

hb::OptionalOperand optionalOperand(nb::handle h) {
  if (h.is_none())
    return std::nullopt;
  return operand(h);
}

hb::Tensor optionalTensor(const std::optional<hb::Tensor> &t) { return t ? *t : hb::Tensor(); }

/// A dot operand: a hadron._builder.Tensor or SharedMemory.
hb::DotInput dotInput(nb::handle h, const char *name) {
  if (nb::isinstance<hb::Tensor>(h))
    return nb::cast<hb::Tensor>(h);
  if (nb::isinstance<hb::SharedMemory>(h))
    return nb::cast<hb::SharedMemory>(h);
  throw nb::type_error((std::string("dot: ") + name +
                        " must be a tensor or shared memory, got " +
                        nb::str(nb::type_name(h.type())).c_str())
                           .c_str());
}

template <typename E>
E enumOf(const std::string &name, const std::map<std::string, E> &names, const char *what) {
  auto it = names.find(name);
  if (it != names.end())
    return it->second;
  std::string known;
  for (const auto &[n, _] : names)
    known += (known.empty() ? "" : ", ") + n;
  throw nb::value_error((std::string(what) + " `" + name + "` is none of " + known).c_str());
}

hb::CacheModifier cacheOf(const std::string &s) {
  using C = hb::CacheModifier;
  return enumOf<C>(s,
                   {{"", C::normal},
                    {".ca", C::cache_all},
                    {".cg", C::cache_global},
                    {".cs", C::streaming},
                    {".cv", C::no_cache},
                    {".wb", C::write_back},
                    {".wt", C::write_through}},
                   "cache modifier");
}

hb::EvictionPolicy evictOf(const std::string &s) {
  using E = hb::EvictionPolicy;
  return enumOf<E>(
      s, {{"", E::normal}, {"evict_first", E::evict_first}, {"evict_last", E::evict_last}},
      "eviction policy");
}

hb::AtomicOptions atomicOptions(const std::string &sem, const std::string &scope) {
  using S = hb::MemSemantic;
  using P = hb::MemScope;
  return {enumOf<S>(sem,
                    {{"relaxed", S::relaxed},
                     {"acquire", S::acquire},
                     {"release", S::release},
                     {"acq_rel", S::acq_rel}},
                    "memory semantic"),
          enumOf<P>(scope, {{"cta", P::cta}, {"gpu", P::gpu}, {"sys", P::system}}, "memory scope")};
}

hb::FastMath fastOf(bool fast) { return fast ? hb::FastMath::afn : hb::FastMath::none; }

using Binary = hb::Tensor (*)(const hb::Operand &, const hb::Operand &);
const std::map<std::string, Binary> &binaryOps() {
  static const std::map<std::string, Binary> ops = {
      {"+", [](const hb::Operand &a, const hb::Operand &b) { return a + b; }},
      {"-", [](const hb::Operand &a, const hb::Operand &b) { return a - b; }},
      {"*", [](const hb::Operand &a, const hb::Operand &b) { return a * b; }},
      {"/", [](const hb::Operand &a, const hb::Operand &b) { return a / b; }},
      {"%", [](const hb::Operand &a, const hb::Operand &b) { return a % b; }},
      {"&", [](const hb::Operand &a, const hb::Operand &b) { return a & b; }},
      {"|", [](const hb::Operand &a, const hb::Operand &b) { return a | b; }},
      {"^", [](const hb::Operand &a, const hb::Operand &b) { return a ^ b; }},
      {"<<", [](const hb::Operand &a, const hb::Operand &b) { return a << b; }},
      {">>", [](const hb::Operand &a, const hb::Operand &b) { return a >> b; }},
      {"<", [](const hb::Operand &a, const hb::Operand &b) { return a < b; }},
      {"<=", [](const hb::Operand &a, const hb::Operand &b) { return a <= b; }},
      {">", [](const hb::Operand &a, const hb::Operand &b) { return a > b; }},
      {">=", [](const hb::Operand &a, const hb::Operand &b) { return a >= b; }},
      {"==", [](const hb::Operand &a, const hb::Operand &b) { return a == b; }},
      {"!=", [](const hb::Operand &a, const hb::Operand &b) { return a != b; }},
      {"maximum", [](const hb::Operand &a, const hb::Operand &b) { return hb::maximum(a, b); }},
      {"minimum", [](const hb::Operand &a, const hb::Operand &b) { return hb::minimum(a, b); }},
  };
  return ops;
}

using Atomic = hb::Tensor (*)(const hb::Tensor &, const hb::Operand &, const hb::Tensor &,
                              hb::AtomicOptions, hb::SourceLoc);
const std::map<std::string, Atomic> &atomicOps() {
  static const std::map<std::string, Atomic> ops = {
      {"add", &hb::atomic_add}, {"max", &hb::atomic_max}, {"min", &hb::atomic_min},
      {"and", &hb::atomic_and}, {"or", &hb::atomic_or},   {"xor", &hb::atomic_xor},
      {"xchg", &hb::atomic_xchg},
  };
  return ops;
}

using Unary = hb::Tensor (*)(const hb::Tensor &, hb::FastMath);
const std::map<std::string, Unary> &mathOps() {
  static const std::map<std::string, Unary> ops = {
      {"exp", [](const hb::Tensor &x, hb::FastMath f) { return hb::exp(x, f); }},
      {"exp2", [](const hb::Tensor &x, hb::FastMath f) { return hb::exp2(x, f); }},
      {"log", [](const hb::Tensor &x, hb::FastMath f) { return hb::log(x, f); }},
      {"log2", [](const hb::Tensor &x, hb::FastMath f) { return hb::log2(x, f); }},
      {"sqrt", [](const hb::Tensor &x, hb::FastMath f) { return hb::sqrt(x, f); }},
      {"rsqrt", [](const hb::Tensor &x, hb::FastMath f) { return hb::rsqrt(x, f); }},
      {"sin", [](const hb::Tensor &x, hb::FastMath f) { return hb::sin(x, f); }},
      {"cos", [](const hb::Tensor &x, hb::FastMath f) { return hb::cos(x, f); }},
      {"abs", [](const hb::Tensor &x, hb::FastMath) { return hb::abs(x); }},
  };
  return ops;
}

using Reduction = hb::Tensor (*)(const hb::Tensor &, int, hb::SourceLoc);
const std::map<std::string, Reduction> &reductions() {
  static const std::map<std::string, Reduction> ops = {
      {"sum", &hb::sum},       {"max", &hb::max},       {"min", &hb::min},
      {"argmax", &hb::argmax}, {"argmin", &hb::argmin},
  };
  return ops;
}

template <typename M>
typename M::mapped_type lookup(const M &ops, const std::string &name, const char *what) {
  auto it = ops.find(name);
  if (it == ops.end())
    throw nb::value_error((std::string("no ") + what + " `" + name + "`").c_str());
  return it->second;
}

/// Calls a Python body that returns a list of tensors.
hb::Values valuesFrom(nb::handle result, const char *what) {
  if (result.is_none())
    return {};
  if (!nb::isinstance<nb::list>(result) && !nb::isinstance<nb::tuple>(result))
    throw nb::type_error((std::string(what) + " must return a list of tensors").c_str());
  return nb::cast<hb::Values>(result);
}

} // namespace

void bindBuilder(nb::module_ &m) {
  nb::class_<hb::DType>(m, "DType")
      .def_static("from_text", &hb::DType::fromText)
      .def("__str__", &hb::DType::str)
      .def("__repr__", [](const hb::DType &t) { return "DType(" + t.str() + ")"; })
      .def("__eq__", [](const hb::DType &a, const hb::DType &b) { return a == b; })
      .def("__hash__", [](const hb::DType &t) { return std::hash<std::string>()(t.str()); })
      .def_prop_ro("is_integer", &hb::DType::isInteger)
      .def_prop_ro("is_float", &hb::DType::isFloat)
      .def_prop_ro("is_pointer", &hb::DType::isPointer)
      .def_prop_ro("bits", &hb::DType::bits)
      .def_prop_ro("pointee", &hb::DType::pointee);
  m.def("pointer_type", [](const hb::DType &pointee, const std::string &space) {
    using A = hb::AddressSpace;
    return hb::pointer_type(
        pointee,
        enumOf<A>(space, {{"global", A::global}, {"shared", A::shared}, {"generic", A::generic}},
                  "address space"));
  });

  nb::class_<hb::Layout>(m, "Layout")
      .def_static("blocked",
                  [](std::vector<unsigned> spt, std::vector<unsigned> tpw,
                     std::vector<unsigned> wpc, std::vector<unsigned> order) {
                    return hb::Layout(hb::Blocked{spt, tpw, wpc, order});
                  })
      .def_static("slice",
                  [](unsigned dim, const hb::Layout &parent) {
                    return hb::Layout(hb::Slice{dim, parent});
                  })
      .def_static("linear",
                  [](hb::Bases reg, hb::Bases lane, hb::Bases warp, hb::Bases block) {
                    return hb::Layout(hb::Linear{reg, lane, warp, block});
                  })
      .def_static("dot_operand",
                  [](unsigned opIdx, const hb::Layout &parent, unsigned kWidth) {
                    return hb::Layout(hb::DotOperand{opIdx, parent, kWidth});
                  })
      .def_static("mma",
                  [](std::string instr, std::vector<unsigned> warps) {
                    return hb::Layout(hb::Mma{std::move(instr), std::move(warps)});
                  })
      .def_static("auto", [] { return hb::Layout(hb::AutoLayout{}); })
      .def_static("coalesced", [] { return hb::Layout(hb::Coalesced{}); })
      .def_static(
          "swizzled",
          [](unsigned vec, unsigned perPhase, unsigned maxPhase, std::vector<unsigned> order) {
            return hb::Layout(hb::Swizzled{vec, perPhase, maxPhase, order});
          })
      .def_static("padded",
                  [](std::vector<unsigned> intervals, std::vector<unsigned> paddings,
                     std::vector<unsigned> order) {
                    return hb::Layout(hb::Padded{intervals, paddings, order});
                  })
      .def_static("matrix_shared",
                  [](unsigned swizzle, unsigned elementBits, bool transposed, unsigned rank) {
                    return hb::Layout(hb::MatrixShared{swizzle, elementBits, transposed, rank});
                  })
      .def_static("shared_linear",
                  [](hb::Bases offset) { return hb::Layout(hb::SharedLinear{offset}); })
      .def_static("from_text", &hb::Layout::fromText)
      .def("__str__", &hb::Layout::str)
      .def("__eq__", [](const hb::Layout &a, const hb::Layout &b) { return a == b; })
      .def("__hash__", [](const hb::Layout &l) { return std::hash<std::string>()(l.str()); })
      .def("mangle", &hb::Layout::mangle)
      .def_prop_ro("is_shared", &hb::Layout::isShared)
      .def_prop_ro("is_distributed", &hb::Layout::isDistributed);

  nb::class_<hb::Tensor>(m, "Tensor")
      .def_prop_ro("is_tile", &hb::Tensor::isTile)
      .def_prop_ro("shape", &hb::Tensor::shape)
      .def_prop_ro("dtype", &hb::Tensor::dtype)
      .def_prop_ro("layout", &hb::Tensor::layout)
      .def("type_str", &hb::Tensor::typeStr)
      .def("to",
           [](const hb::Tensor &t, const hb::DType &d) { return guarded([&] { return t.to(d); }); })
      .def("bitcast", [](const hb::Tensor &t, const hb::DType &d) {
        return guarded([&] { return t.bitcast(d); });
      });

  nb::class_<hb::SharedMemory>(m, "SharedMemory")
      .def_prop_ro("shape", &hb::SharedMemory::shape)
      .def_prop_ro("dtype", &hb::SharedMemory::dtype)
      .def_prop_ro("layout", &hb::SharedMemory::layout)
      .def("load", [](const hb::SharedMemory &s,
                      const hb::Layout &l) { return guarded([&] { return s.load(l); }); })
      .def("store",
           [](const hb::SharedMemory &s, const hb::Tensor &v) { guarded([&] { s.store(v); }); })
      .def("index", [](const hb::SharedMemory &s,
                       nb::handle i) { return guarded([&] { return s.index(operand(i)); }); })
      .def("slice",
           [](const hb::SharedMemory &s, std::vector<int64_t> offsets, std::vector<int64_t> shape) {
             return guarded([&] { return s.slice(offsets, shape); });
           })
      .def("permute",
           [](const hb::SharedMemory &s, std::vector<int> order) {
             return guarded([&] { return s.permute(order); });
           })
      .def("reinterpret",
           [](const hb::SharedMemory &s, const hb::DType &t, std::vector<int64_t> shape,
              const hb::Layout &l) { return guarded([&] { return s.reinterpret(t, shape, l); }); })
      .def("dealloc", [](const hb::SharedMemory &s) { guarded([&] { s.dealloc(); }); });

  nb::class_<hb::TensorDescriptor>(m, "TensorDescriptor")
      .def_prop_ro("block", &hb::TensorDescriptor::block)
      .def_prop_ro("dtype", &hb::TensorDescriptor::dtype)
      .def_prop_ro("layout", &hb::TensorDescriptor::layout)
      .def_prop_ro("block_bytes", &hb::TensorDescriptor::blockBytes);

  nb::class_<hb::Module>(m, "Module")
      .def_prop_ro("key", &hb::Module::key)
      .def_prop_ro("kernel_name", &hb::Module::kernelName)
      .def("__str__", &hb::Module::str);

  m.def("set_location", [](std::string file, unsigned line, unsigned column) {
    hb::set_user_location({std::move(file), line, column});
  });

  // Traces `body` (a Python callable building the kernel) into a module. A
  // Python exception the body raises passes through unchanged.
  m.def("trace",
        [](const std::string &name, const std::string &key, unsigned numWarps, nb::callable body,
           std::array<unsigned, 3> clusterDims) {
          struct ClearLocation {
            ~ClearLocation() { hb::set_user_location({}); }
          } clear;
          Result<hb::Module> result =
              hb::detail::trace(name, key, hb::Options{numWarps, clusterDims},
                                hb::SourceLoc::current(), [&] { body(); });
          if (!result)
            throw CompileError(result.error());
          return std::move(result).value();
        },
        nb::arg("name"), nb::arg("key"), nb::arg("num_warps"), nb::arg("body"),
        nb::arg("cluster_dims") = std::array<unsigned, 3>{1, 1, 1});

  m.def("arg", [](const hb::DType &t, int divisibility) {
    return guarded([&] { return hb::arg(t, {divisibility}); });
  });
  m.def("program_id", [](int axis) { return guarded([&] { return hb::program_id(axis); }); });
  m.def("num_programs", [](int axis) { return guarded([&] { return hb::num_programs(axis); }); });
  m.def("arange", [](int start, int end, const hb::Layout &l) {
    return guarded([&] { return hb::arange(start, end, l); });
  });
  m.def("full",
        [](std::vector<int64_t> shape, nb::handle value, const hb::DType &t, const hb::Layout &l) {
          return guarded([&] { return hb::full(shape, operand(value), t, l); });
        });
  m.def("constant", [](nb::handle value, const hb::DType &t) {
    return guarded([&] { return hb::constant(operand(value), t); });
  });

  m.def(
      "load",
      [](const hb::Tensor &ptr, std::optional<hb::Tensor> mask, nb::handle other,
         const std::string &cache, const std::string &evict, bool isVolatile) {
        return guarded([&] {
          return hb::load(ptr, optionalTensor(mask), optionalOperand(other),
                          {cacheOf(cache), evictOf(evict), isVolatile});
        });
      },
      nb::arg("pointer"), nb::arg("mask").none(), nb::arg("other").none(), nb::arg("cache"),
      nb::arg("evict"), nb::arg("is_volatile"));
  m.def(
      "store",
      [](const hb::Tensor &ptr, nb::handle value, std::optional<hb::Tensor> mask,
         const std::string &cache, const std::string &evict) {
        guarded([&] {
          hb::store(ptr, operand(value), optionalTensor(mask), {cacheOf(cache), evictOf(evict)});
        });
      },
      nb::arg("pointer"), nb::arg("value"), nb::arg("mask").none(), nb::arg("cache"),
      nb::arg("evict"));
  m.def(
      "atomic",
      [](const std::string &op, const hb::Tensor &ptr, nb::handle value,
         std::optional<hb::Tensor> mask, const std::string &sem, const std::string &scope) {
        Atomic fn = lookup(atomicOps(), op, "atomic operation");
        return guarded([&] {
          return fn(ptr, operand(value), optionalTensor(mask), atomicOptions(sem, scope),
                    hb::SourceLoc::current());
        });
      },
      nb::arg("op"), nb::arg("pointer"), nb::arg("value"), nb::arg("mask").none(), nb::arg("sem"),
      nb::arg("scope"));
  m.def("atomic_cas", [](const hb::Tensor &ptr, nb::handle cmp, nb::handle value,
                         const std::string &sem, const std::string &scope) {
    return guarded([&] {
      return hb::atomic_cas(ptr, operand(cmp), operand(value), atomicOptions(sem, scope));
    });
  });

  m.def("binary", [](const std::string &op, nb::handle a, nb::handle b) {
    Binary fn = lookup(binaryOps(), op, "binary operator");
    return guarded([&] { return fn(operand(a), operand(b)); });
  });
  m.def("neg", [](const hb::Tensor &x) { return guarded([&] { return -hb::Operand(x); }); });
  m.def("math", [](const std::string &op, const hb::Tensor &x, bool fast) {
    Unary fn = lookup(mathOps(), op, "math function");
    return guarded([&] { return fn(x, fastOf(fast)); });
  });
  // exp/exp2 with a share of the registers by the FMA polynomial
  // (hd.polynomial_share; the verifier wants fast, i.e. afn).
  m.def("exp_polynomial", [](const std::string &op, const hb::Tensor &x, bool fast, double share) {
    if (op != "exp" && op != "exp2")
      throw nb::value_error(("polynomial_share is for exp and exp2, not " + op).c_str());
    return guarded([&] {
      return op == "exp" ? hb::exp(x, fastOf(fast), share) : hb::exp2(x, fastOf(fast), share);
    });
  });
  m.def("where", [](nb::handle c, nb::handle a, nb::handle b) {
    return guarded([&] { return hb::where(operand(c), operand(a), operand(b)); });
  });
  m.def("fdiv", [](nb::handle a, nb::handle b, bool fast) {
    return guarded([&] { return hb::fdiv(operand(a), operand(b), fastOf(fast)); });
  });
  m.def("fma", [](nb::handle a, nb::handle b, nb::handle c) {
    return guarded([&] { return hb::fma(operand(a), operand(b), operand(c)); });
  });

  m.def("expand_dims", [](const hb::Tensor &x, int axis) {
    return guarded([&] { return hb::expand_dims(x, axis); });
  });
  m.def("broadcast", [](const hb::Tensor &x, std::vector<int64_t> shape) {
    return guarded([&] { return hb::broadcast(x, shape); });
  });
  m.def("convert_layout", [](const hb::Tensor &x, const hb::Layout &l) {
    return guarded([&] { return hb::convert_layout(x, l); });
  });
  m.def("reshape", [](const hb::Tensor &x, std::vector<int64_t> shape, const hb::Layout &l) {
    return guarded([&] { return hb::reshape(x, shape, l); });
  });
  m.def("permute", [](const hb::Tensor &x, std::vector<int> order, const hb::Layout &l) {
    return guarded([&] { return hb::permute(x, order, l); });
  });

  m.def("reduction", [](const std::string &op, const hb::Tensor &x, int axis) {
    Reduction fn = lookup(reductions(), op, "reduction");
    return guarded([&] { return fn(x, axis, hb::SourceLoc::current()); });
  });
  // combine(accumulators, elements) -> new accumulators, each a list.
  m.def("reduce", [](hb::Values xs, int axis, nb::callable combine) {
    return guarded([&] {
      return hb::reduce(xs, axis, [&](hb::Values acc, hb::Values cur) {
        return valuesFrom(combine(acc, cur), "a reduction's combine function");
      });
    });
  });
  m.def("associative_scan", [](const hb::Tensor &x, int axis, nb::callable combine, bool reverse) {
    return guarded([&] {
      return hb::associative_scan(
          x, axis, [&](hb::Tensor a, hb::Tensor b) { return nb::cast<hb::Tensor>(combine(a, b)); },
          reverse);
    });
  });
  m.def("cumsum", [](const hb::Tensor &x, int axis, bool reverse) {
    return guarded([&] { return hb::cumsum(x, axis, reverse); });
  });

  m.def(
      "allocate_shared_memory",
      [](const hb::DType &t, std::vector<int64_t> shape, const hb::Layout &l,
         std::optional<hb::Tensor> value) {
        return guarded(
            [&] { return hb::allocate_shared_memory(t, shape, l, optionalTensor(value)); });
      },
      nb::arg("type"), nb::arg("shape"), nb::arg("layout"), nb::arg("value").none());
  m.def("barrier", [] { guarded([] { hb::barrier(); }); });
  m.def(
      "async_copy",
      [](const hb::Tensor &ptr, const hb::SharedMemory &dst, std::optional<hb::Tensor> mask,
         nb::handle other) {
        return guarded(
            [&] { return hb::async_copy(ptr, dst, optionalTensor(mask), optionalOperand(other)); });
      },
      nb::arg("pointer"), nb::arg("dst"), nb::arg("mask").none(), nb::arg("other").none());
  m.def("async_commit_group",
        [](hb::Values copies) { return guarded([&] { return hb::async_commit_group(copies); }); });
  m.def("async_wait_group", [](int pending, hb::Values groups) {
    guarded([&] { hb::async_wait_group(pending, groups); });
  });

  // Tensor descriptors and the barriers their copies complete on.
  m.def("tensor_descriptor_arg",
        [](const hb::DType &t, std::vector<int64_t> block, const hb::Layout &l) {
          return guarded([&] { return hb::tensor_descriptor_arg(t, block, l); });
        });
  m.def("allocate_mbarriers", [](int n) { return guarded([&] { return hb::allocate_mbarriers(n); }); });
  m.def("mbarrier_init", [](const hb::SharedMemory &bar, int count) {
    guarded([&] { hb::mbarrier_init(bar, count); });
  });
  m.def(
      "mbarrier_expect",
      [](const hb::SharedMemory &bar, int64_t bytes, std::optional<hb::Tensor> pred) {
        guarded([&] { hb::mbarrier_expect(bar, bytes, optionalTensor(pred)); });
      },
      nb::arg("barrier"), nb::arg("bytes"), nb::arg("pred").none());
  m.def(
      "mbarrier_arrive",
      [](const hb::SharedMemory &bar, int count, std::optional<hb::Tensor> pred, bool perWarp,
         nb::handle rank) {
        guarded([&] {
          hb::mbarrier_arrive(bar, count, optionalTensor(pred), perWarp, optionalOperand(rank));
        });
      },
      nb::arg("barrier"), nb::arg("count"), nb::arg("pred").none(), nb::arg("per_warp") = false,
      nb::arg("rank").none() = nb::none());
  m.def("mbarrier_wait", [](const hb::SharedMemory &bar, nb::handle phase) {
    guarded([&] { hb::mbarrier_wait(bar, operand(phase)); });
  });
  m.def(
      "async_tensor_copy",
      [](const hb::TensorDescriptor &desc, nb::list coords, const hb::SharedMemory &bar,
         const hb::SharedMemory &dst, std::optional<hb::Tensor> pred, nb::handle multicast) {
        std::vector<hb::Operand> cs;
        for (nb::handle c : coords)
          cs.push_back(operand(c));
        guarded([&] {
          hb::async_tensor_copy(desc, cs, bar, dst, optionalTensor(pred),
                                optionalOperand(multicast));
        });
      },
      nb::arg("desc"), nb::arg("coords"), nb::arg("barrier"), nb::arg("dst"),
      nb::arg("pred").none(), nb::arg("multicast").none() = nb::none());
  m.def("fence_async_shared", [] { guarded([] { hb::fence_async_shared(); }); });
  m.def("cluster_barrier", [] { guarded([] { hb::cluster_barrier(); }); });

  // a and b: a Tensor or SharedMemory each.
  m.def(
      "dot",
      [](nb::handle a, nb::handle b, const hb::Tensor &acc, const std::string &precision,
         bool isAsync) {
        using P = hb::InputPrecision;
        P p = enumOf<P>(precision, {{"ieee", P::ieee}, {"tf32", P::tf32}}, "input precision");
        hb::DotInput x = dotInput(a, "a"), y = dotInput(b, "b");
        return guarded([&] { return hb::dot(x, y, acc, {p, isAsync}); });
      },
      nb::arg("a"), nb::arg("b"), nb::arg("acc"), nb::arg("precision") = "ieee",
      nb::arg("is_async") = false);
  m.def("dot_wait", [](const hb::Tensor &value, int pending) {
    return guarded([&] { return hb::dot_wait(value, pending); });
  });

  // body(i, carried) -> next carried values.
  m.def("for_range", [](nb::handle begin, nb::handle end, nb::handle step, hb::Values carried,
                        nb::callable body) {
    return guarded([&] {
      return hb::for_range(
          operand(begin), operand(end), operand(step), carried,
          [&](hb::Tensor i, hb::Values v) { return valuesFrom(body(i, v), "a loop body"); });
    });
  });
  m.def(
      "if_",
      [](nb::handle condition, nb::callable then, std::optional<nb::callable> otherwise) {
        return guarded([&] {
          std::function<hb::Values()> other;
          if (otherwise)
            other = [&] { return valuesFrom((*otherwise)(), "an else branch"); };
          return hb::detail::ifImpl(
              operand(condition), [&] { return valuesFrom(then(), "a then branch"); }, other,
              hb::SourceLoc::current());
        });
      },
      nb::arg("condition"), nb::arg("then"), nb::arg("otherwise").none());
  m.def("while_", [](hb::Values init, nb::callable condition, nb::callable body) {
    return guarded([&] {
      return hb::while_(
          init, [&](hb::Values v) { return nb::cast<hb::Tensor>(condition(v)); },
          [&](hb::Values v) { return valuesFrom(body(v), "a while body"); });
    });
  });

  // default() and each worker() build their regions; a Python exception
  // they raise leaves through the builder unchanged.
  // regs: empty, or the default partition's register budget then each
  // worker's.
  m.def("warp_specialize", [](nb::callable dflt, std::vector<nb::callable> workers,
                              std::vector<int> workerNumWarps, std::vector<int> regs) {
    if (workers.size() != workerNumWarps.size())
      throw nb::value_error("warp_specialize: one warp count per worker partition");
    if (!regs.empty() && regs.size() != workers.size() + 1)
      throw nb::value_error("warp_specialize: one register budget per partition");
    guarded([&] {
      std::vector<hb::Partition> partitions;
      for (size_t i = 0; i < workers.size(); ++i)
        partitions.push_back(
            {workerNumWarps[i], [&, i] { workers[i](); }, regs.empty() ? 0 : regs[i + 1]});
      hb::warp_specialize([&] { dflt(); }, partitions, regs.empty() ? 0 : regs[0]);
    });
  });

  m.def("device_print", [](const std::string &prefix, hb::Values values, bool hex) {
    guarded([&] { hb::device_print(prefix, values, hex); });
  });
  m.def("device_assert", [](nb::handle condition, const std::string &message) {
    guarded([&] { hb::device_assert(operand(condition), message); });
  });
  m.def("multiple_of", [](const hb::Tensor &x, std::vector<int> divisors) {
    return guarded([&] { return hb::multiple_of(x, divisors); });
  });
  m.def("assume", [](nb::handle condition) { guarded([&] { hb::assume(operand(condition)); }); });
}

} // namespace hadron::python
