// SPDX-License-Identifier: Apache-2.0
// The transmit engine of the NIC's descriptor-ring DMA interface (docs/nic.md, "Descriptor-ring
// DMA interface"; seed 003 §2.1.1, seed 002 Fig. 9a): for each descriptor the host has posted,
// read it from the ring in host memory, read its frame in bursts (split at 4 KiB, every burst
// asked for while the data streams) into the datapath's transmit side, then write the
// descriptor back with its DONE flag.
//
// Parameters:
//   Bytes    - bytes per beat (AXI data width and the datapath's: 64)
//   AddrW    - host address bits
//   MaxBytes - the longest frame
// Ports:
//   go_i, desc_addr_i - a posted descriptor is waiting; its address (16-byte aligned, held until
//                       done_o)
//   done_o, err_o     - the descriptor's write-back is answered (a pulse); and it was refused
//                       (a frame address not 64-byte aligned or beyond AddrW, a length of 0 or
//                       over MaxBytes, or an AXI error on its reads)
//   ar_*, r_*         - read requests (INCR bursts of full beats) and their data (this engine's
//                       ID's beats only: the caller routes them)
//   aw_*, w_*, b_*    - the write-back: one beat, its address and data offered together; the
//                       caller holds the write channels for it until both are taken
//   tx_*              - frames to the datapath (which may stall); tuser on the last beat: a
//                       read of the frame failed
`default_nettype none
`include "cni_assert.svh"

module cni_nic_dma_tx #(
  parameter int Bytes    = 64,
  parameter int AddrW    = 48,
  parameter int MaxBytes = 9596,
  localparam int DW = Bytes * 8,
  localparam int OB = $clog2(Bytes)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             go_i,
  input  wire logic [AddrW-1:0] desc_addr_i,
  output logic                  done_o,
  output logic                  err_o,
  output logic                  ar_valid_o,
  input  wire logic             ar_ready_i,
  output logic [AddrW-1:0]      ar_addr_o,
  output logic [7:0]            ar_len_o,
  input  wire logic             r_valid_i,
  output logic                  r_ready_o,
  input  wire logic [DW-1:0]    r_data_i,
  input  wire logic             r_err_i,
  output logic                  aw_valid_o,
  input  wire logic             aw_ready_i,
  output logic [AddrW-1:0]      aw_addr_o,
  output logic                  w_valid_o,
  input  wire logic             w_ready_i,
  output logic [DW-1:0]         w_data_o,
  output logic [Bytes-1:0]      w_strb_o,
  input  wire logic             b_valid_i,
  output logic                  tx_tvalid_o,
  input  wire logic             tx_tready_i,
  output logic [DW-1:0]         tx_tdata_o,
  output logic [Bytes-1:0]      tx_tkeep_o,
  output logic                  tx_tlast_o,
  output logic                  tx_tuser_o,
  output logic                  idle_o
);

  localparam int PB = 12 - OB;  // beat address bits in a 4 KiB page

  typedef enum logic [2:0] {TIdle, TDescAr, TDescR, TData, TWb, TWbB} tx_state_e;

  tx_state_e        st_q, st_d;
  logic [AddrW-1:0] fa_q, fa_d;       // frame address (beat aligned)
  logic [15:0]      len_q, len_d;     // frame length
  logic [15:0]      rem_q, rem_d;     // frame bytes from the next beat to the datapath on
  logic [15:0]      arl_q, arl_d;     // beats not asked for yet
  logic             bad_q, bad_d;     // refused, or a read failed
  logic [AddrW-1:0] ara_q, ara_d;     // the next burst's address
  logic             awd_q, awd_d, wd_q, wd_d;  // the write-back's address, its beat taken
  logic [15:0]      d_len;            // the descriptor in the beat read: length, address
  logic [AddrW-1:0] d_addr;
  logic [63:0]      d_addr64;          // (bits above AddrW: an address the engine cannot reach)
  logic [PB:0]      to_page;          // beats to the end of the burst's 4 KiB page
  logic [15:0]      burst;            // beats of the next burst
  logic [1:0]       slot;             // the descriptor's 16 bytes in its beat

  assign slot    = desc_addr_i[5:4];
  assign d_addr64 = r_data_i[128*slot +: 64];
  assign d_addr  = d_addr64[AddrW-1:0];
  assign d_len   = r_data_i[128*slot + 64 +: 16];
  assign to_page = (PB + 1)'(1 << PB) - (PB + 1)'(ara_q[11:OB]);
  assign burst   = (32'(arl_q) < 32'(to_page)) ? arl_q : 16'(to_page);

  always_comb begin
    st_d  = st_q;
    fa_d  = fa_q;
    len_d = len_q;
    rem_d = rem_q;
    arl_d = arl_q;
    bad_d = bad_q;
    ara_d = ara_q;
    awd_d = awd_q;
    wd_d  = wd_q;
    unique case (st_q)
      TIdle: if (go_i) st_d = TDescAr;
      TDescAr: if (ar_ready_i) st_d = TDescR;
      TDescR: begin
        if (r_valid_i) begin
          fa_d  = d_addr;
          ara_d = d_addr;
          len_d = d_len;
          rem_d = d_len;
          arl_d = 16'((32'(d_len) + Bytes - 1) >> OB);
          bad_d = r_err_i || d_len == '0 || 32'(d_len) > 32'(MaxBytes) ||
                  d_addr[OB-1:0] != '0 || (d_addr64 >> AddrW) != '0;
          st_d  = bad_d ? TWb : TData;
        end
      end
      TData: begin
        if (ar_valid_o && ar_ready_i) begin
          arl_d = arl_q - burst;
          ara_d = ara_q + (AddrW'(burst) << OB);
        end
        if (r_valid_i && tx_tready_i) begin
          bad_d = bad_q || r_err_i;
          rem_d = (32'(rem_q) > Bytes) ? rem_q - 16'(Bytes) : '0;
          if (32'(rem_q) <= Bytes) st_d = TWb;
        end
      end
      // The write-back's address and beat are offered together (AXI: a master never waits for
      // one before the other); the response once both are taken.
      TWb: begin
        awd_d = awd_q || aw_ready_i;
        wd_d  = wd_q || w_ready_i;
        if (awd_d && wd_d) st_d = TWbB;
      end
      TWbB: begin
        awd_d = 1'b0;
        wd_d  = 1'b0;
        if (b_valid_i) st_d = TIdle;
      end
      default: st_d = TIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q  <= TIdle;
      fa_q  <= '0;
      len_q <= '0;
      rem_q <= '0;
      arl_q <= '0;
      bad_q <= 1'b0;
      ara_q <= '0;
      awd_q <= 1'b0;
      wd_q  <= 1'b0;
    end else begin
      st_q  <= st_d;
      fa_q  <= fa_d;
      len_q <= len_d;
      rem_q <= rem_d;
      arl_q <= arl_d;
      bad_q <= bad_d;
      ara_q <= ara_d;
      awd_q <= awd_d;
      wd_q  <= wd_d;
    end
  end

  // Reads: the descriptor's beat, then the frame's bursts.
  assign ar_valid_o = st_q == TDescAr || (st_q == TData && arl_q != '0);
  assign ar_addr_o  = (st_q == TDescAr) ? {desc_addr_i[AddrW-1:OB], OB'(0)} : ara_q;
  assign ar_len_o   = (st_q == TDescAr) ? 8'd0 : 8'(burst - 16'd1);
  assign r_ready_o  = st_q == TDescR || (st_q == TData && tx_tready_i);

  // The frame's beats go straight on to the datapath.
  assign tx_tvalid_o = st_q == TData && r_valid_i;
  assign tx_tdata_o  = r_data_i;
  assign tx_tkeep_o  = (32'(rem_q) >= Bytes) ? '1 : ~({Bytes{1'b1}} << rem_q[OB:0]);
  assign tx_tlast_o  = 32'(rem_q) <= Bytes;
  assign tx_tuser_o  = bad_q || r_err_i;

  // The write-back: the descriptor with DONE (bit 80) and ERR (bit 81), in its 16 bytes.
  logic [127:0] wb;
  assign wb         = {32'd0, 14'd0, bad_q, 1'b1, len_q, 64'(fa_q)};
  assign aw_valid_o = st_q == TWb && !awd_q;
  assign aw_addr_o  = {desc_addr_i[AddrW-1:OB], OB'(0)};
  assign w_valid_o  = st_q == TWb && !wd_q;
  assign w_data_o   = DW'(wb) << (128 * slot);
  assign w_strb_o   = Bytes'(16'hFFFF) << (16 * slot);

  // Done at the write-back's response: the descriptor is in host memory (an error response is
  // the AXI count's).
  assign done_o = st_q == TWbB && b_valid_i;
  assign err_o  = done_o && bad_q;
  assign idle_o = st_q == TIdle && !go_i;

  `CNI_ASSERT_INIT(Params_A, Bytes == 64 && AddrW >= 32 && AddrW <= 64 && MaxBytes < 65536,
                   "64-byte beats, 32- to 64-bit addresses, lengths below 64 KiB")
  `CNI_ASSERT(Burst_A, !(st_q == TData && ar_valid_o) || (burst != '0 && 32'(burst) <= 64),
              "a burst of no beat or past its 4 KiB page")
  `CNI_ASSERT(DescAligned_A, st_q == TIdle || desc_addr_i[3:0] == '0,
              "a descriptor address not 16-byte aligned")

endmodule
