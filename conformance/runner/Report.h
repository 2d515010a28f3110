//===- Report.h - The matrix as JSON, Markdown and HTML ---------*- C++ -*-===//
//
// conformance.json (every cell with its outcome, message, first mismatch,
// seed and timings; the targets with their device models), conformance.md
// (summary and matrix) and conformance.html (one self-contained page: the
// matrix case x target, each failing cell with its first mismatch and seed,
// the device models in the column heads).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_REPORT_H
#define HADRON_CONFORMANCE_REPORT_H

#include "Runner.h"

#include <string>

namespace hadron::conformance {

std::string jsonReport(Runner &runner);
std::string markdownReport(Runner &runner);
std::string htmlReport(Runner &runner);

/// Writes the three files into `dir` (created if missing);
/// HD_ERROR_INVALID_ARGUMENT naming the path when one cannot be written.
runtime::Status writeReports(Runner &runner, const std::string &dir);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_REPORT_H
