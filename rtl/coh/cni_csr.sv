// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite register block of the coherence endpoint: identification, configuration (return in
// Exclusive per region, park timeout) and 32-bit event counters. Map: docs/endpoint.md.
//
// Parameters:
//   NumCnt    - number of counters (0x100 + 4*i)
//   LineBytes - reported in GEOMETRY
//   NumLines  - reported in GEOMETRY
// Ports:
//   s_axil_*  - AXI4-Lite slave, 12-bit byte addresses, 32-bit data; one transaction at a time
//               per direction; writes need AW and W together and are answered two cycles after
//               they are taken; unmapped addresses answer SLVERR
//   cnt_i     - one-cycle pulses, one per counter (counted one cycle later)
//   cfg_*_o   - configuration to the home agent
`default_nettype none

module cni_csr #(
  parameter int NumCnt    = 18,
  parameter int LineBytes = 128,
  parameter int NumLines  = 1692
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
  output logic [3:0]             cfg_ret_excl_o,
  output logic [31:0]            cfg_park_timeout_o
);

  localparam logic [11:0] A_ID = 12'h000, A_GEOM = 12'h004, A_RET_EXCL = 12'h010,
                          A_PARK_TMO = 12'h014, A_CTRL = 12'h018, A_CNT = 12'h100;
  localparam logic [1:0]  RESP_OKAY = 2'b00, RESP_SLVERR = 2'b10;

  logic [31:0] cnt_q [NumCnt];
  logic        clear_q;   // clear every counter (a CTRL write taken in the last cycle)
  logic        wr_q;      // a write was taken in the last cycle: answer it now

  // ---- writes -------------------------------------------------------------------------------
  // A write is decoded when it is taken; the counters' clear is registered first (it reaches
  // every counter bit), and the response follows one cycle later, so it comes after the clear.
  wire wr = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o && !wr_q;
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o  = wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_ret_excl_o     <= 4'hF;
      cfg_park_timeout_o <= 32'h0100_0000;
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
          A_RET_EXCL: if (s_axil_wstrb_i[0]) cfg_ret_excl_o <= s_axil_wdata_i[3:0];
          A_PARK_TMO: begin
            for (int b = 0; b < 4; b++) begin
              if (s_axil_wstrb_i[b]) cfg_park_timeout_o[8*b +: 8] <= s_axil_wdata_i[8*b +: 8];
            end
          end
          A_CTRL: ;
          default: s_axil_bresp_o <= RESP_SLVERR;
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
      for (int i = 0; i < NumCnt; i++) begin
        if (clear_q) cnt_q[i] <= '0;
        else if (cnt_pulse_q[i]) cnt_q[i] <= cnt_q[i] + 1'b1;
      end
    end
  end

  // ---- reads --------------------------------------------------------------------------------
  logic [31:0] rdata;
  logic        rok;
  always_comb begin
    rdata = '0;
    rok   = 1'b1;
    unique case (s_axil_araddr_i)
      A_ID:       rdata = 32'h434E_4931;
      A_GEOM:     rdata = {16'(NumLines), 8'd0, 8'(LineBytes)};
      A_RET_EXCL: rdata = {28'd0, cfg_ret_excl_o};
      A_PARK_TMO: rdata = cfg_park_timeout_o;
      default: begin
        rok = 1'b0;
        for (int i = 0; i < NumCnt; i++) begin
          if (s_axil_araddr_i == A_CNT + 12'(4 * i)) begin
            rdata = cnt_q[i];
            rok   = 1'b1;
          end
        end
      end
    endcase
  end

  assign s_axil_arready_o = !s_axil_rvalid_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_axil_rvalid_o <= 1'b0;
      s_axil_rdata_o  <= '0;
      s_axil_rresp_o  <= RESP_OKAY;
    end else begin
      if (s_axil_rvalid_o && s_axil_rready_i) s_axil_rvalid_o <= 1'b0;
      if (s_axil_arvalid_i && s_axil_arready_o) begin
        s_axil_rvalid_o <= 1'b1;
        s_axil_rdata_o  <= rdata;
        s_axil_rresp_o  <= rok ? RESP_OKAY : RESP_SLVERR;
      end
    end
  end

endmodule
