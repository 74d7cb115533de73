// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite register block of the coherence endpoint: identification, geometry, the address
// map's regions, configuration (return in Exclusive per region, park timeout), 32-bit event
// counters, and the engines' register windows (forwarded to the engine bus). Map:
// docs/endpoint.md, "CSR map".
//
// Parameters:
//   NumCnt      - number of counters (0x100 + 4*i)
//   LineBytes   - reported in GEOMETRY
//   RegionLines - the address map (cni_amap_pkg): GEOMETRY and the REGION words
//   Config      - reported in CONFIG (the endpoint's table and link sizes)
//   CacheConfig - reported in CACHE (the caching agent's geometry)
//   DramConfig  - reported in DRAM[15:0] (the DRAM-backed lines' geometry)
//   DevBase     - reported in DEVBASE_LO/HI
//   QuietLog2   - reported in TIMEBASE (the quiescence window of quiet_o)
//   NetBytes    - reported in NET (bytes per beat of the network port)
//   AccReg      - 1: an access is registered when it is taken (the endpoint's Pipelined): a
//                 read's register choice and an engine window's access start at flip-flops, not
//                 at the master's address, one cycle later
// Ports:
//   s_axil_*  - AXI4-Lite slave, AW-bit byte addresses (12, or what the engines' windows need:
//               cni_amap_pkg::CSR_AW), 32-bit data; one transaction at a time
//               per direction; writes need AW and W together and are answered two cycles after
//               they are taken; reads are answered the cycle after they are taken (an engine's
//               window one cycle later; with AccReg each one cycle later again); unmapped
//               addresses answer SLVERR
//   cnt_i     - one-cycle pulses, one per counter (counted one cycle later)
//   dram_err_i - the DRAM fill unit's sticky error (DRAM[16])
//   cfg_*_o   - configuration to the home agent and the caching agent
//   reg_*     - an access to an engine's window (engine reg_eng_o, byte offset reg_addr_o): one
//               cycle (the cycle it is taken, with AccReg the next); its read data on
//               reg_rdata_i the cycle after
//   idle_o    - no access answered or pending, no counter pulse on its way
`default_nettype none

module cni_csr #(
  parameter int NumCnt    = 19,
  parameter int LineBytes = 128,
  parameter logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FULL_LINES,
  parameter logic [31:0] Config = '0,
  parameter logic [31:0] CacheConfig = '0,
  parameter logic [15:0] DramConfig = '0,
  parameter logic [47:0] DevBase = 48'h10_0000_0000,
  parameter int QuietLog2 = 10,
  parameter int NetBytes  = 64,
  parameter bit AccReg    = 1'b0,
  localparam int NE       = cni_amap_pkg::NUM_ENGINES,
  localparam int NR       = cni_amap_pkg::NUM_REGIONS,
  localparam int EngW     = $clog2(NE + 1),
  localparam int AW       = cni_amap_pkg::CSR_AW
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              s_axil_awvalid_i,
  output logic                   s_axil_awready_o,
  input  wire logic [AW-1:0]     s_axil_awaddr_i,
  input  wire logic              s_axil_wvalid_i,
  output logic                   s_axil_wready_o,
  input  wire logic [31:0]       s_axil_wdata_i,
  input  wire logic [3:0]        s_axil_wstrb_i,
  output logic                   s_axil_bvalid_o,
  input  wire logic              s_axil_bready_i,
  output logic [1:0]             s_axil_bresp_o,
  input  wire logic              s_axil_arvalid_i,
  output logic                   s_axil_arready_o,
  input  wire logic [AW-1:0]     s_axil_araddr_i,
  output logic                   s_axil_rvalid_o,
  input  wire logic              s_axil_rready_i,
  output logic [31:0]            s_axil_rdata_o,
  output logic [1:0]             s_axil_rresp_o,
  input  wire logic [NumCnt-1:0] cnt_i,
  input  wire logic              dram_err_i,
  output logic [NR-1:0]          cfg_ret_excl_o,
  output logic [31:0]            cfg_park_timeout_o,
  output logic [15:0]            cfg_ca_backoff_o,
  output logic [15:0]            cfg_ca_clean_o,
  output logic                   reg_valid_o,
  output logic [EngW-1:0]        reg_eng_o,
  output logic                   reg_we_o,
  output logic [7:0]             reg_addr_o,
  output logic [31:0]            reg_wdata_o,
  input  wire logic [31:0]       reg_rdata_i,
  output logic                   idle_o
);

  // The register addresses and reset values (CSR_*), generated from the block's SystemRDL
  // description (rtl/coh/cni_csr.rdl) by scripts/gen-engines.py.
`include "cni_csr_regs.svh"
  if (CSR_AW != AW) $error("cni_csr: the address map's CSR_AW is not the registers'");
  if (NR > 16) $error("cni_csr: the REGION and OWNER words hold 16 regions");

  // An engine window: CSR_ENG + 0x100 * engine (the address's page, bits [AW-1:8]).
  localparam int PW = AW - 8;
  function automatic logic is_eng(input logic [PW-1:0] page);
    is_eng = page >= CSR_ENG[AW-1:8] && 32'(page) < 32'(CSR_ENG[AW-1:8]) + 32'(NE);
  endfunction
  localparam logic [1:0]  RESP_OKAY = 2'b00, RESP_SLVERR = 2'b10;

  logic [31:0] cnt_q [NumCnt];
  logic        clear_q;   // clear every counter (a CTRL write taken in the last cycle)
  logic        wr_q;      // a write was taken in the last cycle: answer it now

  // ---- writes -------------------------------------------------------------------------------
  // A write is decoded when it is taken; the counters' clear is registered first (it reaches
  // every counter bit), and the response follows one cycle later, so it comes after the clear.
  logic eng_rd_q;   // an engine window read was taken in the last cycle: answer it now
  wire  rd = s_axil_arvalid_i && s_axil_arready_o;
  // a write waits a cycle when a read of an engine window takes the engine bus's register port
  wire  rd_eng = rd && is_eng(s_axil_araddr_i[AW-1:8]);  // a read of an engine window
  wire  wr = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o && !wr_q && !rd_eng;
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o  = wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_ret_excl_o     <= CSR_RET_EXCL_RESET[NR-1:0];
      cfg_park_timeout_o <= CSR_PARK_TIMEOUT_RESET;
      cfg_ca_backoff_o   <= CSR_CA_BACKOFF_RESET[15:0];
      cfg_ca_clean_o     <= CSR_CA_CLEAN_RESET[15:0];
      clear_q            <= 1'b0;
      wr_q               <= 1'b0;
      s_axil_bvalid_o    <= 1'b0;
      s_axil_bresp_o     <= RESP_OKAY;
    end else begin
      clear_q <= wr && s_axil_awaddr_i == CSR_CTRL && s_axil_wstrb_i[0] && s_axil_wdata_i[0];
      wr_q    <= wr;
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 1'b0;
      if (wr_q) s_axil_bvalid_o <= 1'b1;
      if (wr) begin
        s_axil_bresp_o  <= RESP_OKAY;
        unique case (s_axil_awaddr_i)
          CSR_RET_EXCL: if (s_axil_wstrb_i[0]) cfg_ret_excl_o <= s_axil_wdata_i[NR-1:0];
          CSR_PARK_TIMEOUT: begin
            for (int b = 0; b < 4; b++) begin
              if (s_axil_wstrb_i[b]) cfg_park_timeout_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          CSR_CA_BACKOFF: begin
            for (int b = 0; b < 2; b++) begin
              if (s_axil_wstrb_i[b]) cfg_ca_backoff_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          CSR_CA_CLEAN: begin
            for (int b = 0; b < 2; b++) begin
              if (s_axil_wstrb_i[b]) cfg_ca_clean_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          CSR_CTRL: ;
          default: if (!is_eng(s_axil_awaddr_i[AW-1:8])) s_axil_bresp_o <= RESP_SLVERR;
        endcase
      end
    end
  end

  // ---- counters -----------------------------------------------------------------------------
  // The pulses are registered first: they come from the end of the home agent's single-cycle
  // decision, which ends here otherwise (docs/fpga.md, "ECP5: timing and routing"). A counter
  // shows an event one cycle after its pulse.
  logic [NumCnt-1:0] cnt_pulse_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_pulse_q <= '0;
      for (int i = 0; i < NumCnt; i++) cnt_q[i] <= '0;
    end else begin
      cnt_pulse_q <= cnt_i;
      if (clear_q || cnt_pulse_q != '0) begin
        for (int i = 0; i < NumCnt; i++) begin
          if (clear_q) cnt_q[i] <= '0;
          else if (cnt_pulse_q[i]) cnt_q[i] <= cnt_q[i] + 1'b1;
        end
      end
    end
  end

  // ---- reads --------------------------------------------------------------------------------
  // The registers a read can name: the fixed ones, the counters, the REGION and OWNER words. An
  // address matches at most one (`decode`, one-hot) and the read data is the AND-OR of the
  // sources under the match (`choose`), so the choice is a flat decode. With AccReg the match is
  // registered when the read is taken (`hit_q`, `rd_q`) and the data chosen in the next cycle.
  localparam int NFix = 13;
  localparam int NSrc = NFix + NumCnt + 2 * NR;
  function automatic logic [AW-1:0] src_addr(input int s);
    unique case (s)
      0: src_addr = CSR_ID;          1: src_addr = CSR_GEOMETRY;       2: src_addr = CSR_CONFIG;
      3: src_addr = CSR_CACHE;       4: src_addr = CSR_DEVBASE_LO;    5: src_addr = CSR_DEVBASE_HI;
      6: src_addr = CSR_TIMEBASE;    7: src_addr = CSR_NET;        8: src_addr = CSR_RET_EXCL;
      9: src_addr = CSR_PARK_TIMEOUT;   10: src_addr = CSR_CA_BACKOFF; 11: src_addr = CSR_CA_CLEAN;
      12: src_addr = CSR_DRAM;
      default: begin
        if (s < NFix + NumCnt)           src_addr = CSR_CNT + AW'(4 * (s - NFix));
        else if (s < NFix + NumCnt + NR) src_addr = CSR_REGION + AW'(4 * (s - NFix - NumCnt));
        else                             src_addr = CSR_OWNER + AW'(4 * (s - NFix - NumCnt - NR));
      end
    endcase
  endfunction
  logic [NSrc-1:0][31:0] src_val;  // packed: wires for the AND-OR, not a memory
  always_comb begin
    src_val[0]  = CSR_ID_RESET;
    src_val[1]  = {16'(cni_amap_pkg::total(RegionLines)), 8'(NR), 8'(LineBytes)};
    src_val[2]  = Config;
    src_val[3]  = CacheConfig;
    src_val[4]  = DevBase[31:0];
    src_val[5]  = 32'(DevBase[47:32]);
    src_val[6]  = 32'(QuietLog2);
    src_val[7]  = 32'(NetBytes);
    src_val[8]  = 32'(cfg_ret_excl_o);
    src_val[9]  = cfg_park_timeout_o;
    src_val[10] = 32'(cfg_ca_backoff_o);
    src_val[11] = 32'(cfg_ca_clean_o);
    src_val[12] = {15'd0, dram_err_i, DramConfig};
    for (int i = 0; i < NumCnt; i++) src_val[NFix + i] = cnt_q[i];
    // REGION r: [15:0] first line, [31:16] lines; OWNER r: its engine (0xFFFFFFFF: none)
    for (int r = 0; r < NR; r++) begin
      src_val[NFix + NumCnt + r] = {16'(cni_amap_pkg::lines(RegionLines, r)),
                                    16'(cni_amap_pkg::base(RegionLines, r))};
      src_val[NFix + NumCnt + NR + r] = (cni_amap_pkg::owner(r) == cni_amap_pkg::ENG_NONE)
                                          ? '1 : 32'(cni_amap_pkg::owner(r));
    end
  end

  // The decode and the choice are functions called where they are used: in the flip-flops'
  // block, where a read is taken (and, with AccReg, where its match is registered). The same
  // gates; a simulator then works them out for a read (or once a clock edge), not in every
  // evaluation of the inputs.
  function automatic logic [NSrc-1:0] decode(input logic [AW-1:0] a);
    for (int k = 0; k < NSrc; k++) decode[k] = a == src_addr(k);
  endfunction
  function automatic logic [31:0] choose(input logic [NSrc-1:0] h,
                                         input logic [NSrc-1:0][31:0] v);
    choose = '0;
    for (int k = 0; k < NSrc; k++) choose = choose | (h[k] ? v[k] : 32'd0);
  endfunction
  logic [NSrc-1:0] hit_q;
  logic            rd_q;   // AccReg: a read of a register (not a window) was taken last cycle

  // ---- engine windows -------------------------------------------------------------------------
  // A read of a window is its access (with AccReg in the next cycle, from registers); a write
  // likewise (the two are never taken in one cycle: `wr` above).
  wire wr_eng = wr && is_eng(s_axil_awaddr_i[AW-1:8]);
  logic           acc_q, acc_we_q;
  logic [EngW-1:0] acc_eng_q;
  logic [7:0]     acc_addr_q;
  logic [31:0]    acc_wdata_q;
  wire  [EngW-1:0] eng_now  = EngW'(rd_eng ? s_axil_araddr_i[AW-1:8] - CSR_ENG[AW-1:8]
                                             : s_axil_awaddr_i[AW-1:8] - CSR_ENG[AW-1:8]);
  wire  [7:0]      addr_now = rd_eng ? s_axil_araddr_i[7:0] : s_axil_awaddr_i[7:0];
  assign reg_valid_o = AccReg ? acc_q : rd_eng || wr_eng;
  assign reg_we_o    = AccReg ? acc_we_q : wr_eng;
  assign reg_eng_o   = AccReg ? acc_eng_q : eng_now;
  assign reg_addr_o  = AccReg ? acc_addr_q : addr_now;
  assign reg_wdata_o = AccReg ? acc_wdata_q : s_axil_wdata_i;

  assign s_axil_arready_o = !s_axil_rvalid_o && !eng_rd_q && !rd_q && !(acc_q && !acc_we_q);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_axil_rvalid_o <= 1'b0;
      s_axil_rdata_o  <= '0;
      s_axil_rresp_o  <= RESP_OKAY;
      eng_rd_q        <= 1'b0;
      rd_q            <= 1'b0;
      acc_q           <= 1'b0;
    end else begin
      if (s_axil_rvalid_o && s_axil_rready_i) s_axil_rvalid_o <= 1'b0;
      // a window's read data is on reg_rdata_i the cycle after its access
      eng_rd_q <= AccReg ? acc_q && !acc_we_q : rd_eng;
      rd_q     <= AccReg && rd && !rd_eng;
      acc_q    <= AccReg && (rd_eng || wr_eng);
      if (eng_rd_q) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rdata_o  <= reg_rdata_i;
        s_axil_rresp_o  <= RESP_OKAY;
      end else if (AccReg ? rd_q : rd && !rd_eng) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rdata_o  <= choose(AccReg ? hit_q : decode(s_axil_araddr_i), src_val);
        s_axil_rresp_o  <= ((AccReg ? hit_q : decode(s_axil_araddr_i)) != '0) ? RESP_OKAY
                                                                               : RESP_SLVERR;
      end
    end
  end
  // registered access (AccReg; used only while rd_q or acc_q)
  always_ff @(posedge clk_i) begin
    hit_q       <= decode(s_axil_araddr_i);
    acc_we_q    <= wr_eng;
    acc_eng_q   <= eng_now;
    acc_addr_q  <= addr_now;
    acc_wdata_q <= s_axil_wdata_i;
  end

  assign idle_o = !clear_q && !wr_q && !s_axil_bvalid_o && !s_axil_rvalid_o && !eng_rd_q &&
                  !rd_q && !acc_q && cnt_pulse_q == '0;

endmodule
