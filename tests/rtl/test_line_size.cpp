// SPDX-License-Identifier: Apache-2.0
// The device model is chosen by its line size (Endpoint::Options::line_bytes): the model of the
// run's size (tests/line_bytes.hpp) reports that size and carries lines of it, and a size the
// build has no model of is refused with an error that names it.
#include <stdexcept>
#include <string>

#include "fixture.hpp"

namespace cni::test {
namespace {

using LineSize = EndpointTest;

TEST_F(LineSize, ModelOfTheRequestedSizeReportsItAndCarriesWholeLines) {
  EXPECT_EQ(geo().line_bytes, test_line_bytes());
  EXPECT_EQ(ep->csr_read(csr::kGeometry) & 0xFF, test_line_bytes());
  EXPECT_EQ(line(1) - line(0), test_line_bytes());
  acquire(kHost1, line(6));
  ep->send(with_data(req(Op::WB, kHost1, line(6)), pattern(6)));
  expect(Op::WbAck, kHost1, line(6));
  ep->send(req(Op::RdS, kHost2, line(6)));
  Msg d = expect(Op::DataE, kHost2, line(6));
  EXPECT_EQ(d.len, test_line_bytes());
  EXPECT_EQ(d.data, pattern(6)) << "every byte of the line written back, none beyond it";
}

TEST(LineSizeModel, UnknownLineSizeIsAnErrorNamingIt) {
  Endpoint::Options o;
  o.line_bytes = 96;
  try {
    Endpoint ep(o);
    FAIL() << "a 96-byte model was built";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("96-byte lines"), std::string::npos) << what;
    EXPECT_NE(what.find(tb::built_flavor()), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace cni::test
