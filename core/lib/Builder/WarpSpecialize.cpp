//===- WarpSpecialize.cpp - warp_specialize as hd.warp_specialize ---------===//
//
// The op is built first with an hd.warp_return in each region and verified,
// so that bad warp counts are reported before any user callable runs; then
// each callable builds its region in front of the terminator, with the
// trace's warps set to the region's (layouts are checked against them), and
// the whole op is verified again: that is where a worker reading a tile
// defined above it is caught.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

using namespace mlir;

namespace hadron::builder {

using detail::Trace;

namespace {

/// Sets the trace's region for the duration of a callable, and restores it
/// however the callable leaves (a trace error, or a Python exception
/// crossing the builder).
class RegionScope {
public:
  RegionScope(Trace &t, unsigned warps, std::string owner)
      : t_(t), warps_(t.warps), owner_(std::move(t.warpsOwner)), inside_(t.inWarpSpecialize) {
    t.warps = warps;
    t.warpsOwner = std::move(owner);
    t.inWarpSpecialize = true;
  }
  ~RegionScope() {
    t_.warps = warps_;
    t_.warpsOwner = std::move(owner_);
    t_.inWarpSpecialize = inside_;
  }
  RegionScope(const RegionScope &) = delete;
  RegionScope &operator=(const RegionScope &) = delete;

private:
  Trace &t_;
  unsigned warps_;
  std::string owner_;
  bool inside_;
};

std::string warpsText(unsigned n) { return std::to_string(n) + (n == 1 ? " warp" : " warps"); }

} // namespace

namespace detail {

void warpSpecialize(const std::function<void()> &defaultPartition,
                    const std::vector<std::function<void()>> &workers,
                    const std::vector<int> &workerNumWarps, const SourceLoc &loc,
                    const std::vector<int> &regs) {
  Trace &t = Trace::current(loc);
  const std::string what = "warp_specialize";
  if (t.inWarpSpecialize)
    t.fail(loc, what, "called inside a partition of another warp_specialize; they do not nest");
  if (!defaultPartition)
    t.fail(loc, what, "the default partition is an empty function");
  if (workers.size() != workerNumWarps.size())
    t.fail(loc, what,
           std::to_string(workers.size()) + " worker partitions but " +
               std::to_string(workerNumWarps.size()) + " warp counts; give one per partition");
  for (size_t i = 0; i < workers.size(); ++i)
    if (!workers[i])
      t.fail(loc, what, "worker partition " + std::to_string(i) + " is an empty function");

  // The regions' calls move a front end's user location; the op's checks
  // after them report at the call.
  const UserLocation callAt = currentUserLocation();
  Location l = t.at(loc);
  SmallVector<int32_t> warps(workerNumWarps.begin(), workerNumWarps.end());
  if (!regs.empty() && regs.size() != workers.size() + 1)
    t.fail(loc, what,
           std::to_string(regs.size()) + " register budgets for " +
               std::to_string(workers.size() + 1) +
               " regions; give one per region (the default first) or none");
  DenseI32ArrayAttr regsAttr;
  if (!regs.empty())
    regsAttr = t.b.getDenseI32ArrayAttr(SmallVector<int32_t>(regs.begin(), regs.end()));
  auto op = hd::WarpSpecializeOp::create(t.b, l, t.b.getDenseI32ArrayAttr(warps), regsAttr,
                                         unsigned(warps.size()));
  {
    OpBuilder::InsertionGuard guard(t.b);
    for (Region &region : op->getRegions()) {
      t.b.createBlock(&region);
      hd::WarpReturnOp::create(t.b, l);
    }
  }
  // The warp counts, before any region is built.
  t.verify(op, loc, what);

  for (unsigned r = 0; r < op->getNumRegions(); ++r) {
    OpBuilder::InsertionGuard guard(t.b);
    Block &block = op->getRegion(r).front();
    t.b.setInsertionPoint(block.getTerminator());
    if (r == 0) {
      RegionScope scope(t, t.warps, t.warpsOwner);
      defaultPartition();
    } else {
      unsigned n = unsigned(warps[r - 1]);
      RegionScope scope(t, n,
                        "worker partition " + std::to_string(r - 1) +
                            " of warp_specialize runs " + warpsText(n));
      workers[r - 1]();
    }
  }
  // Whatever the regions read from above (a worker may not read tiles).
  set_user_location(callAt);
  t.verify(op, loc, what, /*recursive=*/true);
}

} // namespace detail

void warp_specialize(const std::function<void()> &defaultPartition,
                     const std::vector<Partition> &workers, int defaultNumRegs, SourceLoc loc) {
  std::vector<std::function<void()>> bodies;
  std::vector<int> warps, regs{defaultNumRegs};
  bool anyWorkerRegs = false, everyWorkerRegs = true;
  for (const Partition &p : workers) {
    bodies.push_back(p.body);
    warps.push_back(p.numWarps);
    regs.push_back(p.numRegs);
    anyWorkerRegs |= p.numRegs != 0;
    everyWorkerRegs &= p.numRegs != 0;
  }
  // Budgets come from the workers; the default partition's (0: what they
  // leave, the target's figure) may be left out.
  if ((anyWorkerRegs && !everyWorkerRegs) || (defaultNumRegs != 0 && !anyWorkerRegs))
    Trace::current(loc).fail(loc, "warp_specialize",
                             "some regions have a register budget and some do not; give every "
                             "worker one (and the default partition's as defaultNumRegs, or "
                             "leave it 0 for what the workers leave) or none");
  const bool anyRegs = anyWorkerRegs;
  detail::warpSpecialize(defaultPartition, bodies, warps, loc, anyRegs ? regs : std::vector<int>{});
}

unsigned num_warps(SourceLoc loc) { return Trace::current(loc).warps; }

} // namespace hadron::builder
