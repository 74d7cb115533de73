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
//   DevBase     - reported in DEVBASE_LO/HI
//   QuietLog2   - reported in TIMEBASE (the quiescence window of quiet_o)
//   NetBytes    - reported in NET (bytes per beat of the network port)
// Ports:
//   s_axil_*  - AXI4-Lite slave, 12-bit byte addresses, 32-bit data; one transaction at a time
//               per direction; writes need AW and W together and are answered two cycles after
//               they are taken; reads are answered the cycle after they are taken (an engine's
//               window one cycle later); unmapped addresses answer SLVERR
//   cnt_i     - one-cycle pulses, one per counter (counted one cycle later)
//   cfg_*_o   - configuration to the home agent and the caching agent
//   reg_*     - an access to an engine's window (engine reg_eng_o, byte offset reg_addr_o): one
//               cycle; its read data on reg_rdata_i the cycle after
//   idle_o    - no access answered or pending, no counter pulse on its way
`default_nettype none

module cni_csr #(
  parameter int NumCnt    = 19,
  parameter int LineBytes = 128,
  parameter logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FULL_LINES,
  parameter logic [31:0] Config = '0,
  parameter logic [31:0] CacheConfig = '0,
  parameter logic [47:0] DevBase = 48'h10_0000_0000,
  parameter int QuietLog2 = 10,
  parameter int NetBytes  = 64,
  localparam int NE       = cni_amap_pkg::NUM_ENGINES,
  localparam int NR       = cni_amap_pkg::NUM_REGIONS,
  localparam int EngW     = $clog2(NE + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              s_axil_awvalid_i,
  output logic                   s_axil_awready_o,
  input  wire logic [11:0]       s_axil_awaddr_i,
  input  wire logic              s_axil_wvalid_i,
  output logic                   s_axil_wready_o,
  input  wire logic [31:0]       s_axil_wdata_i,
  input  wire logic [3:0]        s_axil_wstrb_i,
  output logic                   s_axil_bvalid_o,
  input  wire logic              s_axil_bready_i,
  output logic [1:0]             s_axil_bresp_o,
  input  wire logic              s_axil_arvalid_i,
  output logic                   s_axil_arready_o,
  input  wire logic [11:0]       s_axil_araddr_i,
  output logic                   s_axil_rvalid_o,
  input  wire logic              s_axil_rready_i,
  output logic [31:0]            s_axil_rdata_o,
  output logic [1:0]             s_axil_rresp_o,
  input  wire logic [NumCnt-1:0] cnt_i,
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

  localparam logic [11:0] A_ID = 12'h000, A_GEOM = 12'h004, A_CONFIG = 12'h008, A_CACHE = 12'h00C,
                          A_RET_EXCL = 12'h010, A_PARK_TMO = 12'h014, A_CTRL = 12'h018,
                          A_CA_BACKOFF = 12'h01C, A_BASE_LO = 12'h020, A_BASE_HI = 12'h024,
                          A_TIMEBASE = 12'h028, A_NET = 12'h02C, A_CA_CLEAN = 12'h030,
                          A_REGION = 12'h040, A_OWNER = 12'h060, A_CNT = 12'h100,
                          A_ENG = 12'h800;
  if (NR > 8) $error("cni_csr: the REGION words hold 8 regions");
  if (NE > 8) $error("cni_csr: the engine windows hold 8 engines");

  // An engine window: 0x800 + 0x100 * engine (the address's page, bits [11:8]).
  function automatic logic is_eng(input logic [3:0] page);
    is_eng = page >= A_ENG[11:8] && 32'(page) < 32'(A_ENG[11:8]) + 32'(NE);
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
  wire  wr = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o && !wr_q &&
             !(rd && is_eng(s_axil_araddr_i[11:8]));
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o  = wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_ret_excl_o     <= '1;
      cfg_park_timeout_o <= 32'h0100_0000;
      cfg_ca_backoff_o   <= 16'd16;
      cfg_ca_clean_o     <= 16'd0;
      clear_q            <= 1'b0;
      wr_q               <= 1'b0;
      s_axil_bvalid_o    <= 1'b0;
      s_axil_bresp_o     <= RESP_OKAY;
    end else begin
      clear_q <= wr && s_axil_awaddr_i == A_CTRL && s_axil_wstrb_i[0] && s_axil_wdata_i[0];
      wr_q    <= wr;
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 1'b0;
      if (wr_q) s_axil_bvalid_o <= 1'b1;
      if (wr) begin
        s_axil_bresp_o  <= RESP_OKAY;
        unique case (s_axil_awaddr_i)
          A_RET_EXCL: if (s_axil_wstrb_i[0]) cfg_ret_excl_o <= s_axil_wdata_i[NR-1:0];
          A_PARK_TMO: begin
            for (int b = 0; b < 4; b++) begin
              if (s_axil_wstrb_i[b]) cfg_park_timeout_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          A_CA_BACKOFF: begin
            for (int b = 0; b < 2; b++) begin
              if (s_axil_wstrb_i[b]) cfg_ca_backoff_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          A_CA_CLEAN: begin
            for (int b = 0; b < 2; b++) begin
              if (s_axil_wstrb_i[b]) cfg_ca_clean_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          A_CTRL: ;
          default: if (!is_eng(s_axil_awaddr_i[11:8])) s_axil_bresp_o <= RESP_SLVERR;
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
  // Decoded only while a read is offered: its result is used only then, and the else-branch's
  // don't-care leaves the synthesized network as it is while a simulator skips the decode.
  logic [31:0] rdata;
  logic        rok;
  always_comb begin
    rdata = 'x;
    rok   = 1'bx;
    if (s_axil_arvalid_i) begin
      rdata = '0;
      rok   = 1'b1;
      unique case (s_axil_araddr_i)
        A_ID:       rdata = 32'h434E_4931;
        A_GEOM:     rdata = {16'(cni_amap_pkg::total(RegionLines)), 8'(NR), 8'(LineBytes)};
        A_CONFIG:   rdata = Config;
        A_CACHE:    rdata = CacheConfig;
        A_BASE_LO:  rdata = DevBase[31:0];
        A_BASE_HI:  rdata = 32'(DevBase[47:32]);
        A_TIMEBASE: rdata = 32'(QuietLog2);
        A_NET:      rdata = 32'(NetBytes);
        A_RET_EXCL: rdata = 32'(cfg_ret_excl_o);
        A_PARK_TMO: rdata = cfg_park_timeout_o;
        A_CA_BACKOFF: rdata = 32'(cfg_ca_backoff_o);
        A_CA_CLEAN:   rdata = 32'(cfg_ca_clean_o);
        default: begin
          rok = 1'b0;
          for (int i = 0; i < NumCnt; i++) begin
            if (s_axil_araddr_i == A_CNT + 12'(4 * i)) begin
              rdata = cnt_q[i];
              rok   = 1'b1;
            end
          end
          // REGION r: [15:0] first line, [31:16] lines; OWNER r: its engine (0xFFFFFFFF: none)
          for (int r = 0; r < NR; r++) begin
            if (s_axil_araddr_i == A_REGION + 12'(4 * r)) begin
              rdata = {16'(cni_amap_pkg::lines(RegionLines, r)),
                       16'(cni_amap_pkg::base(RegionLines, r))};
              rok   = 1'b1;
            end
            if (s_axil_araddr_i == A_OWNER + 12'(4 * r)) begin
              rdata = (cni_amap_pkg::owner(r) == cni_amap_pkg::ENG_NONE)
                        ? '1 : 32'(cni_amap_pkg::owner(r));
              rok   = 1'b1;
            end
          end
          if (is_eng(s_axil_araddr_i[11:8])) rok = 1'b1;
        end
      endcase
    end
  end

  assign s_axil_arready_o = !s_axil_rvalid_o && !eng_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_axil_rvalid_o <= 1'b0;
      s_axil_rdata_o  <= '0;
      s_axil_rresp_o  <= RESP_OKAY;
      eng_rd_q        <= 1'b0;
    end else begin
      if (s_axil_rvalid_o && s_axil_rready_i) s_axil_rvalid_o <= 1'b0;
      eng_rd_q <= rd && is_eng(s_axil_araddr_i[11:8]);
      if (eng_rd_q) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rdata_o  <= reg_rdata_i;
        s_axil_rresp_o  <= RESP_OKAY;
      end else if (rd && !is_eng(s_axil_araddr_i[11:8])) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rdata_o  <= rdata;
        s_axil_rresp_o  <= rok ? RESP_OKAY : RESP_SLVERR;
      end
    end
  end

  assign idle_o = !clear_q && !wr_q && !s_axil_bvalid_o && !s_axil_rvalid_o && !eng_rd_q &&
                  cnt_pulse_q == '0;

  // ---- engine windows -------------------------------------------------------------------------
  // A read of a window is its access in the cycle it is taken; a write likewise (the two never
  // share a cycle: `wr` above).
  wire rd_eng = rd && is_eng(s_axil_araddr_i[11:8]);
  wire wr_eng = wr && is_eng(s_axil_awaddr_i[11:8]);
  assign reg_valid_o = rd_eng || wr_eng;
  assign reg_we_o    = wr_eng;
  assign reg_eng_o   = EngW'(rd_eng ? s_axil_araddr_i[10:8] : s_axil_awaddr_i[10:8]);
  assign reg_addr_o  = rd_eng ? s_axil_araddr_i[7:0] : s_axil_awaddr_i[7:0];
  assign reg_wdata_o = s_axil_wdata_i;

endmodule
