# flash-1994: the FLASH multiprocessor's node as seed 004 ("Integrating message-passing with
# cache-coherent shared memory on FLASH", section 5.1) assumes it for its estimates: MAGIC, the
# node controller with a programmable protocol processor, at a 10 ns cycle; memory returning a
# 128-byte line every 16 cycles with a latency of 30 cycles; network links of 400 MB/s and about
# 400 ns across the network (8 hops of 50 ns). Here MAGIC's message-passing role is the
# block-transfer engine (docs/xfer.md) on the device, which reaches the node's memory through
# the coherent link; values marked "model parameter, not from the paper" are choices 004 does not
# give (it names no processor). cni-bench xfer runs its page transfers on 2 nodes of this profile.

line_bytes = 128                 # 004 s3.3.1: "cache lines are relatively large in FLASH (128 bytes)"
sim.seed = 1                     # seed of the model's random parts (link jitter, network loss/corruption); cni-bench --seed sets it

# System: nodes, each its own coherence domain, joined by the network (docs/host-sim.md, "Systems and nodes"); node<i>.<key> overrides a key for node i
nodes = 2                        # model parameter: the two nodes of a transfer (FLASH: up to 256)
node.devices = 1                 # 002 s3: one FPGA on each machine's ECI link

# Host topology (per node)
host.sockets = 1                 # 002 s3: one CPU socket; the FPGA is the other ECI node
host.cores = 2                   # model parameter, not from the paper: a core per process of the benchmark
host.core_sockets = auto         # auto = round-robin over sockets, or a socket per core: 0,0,1
host.coherence_timeout_ms = 300  # 002 s4: the ThunderX-1 timeout is "hundreds of milliseconds"
host.retry_watchdog_ms = 3000    # model parameter, not from the paper: a miss the home keeps answering Retry this long is a machine check
host.memory_model = tso          # model parameter, not from the paper: 004 names no processor
cpu.freq_mhz = 200               # model parameter, not from the paper: 004 names no processor (core.access_ns is one cycle)

# Core
core.access_ns = 5               # model parameter, not from the paper: one 200 MHz cycle per 8-byte word
core.store_buffer = 4            # model parameter, not from the paper
core.store_prefetch = true       # model parameter, not from the paper: a store entering the buffer starts an ownership request (ARMv8 lets stores perform early)
core.barrier_ns = 5              # model parameter, not from the paper: one cycle once the buffer is empty
core.stale_ns = 0                # model parameter, not from the paper: unused by tso cores
core.load_window = 1             # model parameter, not from the paper: unused by tso cores

# L1 data cache: a write-through tag filter used for the hit latency only
l1.size_kib = 32                 # model parameter, not from the paper
l1.ways = 2                      # model parameter, not from the paper
l1.hit_ns = 5                    # model parameter, not from the paper: one cycle

# The coherent cache (one per core, with the L2's geometry)
cache.size_kib = 1024            # model parameter, not from the paper: a 1 MiB second-level cache
cache.ways = 2                   # model parameter, not from the paper
cache.hit_ns = 50                # model parameter, not from the paper: ten cycles
cache.miss_ns = 10               # model parameter, not from the paper: two cycles to form the request
cache.snoop_ns = 30              # model parameter, not from the paper: 004 s5.2 says only that a dirty line is explicitly requested from the processor cache
cache.mshrs = 4                  # model parameter, not from the paper
cache.retry_backoff_ns = 100     # model parameter, not from the paper

# On-chip paths of a host socket
onchip.latency_ns = 10           # model parameter, not from the paper: the processor bus between cache and node controller
onchip.link_port_ns = 0          # model parameter, not from the paper: MAGIC is the node controller, no separate port

# Coherent link (ECI), per direction
link.one_way_ns = 60             # model parameter, not from the paper: the processor bus to MAGIC; not calibrated on any row of cni-bench xfer (docs/xfer.md, "Profile flash-1994")
link.bandwidth_gib_s = 1.2       # model parameter, not from the paper: a 64-bit processor bus at 150 MHz
link.jitter_ns = 0               # model parameter, not from the paper: no jitter
link.credits = 16                # model parameter, not from the paper

# Host home agent (directory) and DRAM
home.dir_ns = 20                 # model parameter, not from the paper: two cycles of directory lookup
home.max_transactions = 16       # model parameter, not from the paper
home.grant_exclusive = true      # model parameter, not from the paper: a read may be granted Exclusive
home.forward_owned = true        # 004 s5.2: a dirty line is fetched from the processor cache (cache-to-cache supply; the owner keeps it)
dram.latency_ns = 300            # 004 s5.1: "a latency of 30 cycles" at 10 ns
dram.bandwidth_gib_s = 0.745     # 004 s5.1: "cache line fetches of 128 bytes every 16 cycles (for a peak bandwidth of 800 MB/s)": 800e6 B/s

# Device side (read by the Verilated device adapter; a device's agent id is HostSystem::device_agent(d))
device.freq_mhz = 100            # 004 s5.1: "a cycle time of 10 nanoseconds" (MAGIC)
device.park_timeout_us = 50000   # model parameter, not from the paper: parked requests answer Retry well inside host.coherence_timeout_ms
device.ca_clean_cycles = 0       # model parameter, not from the paper: CSR CA_CLEAN at its reset value, the caching agent's idle clean off (docs/cache-agent.md "Idle clean")
device.rx_credits = 8            # model parameter, not from the paper: device receive buffer per channel (credits advertised to the host)
device.skip_idle = true          # simulator setting, not a model parameter: the device's clock sleeps while the RTL is quiescent (results are the same either way; docs/host-sim.md)
device.cni = none                # simulator setting: the CNI engine the device model carries (none, NI2w, CNI4, CNI16Q, CNI512Q or CNI16Qm: docs/cni.md); none: the runs use none, so the fast build's model without one (a build without such a model uses its own)
device.cni_early_pull = false    # simulator setting: true picks the CNI512Q model whose send lines are pulled early (EarlyPull = 1, docs/cni.md "Early pull as built"); the fast build carries it at 64-byte lines

# Network between the nodes' MACs (sim::Network, docs/network.md), per link direction; a port per node (nodes)
net.topology = p2p               # 004 s5.1: the average 8-hop trip as one link
net.latency_ns = 400             # 004 s5.1: "an average latency of approximately 400 nanoseconds across the network"
net.bandwidth_gbit_s = 3.2       # 004 s5.1: "peak network bandwidth of 400 MB/second over each link" (cni-bench xfer's clean and dirty cases set 0: 004 s5.2 estimates them "ignoring the network bandwidth limitation")
net.gap_bytes = 0                # model parameter, not from the paper: not an Ethernet, no preamble or gap
net.buffer_frames = 64           # model parameter, not from the paper: frames per buffer
net.max_frame_bytes = 272        # model parameter, not from the paper: 12 B header + up to 256 B + 4 B FCS
net.loss_rate = 0                # model parameter, not from the paper: loss injection per link crossing, off
net.corrupt_rate = 0             # model parameter, not from the paper: one-bit corruption per link crossing, off
net.reorder_rate = 0             # model parameter, not from the paper: probability a link crossing holds a frame back so that later frames overtake it, off
net.reorder_ns = 1000            # model parameter, not from the paper: how long a held frame is held back
