//===- SelectorTest.cpp - Selector grammar and matching -------------------===//

#include "Selector.h"

#include "hadron/runtime/runtime.h"

#include <gtest/gtest.h>

using namespace hadron;
using namespace hadron::runtime;

namespace {

// What a machine with two NVIDIA GPUs, one AMD GPU, an Intel GPU, a
// non-ranked plugin and the host would offer, in load order.
std::vector<Candidate> machine() {
  return {{"host", 0}, {"intel", 0}, {"amd", 0},  {"nvidia", 0},
          {"nvidia", 1}, {"other", 0}, {"other", 1}};
}

std::string pick(const std::string &text, const std::vector<Candidate> &devices = machine()) {
  Expected<Selector> s = parseSelector(text);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s)
    return "parse error";
  std::optional<size_t> i = matchSelector(*s, devices);
  if (!i)
    return "none";
  return devices[*i].vendor + ":" + std::to_string(devices[*i].index);
}

TEST(SelectorParse, EveryFormParses) {
  for (const char *text : {"auto", "host", "nvidia", "nvidia:1", "amd:*", "intel:0",
                           "nvidia;amd;host", "!intel", "!intel;auto", "!nvidia:0;nvidia",
                           " nvidia : 1 ; host ", "my-target_2:7"})
    EXPECT_TRUE(parseSelector(text).ok()) << text << ": " << parseSelector(text).status().message();
}

TEST(SelectorParse, StructureOfAList) {
  Expected<Selector> s = parseSelector("nvidia:1;!intel;amd:*;auto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->choices.size(), 3u);
  EXPECT_EQ(s->choices[0].vendor, "nvidia");
  EXPECT_EQ(s->choices[0].index, std::optional<uint32_t>(1));
  EXPECT_EQ(s->choices[1].vendor, "amd");
  EXPECT_FALSE(s->choices[1].index.has_value());
  EXPECT_EQ(s->choices[2].kind, SelectorTerm::Kind::Auto);
  ASSERT_EQ(s->exclusions.size(), 1u);
  EXPECT_EQ(s->exclusions[0].vendor, "intel");
}

TEST(SelectorParse, OnlyExclusionsMeansAuto) {
  Expected<Selector> s = parseSelector("!intel");
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->choices.size(), 1u);
  EXPECT_EQ(s->choices[0].kind, SelectorTerm::Kind::Auto);
}

TEST(SelectorParse, MalformedShowsTheGrammar) {
  struct Case {
    const char *text, *why;
  } cases[] = {
      {"", "term 1 is empty"},
      {"nvidia;", "term 2 is empty"},
      {"nvidia;;amd", "term 2 is empty"},
      {"NVIDIA", "'NVIDIA' is not a vendor name"},
      {"nvidia:x", "device 'x' is not an index"},
      {"nvidia:", "device '' is not an index"},
      {"nvidia:-1", "device '-1' is not an index"},
      {"nvidia:99999999999", "not an index"},
      {"auto:0", "'auto' takes no device index"},
      {"!auto", "'auto' cannot be excluded"},
      {"!", "'' is not a vendor name"},
      {"1nvidia", "'1nvidia' is not a vendor name"},
      {"nvidia amd", "'nvidia amd' is not a vendor name"},
  };
  for (const Case &c : cases) {
    Expected<Selector> s = parseSelector(c.text);
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_EQ(s.status().code(), HD_ERROR_INVALID_ARGUMENT);
    const std::string &why = s.status().message();
    EXPECT_NE(why.find(c.why), std::string::npos) << c.text << " -> " << why;
    EXPECT_NE(why.find("selector := term (';' term)*"), std::string::npos) << why;
    EXPECT_NE(why.find(std::string("'") + c.text + "'"), std::string::npos) << why;
  }
}

TEST(SelectorParse, CApiValidates) {
  hd_error err;
  EXPECT_EQ(hd_selector_validate("nvidia;amd;host", &err), HD_OK);
  EXPECT_EQ(hd_selector_validate("nvidia;;", &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(err.code, HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("grammar"), std::string::npos) << err.message;
}

TEST(SelectorMatch, AutoPrefersNvidiaThenAmdThenIntelThenOthersThenHost) {
  EXPECT_EQ(pick("auto"), "nvidia:0");
  EXPECT_EQ(pick("!nvidia"), "amd:0");
  EXPECT_EQ(pick("!nvidia;!amd"), "intel:0");
  EXPECT_EQ(pick("!nvidia;!amd;!intel"), "other:0");
  EXPECT_EQ(pick("!nvidia;!amd;!intel;!other"), "host:0");
  EXPECT_EQ(pick("!nvidia;!amd;!intel;!other;!host"), "none");
  EXPECT_EQ(pick("auto", {{"host", 0}}), "host:0");
  EXPECT_EQ(pick("auto", {}), "none");
}

TEST(SelectorMatch, VendorAndIndex) {
  EXPECT_EQ(pick("host"), "host:0");
  EXPECT_EQ(pick("nvidia"), "nvidia:0");
  EXPECT_EQ(pick("nvidia:1"), "nvidia:1");
  EXPECT_EQ(pick("nvidia:2"), "none");
  EXPECT_EQ(pick("amd:*"), "amd:0");
  EXPECT_EQ(pick("other:1"), "other:1");
  EXPECT_EQ(pick("missing"), "none");
  // The lowest index wins even when the list is not in index order.
  EXPECT_EQ(pick("nvidia", {{"nvidia", 1}, {"nvidia", 0}}), "nvidia:0");
}

TEST(SelectorMatch, PriorityListTakesTheFirstThatMatches) {
  EXPECT_EQ(pick("nvidia;amd;host"), "nvidia:0");
  EXPECT_EQ(pick("nvidia:5;amd;host"), "amd:0");
  EXPECT_EQ(pick("missing;host"), "host:0");
  EXPECT_EQ(pick("nvidia;host", {{"host", 0}, {"amd", 0}}), "host:0");
}

TEST(SelectorMatch, ExclusionsApplyWhereverTheyStand) {
  EXPECT_EQ(pick("nvidia;!nvidia;host"), "host:0");
  EXPECT_EQ(pick("!nvidia:0;nvidia"), "nvidia:1");
  EXPECT_EQ(pick("nvidia;!nvidia:0"), "nvidia:1");
  EXPECT_EQ(pick("!intel;intel;auto"), "nvidia:0");
}

TEST(SelectorMatch, VendorNamesAreValidPluginNames) {
  EXPECT_TRUE(isValidVendorName("nvidia"));
  EXPECT_TRUE(isValidVendorName("my-target_2"));
  EXPECT_FALSE(isValidVendorName("auto"));
  EXPECT_FALSE(isValidVendorName("Nvidia"));
  EXPECT_FALSE(isValidVendorName(""));
  EXPECT_FALSE(isValidVendorName("a:b"));
}

} // namespace
