//===- RunCommand.cpp - hadron run ----------------------------------------===//
//
// Compiles a kernel for a device (through the runtime's JIT path), builds
// its arguments from --arg specs, launches it once, then prints or saves
// buffers and, with --repeat, times further launches. The argument list is
// passed as written: a wrong count or kind is the runtime's launch error.
//
//===----------------------------------------------------------------------===//

#include "ArgSpec.h"
#include "Cli.h"
#include "Timing.h"

#include <cstdio>
#include <memory>

namespace hadron::cli {
namespace {

const char kUsage[] =
    "usage: hadron run KERNEL.mlir|KERNEL.hdb --grid X[,Y[,Z]] [--arg SPEC]... [options]\n"
    "\n"
    "Compiles KERNEL.mlir for a device (or loads the device's entry of a bundle\n"
    "made by hadron compile), allocates and fills its buffers, launches it once\n"
    "and prints or saves buffers afterwards.\n"
    "\n"
    "options:\n"
    "  --device SEL       device selector (default: $HADRON_DEVICE, else auto)\n"
    "  --grid X[,Y[,Z]]   the grid of programs (CTAs)\n"
    "  --kernel NAME      the kernel to run when the module has several\n"
    "  --arg SPEC         one argument, in the kernel's signature order:\n"
    "                       [name=]type[shape][:init]\n"
    "                     buffers: x=f32[4096]:rand, out=f32[64x64]:poison\n"
    "                       inits: rand (uniform [-1,1); ints [-100,100]), randn,\n"
    "                       zeros (the default), ones, iota, poison (NaN, or\n"
    "                       0xDEADBEEF bytes for ints), file:PATH (raw bytes)\n"
    "                     scalars: n=i32:4096, alpha=f32:0.5\n"
    "                     types: i1 i8 i16 i32 i64 f16 bf16 f32 f64\n"
    "  --seed S           seed of the random inputs (default: fresh, printed)\n"
    "  --print NAME       print the first elements of a buffer after the launch\n"
    "  --print-count N    how many elements --print shows (default 8)\n"
    "  --save NAME=FILE   write a buffer's bytes after the launch\n"
    "  --repeat N         time N more launches with events; print the median\n"
    "  --bytes B          with --repeat: bytes a launch moves, to print GB/s\n"
    "  --flops F          with --repeat: operations a launch does, to print GFLOP/s\n"
    "  -O N               optimisation level 0..3 (default 3)\n"
    "  -h, --help         show this help\n";

Expected<std::array<uint32_t, 3>> parseGrid(const std::string &text) {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  size_t start = 0;
  for (int axis = 0;; ++axis) {
    if (axis == 3)
      return usageError("--grid '" + text + "' has more than 3 dimensions");
    size_t comma = text.find(',', start);
    auto n = parseUnsigned(text.substr(start, comma == std::string::npos ? comma : comma - start),
                           "--grid", 0, UINT32_MAX);
    if (!n)
      return n.status();
    grid[axis] = static_cast<uint32_t>(*n);
    if (comma == std::string::npos)
      return grid;
    start = comma + 1;
  }
}

/// The index of the argument called `name`, which must be a buffer.
Expected<size_t> findBuffer(const std::vector<ArgSpec> &specs, const std::string &name) {
  std::string names;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) {
      if (!specs[i].isBuffer)
        return usageError("argument '" + name + "' is a scalar, not a buffer");
      return i;
    }
    names += (names.empty() ? "" : ", ") + specs[i].name;
  }
  return usageError("no argument named '" + name +
                    "' (arguments: " + (names.empty() ? "none" : names) + ")");
}

} // namespace

int runCommand(const std::vector<std::string> &args) {
  int exitCode = kExitOk;
  auto parsed = parseCommand("run", args,
                             {{{"--device"}},
                              {{"--grid"}},
                              {{"--kernel"}},
                              {{"--arg"}, true, true},
                              {{"--seed"}},
                              {{"--print"}, true, true},
                              {{"--print-count"}},
                              {{"--save"}, true, true},
                              {{"--repeat"}},
                              {{"--bytes"}},
                              {{"--flops"}},
                              {{"-O"}}},
                             1, kUsage, exitCode);
  if (!parsed)
    return exitCode;
  auto usage = [](const Status &s) { return reportUsage("run", s, kUsage); };
  if (!parsed->has("--grid"))
    return usage(usageError("--grid is required"));
  auto grid = parseGrid(parsed->get("--grid"));
  if (!grid)
    return usage(grid.status());
  auto optLevel = parseUnsigned(parsed->get("-O", "3"), "-O", 0, 3);
  auto printCount = parseUnsigned(parsed->get("--print-count", "8"), "--print-count");
  auto repeat = parseUnsigned(parsed->get("--repeat", "0"), "--repeat", 0, 1000000);
  auto bytes = parseUnsigned(parsed->get("--bytes", "0"), "--bytes");
  auto flops = parseUnsigned(parsed->get("--flops", "0"), "--flops");
  for (const auto *n : {&optLevel, &printCount, &repeat, &bytes, &flops})
    if (!*n)
      return usage(n->status());
  auto seed = seedOption(*parsed);
  if (!seed)
    return usage(seed.status());

  std::vector<ArgSpec> specs;
  for (const std::string &text : parsed->all("--arg")) {
    auto spec = parseArgSpec(text, static_cast<unsigned>(specs.size()));
    if (!spec)
      return usage(spec.status());
    for (const ArgSpec &other : specs)
      if (other.name == spec->name)
        return usage(usageError("two arguments are named '" + spec->name + "'"));
    specs.push_back(std::move(*spec));
  }
  for (const std::string &name : parsed->all("--print"))
    if (auto found = findBuffer(specs, name); !found)
      return usage(found.status());
  std::vector<std::pair<std::string, std::string>> saves;
  for (const std::string &text : parsed->all("--save")) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
      return usage(usageError("--save '" + text + "' is not NAME=FILE"));
    saves.emplace_back(text.substr(0, eq), text.substr(eq + 1));
    if (auto found = findBuffer(specs, saves.back().first); !found)
      return usage(found.status());
  }

  auto ir = readFile(parsed->positionals[0]);
  if (!ir)
    return report("run", ir.status());
  auto ctx = runtime::Context::create();
  if (!ctx)
    return report("run", ctx.status());
  auto device = ctx->select(parsed->get("--device"));
  if (!device)
    return report("run", device.status());
  hd_compile_options options{};
  options.struct_size = sizeof(options);
  options.opt_level = static_cast<uint32_t>(*optLevel);
  // A bundle (hadron compile --target a,b -o k.hdb) brings its binaries:
  // the entry for the device is loaded, nothing is compiled.
  auto loadModule = [&]() -> Expected<runtime::Module> {
    if (ir->compare(0, 8, "HDBUNDLE") != 0)
      return device->loadIR(*ir, &options);
    auto bundle = runtime::Bundle::open(*ir);
    if (!bundle)
      return bundle.status();
    return device->loadBundle(*bundle);
  };
  auto module = loadModule();
  if (!module)
    return report("run", namingSource(module.status(), parsed->positionals[0]));

  hd_kernel *chosen = nullptr;
  if (parsed->has("--kernel")) {
    auto k = module->kernel(parsed->get("--kernel"));
    if (!k)
      return report("run", k.status());
    chosen = k->get();
  } else if (hd_module_kernel_count(module->get()) == 1) {
    chosen = hd_module_kernel_at(module->get(), 0);
  } else {
    std::string names;
    for (uint32_t i = 0; i < hd_module_kernel_count(module->get()); ++i)
      names += (i ? ", " : "") +
               std::string(hd_kernel_get_signature(hd_module_kernel_at(module->get(), i))->name);
    return report("run",
                  Status(HD_ERROR_INVALID_ARGUMENT,
                         "the module has several kernels (" + names + "); pick one with --kernel"));
  }
  runtime::Kernel kernel(chosen);

  // Device memory of the buffer arguments (null for scalars); destroyed
  // before the context.
  std::vector<std::unique_ptr<runtime::Buffer>> buffers(specs.size());
  bool seeded = false;
  std::vector<hd_arg> launchArgs;
  for (size_t i = 0; i < specs.size(); ++i) {
    const ArgSpec &spec = specs[i];
    if (!spec.isBuffer) {
      launchArgs.push_back(spec.scalar);
      continue;
    }
    seeded |= usesSeed(spec);
    auto contents = generate(spec, *seed, static_cast<unsigned>(i));
    if (!contents)
      return report("run", contents.status());
    auto buffer = device->alloc(contents->size());
    if (!buffer)
      return report("run", buffer.status());
    if (Status s = buffer->upload(*contents); !s)
      return report("run", s);
    buffers[i] = std::make_unique<runtime::Buffer>(std::move(*buffer));
    launchArgs.push_back(buffers[i]->arg());
  }
  if (seeded)
    std::printf("seed: %llu\n", static_cast<unsigned long long>(*seed));
  const hd_kernel_signature &sig = kernel.signature();
  std::printf("%s on %s, grid %ux%ux%u\n", sig.name, device->name().c_str(), (*grid)[0], (*grid)[1],
              (*grid)[2]);
  std::fflush(stdout);
  if (Status s = kernel.launch(*grid, launchArgs); !s)
    return report("run", s);
  if (Status s = device->synchronize(); !s)
    return report("run", s);

  auto download = [&](size_t index) -> Expected<std::vector<unsigned char>> {
    std::vector<unsigned char> out(buffers[index]->size());
    if (Status s = buffers[index]->download(out); !s)
      return s;
    return out;
  };
  for (const std::string &name : parsed->all("--print")) {
    size_t index = findBuffer(specs, name).value();
    auto contents = download(index);
    if (!contents)
      return report("run", contents.status());
    const ArgSpec &spec = specs[index];
    std::printf("%s: %s = %s (%llu elements)\n", name.c_str(), spec.typeText().c_str(),
                formatElements(*contents, spec.type, *printCount).c_str(),
                static_cast<unsigned long long>(spec.count));
  }
  for (const auto &[name, file] : saves) {
    auto contents = download(findBuffer(specs, name).value());
    if (!contents)
      return report("run", contents.status());
    if (Status s = writeFile(file, contents->data(), contents->size()); !s)
      return report("run", s);
    std::printf("%s: %zu bytes written to %s\n", name.c_str(), contents->size(), file.c_str());
  }

  if (*repeat > 0) {
    auto ms = medianLaunchMs(*device, kernel, *grid, launchArgs, static_cast<unsigned>(*repeat));
    if (!ms)
      return report("run", ms.status());
    std::printf("median %.4f ms over %llu launches", *ms, static_cast<unsigned long long>(*repeat));
    if (*bytes)
      std::printf(", %s", rateText(static_cast<double>(*bytes), *ms, "B").c_str());
    if (*flops)
      std::printf(", %s", rateText(static_cast<double>(*flops), *ms, "FLOP").c_str());
    std::printf("\n");
  }
  return kExitOk;
}

} // namespace hadron::cli
