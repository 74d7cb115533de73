// SPDX-License-Identifier: Apache-2.0
// Uncached register accesses over the coherent link: a host core's uncached 8-byte load or store
// of a device address arrives as an Nc request (docs/protocol.md, "Uncached accesses") and is
// carried to the register window of the engine that owns the address's region (a region starts
// with its windows, cni_amap_pkg::wins of them, each 256 bytes at a stride of 2^win_shift bytes:
// the access names its window, ctx, and its offset in it; priv: the region is privileged,
// cni_amap_pkg::priv; docs/architecture.md, "Register windows"), as two 32-bit
// accesses (low word, then high word, in consecutive cycles when the register port is free); it
// is answered NcData (a read, with the value, in the cycle the high word's data comes back) or
// NcAck (a write, in the cycle the high word is written), or Error for an address outside every
// engine's window; an answer the link does not take at once is held. One access at a time, in
// arrival order: a barrier after an uncached store sees it performed.
//
//   read:  SLo (low word asked) -> SHi (high word asked; the low word's data) -> SHiData (the
//          high word's data: NcData) [-> SAnswer while the link holds it off]
//   write: SLo (low word written) -> SHi (high word written: NcAck) [-> SAnswer]
//
// Parameters:
//   RegionLines, RegionWins, LineBytes, DevBase - the address map (cni_amap_pkg) and the device
//                     window; a region with several windows, or a privileged one, must start on a
//                     multiple of its window stride (an elaboration error otherwise: a page table
//                     could not give its windows to different address spaces)
// Ports:
//   agent_id_i      - this device's agent id (the src of its answers)
//   in_*            - Nc requests from the link (valid/ready; this block may stall them)
//   reg_*           - an engine register access (one cycle, when reg_gnt_i: the CSR block's own
//                     accesses go first), with its window (reg_ctx_o) and privilege
//                     (reg_priv_o); its read data on reg_rdata_i the cycle after
//   orsp_*, odat_*  - answers to the link (valid/ready; the link may stall them)
//   cnt_err_o       - one-cycle pulse per access answered Error
//   idle_o          - no access in progress
`default_nettype none

module cni_nc_unit #(
  parameter logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FULL_LINES,
  parameter logic [cni_amap_pkg::LW-1:0] RegionWins  = cni_amap_pkg::ONE_WIN,
  parameter int          LineBytes = 128,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  localparam int LineBits = LineBytes * 8,
  localparam int NE       = cni_amap_pkg::NUM_ENGINES,
  localparam int EngW     = $clog2(NE + 1)
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_ni,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]   agent_id_i,
  input  wire logic                              in_valid_i,
  output logic                                   in_ready_o,
  input  wire cni_coh_pkg::hdr_t                 in_hdr_i,
  input  wire logic [63:0]                       in_data_i,   // the value (a write's)
  output logic                                   reg_valid_o,
  input  wire logic                              reg_gnt_i,
  output logic [EngW-1:0]                        reg_eng_o,
  output logic                                   reg_we_o,
  output logic                                   reg_priv_o,
  output logic [3:0]                             reg_ctx_o,
  output logic [7:0]                             reg_addr_o,
  output logic [31:0]                            reg_wdata_o,
  input  wire logic [31:0]                       reg_rdata_i,
  output logic                                   orsp_valid_o,
  input  wire logic                              orsp_ready_i,
  output cni_coh_pkg::hdr_t                      orsp_hdr_o,
  output logic                                   odat_valid_o,
  input  wire logic                              odat_ready_i,
  output cni_coh_pkg::hdr_t                      odat_hdr_o,
  output logic [LineBits-1:0]                    odat_data_o,
  output logic                                   cnt_err_o,
  output logic                                   idle_o
);

  localparam int NR       = cni_amap_pkg::NUM_REGIONS;
  localparam int OffW     = $clog2(LineBytes);
  localparam int NumLines = cni_amap_pkg::total(RegionLines);
  localparam int SpanW    = $clog2(NumLines) + OffW;  // address bits of the device window
  localparam int Window   = 256;                      // bytes of an engine's register window
  localparam int HitW     = 1 + EngW + 1 + 4 + 8;       // {hit, engine, priv, ctx, offset}

  for (genvar r = 0; r < NR; r++) begin : g_check
    localparam int Stride = 1 << cni_amap_pkg::win_shift(RegionWins, r);
    if (cni_amap_pkg::owner(r) != cni_amap_pkg::ENG_NONE && cni_amap_pkg::lines(RegionLines, r) != 0
        && (cni_amap_pkg::wins(RegionWins, r) > 1 || cni_amap_pkg::priv(r)) &&
        ((cni_amap_pkg::base(RegionLines, r) * LineBytes) % Stride != 0 ||
         cni_amap_pkg::wins(RegionWins, r) > 16 || Stride < Window ||
         cni_amap_pkg::wins(RegionWins, r) * Stride >
           cni_amap_pkg::lines(RegionLines, r) * LineBytes))
      $error("cni_nc_unit: region %0d: %0d windows %0d bytes apart, unaligned or too big",
             r, cni_amap_pkg::wins(RegionWins, r), Stride);
  end

  // The engine window an address falls in: {hit, engine, priv, ctx, offset}.
  function automatic logic [HitW-1:0] window_of(input logic [47:0] addr);
    logic [SpanW-1:0] off;
    logic             in_dev;
    logic [31:0]      rel, idx, woff;
    window_of = '0;
    off    = addr[SpanW-1:0];
    in_dev = addr[47:SpanW] == DevBase[47:SpanW] && addr[2:0] == '0;
    for (int r = 0; r < NR; r++) begin
      rel  = 32'(off) - 32'(cni_amap_pkg::base(RegionLines, r) * LineBytes);
      idx  = rel >> cni_amap_pkg::win_shift(RegionWins, r);
      woff = rel & ((32'd1 << cni_amap_pkg::win_shift(RegionWins, r)) - 32'd1);
      if (in_dev && cni_amap_pkg::owner(r) != cni_amap_pkg::ENG_NONE &&
          cni_amap_pkg::lines(RegionLines, r) != 0 &&
          32'(off) >= 32'(cni_amap_pkg::base(RegionLines, r) * LineBytes) &&
          32'(off) < 32'(cni_amap_pkg::base(RegionLines, r + 1) * LineBytes) &&
          idx < 32'(cni_amap_pkg::wins(RegionWins, r)) && woff < 32'(Window)) begin
        window_of = {1'b1, EngW'(cni_amap_pkg::owner(r)), cni_amap_pkg::priv(r), 4'(idx),
                     8'(woff)};
      end
    end
  endfunction

  typedef enum logic [2:0] {SIdle, SLo, SHi, SHiData, SAnswer, SError} state_e;
  state_e state_q, state_d;
  logic   lo_due_q;  // the low word's read data is on reg_rdata_i this cycle

  /* verilator lint_off UNUSEDSIGNAL */
  cni_coh_pkg::hdr_t hdr_q;   // the request (its requester, tag and address answer it)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [63:0]       val_q;   // the write's value; the read's value as it comes back
  logic              we_q;
  logic [EngW-1:0]   eng_q;
  logic              priv_q;
  logic [3:0]        ctx_q;
  logic [7:0]        off_q;

  wire [HitW-1:0] win = window_of(in_hdr_i.addr);
  wire in_take = in_valid_i && in_ready_o;
  assign in_ready_o = state_q == SIdle;
  // the answer leaves as the last word is done: a write's NcAck with the high word's write, a
  // read's NcData with the high word's data
  wire ack_now  = state_q == SHi && we_q && reg_gnt_i;
  wire data_now = state_q == SHiData;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      SIdle:   if (in_valid_i) state_d = win[HitW-1] ? SLo : SError;
      SLo:     if (reg_gnt_i) state_d = SHi;
      SHi:     if (reg_gnt_i) state_d = !we_q ? SHiData : orsp_ready_i ? SIdle : SAnswer;
      SHiData: state_d = odat_ready_i ? SIdle : SAnswer;
      SAnswer: if (we_q ? orsp_ready_i : odat_ready_i) state_d = SIdle;
      SError:  if (orsp_ready_i) state_d = SIdle;
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      lo_due_q <= 1'b0;
      hdr_q   <= '0;
      val_q   <= '0;
      we_q    <= 1'b0;
      eng_q   <= '0;
      priv_q  <= 1'b0;
      ctx_q   <= '0;
      off_q   <= '0;
    end else begin
      state_q <= state_d;
      lo_due_q <= state_q == SLo && !we_q && reg_gnt_i;
      if (in_take) begin
        hdr_q <= in_hdr_i;
        val_q <= in_data_i;
        we_q  <= in_hdr_i.flags[cni_coh_pkg::FLAG_NCWR];
        eng_q  <= win[13 +: EngW];
        priv_q <= win[12];
        ctx_q  <= win[11:8];
        off_q  <= win[7:0];
      end
      if (lo_due_q) val_q[31:0] <= reg_rdata_i;
      if (state_q == SHiData) val_q[63:32] <= reg_rdata_i;
    end
  end

  assign reg_valid_o = state_q == SLo || state_q == SHi;
  assign idle_o      = state_q == SIdle;
  assign reg_eng_o   = eng_q;
  assign reg_we_o    = we_q;
  assign reg_priv_o  = priv_q;
  assign reg_ctx_o   = ctx_q;
  assign reg_addr_o  = (state_q == SHi) ? off_q + 8'd4 : off_q;
  assign reg_wdata_o = (state_q == SHi) ? val_q[63:32] : val_q[31:0];

  always_comb begin
    orsp_valid_o   = ack_now || (state_q == SAnswer && we_q) || state_q == SError;
    odat_valid_o   = data_now || (state_q == SAnswer && !we_q);
    orsp_hdr_o     = '0;
    orsp_hdr_o.op  = (state_q == SError) ? cni_coh_pkg::OP_ERROR : cni_coh_pkg::OP_NC_ACK;
    orsp_hdr_o.src = agent_id_i;
    orsp_hdr_o.dst = hdr_q.src;
    orsp_hdr_o.tag = hdr_q.tag;
    orsp_hdr_o.addr = hdr_q.addr;
    odat_hdr_o     = orsp_hdr_o;
    odat_hdr_o.op  = cni_coh_pkg::OP_NC_DATA;
    odat_hdr_o.len = 8'd8;
    odat_data_o    = data_now ? LineBits'({reg_rdata_i, val_q[31:0]}) : LineBits'(val_q);
  end
  assign cnt_err_o = state_q == SError && orsp_ready_i;

endmodule
