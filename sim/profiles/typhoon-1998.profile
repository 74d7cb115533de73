# typhoon-1998: the simulated machine of seed 001 ("Tempest and Typhoon: user-level shared
# memory", section 4): nodes of a 200 MHz dual-issue SPARC with a 1 MB direct-mapped data cache
# and a dedicated protocol processor of the same kind, on a 50 MHz 64-bit multiplexed MOESI MBus
# with memory, the access control device (the tag store) and the network interface; a network of
# constant 0.5 us wire latency, at most four messages in flight per node pair.
# Sources: seed 001 section 4 (system parameters) and section 4.1 (Table 1's bus cycles). 001's
# coherence blocks are 32 bytes; the host model and the tag store's device models are built at
# 64-byte lines, so cni-bench dsm compares by ratios (docs/dsm.md). Values marked "model
# parameter, not from the paper" are choices 001 does not give. The coherence fabric is the bus
# (bus.model, docs/network.md "The coherence fabric on a bus"), as on mbus-1996.

line_bytes = 64                  # 001 s4: 32-byte blocks; 64 here, the line size the tag store models are built at (docs/dsm.md)
sim.seed = 1                     # seed of the model's random parts (network loss/corruption); cni-bench --seed sets it
nodes = 32                       # 001 s4.2: 32-node systems (cni-bench dsm runs its miss on 2)
node.devices = 1                 # 001 s3.2: Typhoon-1's access control and NI on one device (cni-bench dsm sets 2 for Typhoon-0)
host.sockets = 1                 # 001 s4: one node, one MBus
host.cores = 2                   # 001 s3.3: the compute processor and a dedicated protocol processor
host.core_sockets = auto         # one socket
host.coherence_timeout_ms = 300  # model parameter, not from the paper: a watchdog (the 1996 buses have no coherence timeout)
host.retry_watchdog_ms = 3000    # model parameter, not from the paper: a miss the home keeps answering Retry this long is a machine check
host.memory_model = tso          # model parameter, not from the paper: the 1996 processor (a SPARC) runs TSO
cpu.freq_mhz = 200               # 001 s4: processors clocked at 200 MHz
core.access_ns = 5               # model parameter, not from the paper: one 200 MHz cycle per 8-byte word loaded or stored
core.store_buffer = 4            # model parameter, not from the paper: the processor's write buffer depth is not given
core.store_prefetch = false      # model parameter, not from the paper: the MBus carries one transaction at a time, so a store asks for ownership when it leaves the buffer
core.barrier_ns = 5              # model parameter, not from the paper: one cycle once the buffer is empty
core.stale_ns = 0                # model parameter, not from the paper: unused by tso cores
core.load_window = 1             # model parameter, not from the paper: unused by tso cores
l1.size_kib = 1024               # 001 s4: a 1 Mbyte direct-mapped data cache
l1.ways = 1                      # 001 s4: direct-mapped
l1.hit_ns = 5                    # model parameter, not from the paper: a one-cycle hit
cache.size_kib = 1024            # 001 s4: 1 Mbyte
cache.ways = 1                   # 001 s4: direct-mapped
cache.hit_ns = 0                 # model parameter, not from the paper: no second level (l1.hit_ns is the hit)
cache.miss_ns = 5                # model parameter, not from the paper: a cycle to form the bus request
cache.snoop_ns = 0               # model parameter, not from the paper: a snoop answers within its bus transaction
cache.mshrs = 1                  # model parameter, not from the paper: one outstanding miss per processor
cache.retry_backoff_ns = 50      # model parameter, not from the paper: ten cycles before re-issuing after Retry
home.dir_ns = 0                  # 001 s4: a snooping MBus; memory answers within the transaction
home.max_transactions = 4        # model parameter, not from the paper: the bus carries one transaction at a time anyway
home.grant_exclusive = true      # 001 s4: MOESI, with an exclusive clean state
home.forward_owned = true        # 001 s4: MOESI: a dirty owner supplies the block
dram.latency_ns = 0              # bus.mem.memory is the whole transaction (001 Table 1)
dram.bandwidth_gib_s = 0         # bus.mem.memory is the whole transfer (0: no further limit)
bus.model = mbus                 # 001 s4: the devices on the 50 MHz MBus with the processors and memory
bus.cycle_mhz = 200              # bus occupancies below in processor cycles (200 MHz)
bus.mem.nc_load = 36             # model parameter, not from the paper: an uncached 8-byte load answered like a critical doubleword (8 + 28)
bus.mem.nc_store = 12            # model parameter, not from the paper: address and one data cycle with arbitration (3 bus cycles)
bus.mem.from_device = 64         # model parameter, not from the paper: a device answers a line as memory does (001 s4: the access control device inhibits memory and supplies the block on the same bus)
bus.mem.to_device = 64           # model parameter, not from the paper: the same transfer, to the device
bus.mem.memory = 64              # 001 s4, Table 1: 2 bus cycles (8 CPU cycles) to request and acquire the bus, the critical doubleword 7 bus cycles (28) after the request, the rest one doubleword a bus cycle: 8 + 28 + 7 * 4 for a 64-byte line
bus.mem.address = 8              # 001 Table 1: 2 bus cycles (8 CPU cycles) for an address-only transaction
device.freq_mhz = 50             # 001 s4: the devices run at the MBus clock (the NI queues move 64 bits per bus cycle)
device.park_timeout_us = 50000   # model parameter, not from the paper: parked requests answer Retry well inside host.coherence_timeout_ms
device.ca_clean_cycles = 0       # model parameter, not from the paper: CSR CA_CLEAN at its reset value, the caching agent's idle clean off, as on 000's machine, which has none (docs/cache-agent.md "Idle clean"); `cni-bench cni` runs CNI16Qm with it on as a separate row beyond the paper (CNI16Qm+clean) and sweeps it at 64 B, docs/cni.md
device.rx_credits = 8            # model parameter, not from the paper: device receive buffer per channel
device.skip_idle = true          # simulator setting, not a model parameter: the device's clock sleeps while the RTL is quiescent
device.cni = none                # simulator setting: the CNI engine the device model carries (none, NI2w, CNI4, CNI16Q, CNI512Q or CNI16Qm: docs/cni.md); cni-bench cni names each configuration it runs; none: the fast build's model without one (a build without such a model uses its own)
device.cni_early_pull = false    # simulator setting: true picks the CNI512Q model whose send lines are pulled early (EarlyPull = 1, docs/cni.md "Early pull as built"); the fast build carries it at 64-byte lines
net.topology = switch            # 001 s4: network contention at the interfaces only: every node one hop from a switch
net.latency_ns = 250             # 001 s4: a constant 0.5 us (100 processor cycles) wire latency, over the switch's two links
net.bandwidth_gbit_s = 0         # 001 s4: only the latency is given (0: unlimited; the buses and NI queues limit)
net.gap_bytes = 0                # 001 s4: not an Ethernet: no preamble or gap
net.buffer_frames = 64           # model parameter, not from the paper: frames per buffer
net.max_frame_bytes = 272        # model parameter, not from the paper: 12 B header + up to 256 B + 4 B FCS, as mbus-1996
net.loss_rate = 0                # model parameter, not from the paper: loss injection per link crossing, off
net.corrupt_rate = 0             # model parameter, not from the paper: one-bit corruption per link crossing, off
net.reorder_rate = 0             # model parameter, not from the paper: probability a link crossing holds a frame back so that later frames overtake it, off
net.reorder_ns = 1000            # model parameter, not from the paper: how long a held frame is held back
