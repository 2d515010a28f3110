#include "Common.h"
namespace hadron::conformance {
void addMiscCases(std::vector<Case> &) {}
}
