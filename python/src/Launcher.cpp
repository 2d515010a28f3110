//===- Launcher.cpp - kernel[grid](...) without Python ---------------------===//
//
// The front end's hot path. In Python each step of a launch (bind the
// arguments, build the specialisation key, look it up, convert the
// arguments, launch) costs a frame and some objects: microseconds, as much
// as a GPU's launch itself. A JITFunction owns a Launcher, and kernel[grid]
// is a BoundLaunch (the function, its launcher, the grid): a vectorcall
// object whose call does it all here, with no Python on the way and no
// allocation:
//
// 1. binds positional and keyword arguments to the parameters (defaults for
//    the missing ones) and takes num_warps and device (num_stages and
//    num_ctas are ignored, as by run());
// 2. the device: a Device as given; None is HADRON_DEVICE's (the variable's
//    value resolved by hadron.runtime once per value it takes);
// 3. each runtime argument classified as the key does it (a DeviceArray: a
//    pointer to its element type; int: i32 or i64; float: f32; bool: i1; a
//    hadron.TensorDescriptor over a DeviceArray: its kind, the element type,
//    block and layout, compared as a constexpr is) and converted into its
//    hd_arg on the stack;
// 4. the specialisation among those this launcher remembers, by device,
//    num_warps, argument kinds and constexprs (int, bool, str and float by
//    type and value; layouts and dtypes, which are frozen, by identity;
//    else, and then, by hadron.jit's key of them);
// 5. the grid: a tuple of ints, or what JITFunction._grid makes of another
//    (a function of the arguments);
// 6. hd_launch.
//
// Anything else is the JITFunction's run(), the Python path, called with the
// call as it was made: the first launch of a specialisation (run() compiles
// it; it is remembered here when its arguments were of the kinds above),
// host arrays (copied around the launch), other argument types, an array on
// another device, mistakes in the call (run() raises the errors, naming the
// kernel and the argument). This path therefore launches only what run()
// would have launched, with the same arguments.
//
// Threads: it runs under the GIL. Python code it calls (a key, a grid
// function, run()) may let another thread in, which may remember more
// specialisations; entries are never moved or removed (unique_ptr) and the
// scan re-reads the list's size.
//
//===----------------------------------------------------------------------===//

#include "RuntimeObjects.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <structmember.h>

namespace nb = nanobind;

namespace hadron::python {
namespace {

/// Parameters beyond this many take the Python path.
constexpr size_t kMaxParams = 32;

/// An argument's part of the key: a scalar's hd_arg_kind (I1, I32, I64,
/// F32), with kIntOne or kIntDiv16 set for an integer equal to 1 or
/// divisible by 16 (specialised, as jit.py's _int_kind), a pointer's element
/// kind with kPointer set, kDescriptor (the rest of its key is the
/// descriptor's kind) or kConstant.
constexpr uint8_t kKindMask = 0x0f;
constexpr uint8_t kPointer = 0x10;
constexpr uint8_t kIntOne = 0x20;
constexpr uint8_t kDescriptor = 0x40;
constexpr uint8_t kIntDiv16 = 0x60;
constexpr uint8_t kConstant = 0x80;

/// hadron.RuntimeError, set by bindLauncher (the module lives as long as
/// the process).
PyObject *runtimeError = nullptr;

/// Whether the key compares `v` by type and value (what run() does too).
bool isPlain(PyObject *v) {
  return PyLong_CheckExact(v) || PyBool_Check(v) || PyUnicode_CheckExact(v) ||
         PyFloat_CheckExact(v) || v == Py_None;
}

PyObject *newRef(PyObject *o) {
  Py_INCREF(o);
  return o;
}

/// A Python object or NULL with an exception set, as nb::object.
nb::object stealOrThrow(PyObject *o) {
  if (!o)
    throw nb::python_error();
  return nb::steal(o);
}

class Launcher;

struct BoundLaunch {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *function; ///< the JITFunction: its run(), _grid()
  PyObject *launcher; ///< the Launcher (a nanobind instance)
  PyObject *grid;
};

PyTypeObject *boundLaunchType = nullptr;

class Launcher {
public:
  Launcher(std::vector<std::string> names, std::vector<uint8_t> constexprs, nb::list defaults,
           nb::object missing, nb::object deviceArrayType, nb::object keyOf,
           nb::object deviceOf, nb::object frozenTypes, nb::object descriptorType)
      : constexpr_(std::move(constexprs)), deviceArrayType_(std::move(deviceArrayType)),
        keyOf_(std::move(keyOf)), deviceOf_(std::move(deviceOf)),
        frozenTypes_(std::move(frozenTypes)), descriptorType_(std::move(descriptorType)) {
    if (names.size() != constexpr_.size() || names.size() != nb::len(defaults))
      throw nb::value_error("Launcher: names, constexprs and defaults differ in length");
    for (size_t i = 0; i < names.size(); ++i) {
      names_.push_back(interned(names[i]));
      nb::object d = defaults[i];
      defaults_.push_back(d.is(missing) ? nb::object() : d);
    }
    for (const char *name : {"num_warps", "device", "num_stages", "num_ctas"})
      reserved_.push_back(interned(name));
  }

  Launcher(const Launcher &) = delete;
  Launcher &operator=(const Launcher &) = delete;

  /// kernel[grid]
  nb::object bind(nb::handle function, nb::handle self, nb::handle grid) {
    auto *b = reinterpret_cast<BoundLaunch *>(boundLaunchType->tp_alloc(boundLaunchType, 0));
    if (!b)
      throw nb::python_error();
    b->vectorcall = &BoundLaunch_call;
    b->function = nb::handle(function).inc_ref().ptr();
    b->launcher = nb::handle(self).inc_ref().ptr();
    b->grid = nb::handle(grid).inc_ref().ptr();
    return nb::steal(reinterpret_cast<PyObject *>(b));
  }

  size_t specialisations() const { return entries_.size(); }

  static PyObject *BoundLaunch_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames) {
    auto *b = reinterpret_cast<BoundLaunch *>(callable);
    Launcher &l = *nb::inst_ptr<Launcher>(b->launcher);
    try {
      return l.call(*b, args, PyVectorcall_NARGS(nargsf), kwnames);
    } catch (nb::python_error &e) {
      e.restore();
    } catch (const std::exception &e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
  }

private:
  /// One specialisation this launcher launched.
  struct Entry {
    hd_device *device = nullptr;
    long numWarps = 0;
    std::vector<uint8_t> codes;        ///< per parameter
    std::vector<nb::object> constants; ///< per parameter: a constexpr's value
    std::vector<nb::object> keys;      ///< per parameter: key_of(value), when not plain;
                                       ///< a descriptor's kind
    nb::object compiled;               ///< the CompiledKernel run() returned
    nb::object kernelObject;           ///< its Kernel
    hd_kernel *kernel = nullptr;
  };

  /// What one call brings, on the stack.
  struct Call {
    size_t numParams = 0;
    PyObject *values[kMaxParams];    ///< borrowed: the caller's or a default
    PyObject *keys[kMaxParams] = {}; ///< owned: key_of(value), computed on demand;
                                     ///< a descriptor's kind
    uint8_t codes[kMaxParams];
    hd_arg args[kMaxParams];
    uint32_t numArgs = 0;
    long numWarps = 4;
    hd_device *device = nullptr;
    PyObject *deviceObject = nullptr; ///< borrowed
    Call() = default;
    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;
    ~Call() {
      for (size_t i = 0; i < numParams; ++i)
        Py_XDECREF(keys[i]);
    }
  };

  static nb::object interned(const std::string &s) {
    PyObject *o = PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    if (!o)
      throw nb::python_error();
    PyUnicode_InternInPlace(&o);
    return nb::steal(o);
  }

  /// The index of keyword `name` among the parameters, then among the
  /// reserved ones (as numParams + j); -1 when it is neither. Keyword names
  /// are usually interned, so identity decides first.
  long lookup(PyObject *name) const {
    const size_t n = names_.size();
    for (size_t i = 0; i < n; ++i)
      if (names_[i].ptr() == name)
        return static_cast<long>(i);
    for (size_t j = 0; j < reserved_.size(); ++j)
      if (reserved_[j].ptr() == name)
        return static_cast<long>(n + j);
    for (size_t i = 0; i < n; ++i)
      if (PyUnicode_Compare(names_[i].ptr(), name) == 0)
        return static_cast<long>(i);
    for (size_t j = 0; j < reserved_.size(); ++j)
      if (PyUnicode_Compare(reserved_[j].ptr(), name) == 0)
        return static_cast<long>(n + j);
    PyErr_Clear();
    return -1;
  }

  /// Steps 1-3; false: the Python path takes the call.
  bool prepare(Call &c, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    const size_t n = names_.size();
    if (n > kMaxParams || static_cast<size_t>(nargs) > n)
      return false;
    c.numParams = n;
    for (size_t i = 0; i < n; ++i)
      c.values[i] = i < static_cast<size_t>(nargs) ? args[i] : nullptr;
    PyObject *deviceArg = Py_None;
    if (kwnames) {
      const Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
      for (Py_ssize_t k = 0; k < nk; ++k) {
        PyObject *v = args[nargs + k];
        long i = lookup(PyTuple_GET_ITEM(kwnames, k));
        if (i < 0)
          return false;
        if (static_cast<size_t>(i) < n) {
          if (c.values[i])
            return false;
          c.values[i] = v;
        } else if (static_cast<size_t>(i) == n) { // num_warps
          if (!PyLong_CheckExact(v))
            return false;
          c.numWarps = PyLong_AsLong(v);
          if (c.numWarps == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return false;
          }
        } else if (static_cast<size_t>(i) == n + 1) { // device
          deviceArg = v;
        }
      }
    }
    for (size_t i = 0; i < n; ++i)
      if (!c.values[i]) {
        if (!defaults_[i].is_valid())
          return false;
        c.values[i] = defaults_[i].ptr();
      }

    if (deviceArg == Py_None) {
      if (!defaultDevice(c))
        return false;
    } else if (nb::isinstance<PyDevice>(deviceArg)) {
      c.device = nb::inst_ptr<PyDevice>(deviceArg)->device.get();
      c.deviceObject = deviceArg;
    } else {
      return false;
    }

    for (size_t i = 0; i < n; ++i) {
      if (constexpr_[i]) {
        c.codes[i] = kConstant;
        continue;
      }
      if (!classify(c, i, c.args[c.numArgs]))
        return false;
      ++c.numArgs;
    }
    return true;
  }

  /// HADRON_DEVICE's device (hadron.runtime.device(None)), asked again
  /// only when the variable changes.
  bool defaultDevice(Call &c) {
    const char *env = std::getenv("HADRON_DEVICE");
    std::string_view selector = env ? env : "";
    if (!defaultDevice_.is_valid() || selector != defaultSelector_) {
      PyObject *d = PyObject_CallOneArg(deviceOf_.ptr(), Py_None);
      if (!d || !nb::isinstance<PyDevice>(d)) {
        Py_XDECREF(d);
        PyErr_Clear(); // run() raises it again, as it always did
        return false;
      }
      defaultDevice_ = nb::steal(d);
      defaultSelector_ = selector;
    }
    c.device = nb::inst_ptr<PyDevice>(defaultDevice_)->device.get();
    c.deviceObject = defaultDevice_.ptr();
    return true;
  }

  /// A runtime argument's key part and launch value (its kind is the
  /// signature's, set at launch).
  bool classify(Call &c, size_t i, hd_arg &a) const {
    PyObject *v = c.values[i];
    hd_device *device = c.device;
    uint8_t &code = c.codes[i];
    if (PyLong_CheckExact(v)) {
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow)
        return false;
      code = x >= INT32_MIN && x <= INT32_MAX ? HD_ARG_I32 : HD_ARG_I64;
      code |= x == 1 ? kIntOne : x % 16 == 0 ? kIntDiv16 : 0;
      a.value.i = x;
      return true;
    }
    if (v == Py_True || v == Py_False) {
      code = HD_ARG_I1;
      a.value.i = v == Py_True;
      return true;
    }
    if (PyFloat_CheckExact(v)) {
      code = HD_ARG_F32;
      a.value.f = PyFloat_AS_DOUBLE(v);
      return true;
    }
    if (reinterpret_cast<PyObject *>(Py_TYPE(v)) == descriptorType_.ptr())
      return classifyDescriptor(c, i, a);
    if (reinterpret_cast<PyObject *>(Py_TYPE(v)) != deviceArrayType_.ptr())
      return false;
    static PyObject *bufferName = PyUnicode_InternFromString("buffer");
    PyObject *buffer = PyObject_GetAttr(v, bufferName);
    if (!buffer) {
      PyErr_Clear();
      return false;
    }
    bool ok = nb::isinstance<PyBuffer>(buffer);
    if (ok) {
      const PyBuffer &b = *nb::inst_ptr<PyBuffer>(buffer);
      ok = b.element != HD_ARG_PTR && hd_buffer_device(b.buffer.get()) == device;
      if (ok) {
        code = static_cast<uint8_t>(kPointer | b.element);
        a.value.ptr = b.buffer.devicePtr();
      }
    }
    Py_DECREF(buffer); // the DeviceArray holds it
    return ok;
  }

  /// A hadron.TensorDescriptor over a DeviceArray of the launch's device
  /// (`_desc`, a TensorDesc; host arrays have none and take the Python
  /// path, which stages them); its kind goes to c.keys[i].
  bool classifyDescriptor(Call &c, size_t i, hd_arg &a) const {
    static PyObject *descName = PyUnicode_InternFromString("_desc");
    static PyObject *kindName = PyUnicode_InternFromString("_kind");
    nb::object desc = nb::steal(PyObject_GetAttr(c.values[i], descName));
    PyObject *kind = desc.is_valid() ? PyObject_GetAttr(c.values[i], kindName) : nullptr;
    if (!kind) {
      PyErr_Clear();
      return false;
    }
    c.keys[i] = kind;
    if (!nb::isinstance<PyTensorDesc>(desc))
      return false;
    PyTensorDesc &d = *nb::inst_ptr<PyTensorDesc>(desc); // the descriptor object holds it
    if (d.device != c.device)
      return false;
    c.codes[i] = kDescriptor;
    a.value.desc = &d.desc;
    return true;
  }

  /// key_of(value) of parameter i, computed once per call.
  PyObject *keyOf(Call &c, size_t i) {
    if (!c.keys[i])
      c.keys[i] = PyObject_CallOneArg(keyOf_.ptr(), c.values[i]);
    return c.keys[i];
  }

  /// Step 4 for one entry; -1: an exception was raised.
  int matches(Call &c, const Entry &e) {
    if (e.device != c.device || e.numWarps != c.numWarps ||
        std::memcmp(e.codes.data(), c.codes, c.numParams) != 0)
      return 0;
    for (size_t i = 0; i < c.numParams; ++i) {
      if (c.codes[i] == kDescriptor) {
        int eq = PyObject_RichCompareBool(c.keys[i], e.keys[i].ptr(), Py_EQ);
        if (eq != 1)
          return eq;
        continue;
      }
      if (!constexpr_[i])
        continue;
      PyObject *v = c.values[i], *saved = e.constants[i].ptr();
      if (isPlain(v)) {
        if (Py_TYPE(v) != Py_TYPE(saved))
          return 0;
        int eq = PyObject_RichCompareBool(v, saved, Py_EQ);
        if (eq != 1)
          return eq;
        continue;
      }
      if (v == saved && PyObject_IsInstance(v, frozenTypes_.ptr()) == 1)
        continue;
      if (!e.keys[i].is_valid())
        return 0; // the saved value was plain
      PyObject *key = keyOf(c, i);
      if (!key)
        return -1;
      int eq = PyObject_RichCompareBool(key, e.keys[i].ptr(), Py_EQ);
      if (eq != 1)
        return eq;
    }
    return 1;
  }

  /// Step 5; false: the Python path takes the call.
  bool gridOf(const BoundLaunch &b, Call &c, uint32_t grid[3]) {
    nb::object computed;
    PyObject *g = b.grid;
    if (!PyTuple_CheckExact(g)) {
      nb::object values = stealOrThrow(PyList_New(static_cast<Py_ssize_t>(c.numParams)));
      for (size_t i = 0; i < c.numParams; ++i)
        PyList_SET_ITEM(values.ptr(), i, nb::handle(c.values[i]).inc_ref().ptr());
      computed = nb::handle(b.function).attr("_grid")(nb::handle(g), values, c.numWarps);
      g = computed.ptr();
      if (!PyTuple_CheckExact(g))
        return false;
    }
    const Py_ssize_t dims = PyTuple_GET_SIZE(g);
    if (dims < 1 || dims > 3)
      return false;
    for (Py_ssize_t d = 0; d < 3; ++d) {
      grid[d] = 1;
      if (d >= dims)
        continue;
      PyObject *x = PyTuple_GET_ITEM(g, d);
      if (!PyLong_CheckExact(x))
        return false;
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
      if (overflow || v < 0 || v > UINT32_MAX)
        return false;
      grid[d] = static_cast<uint32_t>(v);
    }
    return true;
  }

  PyObject *call(const BoundLaunch &b, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames) {
    Call c;
    if (!prepare(c, args, nargs, kwnames))
      return slow(b, args, nargs, kwnames, nullptr);
    const Entry *found = nullptr;
    for (size_t i = 0; i < entries_.size() && !found; ++i) {
      int m = matches(c, *entries_[i]);
      if (m < 0)
        throw nb::python_error();
      if (m)
        found = entries_[i].get();
    }
    if (!found)
      return slow(b, args, nargs, kwnames, &c);
    uint32_t grid[3];
    if (!gridOf(b, c, grid))
      return slow(b, args, nargs, kwnames, nullptr);
    const hd_kernel_signature &sig = *hd_kernel_get_signature(found->kernel);
    for (uint32_t j = 0; j < c.numArgs; ++j)
      c.args[j].kind = sig.args[j];
    hd_error err;
    if (hd_status s = hd_launch(found->kernel, grid, c.args, c.numArgs, 0, &err)) {
      PyErr_SetString(runtimeError, (std::string(hd_status_name(s)) + ": " + err.message).c_str());
      return nullptr;
    }
    return nb::handle(found->compiled).inc_ref().ptr();
  }

  /// run(*args, grid=grid, **kwargs); remembers what it launched when `c`
  /// (a call this path could take, but whose specialisation it lacked) is
  /// given.
  PyObject *slow(const BoundLaunch &b, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, Call *c) {
    static PyObject *runName = PyUnicode_InternFromString("run");
    static PyObject *gridName = PyUnicode_InternFromString("grid");
    const Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    nb::object run = stealOrThrow(PyObject_GetAttr(b.function, runName));
    nb::object names = stealOrThrow(PyTuple_New(nk + 1));
    std::vector<PyObject *> all(args, args + nargs + nk);
    for (Py_ssize_t k = 0; k < nk; ++k)
      PyTuple_SET_ITEM(names.ptr(), k, newRef(PyTuple_GET_ITEM(kwnames, k)));
    PyTuple_SET_ITEM(names.ptr(), nk, newRef(gridName));
    all.push_back(b.grid);
    PyObject *compiled = PyObject_Vectorcall(run.ptr(), all.data(), nargs, names.ptr());
    if (compiled && c)
      remember(*c, compiled);
    return compiled;
  }

  /// Keeps what run() launched for a call `c` describes, when its kernel's
  /// signature takes the arguments as `c` classified them.
  void remember(Call &c, PyObject *compiled) {
    static PyObject *kernelName = PyUnicode_InternFromString("kernel");
    static PyObject *deviceName = PyUnicode_InternFromString("device");
    PyObject *kernel = PyObject_GetAttr(compiled, kernelName);
    PyObject *device = kernel ? PyObject_GetAttr(compiled, deviceName) : nullptr;
    nb::object kernelObject = nb::steal(kernel), deviceObject = nb::steal(device);
    if (!kernel || !device) {
      PyErr_Clear();
      return;
    }
    if (!nb::isinstance<PyKernel>(kernel) || !nb::isinstance<PyDevice>(device) ||
        nb::inst_ptr<PyDevice>(device)->device.get() != c.device)
      return;
    hd_kernel *k = nb::inst_ptr<PyKernel>(kernel)->kernel.get();
    const hd_kernel_signature &sig = *hd_kernel_get_signature(k);
    if (sig.num_args != c.numArgs)
      return;
    for (size_t i = 0, j = 0; i < c.numParams; ++i) {
      if (c.codes[i] == kConstant)
        continue;
      hd_arg_kind want = c.codes[i] == kDescriptor ? HD_ARG_TENSOR_DESC
                         : (c.codes[i] & kPointer) ? HD_ARG_PTR
                                                   : static_cast<hd_arg_kind>(c.codes[i] & kKindMask);
      if (sig.args[j++] != want)
        return;
    }
    auto e = std::make_unique<Entry>();
    e->device = c.device;
    e->numWarps = c.numWarps;
    e->codes.assign(c.codes, c.codes + c.numParams);
    e->constants.resize(c.numParams);
    e->keys.resize(c.numParams);
    for (size_t i = 0; i < c.numParams; ++i) {
      if (c.codes[i] == kDescriptor)
        e->keys[i] = nb::borrow(c.keys[i]);
      if (!constexpr_[i])
        continue;
      e->constants[i] = nb::borrow(c.values[i]);
      if (!isPlain(c.values[i])) {
        PyObject *key = keyOf(c, i);
        if (!key) {
          PyErr_Clear();
          return;
        }
        e->keys[i] = nb::borrow(key);
      }
    }
    e->compiled = nb::borrow(compiled);
    e->kernelObject = std::move(kernelObject);
    e->kernel = k;
    entries_.push_back(std::move(e));
  }

  std::vector<nb::object> names_;    ///< interned
  std::vector<nb::object> reserved_; ///< num_warps, device, num_stages, num_ctas
  std::vector<uint8_t> constexpr_; ///< per parameter: 1 for a constexpr
  std::vector<nb::object> defaults_; ///< invalid: none
  nb::object deviceArrayType_, keyOf_, deviceOf_, frozenTypes_, descriptorType_;
  nb::object defaultDevice_;
  std::string defaultSelector_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

void BoundLaunch_dealloc(PyObject *self) {
  auto *b = reinterpret_cast<BoundLaunch *>(self);
  PyTypeObject *type = Py_TYPE(self);
  Py_XDECREF(b->function);
  Py_XDECREF(b->launcher);
  Py_XDECREF(b->grid);
  type->tp_free(self);
  Py_DECREF(type);
}

/// JITFunction.__getitem__: a BoundLaunch of the function, its _launcher
/// and the grid.
PyObject *JITFunction_getitem(PyObject *function, PyObject *grid) {
  static PyObject *launcherName = PyUnicode_InternFromString("_launcher");
  PyObject *launcher = PyObject_GetAttr(function, launcherName);
  if (!launcher)
    return nullptr;
  nb::object owned = nb::steal(launcher);
  if (!nb::isinstance<Launcher>(launcher)) {
    PyErr_SetString(PyExc_TypeError, "_launcher is not a hadron._runtime.Launcher");
    return nullptr;
  }
  try {
    return nb::inst_ptr<Launcher>(launcher)->bind(function, launcher, grid).release().ptr();
  } catch (nb::python_error &e) {
    e.restore();
    return nullptr;
  }
}

PyObject *BoundLaunch_repr(PyObject *self) {
  auto *b = reinterpret_cast<BoundLaunch *>(self);
  return PyUnicode_FromFormat("<launch of %R on grid %R>", b->function, b->grid);
}

} // namespace

void bindLauncher(nb::module_ &m) {
  runtimeError = nb::object(m.attr("RuntimeError")).release().ptr();

  static PyMemberDef members[] = {
      {"__vectorcalloffset__", T_PYSSIZET, offsetof(BoundLaunch, vectorcall), READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void *>(BoundLaunch_dealloc)},
      {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
      {Py_tp_repr, reinterpret_cast<void *>(BoundLaunch_repr)},
      {Py_tp_members, members},
      {Py_tp_doc, const_cast<char *>("kernel[grid]: call it with the kernel's arguments")},
      {0, nullptr}};
  static PyType_Spec spec = {"hadron._runtime.BoundLaunch", sizeof(BoundLaunch), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL, slots};
  PyObject *type = PyType_FromSpec(&spec);
  if (!type)
    throw nb::python_error();
  boundLaunchType = reinterpret_cast<PyTypeObject *>(type);
  boundLaunchType->tp_new = nullptr; // made by Launcher.bind only
  m.attr("BoundLaunch") = nb::steal(type);

  nb::class_<Launcher>(m, "Launcher")
      .def(nb::init<std::vector<std::string>, std::vector<uint8_t>, nb::list, nb::object,
                    nb::object, nb::object, nb::object, nb::object, nb::object>(),
           nb::arg("names"), nb::arg("constexprs"), nb::arg("defaults"), nb::arg("missing"),
           nb::arg("device_array_type"), nb::arg("key_of"), nb::arg("device_of"),
           nb::arg("frozen_types"), nb::arg("descriptor_type"))
      .def(
          "bind",
          [](nb::pointer_and_handle<Launcher> self, nb::handle function, nb::handle grid) {
            return self.p->bind(function, self.h, grid);
          },
          nb::arg("function"), nb::arg("grid"))
      .def_prop_ro("specialisations", &Launcher::specialisations)
      // cls.__getitem__ in C: kernel[grid] then runs no Python at all.
      .def_static(
          "install_getitem",
          [](nb::type_object cls) {
            static PyMethodDef def = {"__getitem__", JITFunction_getitem, METH_O,
                                      "kernel[grid]: the launch of this kernel on grid"};
            nb::object descr = stealOrThrow(
                PyDescr_NewMethod(reinterpret_cast<PyTypeObject *>(cls.ptr()), &def));
            nb::setattr(cls, "__getitem__", descr);
          },
          nb::arg("cls"));
}

} // namespace hadron::python
