// SPDX-License-Identifier: Apache-2.0
// The receive engine of the NIC's descriptor-ring DMA interface (docs/nic.md, "Descriptor-ring
// DMA interface"; seed 003 §2.1.1, seed 002 Fig. 9a): read the next free-buffer descriptor the
// host has posted ahead of the frame that will use it; when a good frame comes from the datapath,
// write it into the buffer in bursts (split at 4 KiB; beats past the buffer are dropped), wait
// for every write response, then write the descriptor back with the frame's length and DONE
// (and TRUNC when the buffer was too small).
//
// Parameters:
//   Bytes - bytes per beat (AXI data width and the datapath's: 64)
//   AddrW - host address bits
// Ports:
//   avail_i, desc_addr_i - a posted buffer is waiting; its descriptor's address (16-byte
//                          aligned, held until done_o)
//   done_o, trunc_o, err_o - the descriptor's write-back is answered (a pulse); the frame was
//                          cut to the buffer; the buffer was refused (not 64-byte aligned or
//                          beyond AddrW) or an AXI access for it failed
//   ar_*, r_*            - the descriptor's read (one beat; this engine's ID's beats only)
//   aw_*, w_*, b_*       - the frame's bursts and the write-back, each burst's address and data
//                          offered together; the caller holds the write channels for a burst
//                          until its address and last beat are taken
//   rx_*                 - good frames from the datapath (rx_len_i: the frame's length on each
//                          beat); held back until a buffer is known
`default_nettype none
`include "cni_assert.svh"

module cni_nic_dma_rx #(
  parameter int Bytes = 64,
  parameter int AddrW = 48,
  localparam int DW = Bytes * 8,
  localparam int OB = $clog2(Bytes)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             avail_i,
  input  wire logic [AddrW-1:0] desc_addr_i,
  output logic                  done_o,
  output logic                  trunc_o,
  output logic                  err_o,
  output logic                  ar_valid_o,
  input  wire logic             ar_ready_i,
  output logic [AddrW-1:0]      ar_addr_o,
  input  wire logic             r_valid_i,
  input  wire logic [DW-1:0]    r_data_i,
  input  wire logic             r_err_i,
  output logic                  aw_valid_o,
  input  wire logic             aw_ready_i,
  output logic [AddrW-1:0]      aw_addr_o,
  output logic [7:0]            aw_len_o,
  output logic                  w_valid_o,
  input  wire logic             w_ready_i,
  output logic [DW-1:0]         w_data_o,
  output logic [Bytes-1:0]      w_strb_o,
  output logic                  w_last_o,
  input  wire logic             b_valid_i,
  input  wire logic             b_err_i,
  input  wire logic             rx_tvalid_i,
  output logic                  rx_tready_o,
  input  wire logic [DW-1:0]    rx_tdata_i,
  input  wire logic             rx_tlast_i,
  input  wire logic [15:0]      rx_len_i,
  output logic                  idle_o
);

  localparam int PB = 12 - OB;  // beat address bits in a 4 KiB page

  typedef enum logic [3:0] {
    RIdle, RDescAr, RDescR, RWait, RBurst, RDrop, RB, RWb, RWbB
  } rx_state_e;

  rx_state_e        st_q, st_d;
  logic [AddrW-1:0] ba_q, ba_d;       // the buffer's address
  logic [15:0]      bl_q, bl_d;       // its length
  logic [AddrW-1:0] wa_q, wa_d;       // the current burst's address
  logic [15:0]      bt_q, bt_d;       // its beats
  logic [15:0]      bb_q, bb_d;       // its beats not written yet
  logic             awp_q, awp_d;     // its address not taken yet
  logic [15:0]      wl_q, wl_d;       // bytes the buffer takes from the next beat on
  logic [15:0]      n_q, n_d;         // bytes written into the buffer
  logic [7:0]       bo_q, bo_d;       // bursts whose response is awaited
  logic             fe_q, fe_d;       // the frame's last beat is taken
  logic             tr_q, tr_d;       // the frame was longer than the buffer
  logic             bad_q, bad_d;     // refused, or an access failed
  logic             awd_q, awd_d, wd_q, wd_d;  // the write-back's address, its beat taken
  logic [1:0]       slot;
  logic [63:0]      d_addr64;         // the descriptor's buffer address
  logic             w_hs, b_in, aw_hs;

  // Beats of a burst from the beat `pg` of a 4 KiB page while the buffer takes `wl` more bytes:
  // all of them, up to the end of the page.
  function automatic logic [15:0] burst_of(input logic [PB-1:0] pg, input logic [15:0] wl);
    logic [15:0] beats, room;
    beats    = 16'((32'(wl) + Bytes - 1) >> OB);
    room     = 16'((32'd1 << PB) - 32'(pg));
    burst_of = (beats < room) ? beats : room;
  endfunction

  assign slot     = desc_addr_i[5:4];
  assign d_addr64 = r_data_i[128*slot +: 64];
  assign w_hs     = w_valid_o && w_ready_i;
  assign aw_hs    = aw_valid_o && aw_ready_i && st_q == RBurst;
  assign b_in     = b_valid_i && st_q != RWbB;  // a data burst's response

  always_comb begin
    st_d  = st_q;
    ba_d  = ba_q;
    bl_d  = bl_q;
    wa_d  = wa_q;
    bt_d  = bt_q;
    bb_d  = bb_q;
    awp_d = awp_q;
    wl_d  = wl_q;
    n_d   = n_q;
    bo_d  = bo_q + 8'(aw_hs) - 8'(b_in);
    fe_d  = fe_q;
    tr_d  = tr_q;
    bad_d = bad_q || (b_in && b_err_i);
    awd_d = awd_q;
    wd_d  = wd_q;
    unique case (st_q)
      RIdle: if (avail_i) st_d = RDescAr;
      RDescAr: if (ar_ready_i) st_d = RDescR;
      RDescR: begin
        if (r_valid_i) begin
          ba_d  = d_addr64[AddrW-1:0];
          bl_d  = r_data_i[128*slot + 64 +: 16];
          bad_d = r_err_i || d_addr64[OB-1:0] != '0 || (d_addr64 >> AddrW) != '0;
          st_d  = RWait;
        end
      end
      // A frame's first beat: its length, and what of it the buffer takes.
      RWait: begin
        if (rx_tvalid_i) begin
          tr_d  = rx_len_i > bl_q;
          wl_d  = bad_q ? 16'd0 : (rx_len_i > bl_q) ? bl_q : rx_len_i;
          n_d   = wl_d;
          fe_d  = 1'b0;
          wa_d  = ba_q;
          bt_d  = burst_of(ba_q[11:OB], wl_d);
          bb_d  = bt_d;
          awp_d = 1'b1;
          st_d  = (wl_d == '0) ? RDrop : RBurst;
        end
      end
      // A burst: its address and its beats (from the datapath) offered together.
      RBurst: begin
        if (aw_hs) awp_d = 1'b0;
        if (w_hs) begin
          bb_d = bb_q - 16'd1;
          wl_d = (32'(wl_q) > Bytes) ? wl_q - 16'(Bytes) : '0;
          if (rx_tlast_i) fe_d = 1'b1;
        end
        if (!awp_d && bb_d == '0) begin
          if (wl_d != '0) begin  // the next burst
            wa_d  = wa_q + (AddrW'(bt_q) << OB);
            bt_d  = burst_of(wa_d[11:OB], wl_d);
            bb_d  = bt_d;
            awp_d = 1'b1;
          end else begin
            st_d = fe_d ? RB : RDrop;  // the frame's beats the buffer has no room for
          end
        end
      end
      RDrop: if (rx_tvalid_i && rx_tlast_i) st_d = RB;
      RB: begin
        awd_d = 1'b0;
        wd_d  = 1'b0;
        if (bo_q == '0) st_d = RWb;
      end
      // The write-back's address and beat offered together; the response once both are taken.
      RWb: begin
        awd_d = awd_q || aw_ready_i;
        wd_d  = wd_q || w_ready_i;
        if (awd_d && wd_d) st_d = RWbB;
      end
      RWbB: if (b_valid_i) st_d = RIdle;
      default: st_d = RIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q  <= RIdle;
      ba_q  <= '0;
      bl_q  <= '0;
      wa_q  <= '0;
      bt_q  <= '0;
      bb_q  <= '0;
      awp_q <= 1'b0;
      wl_q  <= '0;
      n_q   <= '0;
      bo_q  <= '0;
      fe_q  <= 1'b0;
      tr_q  <= 1'b0;
      bad_q <= 1'b0;
      awd_q <= 1'b0;
      wd_q  <= 1'b0;
    end else begin
      st_q  <= st_d;
      ba_q  <= ba_d;
      bl_q  <= bl_d;
      wa_q  <= wa_d;
      bt_q  <= bt_d;
      bb_q  <= bb_d;
      awp_q <= awp_d;
      wl_q  <= wl_d;
      n_q   <= n_d;
      bo_q  <= bo_d;
      fe_q  <= fe_d;
      tr_q  <= tr_d;
      bad_q <= bad_d;
      awd_q <= awd_d;
      wd_q  <= wd_d;
    end
  end

  assign ar_valid_o = st_q == RDescAr;
  assign ar_addr_o  = {desc_addr_i[AddrW-1:OB], OB'(0)};

  // The frame's beats: into the buffer while it has room, then dropped.
  assign rx_tready_o = (st_q == RBurst && bb_q != '0 && w_ready_i) || st_q == RDrop;

  // The write-back: the buffer's address, the bytes written, DONE (bit 80), ERR (bit 81) and
  // TRUNC (bit 82), in the descriptor's 16 bytes.
  logic [127:0] wb;
  assign wb         = {32'd0, 13'd0, tr_q, bad_q, 1'b1, n_q, 64'(ba_q)};
  assign aw_valid_o = (st_q == RBurst && awp_q) || (st_q == RWb && !awd_q);
  assign aw_addr_o  = (st_q == RBurst) ? wa_q : {desc_addr_i[AddrW-1:OB], OB'(0)};
  assign aw_len_o   = (st_q == RBurst) ? 8'(bt_q - 16'd1) : 8'd0;
  assign w_valid_o  = (st_q == RBurst && bb_q != '0 && rx_tvalid_i) || (st_q == RWb && !wd_q);
  assign w_data_o   = (st_q == RBurst) ? rx_tdata_i : DW'(wb) << (128 * slot);
  assign w_strb_o   = (st_q == RWb) ? Bytes'(16'hFFFF) << (16 * slot) :
                      (32'(wl_q) >= Bytes) ? '1 : ~({Bytes{1'b1}} << wl_q[OB:0]);
  assign w_last_o   = st_q == RWb || bb_q == 16'd1;

  // Done at the write-back's response: the frame and the descriptor are in host memory.
  assign done_o  = st_q == RWbB && b_valid_i;
  assign trunc_o = done_o && tr_q;
  assign err_o   = done_o && bad_q;
  assign idle_o  = (st_q == RIdle && !avail_i) || st_q == RWait;

  `CNI_ASSERT_INIT(Params_A, Bytes == 64 && AddrW >= 32 && AddrW <= 64,
                   "64-byte beats, 32- to 64-bit addresses")
  `CNI_ASSERT(DescAligned_A, st_q == RIdle || desc_addr_i[3:0] == '0,
              "a descriptor address not 16-byte aligned")
  `CNI_ASSERT(Burst_A, st_q != RBurst || (bt_q != '0 && 32'(bt_q) <= 64 && bb_q <= bt_q),
              "a burst of no beat or past its 4 KiB page")
  `CNI_ASSERT(FrameEnd_A, !(w_hs && st_q == RBurst && rx_tlast_i) || 32'(wl_q) <= Bytes,
              "a frame ended before the bytes its length gives")
  `CNI_ASSERT(Responses_A, !(b_in && bo_q == '0 && !aw_hs), "a write response nobody awaited")

endmodule
