// SPDX-License-Identifier: Apache-2.0
// Profiles: embedded enzian-eci, parsing, overrides and error messages.
#include "cni/sim/profile.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "error_of.hpp"

using namespace cni::sim;

using cni::sim::test::error_of;

TEST(Profile, EnzianEciCarriesThePaperNumbers) {
  const Profile p = Profile::load("enzian-eci");
  EXPECT_EQ(p.name(), "enzian-eci");
  EXPECT_EQ(p.get_int("line_bytes"), 128);
  EXPECT_DOUBLE_EQ(p.get_double("link.one_way_ns"), 150.0);
  EXPECT_DOUBLE_EQ(p.get_double("link.bandwidth_gib_s"), 30.0);
  EXPECT_EQ(p.get_int("l1.size_kib"), 32);
  EXPECT_EQ(p.get_int("l1.ways"), 32);
  EXPECT_EQ(p.get_int("cache.size_kib"), 16384);
  EXPECT_EQ(p.get_int("cache.ways"), 16);
  EXPECT_EQ(p.get_int("home.max_transactions"), 16);
  EXPECT_DOUBLE_EQ(p.get_double("device.freq_mhz"), 300.0);
  EXPECT_DOUBLE_EQ(p.get_double("cpu.freq_mhz"), 2000.0);
  EXPECT_GE(p.get_double("host.coherence_timeout_ms"), 100.0);
  EXPECT_EQ(p.get_int("device.rx_credits"), 8);
  EXPECT_TRUE(p.get_bool("home.grant_exclusive"));
  EXPECT_NE(p.description().find("ThunderX-1"), std::string::npos);
}

TEST(Profile, EveryEmbeddedProfileParses) {
  ASSERT_FALSE(Profile::available().empty());
  for (const auto& name : Profile::available()) {
    const Profile p = Profile::load(name);
    EXPECT_FALSE(p.keys().empty()) << name;
    EXPECT_FALSE(p.description().empty()) << name << " lacks a header comment";
  }
}

TEST(Profile, ParsesCommentsWhitespaceAndTypes) {
  const Profile p = Profile::parse("t",
                                   "# header line one\n"
                                   "# header line two\n"
                                   "\n"
                                   "  a.b = 12   # trailing comment\n"
                                   "# full-line comment\n"
                                   "c=2.5\n"
                                   "flag = false\n"
                                   "mode = auto\n",
                                   "test");
  EXPECT_EQ(p.description(), "header line one\nheader line two");
  EXPECT_EQ(p.keys(), (std::vector<std::string>{"a.b", "c", "flag", "mode"}));
  EXPECT_EQ(p.get_int("a.b"), 12);
  EXPECT_DOUBLE_EQ(p.get_double("c"), 2.5);
  EXPECT_FALSE(p.get_bool("flag"));
  EXPECT_EQ(p.get_string("mode"), "auto");
}

TEST(Profile, OverrideChangesValueAndDumpMarksIt) {
  Profile p = Profile::load("enzian-eci");
  p.set("link.one_way_ns=75");
  p.set(" host.cores = 2 ");
  EXPECT_DOUBLE_EQ(p.get_double("link.one_way_ns"), 75.0);
  EXPECT_EQ(p.get_int("host.cores"), 2);
  const std::string d = p.dump();
  EXPECT_NE(d.find("link.one_way_ns"), std::string::npos);
  EXPECT_NE(d.find("= 75   # override"), std::string::npos);
  EXPECT_NE(d.find("# profile enzian-eci"), std::string::npos);
}

TEST(Profile, UnknownKeyErrorNamesKeyAndSuggestsCloseOnes) {
  Profile p = Profile::load("enzian-eci");
  const std::string msg = error_of<ProfileError>([&] { p.set("link.one_way=100"); });
  EXPECT_NE(msg.find("unknown key 'link.one_way'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("link.one_way_ns"), std::string::npos) << msg;
}

TEST(Profile, BadNumberErrorNamesKeyAndValue) {
  Profile p = Profile::load("enzian-eci");
  const std::string msg = error_of<ProfileError>([&] { p.set("cache.hit_ns=fast"); });
  EXPECT_NE(msg.find("'fast'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cache.hit_ns"), std::string::npos) << msg;
  const std::string b = error_of<ProfileError>([&] { p.set("home.forward_owned=yes"); });
  EXPECT_NE(b.find("home.forward_owned"), std::string::npos) << b;
  EXPECT_NE(error_of<ProfileError>([&] { p.set("no equals sign"); }).find("key=value"),
            std::string::npos);
}

TEST(Profile, MissingKeyErrorNamesKeyAndProfile) {
  const Profile p = Profile::load("enzian-eci");
  const std::string msg =
      error_of<ProfileError>([&] { (void)p.get_double("cache.nonexistent_ns"); });
  EXPECT_NE(msg.find("cache.nonexistent_ns"), std::string::npos) << msg;
  EXPECT_NE(msg.find("enzian-eci"), std::string::npos) << msg;
}

TEST(Profile, GetIntRejectsFractionAndTextRejectsNumberGetter) {
  const Profile p = Profile::parse("t", "x = 1.5\ny = abc\n", "test");
  EXPECT_NE(error_of<ProfileError>([&] { (void)p.get_int("x"); }).find("not an integer"),
            std::string::npos);
  EXPECT_NE(error_of<ProfileError>([&] { (void)p.get_double("y"); }).find("not a number"),
            std::string::npos);
  EXPECT_NE(error_of<ProfileError>([&] { (void)p.get_bool("x"); }).find("not true or false"),
            std::string::npos);
}

TEST(Profile, MalformedLinesNameTheLine) {
  EXPECT_NE(error_of<ProfileError>([] {
              Profile::parse("t", "a = 1\nbroken line\n", "f.profile");
            }).find("f.profile:2"),
            std::string::npos);
  EXPECT_NE(error_of<ProfileError>([] {
              Profile::parse("t", "a = 1\na = 2\n", "f.profile");
            }).find("twice"),
            std::string::npos);
  EXPECT_NE(
      error_of<ProfileError>([] { Profile::parse("t", "a =\n", "f.profile"); }).find("no value"),
      std::string::npos);
}

TEST(Profile, LoadsFromFilePathAndReportsUnknownName) {
  const std::string path = testing::TempDir() + "/mini.profile";
  {
    std::ofstream f(path);
    f << "# mini: a test profile\nline_bytes = 64\n";
  }
  const Profile p = Profile::load(path);
  EXPECT_EQ(p.name(), "mini");
  EXPECT_EQ(p.get_int("line_bytes"), 64);
  std::remove(path.c_str());
  const std::string msg = error_of<ProfileError>([] { Profile::load("no-such-profile"); });
  EXPECT_NE(msg.find("no-such-profile"), std::string::npos) << msg;
  EXPECT_NE(msg.find("enzian-eci"), std::string::npos) << msg;
}

TEST(Profile, PerNodeOverrideSetsItsKeyForThatNodeOnly) {
  Profile p = Profile::load("enzian-eci");
  p.set("nodes=4");
  p.set("node3.host.cores=2");
  p.set("node3.devices=0");  // a per-node key node.<name> is overridden as node<i>.<name>
  p.set("node1.link.one_way_ns=500");
  EXPECT_EQ(p.get_int("node3.host.cores"), 2);
  EXPECT_NE(p.dump().find("node3.host.cores"), std::string::npos);
  const Profile n3 = p.node_profile(3, 4);
  EXPECT_EQ(n3.name(), "enzian-eci node 3");
  EXPECT_EQ(n3.get_int("host.cores"), 2);
  EXPECT_EQ(n3.get_int("node.devices"), 0);
  EXPECT_DOUBLE_EQ(n3.get_double("link.one_way_ns"), 150.0);
  EXPECT_FALSE(n3.has("node3.host.cores"));
  EXPECT_NE(n3.dump().find("= 2   # override"), std::string::npos);
  const Profile n1 = p.node_profile(1, 4);
  EXPECT_EQ(n1.get_int("host.cores"), 4);
  EXPECT_EQ(n1.get_int("node.devices"), 1);
  EXPECT_DOUBLE_EQ(n1.get_double("link.one_way_ns"), 500.0);
  EXPECT_EQ(p.node_profile(0, 4).get_int("host.cores"), 4);
}

TEST(Profile, PerNodeOverrideTakesItsKeysType) {
  Profile p = Profile::load("enzian-eci");
  const std::string num = error_of<ProfileError>([&] { p.set("node2.host.cores=many"); });
  EXPECT_NE(num.find("'many'"), std::string::npos) << num;
  EXPECT_NE(num.find("node2.host.cores"), std::string::npos) << num;
  const std::string flag = error_of<ProfileError>([&] { p.set("node2.home.forward_owned=1"); });
  EXPECT_NE(flag.find("true or false"), std::string::npos) << flag;
  p.set("node2.host.core_sockets=0,0,0,0");
  EXPECT_EQ(p.node_profile(2, 3).get_string("host.core_sockets"), "0,0,0,0");
}

TEST(Profile, UnknownOrSystemWidePerNodeKeyIsRejectedNamingIt) {
  Profile p = Profile::load("enzian-eci");
  const std::string unknown = error_of<ProfileError>([&] { p.set("node1.host.corez=2"); });
  EXPECT_NE(unknown.find("unknown key 'node1.host.corez'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("host.cores"), std::string::npos) << unknown;
  for (const std::string key : {"node1.net.latency_ns", "node1.nodes"}) {
    const std::string msg = error_of<ProfileError>([&] { p.set(key, "2"); });
    EXPECT_NE(msg.find("'" + key + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("whole system"), std::string::npos) << msg;
  }
  const std::string spelled = error_of<ProfileError>([&] { p.set("node1.node.devices=2"); });
  EXPECT_NE(spelled.find("'node1.devices'"), std::string::npos) << spelled;
  const std::string nested = error_of<ProfileError>([&] { p.set("node1.node2.host.cores=2"); });
  EXPECT_NE(nested.find("node1.node2.host.cores"), std::string::npos) << nested;
  EXPECT_FALSE(p.has("node1.host.corez"));
}

TEST(Profile, PerNodeOverridesInAFileAreCheckedNamingTheLine) {
  const Profile p = Profile::parse("t", "node1.a = 7\na = 1\nflag = false\n", "f.profile");
  EXPECT_EQ(p.node_profile(1, 2).get_int("a"), 7);
  EXPECT_EQ(p.node_profile(0, 2).get_int("a"), 1);
  const std::string unknown =
      error_of<ProfileError>([] { Profile::parse("t", "a = 1\nnode1.b = 2\n", "f.profile"); });
  EXPECT_NE(unknown.find("f.profile:2"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'node1.b'"), std::string::npos) << unknown;
  const std::string type = error_of<ProfileError>(
      [] { Profile::parse("t", "flag = false\nnode0.flag = 3\n", "f.profile"); });
  EXPECT_NE(type.find("f.profile:2"), std::string::npos) << type;
  EXPECT_NE(type.find("node0.flag"), std::string::npos) << type;
}

TEST(Profile, OverrideOfANodeOutsideTheSystemIsAnErrorNamingIt) {
  Profile p = Profile::load("enzian-eci");
  p.set("node99.host.cores=2");
  const std::string msg = error_of<ProfileError>([&] { (void)p.node_profile(0, 4); });
  EXPECT_NE(msg.find("'node99.host.cores'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 99"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4 nodes"), std::string::npos) << msg;
}

TEST(Profile, IncludeTakesTheBaseAndLetsTheFileOverrideAndExtendIt) {
  const std::string dir = testing::TempDir();
  {
    std::ofstream f(dir + "/base.profile");
    f << "# base\na = 1\nb = true\nmode = x\n";
  }
  const std::string include = "include = " + dir + "/base.profile\n";
  const Profile p = Profile::parse("t", "# top: the base and more\n" + include + "a = 2\nc = 3.5\n",
                                   "top.profile");
  EXPECT_EQ(p.base(), dir + "/base.profile");
  EXPECT_EQ(p.description(), "top: the base and more");
  EXPECT_EQ(p.keys(), (std::vector<std::string>{"a", "b", "mode", "c"}));
  EXPECT_EQ(p.get_int("a"), 2);
  EXPECT_TRUE(p.get_bool("b"));
  EXPECT_DOUBLE_EQ(p.get_double("c"), 3.5);
  // an included key keeps its type; a key is set once per file; include comes first
  auto err = [&](const std::string& body) {
    return error_of<ProfileError>([&] { Profile::parse("t", include + body, "top.profile"); });
  };
  EXPECT_NE(err("b = 7\n").find("expected true or false"), std::string::npos);
  EXPECT_NE(err("a = 2\na = 3\n").find("top.profile:3: key 'a' set twice"), std::string::npos);
  const std::string late = error_of<ProfileError>(
      [&] { Profile::parse("t", "a = 1\ninclude = enzian-eci\n", "top.profile"); });
  EXPECT_NE(late.find("top.profile:2: 'include' must be the first key"), std::string::npos) << late;
  const std::string missing = error_of<ProfileError>(
      [&] { Profile::parse("t", "include = no-such-profile\n", "top.profile"); });
  EXPECT_NE(missing.find("top.profile:1: include: profile 'no-such-profile'"), std::string::npos)
      << missing;
  // a cycle ends in an error, not a crash
  {
    std::ofstream f(dir + "/loop_a.profile");
    f << "# a\ninclude = " << dir << "/loop_b.profile\n";
    std::ofstream g(dir + "/loop_b.profile");
    g << "# b\ninclude = " << dir << "/loop_a.profile\n";
  }
  const std::string cycle = error_of<ProfileError>([&] { Profile::load(dir + "/loop_a.profile"); });
  EXPECT_NE(cycle.find("includes itself"), std::string::npos) << cycle;
  for (const char* f : {"/base.profile", "/loop_a.profile", "/loop_b.profile"}) {
    std::remove((dir + f).c_str());
  }
}

// enzian-pcie is enzian-eci's machine with the PCIe cable between the CPU and the FPGA (002 s3,
// s5): every enzian-eci key, and the PCIe link's and the DMA driver's on top.
TEST(Profile, EnzianPcieIsEnzianEciWithThePcieLink) {
  const Profile eci = Profile::load("enzian-eci");
  const Profile p = Profile::load("enzian-pcie");
  EXPECT_EQ(p.base(), "enzian-eci");
  for (const auto& k : eci.keys()) {
    EXPECT_EQ(p.get_string(k), eci.get_string(k)) << k;
  }
  EXPECT_FALSE(eci.has("pcie.gen"));
  EXPECT_EQ(p.get_int("pcie.gen"), 3);
  EXPECT_EQ(p.get_int("pcie.lanes"), 8);        // the ThunderX-1's x8 port
  EXPECT_EQ(p.get_int("pcie.wc_bytes"), 64);    // stores combined to 512 bits
  EXPECT_EQ(p.get_int("pcie.load_bytes"), 16);  // a 128-bit read bus
  EXPECT_TRUE(p.has("nic.dma_tx_sw_ns"));
}
