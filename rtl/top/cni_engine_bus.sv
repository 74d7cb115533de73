// SPDX-License-Identifier: Apache-2.0
// The engine bus: joins the home agent and the line memory's port B to the device engines of
// the address map (cni_amap_pkg). It routes each event to the engine that owns the event's line,
// chooses one engine's command for the home agent, shares memory port B among the engines, and
// routes CSR accesses of the engines' register windows. Engine k's signals are the k-th slices of
// the eb_* vectors (cni_engine_complex joins them to engine k's records); docs/endpoint.md,
// "Engine bus".
//
// Parameters:
//   RegionLines - lines per region (cni_amap_pkg::region_lines)
//   LineBytes   - line size
//   LineIdxW    - width of a device line index (with DramIdxW: DramIdxW + 1)
//   DramIdxW    - the DRAM-backed lines (docs/dram.md): lines 2**DramIdxW on, owned by the
//                 registry's DRAM owner (cni_amap_pkg::DRAM_OWNER); 0: none
// Ports:
//   evt_*        - events from the home agent (valid/ready; the owning engine may stall them),
//                  routed by evt_region_i (the region of evt_line_i)
//   cmd_*        - the chosen command to the home agent (valid/ready; the home may stall it)
//   mem_*        - port B of the line memory, or of a DRAM-backed line's frame (synchronous
//                  read: data the cycle after); mem_ready_i: the access is taken this cycle (a
//                  DRAM-backed line's waits while the line is fetched)
//   reg_*        - an engine register access from the CSR block: one cycle, the engine's read
//                  data the cycle after (reg_rdata_o)
//   eb_*         - the engines, NUM_ENGINES of each signal, engine k at [k] / [k*W +: W]:
//                  eb_evt_valid_o/eb_evt_ready_i and the event's fields (shared);
//                  eb_cmd_valid_i/eb_cmd_ready_o, eb_cmd_op_i/_arg_i/_line_i (a presented
//                  command is held until taken); eb_mem_en_i/_we_i/_addr_i/_wdata_i with
//                  eb_mem_gnt_o (a request not granted is held; engine 0, which names on-chip
//                  lines only, is always granted; read data the cycle after a granted read);
//                  eb_reg_valid_o
//                  with the access's fields (shared) and eb_reg_rdata_i (the cycle after)
//   idle_o       - no command held, no register read under way (the engines report their own
//                  quiescence)
// Choices are by fixed priority, engine 0 first. A command, once presented to the home agent,
// stays chosen until it is taken, so the home sees one command from start to end.
`default_nettype none
`include "cni_assert.svh"

module cni_engine_bus #(
  parameter logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FULL_LINES,
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int DramIdxW  = 0,
  localparam int NE       = cni_amap_pkg::NUM_ENGINES,
  localparam int LineBits = LineBytes * 8,
  localparam int CmdW     = cni_coh_pkg::CMD_W,
  localparam int ArgW     = cni_coh_pkg::ARG_W
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  // home agent
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  input  wire logic [cni_amap_pkg::REGION_W-1:0] evt_region_i,
  output logic                                 cmd_valid_o,
  input  wire logic                            cmd_ready_i,
  output logic [CmdW-1:0]                      cmd_op_o,
  output logic [ArgW-1:0]                      cmd_arg_o,
  output logic [LineIdxW-1:0]                  cmd_line_o,
  // line memory, port B
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBits-1:0]                  mem_wdata_o,
  input  wire logic                            mem_ready_i,
  // CSR block: engine register windows
  input  wire logic                            reg_valid_i,
  input  wire logic [$clog2(NE + 1)-1:0]       reg_eng_i,
  output logic [31:0]                          reg_rdata_o,
  // engines
  output logic [NE-1:0]                        eb_evt_valid_o,
  input  wire logic [NE-1:0]                   eb_evt_ready_i,
  input  wire logic [NE-1:0]                   eb_cmd_valid_i,
  output logic [NE-1:0]                        eb_cmd_ready_o,
  input  wire logic [NE*CmdW-1:0]              eb_cmd_op_i,
  input  wire logic [NE*ArgW-1:0]              eb_cmd_arg_i,
  input  wire logic [NE*LineIdxW-1:0]          eb_cmd_line_i,
  input  wire logic [NE-1:0]                   eb_mem_en_i,
  input  wire logic [NE-1:0]                   eb_mem_we_i,
  input  wire logic [NE*LineIdxW-1:0]          eb_mem_addr_i,
  input  wire logic [NE*LineBits-1:0]          eb_mem_wdata_i,
  output logic [NE-1:0]                        eb_mem_gnt_o,
  output logic [NE-1:0]                        eb_reg_valid_o,
  input  wire logic [NE*32-1:0]                eb_reg_rdata_i,
  output logic                                 idle_o
);

  // ---- events: to the owner of the line ------------------------------------------------------
  // The owner of a region: its engine, one-hot (none for plain memory, which no command names,
  // so no event names it either; an assertion checks).
  function automatic logic [NE-1:0] owner_of_region(input logic [cni_amap_pkg::REGION_W-1:0] r);
    owner_of_region = '0;
    for (int k = 0; k < cni_amap_pkg::NUM_REGIONS; k++) begin
      if (cni_amap_pkg::owner(k) != cni_amap_pkg::ENG_NONE &&
          r == cni_amap_pkg::REGION_W'(k)) begin
        owner_of_region[cni_amap_pkg::owner(k)] = 1'b1;
      end
    end
  endfunction

  // The owner of the DRAM-backed lines, one-hot (none without them).
  localparam logic [NE-1:0] DramOwner =
      (DramIdxW > 0 && cni_amap_pkg::DRAM_OWNER != cni_amap_pkg::ENG_NONE)
      ? NE'(1) << cni_amap_pkg::DRAM_OWNER : '0;
  // A DRAM-backed line: the top bit of the line index.
  function automatic logic dram(input logic [LineIdxW-1:0] line);
    dram = DramIdxW > 0 && line[LineIdxW-1];
  endfunction

  // The owner of a line: the owner of the region it falls in, or the DRAM owner (the checks
  // use it).
  function automatic logic [NE-1:0] owner_of(input logic [LineIdxW-1:0] line);
    owner_of = dram(line) ? DramOwner : '0;
    for (int r = 0; r < cni_amap_pkg::NUM_REGIONS; r++) begin
      if (!dram(line) && 32'(line) >= 32'(cni_amap_pkg::base(RegionLines, r)) &&
          32'(line) < 32'(cni_amap_pkg::base(RegionLines, r + 1))) begin
        owner_of = owner_of_region(cni_amap_pkg::REGION_W'(r));
      end
    end
  endfunction

  // An event is routed by the region the home agent recorded with its entry (no compare of the
  // line with the regions' bounds on the event's path), or to the DRAM owner for a DRAM-backed
  // line (the home records region 0 for those); the checks confirm it is the line's.

  wire [NE-1:0] evt_to = dram(evt_line_i) ? DramOwner : owner_of_region(evt_region_i);
  assign eb_evt_valid_o = {NE{evt_valid_i}} & evt_to;
  assign evt_ready_o    = |(evt_to & eb_evt_ready_i);

  // ---- commands: fixed priority, held while presented -----------------------------------------
  logic [NE-1:0] cmd_lock_q, cmd_sel;
  always_comb begin
    cmd_sel = '0;
    if (cmd_lock_q != '0) begin
      cmd_sel = cmd_lock_q;
    end else begin
      for (int k = NE - 1; k >= 0; k--) if (eb_cmd_valid_i[k]) cmd_sel = NE'(1) << k;
    end
    cmd_valid_o = |(cmd_sel & eb_cmd_valid_i);
    cmd_op_o    = '0;
    cmd_arg_o   = '0;
    cmd_line_o  = '0;
    for (int k = 0; k < NE; k++) begin
      if (cmd_sel[k]) begin
        cmd_op_o   = cmd_op_o | eb_cmd_op_i[k * CmdW +: CmdW];
        cmd_arg_o  = cmd_arg_o | eb_cmd_arg_i[k * ArgW +: ArgW];
        cmd_line_o = cmd_line_o | eb_cmd_line_i[k * LineIdxW +: LineIdxW];
      end
    end
  end
  assign eb_cmd_ready_o = cmd_sel & {NE{cmd_ready_i}};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cmd_lock_q <= '0;
    else cmd_lock_q <= (cmd_valid_o && !cmd_ready_i) ? cmd_sel : '0;
  end

  // ---- memory port B: fixed priority --------------------------------------------------------
  // The chosen engine's access is granted when the memory takes it (a DRAM-backed line's waits
  // for its fetch, and meanwhile holds the port).
  logic [NE-1:0] mem_sel;
  assign eb_mem_gnt_o = mem_sel & {NE{mem_ready_i}};
  always_comb begin
    mem_sel = '0;
    for (int k = NE - 1; k >= 0; k--) if (eb_mem_en_i[k]) mem_sel = NE'(1) << k;
    mem_en_o    = |eb_mem_en_i;
    mem_we_o    = 1'b0;
    mem_addr_o  = '0;
    mem_wdata_o = '0;
    for (int k = 0; k < NE; k++) begin
      if (mem_sel[k]) begin
        mem_we_o    = mem_we_o | eb_mem_we_i[k];
        mem_addr_o  = mem_addr_o | eb_mem_addr_i[k * LineIdxW +: LineIdxW];
        mem_wdata_o = mem_wdata_o | eb_mem_wdata_i[k * LineBits +: LineBits];
      end
    end
  end

  // ---- register windows ---------------------------------------------------------------------
  logic [NE-1:0] reg_sel_q;
  always_comb begin
    for (int k = 0; k < NE; k++) eb_reg_valid_o[k] = reg_valid_i && reg_eng_i == ($clog2(NE + 1))'(k);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) reg_sel_q <= '0;
    else reg_sel_q <= eb_reg_valid_o;
  end
  always_comb begin
    reg_rdata_o = '0;
    for (int k = 0; k < NE; k++) if (reg_sel_q[k]) reg_rdata_o = reg_rdata_o | eb_reg_rdata_i[k * 32 +: 32];
  end

  // ---- checks -----------------------------------------------------------------------------
  // Every event has an owner, the owner of its line; an engine touches only lines of its own
  // regions (engine 0's requests are always granted: the PIO engine does not look at its grant,
  // and names on-chip lines only, which the memory takes at once).
  // Quiescence: no command held for the home agent, no register read on its way back.
  assign idle_o = cmd_lock_q == '0 && reg_sel_q == '0;

  logic [NE-1:0] mem_own_ok;
  always_comb begin
    for (int k = 0; k < NE; k++) begin
      mem_own_ok[k] = !eb_mem_en_i[k] || owner_of(eb_mem_addr_i[k * LineIdxW +: LineIdxW]) == NE'(1) << k;
    end
  end
  wire chk_evt = !evt_valid_i || (evt_to != '0 && evt_to == owner_of(evt_line_i));
  wire chk_mem = &mem_own_ok;
  `CNI_ASSERT(EvtOwner_A, chk_evt, "an event on a line no engine owns")
  `CNI_ASSERT(MemOwner_A, chk_mem, "an engine accesses a line it does not own")
  `CNI_ASSERT(MemEng0_A, !(eb_mem_en_i[0] && !mem_ready_i), "engine 0's access was not taken")

endmodule
