# iobus-1996: the parallel machine of seed 000 ("Coherent Network Interfaces for Fine-Grain
# Communication") with the network interface on the coherent I/O bus: 16 nodes, each a 200 MHz
# dual-issue SPARC with a single-level 256 KB direct-mapped cache of 64-byte blocks on a
# 100 MHz multiplexed, coherent memory bus, a 50 MHz multiplexed, coherent I/O bus behind a
# bridge (both carry one transaction at a time), the network interface (NI2w, CNI4, CNI16Q or
# CNI512Q; not CNI16Qm, 000 s2.3) on the I/O bus, and a network of 100 processor cycles.
# Sources: seed 000 section 4.1 (system assumptions) and Table 2 (bus occupancies in processor
# cycles). Values marked "model parameter, not from the paper" are choices 000 does not give.
# The node's coherence fabric is the two buses and the bridge (bus.model, docs/network.md
# "The coherence fabric on a bus"): link.* and onchip.* do not apply.

line_bytes = 64                  # 000 s4.1: "64-byte address and transfer blocks"
sim.seed = 1                     # seed of the model's random parts (network loss/corruption); cni-bench --seed sets it

# System
nodes = 16                       # 000 s4.1: "a parallel machine with 16 nodes"
node.devices = 1                 # 000 s4.1: each node has "a network interface (NI2w or one of the four CNIiXs)"

# Host (per node)
host.sockets = 1                 # 000 s4.1: one processor per node
host.cores = 1                   # 000 s4.1: one processor per node
host.core_sockets = auto         # one socket
host.coherence_timeout_ms = 300  # model parameter, not from the paper: a watchdog (the 1996 buses have no coherence timeout)
host.retry_watchdog_ms = 3000    # model parameter, not from the paper: a miss the home keeps answering Retry this long is a machine check
host.memory_model = tso          # model parameter, not from the paper: the 1996 processor (a SPARC) runs TSO
cpu.freq_mhz = 200               # 000 s4.1: "200 MHz dual-issue SPARC processor"

# Core
core.access_ns = 5               # model parameter, not from the paper: one 200 MHz cycle per 8-byte word loaded or stored
core.store_buffer = 4            # model parameter, not from the paper: the processor's write buffer depth is not given
core.store_prefetch = false      # 000 s4.1: "Both buses support only one outstanding transaction": a store asks for ownership when it leaves the buffer
core.barrier_ns = 5              # model parameter, not from the paper: one cycle once the buffer is empty
core.stale_ns = 0                # model parameter, not from the paper: unused by tso cores
core.load_window = 1             # model parameter, not from the paper: unused by tso cores

# The processor cache: single-level, so the tag filter has the cache's own geometry
l1.size_kib = 256                # 000 s4.1: "The single-level processor cache is 256 KB direct-mapped"
l1.ways = 1                      # 000 s4.1: direct-mapped
l1.hit_ns = 5                    # model parameter, not from the paper: a one-cycle hit
cache.size_kib = 256             # 000 s4.1: 256 KB
cache.ways = 1                   # 000 s4.1: direct-mapped
cache.hit_ns = 0                 # model parameter, not from the paper: no second level (l1.hit_ns is the hit)
cache.miss_ns = 5                # model parameter, not from the paper: a cycle to form the bus request
cache.snoop_ns = 0               # 000 s4.1: "duplicated tags to facilitate snooping": a snoop answers within its bus transaction
cache.mshrs = 1                  # 000 s4.1: "Both buses support only one outstanding transaction"
cache.retry_backoff_ns = 50      # model parameter, not from the paper: ten cycles before re-issuing after Retry

# Memory: the memory's access is inside Table 2's memory-to-cache occupancy
home.dir_ns = 0                  # 000 s4.1: a snooping bus (MBus level 2); memory answers within the transaction
home.max_transactions = 4        # model parameter, not from the paper: the bus carries one transaction at a time anyway
home.grant_exclusive = true      # 000 s4.1: MBus level-2 coherence has an exclusive clean state
home.forward_owned = true        # 000 s4.1: MBus level-2: a dirty owner supplies the block (cache-to-cache)
dram.latency_ns = 0              # 000 Table 2: "Memory-to-cache transfer (64 bytes)" 42 cycles is the whole transaction
dram.bandwidth_gib_s = 0         # 000 Table 2: the memory-to-cache row is the whole transfer (0: no further limit)

# The memory bus (000 Table 2, processor cycles; a transaction's cycles are split between its
# request, bus.mem.address, and its answer, the rest)
bus.model = iobus                # 000 s4.1: the NI on the "50 MHz multiplexed, coherent I/O bus"
bus.cycle_mhz = 200              # 000 Table 2: "Bus Occupancy ... in Processor Cycles"
bus.mem.nc_load = 28             # 000 Table 2: uncached 8-byte load from NI, memory bus
bus.mem.nc_store = 12            # 000 Table 2: uncached 8-byte store to NI, memory bus
bus.mem.from_device = 42         # 000 Table 2: cache-to-cache transfer from CNI to processor (64 bytes)
bus.mem.to_device = 42           # 000 Table 2: cache-to-cache transfer from processor to CNI (64 bytes)
bus.mem.memory = 42              # 000 Table 2: memory-to-cache transfer (64 bytes)
bus.mem.address = 4              # model parameter, not from the paper: an address-only transaction (request, snoop, invalidation), two 100 MHz cycles (address, acknowledge); Table 2 has no such row
# The I/O bus: totals that include the memory-bus part (000 s4.1: "the bus occupancy numbers
# for the I/O bus includes the corresponding memory bus occupancy cycles")
bus.io.nc_load = 48              # 000 Table 2: uncached 8-byte load from NI, I/O bus
bus.io.nc_store = 32             # 000 Table 2: uncached 8-byte store to NI, I/O bus
bus.io.from_device = 76          # 000 Table 2: cache-to-cache transfer from CNI to processor (64 bytes), I/O bus
bus.io.to_device = 62            # 000 Table 2: cache-to-cache transfer from processor to CNI (64 bytes), I/O bus
bus.io.address = 12              # model parameter, not from the paper: bus.mem.address plus two 50 MHz I/O-bus cycles (address, acknowledge)
bus.bridge.write_buffer = 4      # model parameter, not from the paper: 000 s4.1 "The bridge buffers writes and coherent invalidations" (depth not given)
bus.bridge.retry_cycles = 8      # model parameter, not from the paper: a NACKed I/O-bus transaction re-arbitrates after two I/O-bus cycles

# Device (read by the Verilated device adapter)
device.freq_mhz = 50             # model parameter, not from the paper: the NI runs at the I/O bus clock (000 s4.1: 50 MHz)
device.park_timeout_us = 50000   # model parameter, not from the paper: parked requests answer Retry well inside host.coherence_timeout_ms
device.ca_clean_cycles = 0       # model parameter, not from the paper: CSR CA_CLEAN at its reset value, the caching agent's idle clean off (docs/cache-agent.md "Idle clean"); CNI16Qm, the configuration that caches host lines, does not run on the I/O bus
device.rx_credits = 8            # model parameter, not from the paper: device receive buffer per channel
device.skip_idle = true          # simulator setting, not a model parameter: the device's clock sleeps while the RTL is quiescent
device.cni = none                # simulator setting: the CNI engine the device model carries (none, NI2w, CNI4, CNI16Q, CNI512Q; CNI16Qm is refused on the I/O bus: docs/cni.md); cni-bench cni names each configuration it runs; none: the fast build's model without one (a build without such a model uses its own)
device.cni_early_pull = false    # simulator setting: true picks the CNI512Q model whose send lines are pulled early (EarlyPull = 1, docs/cni.md "Early pull as built"); the fast build carries it at 64-byte lines

# Network: two 250 ns hops through one switch, no bandwidth limit
net.topology = switch            # 000 s4.1: "Network topology is ignored": every node one hop from a switch
net.latency_ns = 250             # 000 s4.1: "All messages take 100 processor cycles to traverse the network" = 500 ns over the switch's two links
net.bandwidth_gbit_s = 0         # 000 s4.1: only the latency is given (0: unlimited; the buses limit)
net.gap_bytes = 0                # 000 s4.1: not an Ethernet: no preamble or gap
net.buffer_frames = 64           # model parameter, not from the paper: frames per buffer
net.max_frame_bytes = 272        # 000 s4.1: "network message size is fixed at 256 bytes": 12 B header + up to 256 B + 4 B FCS
net.loss_rate = 0                # model parameter, not from the paper: loss injection per link crossing, off
net.corrupt_rate = 0             # model parameter, not from the paper: one-bit corruption per link crossing, off
net.reorder_rate = 0             # model parameter, not from the paper: probability a link crossing holds a frame back so that later frames overtake it, off
net.reorder_ns = 1000            # model parameter, not from the paper: how long a held frame is held back
