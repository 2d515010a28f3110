//===- Trace.cpp - Running a kernel callable into a module ----------------===//

#include "Trace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace hadron::builder {

namespace detail {

namespace {
thread_local Trace *currentTrace = nullptr;
/// set_user_location's; stands for every C++ caller's location while set.
thread_local UserLocation userLocation;

std::string where(const SourceLoc &loc) {
  if (!userLocation.file.empty())
    return userLocation.file + ":" + std::to_string(userLocation.line) + ":" +
           std::to_string(userLocation.column);
  return std::string(loc.file_name()) + ":" + std::to_string(loc.line()) + ":" +
         std::to_string(loc.column());
}

Location locationOf(MLIRContext *ctx, const SourceLoc &loc) {
  if (!userLocation.file.empty())
    return FileLineColLoc::get(ctx, userLocation.file, userLocation.line, userLocation.column);
  return FileLineColLoc::get(ctx, loc.file_name(), loc.line(), loc.column());
}
} // namespace

UserLocation currentUserLocation() { return userLocation; }

std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::string str(Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(os);
  return s;
}

std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Trace::Trace(MLIRContext *ctx, ModuleOp module, func::FuncOp func, const Options &options)
    : ctx(ctx), b(ctx), module(module), func(func), options(options), warps(options.numWarps),
      warpsOwner("the kernel runs num_warps = " + std::to_string(options.numWarps)),
      previous_(currentTrace) {
  currentTrace = this;
}

Trace::~Trace() { currentTrace = previous_; }

Trace &Trace::current(const SourceLoc &loc) {
  if (!currentTrace)
    llvm::report_fatal_error(llvm::Twine(where(loc)) +
                             ": hadron builder called outside a kernel trace (call it from the "
                             "callable that KernelDef::specialize runs)");
  return *currentTrace;
}

Location Trace::at(const SourceLoc &loc) const { return locationOf(ctx, loc); }

void Trace::fail(const SourceLoc &loc, const std::string &what, const std::string &message) const {
  throw TraceError{where(loc) + ": error: " + what + ": " + message};
}

std::string Trace::takeDiagnostics() {
  std::string d = std::move(diagnostics);
  diagnostics.clear();
  while (!d.empty() && d.back() == '\n')
    d.pop_back();
  return d;
}

void Trace::verify(Operation *op, const SourceLoc &loc, const std::string &what,
                   bool recursive) {
  takeDiagnostics();
  if (failed(mlir::verify(op, recursive)))
    fail(loc, what, takeDiagnostics());
}

Type Trace::type(const DType &t, const SourceLoc &loc, const std::string &what) {
  if (t.empty())
    fail(loc, what, "no element type given");
  takeDiagnostics();
  Type parsed = parseType(t.str(), ctx);
  if (!parsed)
    fail(loc, what, "`" + t.str() + "` is not a type: " + takeDiagnostics());
  return parsed;
}

Attribute Trace::layout(const Layout &l, const SourceLoc &loc, const std::string &what) {
  if (l.empty())
    fail(loc, what, "no layout given");
  takeDiagnostics();
  Attribute parsed = parseAttribute(l.str(), ctx);
  if (!parsed)
    fail(loc, what, "invalid layout " + l.str() + ": " + takeDiagnostics());
  if (auto dist = dyn_cast<hd::DistributedLayoutAttrInterface>(parsed)) {
    if (!dist.isPlaceholder() && dist.getNumWarps() != warps)
      fail(loc, what,
           "layout " + l.str() + " spans " + std::to_string(dist.getNumWarps()) +
               " warps, but " + warpsOwner);
  }
  return parsed;
}

RankedTensorType Trace::tileType(llvm::ArrayRef<int64_t> shape, Type elem, Attribute layout,
                                 const SourceLoc &loc, const std::string &what) {
  takeDiagnostics();
  auto type = RankedTensorType::getChecked([&] { return emitError(at(loc)); }, shape, elem,
                                           layout);
  if (!type)
    fail(loc, what, "no tile of shape " + shapeStr(shape) + " and layout " + str(layout) + ": " +
                        takeDiagnostics());
  return type;
}

std::string keyPart(int v) { return std::to_string(v); }
std::string keyPart(unsigned v) { return std::to_string(v); }
std::string keyPart(int64_t v) { return std::to_string(v); }
std::string keyPart(bool v) { return v ? "true" : "false"; }
std::string keyPart(const DType &v) {
  std::string s;
  for (char c : v.str())
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += c;
  return s;
}
std::string keyPart(const Layout &v) { return v.mangle(); }

std::string specialisationKey(const std::string &name, const Options &options,
                              const std::vector<std::string> &parts) {
  std::string key = name;
  for (const std::string &p : parts)
    if (!p.empty()) // an empty Constexprs
      key += "." + p;
  key += ".w" + std::to_string(options.numWarps);
  const auto &c = options.clusterDims;
  if (c[0] != 1 || c[1] != 1 || c[2] != 1)
    key += ".c" + std::to_string(c[0]) + "x" + std::to_string(c[1]) + "x" + std::to_string(c[2]);
  return key;
}

Result<Module> trace(const std::string &name, const std::string &key, const Options &options,
                     const SourceLoc &definedAt, const std::function<void()> &body) {
  auto state = std::make_shared<Module::State>();
  state->key = key;
  state->kernelName = name;
  state->ctx = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  MLIRContext *ctx = state->ctx.get();
  ctx->loadDialect<hd::HadronDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                   func::FuncDialect>();

  OpBuilder b(ctx);
  Location defLoc = locationOf(ctx, definedAt);
  // The definition's file:line, taken now: the body moves a user location.
  std::string defWhere = where(definedAt);
  defWhere = defWhere.substr(0, defWhere.rfind(':'));
  state->module = ModuleOp::create(defLoc, StringRef(key));
  ModuleOp module = *state->module;
  module->setAttr("hd.num_warps", b.getI32IntegerAttr(options.numWarps));
  const auto &c = options.clusterDims;
  if (c[0] != 1 || c[1] != 1 || c[2] != 1)
    module->setAttr("hd.cluster_dims",
                    b.getDenseI32ArrayAttr({int32_t(c[0]), int32_t(c[1]), int32_t(c[2])}));
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, defLoc, name, b.getFunctionType({}, {}));
  func->setAttr("hd.kernel", b.getUnitAttr());
  Block *entry = func.addEntryBlock();

  Trace t(ctx, module, func, options);
  ScopedDiagnosticHandler handler(ctx, [&t](Diagnostic &d) {
    t.diagnostics += d.str();
    for (const Diagnostic &note : d.getNotes()) {
      // The verifier's dump of the op: the user wrote no IR.
      std::string text = note.str();
      if (text.rfind("see current operation", 0) != 0)
        t.diagnostics += " (" + text + ")";
    }
    t.diagnostics += "\n";
    return success();
  });
  t.b.setInsertionPointToEnd(entry);
  try {
    body();
  } catch (const TraceError &e) {
    return Error(e.message);
  }

  t.b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(t.b, defLoc);
  func.setType(b.getFunctionType(entry->getArgumentTypes(), {}));
  for (size_t i = 0; i < t.divisibility.size(); ++i)
    if (t.divisibility[i] > 0)
      func.setArgAttr(i, "hd.divisibility", b.getI32IntegerAttr(t.divisibility[i]));
  t.takeDiagnostics();
  if (failed(mlir::verify(module)))
    return Error(defWhere + ": error: kernel `" + name +
                 "` does not verify: " + t.takeDiagnostics());
  return Module(std::move(state));
}

} // namespace detail

void set_user_location(UserLocation loc) { detail::userLocation = std::move(loc); }

std::optional<std::string> catch_trace_error(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const detail::TraceError &e) {
    return e.message;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

const std::string &Module::key() const { return state_->key; }
const std::string &Module::kernelName() const { return state_->kernelName; }
ModuleOp Module::op() const { return *state_->module; }

std::string Module::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  state_->module->print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// Tensor and SharedMemory queries
//===----------------------------------------------------------------------===//

bool Tensor::isTile() const { return value_ && isa<RankedTensorType>(value_.getType()); }

std::vector<int64_t> Tensor::shape() const {
  if (auto t = dyn_cast_or_null<RankedTensorType>(value_ ? value_.getType() : Type()))
    return std::vector<int64_t>(t.getShape().begin(), t.getShape().end());
  return {};
}

DType Tensor::dtype() const {
  if (!value_)
    return {};
  return DType::fromText(detail::str(getElementTypeOrSelf(value_.getType())));
}

Layout Tensor::layout() const {
  if (auto t = dyn_cast_or_null<RankedTensorType>(value_ ? value_.getType() : Type()))
    if (t.getEncoding())
      return Layout::fromText(detail::str(t.getEncoding()));
  return {};
}

std::string Tensor::typeStr() const { return value_ ? detail::str(value_.getType()) : "<none>"; }

std::vector<int64_t> SharedMemory::shape() const {
  auto t = cast<hd::MemDescType>(value_.getType());
  return std::vector<int64_t>(t.getShape().begin(), t.getShape().end());
}

DType SharedMemory::dtype() const {
  return DType::fromText(detail::str(cast<hd::MemDescType>(value_.getType()).getElementType()));
}

Layout SharedMemory::layout() const {
  return Layout::fromText(detail::str(cast<hd::MemDescType>(value_.getType()).getEncoding()));
}

DType TensorDescriptor::dtype() const {
  return DType::fromText(
      detail::str(cast<hd::TensorDescType>(value_.getType()).getElementType()));
}

Layout TensorDescriptor::layout() const {
  return Layout::fromText(detail::str(cast<hd::TensorDescType>(value_.getType()).getEncoding()));
}

//===----------------------------------------------------------------------===//
// Arguments and program ids
//===----------------------------------------------------------------------===//

Tensor arg(const DType &type, ArgOptions options, SourceLoc loc) {
  auto &t = detail::Trace::current(loc);
  Type ty = t.type(type, loc, "arg");
  if (isa<RankedTensorType>(ty))
    t.fail(loc, "arg", "a kernel argument is a scalar or a pointer, not " + type.str());
  if (options.divisibility < 0)
    t.fail(loc, "arg", "divisibility " + std::to_string(options.divisibility) + " is negative");
  Block &entry = t.func.getBody().front();
  BlockArgument a = entry.addArgument(ty, t.at(loc));
  t.divisibility.push_back(options.divisibility);
  return Tensor(a);
}

Tensor program_id(int axis, SourceLoc loc) {
  auto &t = detail::Trace::current(loc);
  if (axis < 0 || axis > 2)
    t.fail(loc, "program_id", "axis " + std::to_string(axis) + " is not 0, 1 or 2");
  return Tensor(t.checked(hd::ProgramIdOp::create(t.b, t.at(loc), t.b.getI32Type(), axis), loc,
                          "program_id"));
}

Tensor num_programs(int axis, SourceLoc loc) {
  auto &t = detail::Trace::current(loc);
  if (axis < 0 || axis > 2)
    t.fail(loc, "num_programs", "axis " + std::to_string(axis) + " is not 0, 1 or 2");
  return Tensor(t.checked(hd::NumProgramsOp::create(t.b, t.at(loc), t.b.getI32Type(), axis), loc,
                          "num_programs"));
}

} // namespace hadron::builder
