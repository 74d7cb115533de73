// SPDX-License-Identifier: Apache-2.0
#include "device/dsm.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "device/cni_options.hpp"

namespace cni::tb {
namespace {

// This node's directory and the protocol core's mailbox, in its host memory beside the CNI16Qm
// receive queue's place, a quarter of a megabyte apart modulo 1 MB (and the application's
// private memory, DsmSystem::private_base(), half a megabyte), so that in typhoon-1998's
// direct-mapped 1 MB cache the protocol core's look at the mailbox does not evict the directory
// (it did: every handler's directory access missed and wrote the line back).
constexpr drv::Addr kDirOffset = 0x400000;
constexpr drv::Addr kMailboxOffset = 0x840000;

drv::Addr mailbox_addr() { return sim::HostSystem::dram_base(0) + kMailboxOffset; }

}  // namespace

const char* dsm_design_name(DsmDesign d) {
  return d == DsmDesign::Typhoon1 ? "Typhoon-1" : "Typhoon-0";
}

DsmSystem::DsmSystem(const sim::Profile& profile, const DsmConfig& cfg) : cfg_(cfg) {
  sim::Profile p = profile;
  const bool t0 = cfg.design == DsmDesign::Typhoon0;
  p.set("node.devices", t0 ? "2" : "1");
  const unsigned ts_dev = t0 ? 1 : 0;
  if (t0 && cfg.ts_ni) {
    throw std::invalid_argument("DsmSystem: Typhoon-0's NI is a device of its own");
  }
  sys_ = std::make_unique<System>(p, [&](unsigned, unsigned d, SimDevice::Config& c) {
    c.variant = d == ts_dev ? cfg.ts_variant : cfg.ni_variant;
  });
  nodes_ = sys_->num_nodes();
  if (nodes_ > drv::Stache::kMaxNodes) {
    throw std::invalid_argument("DsmSystem: " + std::to_string(nodes_) + " nodes (at most " +
                                std::to_string(drv::Stache::kMaxNodes) + ")");
  }
  for (unsigned n = 0; n < nodes_; ++n) {
    if (sys_->node(n).host().num_cores() < cfg.app_cores + 1) {
      throw std::invalid_argument("DsmSystem: node " + std::to_string(n) + " has " +
                                  std::to_string(sys_->node(n).host().num_cores()) +
                                  " cores; the application takes " +
                                  std::to_string(cfg.app_cores) + " and the protocol one more");
    }
    const auto& r = ts_device(n).geometry().regions[DeviceGeometry::kTs];
    if (r.lines == 0) {
      throw std::invalid_argument("DsmSystem: the device model '" + cfg.ts_variant +
                                  "' carries no tag store");
    }
  }
  blocks_ = ts_device(0).geometry().ts_blocks;
  stats_.resize(nodes_);
  const sim::NetParams net = sim::NetParams::from_profile(p);
  barrier_ns_ = uint64_t(sim::to_ns(net.hops() * net.latency));
}

DsmSystem::~DsmSystem() = default;

SimDevice& DsmSystem::ts_device(unsigned node) {
  return sys_->device(node, cfg_.design == DsmDesign::Typhoon0 ? 1 : 0);
}

drv::Addr DsmSystem::block_addr(unsigned node, uint32_t b) {
  SimDevice& d = ts_device(node);
  return d.host_addr(d.geometry().ts_block0 + b);
}

void DsmSystem::run(const App& app) {
  const bool t0 = cfg_.design == DsmDesign::Typhoon0;
  unsigned ready = 0, done = 0;
  const unsigned apps = nodes_ * cfg_.app_cores;
  for (unsigned n = 0; n < nodes_; ++n) {
    sim::HostSystem& host = sys_->node(n).host();
    host.spawn(cfg_.app_cores, [this, n, t0, &ready, &done, apps](drv::MemoryPort& m) {
      drv::CniOptions co = cni_options(sys_->device(n, 0), nodes_);
      co.retransmit = cfg_.retransmit;
      drv::CniEndpoint ni(m, co);
      SimDevice& tsd = ts_device(n);
      drv::TagStore ts(m, tsd.region_addr(DeviceGeometry::kTs));
      ts.set_mode(t0 ? drv::DispatchMode::StatusBit : drv::DispatchMode::Line);
      drv::StacheOptions o;
      o.page_blocks = cfg_.page_blocks;
      o.homes = cfg_.homes;
      o.dir_base = sim::HostSystem::dram_base(0) + kDirOffset;
      o.messages_in_dispatch = !t0 && !cfg_.poll_ni;
      o.ts_ni = cfg_.ts_ni;
      o.data_path = t0 ? drv::TagStore::DataPath::Registers : drv::TagStore::DataPath::BufferLine;
      o.idle_pause_ns = cfg_.idle_pause_ns;
      o.mailbox = mailbox_addr();
      drv::Stache st(m, ts, ni, o);
      if (on_step) {
        st.on_step = [this, n, &m](drv::StacheStep s, uint32_t b) { on_step(n, s, b, m.now_ns()); };
      }
      st.init();
      if (cfg_.protocol) {
        for (uint32_t pg = 0; pg * cfg_.page_blocks < blocks_; ++pg) {
          st.set_protocol(pg, cfg_.protocol(pg));
        }
      }
      ready++;
      st.serve([&done, apps] { return done == apps; });
      stats_[n] = st.stats();
    });
    for (unsigned c = 0; c < cfg_.app_cores; ++c) {
      host.spawn(c, [this, n, c, &ready, &done, &app](drv::MemoryPort& m) {
        while (ready < nodes_) m.pause_ns(100);
        app(n, c, m);
        m.barrier();
        done++;
      });
    }
  }
  sys_->run_programs();
}

void DsmSystem::push(drv::MemoryPort& m, uint32_t first, uint32_t count) {
  drv::Stache::request_push(m, mailbox_addr(), first, count);
}

void DsmSystem::barrier(drv::MemoryPort& m) {
  m.barrier();  // the core's stores performed before it arrives (a barrier is a fence)
  const unsigned gen = bar_gen_;
  bar_last_ = std::max(bar_last_, m.now_ns());
  if (++bar_count_ == nodes_ * cfg_.app_cores) {
    bar_count_ = 0;
    bar_release_ = bar_last_ + barrier_ns_;
    bar_last_ = 0;
    bar_gen_++;
  }
  while (bar_gen_ == gen) m.pause_ns(20);
  const uint64_t now = m.now_ns();
  if (now < bar_release_) m.pause_ns(bar_release_ - now);
  m.barrier();  // and no later access performed before the release
}

}  // namespace cni::tb
