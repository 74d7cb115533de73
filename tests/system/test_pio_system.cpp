// SPDX-License-Identifier: Apache-2.0
// The PIO channel end to end: driver library on simulated cores, host caches and the coherent
// link model, the Verilated device core computing the Bloom hashes.
#include <random>

#include "pio_ref.hpp"
#include "cni/drv/pio.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

TEST(PioSystem, SingleLineInvocationTakesTwoLinkRoundTrips) {
  System s(profile());
  std::vector<double> lat;
  const unsigned lb = s.dev.geometry().line_bytes;
  std::vector<uint8_t> req(lb);
  for (unsigned i = 0; i < req.size(); ++i) req[i] = uint8_t(i * 3 + 1);
  s.host.spawn(0, [&](drv::MemoryPort& m) {
    drv::PioChannel ch(m, s.dev.pio_layout());
    ch.warm_up();
    for (int i = 0; i < 5; ++i) {
      uint64_t t0 = m.now_ns();
      auto resp = ch.invoke(req);
      lat.push_back(double(m.now_ns() - t0));
      EXPECT_EQ(resp, tb::pio_expected_response(req, lb)) << "invocation " << i;
      req[0]++;
    }
  });
  s.host.run_programs();
  EXPECT_EQ(s.counter(tb::csr::kPioCInvocations), 5u);
  for (double l : lat) {
    EXPECT_GE(l, 600.0) << "two round trips of 150 ns each way";
    EXPECT_LE(l, 1000.0);
  }
}

}  // namespace
}  // namespace cni::test
