// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): serial command bridge. Byte commands from a
// UART become AXI4-Lite transactions on the core's CSR port, or accesses to board registers.
//
// Protocol (docs/fpga.md, "Serial bridge"), all multi-byte fields big-endian:
//   'r' A1 A0          -> D3 D2 D1 D0 S   read 32 bits at address A1:A0
//   'w' A1 A0 D3..D0   -> S               write 32 bits (all byte strobes)
//   S = AXI response (0 OKAY, 2 SLVERR). A1 bit 7 clear: core CSR at A[11:0];
//   set: board register A[7:2] (always OKAY). Any other command byte is ignored.
// Ports:
//   clk_i, rst_ni                 - clock, active-low asynchronous reset
//   rx_valid_i, rx_data_i         - received bytes (no back-pressure)
//   tx_valid_o/tx_ready_i/tx_data_o - bytes to send (the UART may stall)
//   m_axil_*                      - AXI4-Lite master to the core's CSR slave
//   loc_valid_o, loc_we_o, loc_addr_o, loc_wdata_o, loc_rdata_i
//                                 - board register access: one-cycle strobe, read data
//                                   combinational from loc_addr_o in that cycle
`default_nettype none

module cni_fpga_bridge (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        rx_valid_i,
  input  wire logic [7:0]  rx_data_i,
  output logic             tx_valid_o,
  input  wire logic        tx_ready_i,
  output logic [7:0]       tx_data_o,
  output logic             m_axil_awvalid_o,
  input  wire logic        m_axil_awready_i,
  output logic [11:0]      m_axil_awaddr_o,
  output logic             m_axil_wvalid_o,
  input  wire logic        m_axil_wready_i,
  output logic [31:0]      m_axil_wdata_o,
  output logic [3:0]       m_axil_wstrb_o,
  input  wire logic        m_axil_bvalid_i,
  output logic             m_axil_bready_o,
  input  wire logic [1:0]  m_axil_bresp_i,
  output logic             m_axil_arvalid_o,
  input  wire logic        m_axil_arready_i,
  output logic [11:0]      m_axil_araddr_o,
  input  wire logic        m_axil_rvalid_i,
  output logic             m_axil_rready_o,
  input  wire logic [31:0] m_axil_rdata_i,
  input  wire logic [1:0]  m_axil_rresp_i,
  output logic             loc_valid_o,
  output logic             loc_we_o,
  output logic [5:0]       loc_addr_o,
  output logic [31:0]      loc_wdata_o,
  input  wire logic [31:0] loc_rdata_i
);

  typedef enum logic [2:0] {StCmd, StArg, StRd, StWr, StResp, StSend} state_e;

  state_e      state_q;
  logic        we_q;
  logic [2:0]  nargs_q;     // argument bytes still expected
  logic [15:0] addr_q;
  logic [31:0] data_q;
  logic [1:0]  resp_q;
  logic [2:0]  nsend_q;     // reply bytes still to send
  logic        aw_done_q, w_done_q, ar_done_q;

  wire local_acc = addr_q[15];

  assign m_axil_awaddr_o  = addr_q[11:0];
  assign m_axil_araddr_o  = addr_q[11:0];
  assign m_axil_wdata_o   = data_q;
  assign m_axil_wstrb_o   = 4'hF;
  assign m_axil_awvalid_o = (state_q == StWr) && !aw_done_q;
  assign m_axil_wvalid_o  = (state_q == StWr) && !w_done_q;
  assign m_axil_bready_o  = (state_q == StWr);
  assign m_axil_arvalid_o = (state_q == StRd) && !ar_done_q;
  assign m_axil_rready_o  = (state_q == StRd);

  // A1 bits 6:4 select nothing (the CSR space is 12 bits wide).
  logic unused_addr;
  assign unused_addr = ^addr_q[14:12];

  assign loc_valid_o = (state_q == StResp) && local_acc;
  assign loc_we_o    = we_q;
  assign loc_addr_o  = addr_q[7:2];
  assign loc_wdata_o = data_q;

  // Reply: read data (4 bytes, most significant first) then the status byte.
  assign tx_valid_o = (state_q == StSend);
  assign tx_data_o  = (nsend_q == 3'd1) ? {6'd0, resp_q} : data_q[31:24];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StCmd;
      we_q      <= 1'b0;
      nargs_q   <= '0;
      addr_q    <= '0;
      data_q    <= '0;
      resp_q    <= '0;
      nsend_q   <= '0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      ar_done_q <= 1'b0;
    end else begin
      unique case (state_q)
        StCmd: begin
          if (rx_valid_i && (rx_data_i == 8'h72 || rx_data_i == 8'h77)) begin  // 'r', 'w'
            we_q    <= (rx_data_i == 8'h77);
            nargs_q <= (rx_data_i == 8'h77) ? 3'd6 : 3'd2;
            state_q <= StArg;
          end
        end
        StArg: begin
          if (rx_valid_i) begin
            // address then data bytes shift in, most significant first
            if (nargs_q > 3'd4 || (!we_q && nargs_q != 3'd0)) addr_q <= {addr_q[7:0], rx_data_i};
            else data_q <= {data_q[23:0], rx_data_i};
            nargs_q <= nargs_q - 1'b1;
            if (nargs_q == 3'd1) begin
              aw_done_q <= 1'b0;
              w_done_q  <= 1'b0;
              ar_done_q <= 1'b0;
              // board register: A1 bit 7 (for a read, A1 is in addr_q[7:0] until A0 shifts in)
              if (we_q ? addr_q[15] : addr_q[7]) state_q <= StResp;
              else state_q <= we_q ? StWr : StRd;
            end
          end
        end
        StRd: begin
          if (m_axil_arready_i) ar_done_q <= 1'b1;
          if (m_axil_rvalid_i) begin
            data_q  <= m_axil_rdata_i;
            resp_q  <= m_axil_rresp_i;
            nsend_q <= 3'd5;
            state_q <= StSend;
          end
        end
        StWr: begin
          if (m_axil_awready_i) aw_done_q <= 1'b1;
          if (m_axil_wready_i) w_done_q <= 1'b1;
          if (m_axil_bvalid_i) begin
            resp_q  <= m_axil_bresp_i;
            nsend_q <= 3'd1;
            state_q <= StSend;
          end
        end
        StResp: begin  // board register access (loc_valid_o this cycle)
          if (!we_q) data_q <= loc_rdata_i;
          resp_q  <= 2'b00;
          nsend_q <= we_q ? 3'd1 : 3'd5;
          state_q <= StSend;
        end
        StSend: begin
          if (tx_ready_i) begin
            data_q  <= {data_q[23:0], 8'd0};
            nsend_q <= nsend_q - 1'b1;
            if (nsend_q == 3'd1) state_q <= StCmd;
          end
        end
        default: state_q <= StCmd;
      endcase
    end
  end

endmodule
