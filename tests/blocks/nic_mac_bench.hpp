// SPDX-License-Identifier: Apache-2.0
// The MAC side of a NIC block model in the block tests (the models with mac_rx_* and mac_tx_*
// ports: nic_pcie_s4, nic_pcie_dma_r12): frames queued on the receive stream, which has no
// tready (a beat a cycle), and frames collected from the transmit stream, whose tready the test
// decides; with `loopback`, each frame sent is queued on the receive stream again.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "block_bench.hpp"

namespace cni::tb::blocks {

template <unsigned B>
class NicMacStreams {
 public:
  using Bytes = std::vector<uint8_t>;

  // Queues frame `f` (no FCS) on the receive stream; the bytes of its last beat that tkeep does
  // not keep hold `junk` (what a MAC leaves there is undefined).
  void receive(const Bytes& f, uint8_t junk = 0) {
    for (size_t at = 0; at < f.size(); at += B) {
      Beat b;
      const size_t n = std::min<size_t>(B, f.size() - at);
      for (size_t i = 0; i < B; ++i) {
        b.data[i / 8] |= uint64_t{i < n ? f[at + i] : junk} << (8 * (i % 8));
      }
      b.keep = n == B ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
      b.last = at + B >= f.size();
      rx_.push_back(b);
    }
  }
  bool rx_empty() const { return rx_.empty(); }

  // With the clock low: the receive stream's next beat, the transmit stream's tready.
  template <class M>
  void drive(M& m, bool tx_ready) {
    m.mac_rx_tvalid_i = !rx_.empty();
    if (!rx_.empty()) {
      put(m.mac_rx_tdata_i, 0, B * 8, rx_.front().data);
      m.mac_rx_tkeep_i = rx_.front().keep;
      m.mac_rx_tlast_i = rx_.front().last;
      m.mac_rx_tuser_i = 0;
    }
    m.mac_tx_tready_i = tx_ready;
  }
  // Once the outputs have settled: the beats that pass at the coming edge.
  template <class M>
  void sample(const M& m) {
    if (m.mac_rx_tvalid_i) rx_.pop_front();
    if (m.mac_tx_tvalid_o && m.mac_tx_tready_i) {
      const Bits d = get(m.mac_tx_tdata_o, 0, B * 8);
      for (unsigned i = 0; i < B; ++i) {
        if ((m.mac_tx_tkeep_o >> i) & 1)
          cur_.push_back(static_cast<uint8_t>(d[i / 8] >> (8 * (i % 8))));
      }
      if (m.mac_tx_tlast_o) {
        if (loopback) receive(cur_);
        tx.push_back(std::move(cur_));
        cur_.clear();
      }
    }
  }

  std::vector<Bytes> tx;  // the frames sent, in order
  bool loopback = false;

 private:
  struct Beat {
    Bits data = Bits(B / 8, 0);
    uint64_t keep = 0;
    bool last = false;
  };
  std::deque<Beat> rx_;
  Bytes cur_;
};

}  // namespace cni::tb::blocks
