// SPDX-License-Identifier: Apache-2.0
// Systems of several nodes built by tb::System: every node's device comes up and answers its
// own node's cores, several devices share a node in their own address windows, per-node
// overrides reach the devices, the device model has the profile's line size, and a host-only
// system has none.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pio_ref.hpp"
#include "cni/drv/pio.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

class SystemSize : public testing::TestWithParam<unsigned> {};

TEST_P(SystemSize, EveryDeviceResetsAndAnswersAReadFromACoreOfItsNode) {
  const unsigned n = GetParam();
  tb::System s(profile({"nodes=" + std::to_string(n)}), test_devices());
  ASSERT_EQ(s.num_nodes(), n);
  std::vector<uint64_t> got(n, ~uint64_t{0});
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_EQ(s.num_devices(i), 1u);
    const uint64_t addr = s.device(i, 0).host_addr(0);
    s.node(i).host().spawn(0, [&got, i, addr](drv::MemoryPort& m) { got[i] = m.load64(addr); });
  }
  s.run_programs();
  for (unsigned i = 0; i < n; ++i) {
    tb::SimDevice& dev = s.device(i, 0);
    EXPECT_EQ(got[i], 0u) << "node " << i << ": device memory is cleared at reset";
    EXPECT_EQ(dev.endpoint().counter(tb::csr::kRds), 1u) << "node " << i;
    EXPECT_EQ(dev.first_response_cycles().size(), 1u) << "node " << i;
    EXPECT_FALSE(dev.endpoint().got_error()) << "node " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Nodes, SystemSize, testing::Values(1u, 2u, 4u, 16u),
                         [](const auto& info) { return std::to_string(info.param); });

TEST(SystemNodes, TwoDevicesOnANodeAnswerInTheirOwnWindows) {
  tb::System s(profile({"node.devices=2"}), test_devices());
  tb::SimDevice& d0 = s.device(0, 0);
  tb::SimDevice& d1 = s.device(0, 1);
  EXPECT_EQ(d1.host_base(), d0.host_base() + tb::System::kDeviceWindow);
  const unsigned lb = d1.geometry().line_bytes;
  std::vector<uint8_t> req(lb);
  for (unsigned i = 0; i < req.size(); ++i) req[i] = uint8_t(i * 5 + 2);
  std::vector<uint8_t> resp;
  uint64_t w0 = 1, w1 = 1;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    drv::PioChannel ch(m, d1.pio_layout());
    ch.warm_up();
    resp = ch.invoke(req);
    w0 = m.load64(d0.host_addr(1));
    w1 = m.load64(d1.host_addr(1));
  });
  s.run_programs();
  EXPECT_EQ(resp, tb::pio_expected_response(req, lb));
  EXPECT_EQ(w0, 0u);
  EXPECT_EQ(w1, 0u);
  EXPECT_EQ(d1.endpoint().counter(tb::csr::kPioCInvocations), 1u);
  EXPECT_EQ(d0.endpoint().counter(tb::csr::kPioCInvocations), 0u);
  EXPECT_EQ(d0.endpoint().counter(tb::csr::kRds), 1u);
  EXPECT_FALSE(d0.endpoint().got_error());
  EXPECT_FALSE(d1.endpoint().got_error());
}

TEST(SystemNodes, PerNodeOverrideReachesOnlyThatNodesDevice) {
  tb::System s(profile({"nodes=2", "node1.device.freq_mhz=150"}), test_devices());
  const uint64_t c0 = s.device(0, 0).cycles(), c1 = s.device(1, 0).cycles();
  s.kernel().run_until(sim::ns(10'000));
  EXPECT_NEAR(double(s.device(0, 0).cycles() - c0), 3000.0, 1.0);  // 300 MHz
  EXPECT_NEAR(double(s.device(1, 0).cycles() - c1), 1500.0, 1.0);  // 150 MHz
}

TEST(SystemNodes, ConfigureSeesEveryDeviceOfEveryNode) {
  std::vector<std::pair<unsigned, unsigned>> seen;
  tb::System s(profile({"nodes=2", "node.devices=2", "node1.devices=1"}),
               [&](unsigned node, unsigned dev, tb::SimDevice::Config& cfg) {
                 seen.emplace_back(node, dev);
                 cfg.ret_excl_regions = 0;
               });
  EXPECT_EQ(seen, (std::vector<std::pair<unsigned, unsigned>>{{0, 0}, {0, 1}, {1, 0}}));
  EXPECT_EQ(s.device(1, 0).endpoint().csr_read(tb::csr::kRetExcl), 0u);
}

TEST(SystemNodes, DeviceModelHasTheProfilesLineSize) {
  for (unsigned lb : {64u, 128u}) {
    tb::System s(profile({"line_bytes=" + std::to_string(lb)}), test_devices());
    EXPECT_EQ(s.node(0).fabric().line_bytes(), lb);
    EXPECT_EQ(s.device(0, 0).geometry().line_bytes, lb);
    EXPECT_EQ(s.device(0, 0).pio_layout().line_bytes, lb);
    EXPECT_EQ(s.device(0, 0).host_addr(1) - s.device(0, 0).host_addr(0), lb);
  }
}

TEST(SystemNodes, HostOnlySystemHasNoDevice) {
  tb::System s(profile({"host.sockets=2", "node.devices=0"}));
  EXPECT_EQ(s.num_devices(0), 0u);
  EXPECT_EQ(s.node(0).fabric().num_nodes(), 2u);
  try {
    (void)s.device(0, 0);
    FAIL() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("no device 0 on node 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cni::test
