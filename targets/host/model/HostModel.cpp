//===- HostModel.cpp - The model of the host CPU target -------------------===//

#include "HostModel.h"

namespace hadron::host {

const std::vector<ArchModel> &archModels() {
  static const std::vector<ArchModel> models = {
      {"native", "", 0, 0},
      {"x86-64", "x86-64", 1, 16},
      {"x86-64-v2", "x86-64-v2", 2, 16},
      {"x86-64-v3", "x86-64-v3", 3, 32},
      {"x86-64-v4", "x86-64-v4", 4, 64},
  };
  return models;
}

const ArchModel *findArch(std::string_view arch) {
  for (const ArchModel &model : archModels())
    if (arch == model.arch)
      return &model;
  return nullptr;
}

} // namespace hadron::host
