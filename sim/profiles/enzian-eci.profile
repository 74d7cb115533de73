# enzian-eci: the Enzian research computer -- a 48-core Cavium ThunderX-1 CPU socket (2.0 GHz,
# 128 B lines, 32 KiB 32-way write-through L1D, 16 MiB 16-way L2) joined to a Xilinx XCVU9P
# FPGA (the device) by ECI, its native inter-socket coherence protocol.
# Sources: "Rethinking Programmed I/O for fast devices and coherent interconnects" (seed 002),
# section 3 (platform) and section 4 (ECI latency, TADs, timeout). Values marked "model
# parameter, not from the paper" are plausible choices for a 2 GHz ThunderX-1, made so that a
# single-line RPC over the device (two link round trips) lands near the paper's ~900 ns.

line_bytes = 128                 # 002 s3: 128-byte cache lines
sim.seed = 1                     # seed of the model's random parts (link jitter, network loss/corruption); cni-bench --seed sets it

# System: nodes, each its own coherence domain, joined by the network (docs/host-sim.md, "Systems and nodes"); node<i>.<key> overrides a key for node i
nodes = 1                        # model parameter, not from the paper: one Enzian machine
node.devices = 1                 # 002 s3: one FPGA on each machine's ECI link

# Host topology (per node)
host.sockets = 1                 # 002 s3: one CPU socket; the FPGA is the other ECI node
host.cores = 4                   # model parameter, not from the paper: 48 cores in 002 s3, but agent ids are 4 bits per node, so a node simulates up to 14
host.core_sockets = auto         # auto = round-robin over sockets, or a socket per core: 0,0,1
host.coherence_timeout_ms = 300  # 002 s4: the ThunderX-1 timeout is "hundreds of milliseconds"
host.retry_watchdog_ms = 3000    # model parameter, not from the paper: a miss the home keeps answering Retry this long is a machine check
host.memory_model = armv8        # 002 s3: ThunderX-1 cores are ARMv8 (docs/host-sim.md, "Memory model")
cpu.freq_mhz = 2000              # 002 s3: 2.0 GHz (core.access_ns is one cycle)

# Core
core.access_ns = 0.5             # model parameter, not from the paper: one 2 GHz cycle per 8-byte word loaded or stored
core.store_buffer = 16           # model parameter, not from the paper: ThunderX-1 write-buffer depth is not published
core.store_prefetch = true       # model parameter, not from the paper: a store entering the buffer starts an ownership request (ARMv8 lets stores perform early)
core.barrier_ns = 10             # model parameter, not from the paper: DMB SY cost once the buffer is empty (~20 cycles)
core.stale_ns = 10               # model parameter, not from the paper: an invalidated line stays readable by the core for up to 20 cycles (an invalidation queue)
core.load_window = 8             # model parameter, not from the paper: loads that may be in flight together (a later load may be satisfied with the 8th load before it)

# L1 data cache: a write-through tag filter used for the hit latency only
l1.size_kib = 32                 # 002 s3: 32 KiB L1D
l1.ways = 32                     # 002 s3: 32-way
l1.hit_ns = 1.5                  # model parameter, not from the paper: 3 cycles at 2 GHz

# The coherent cache (one per core, with the L2's geometry)
cache.size_kib = 16384           # 002 s3: 16 MiB L2 (shared on the chip; one per core in this model)
cache.ways = 16                  # 002 s3: 16-way
cache.hit_ns = 20                # model parameter, not from the paper: ~40 cycles L2 hit
cache.miss_ns = 15               # model parameter, not from the paper: L2 miss detection and request formation
cache.snoop_ns = 10              # model parameter, not from the paper: snoop lookup before the answer leaves
cache.mshrs = 16                 # model parameter, not from the paper: outstanding misses per core (matches a TAD's 16)
cache.retry_backoff_ns = 100     # model parameter, not from the paper: back-off before re-issuing after Retry

# On-chip paths of a host socket
onchip.latency_ns = 20           # model parameter, not from the paper: core cache <-> home (TAD) across the chip
onchip.link_port_ns = 10         # model parameter, not from the paper: agent <-> ECI link controller, each way

# Coherent link (ECI), per direction
link.one_way_ns = 150            # 002 s4: ECI one-way link-layer latency of about 150 ns
link.bandwidth_gib_s = 30        # 002 s3: 24 lanes at ~10 Gb/s, about 30 GiB/s
link.jitter_ns = 10             # model parameter, not from the paper: per-message link delay variation (lane deskew, clock-domain crossings), uniform in [0, 10] ns, order kept
link.credits = 64                # model parameter, not from the paper: link-layer messages in flight per channel; covers the ~9.6 KB bandwidth-delay product

# Host home agent (directory) and DRAM
home.dir_ns = 10                 # model parameter, not from the paper: directory (TAD) decision time
home.max_transactions = 16       # 002 s4: a TAD handles up to 16 transactions (one TAD-equivalent per socket)
home.grant_exclusive = true      # 002 s4: the ThunderX-1 LLC supports returning a read in Exclusive
home.forward_owned = true        # model parameter, not from the paper: MOESI cache-to-cache forwarding (dirty owner keeps O)
dram.latency_ns = 80             # model parameter, not from the paper: DDR4-2133 access
dram.bandwidth_gib_s = 63.6      # 002 s3: 4 controllers x 2133 MT/s x 8 B

# Device side (read by the Verilated device adapter; a device's agent id is HostSystem::device_agent(d))
device.freq_mhz = 300            # 002 s4: the FPGA is clocked at about 300 MHz
device.park_timeout_us = 50000   # model parameter, not from the paper: parked requests answer Retry well inside host.coherence_timeout_ms
device.ca_clean_cycles = 0       # model parameter, not from the paper: CSR CA_CLEAN at its reset value, the caching agent's idle clean off (docs/cache-agent.md "Idle clean")
device.rx_credits = 8            # model parameter, not from the paper: device receive buffer per channel (credits advertised to the host)
device.skip_idle = true          # simulator setting, not a model parameter: the device's clock sleeps while the RTL is quiescent (results are the same either way; docs/host-sim.md)
device.cni = none                # simulator setting: the CNI engine the device model carries (none, NI2w, CNI4, CNI16Q, CNI512Q or CNI16Qm: docs/cni.md); none: the runs use none, so the fast build's model without one (a build without such a model uses its own)
device.cni_early_pull = false    # simulator setting: true picks the CNI512Q model whose send lines are pulled early (EarlyPull = 1, docs/cni.md "Early pull as built"); the fast build carries it at 64-byte lines

# Network between the nodes' MACs (sim::Network, docs/network.md), per link direction; a port per node (nodes)
net.topology = switch            # model parameter, not from the paper: every node's MAC on one store-and-forward switch (switch, p2p or loopback)
net.latency_ns = 250             # model parameter, not from the paper: MAC + PCS/PMA + cable per link; 002 s5.2 measures inside the server in near-end loopback
net.bandwidth_gbit_s = 100       # 002 s5.2: 100 Gb/s Ethernet MACs
net.gap_bytes = 20               # IEEE 802.3 preamble + SFD (8 B) and inter-frame gap (12 B): 003's 812,744 frames/s of 1518 B at 10 Gb/s
net.buffer_frames = 256          # model parameter, not from the paper: frames per buffer (port TX queue, switch output queue, port RX buffer); covers the credit loop of 64 B frames
net.max_frame_bytes = 9600       # 002 s5.2: 9600-byte jumbo frames (12 B header + payload + 4 B FCS)
net.loss_rate = 0                # model parameter, not from the paper: loss injection per link crossing, off
net.corrupt_rate = 0             # model parameter, not from the paper: one-bit corruption per link crossing, off
net.reorder_rate = 0             # model parameter, not from the paper: probability a link crossing holds a frame back so that later frames overtake it, off
net.reorder_ns = 1000            # model parameter, not from the paper: how long a held frame is held back

# NIC (docs/nic.md): the datapath and its host interfaces
nic.freq_mhz = 250               # 002 s5.2: the NIC logic is clocked at 250 MHz
