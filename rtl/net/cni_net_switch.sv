// SPDX-License-Identifier: Apache-2.0
// The device's network port shared by its engines (docs/endpoint.md, "Network port"): frames
// the engines send go out one at a time (round robin, a frame whole), and a received frame goes
// to the engine that owns its type (cni_amap_pkg::net_owner of header byte 6), or is dropped
// and counted when no engine owns it.
//
// Two channels (docs/network.md, "Channels": type bit 7 clear for requests, set for replies)
// share the port both ways, and neither may hold the other: a frame of a channel starts only
// where it can finish. Out: the MAC says per channel whether it takes a whole frame now
// (tx_room_i), and an engine's frame is forwarded only when its channel has room (an engine
// sending both sees tx_room too and starts a frame only on a channel with room). In: each engine
// has a ready per channel and takes a frame whole once its first beat is taken, and rx_room_o
// tells the MAC of which channels a frame may start: every present engine owning a type of the
// channel (cni_amap_pkg::ENG_NET_REQ, ENG_NET_RSP) has that channel's ready. The MAC offers a
// frame only on a channel with room (it decides before it offers: a stream may not withdraw a
// frame).
//
// Parameters:
//   NetBytes - bytes per beat of the stream
//   Present  - the engines instantiated: a frame of a type whose engine is absent is dropped and
//              counted like one of a type no engine owns
// Ports:
//   m_axis_net_* - to the MAC: frames of docs/network.md without the FCS (the MAC adds it)
//   tx_room_i    - per channel: the MAC takes a whole frame of it now
//   s_axis_net_* - from the MAC (tuser on a last beat: the frame's FCS check failed)
//   rx_room_o    - per channel: a frame of it offered now is taken whole, without a stall
//   eb_ntx_*     - the engines' frames out (valid/ready per engine, the beat's fields at
//                  [k*W +: W])
//   eb_nrx_*     - the frames in: a valid per engine and a ready per engine and channel (engine
//                  k's at [2k +: 2]), the beat's fields and the frame's channel shared
//   cnt_drop_o   - one-cycle pulse per frame dropped for want of an engine
//   idle_o       - no frame under way in either direction
`default_nettype none

module cni_net_switch #(
  parameter int NetBytes = 64,
  parameter logic [cni_amap_pkg::NUM_ENGINES-1:0] Present = '1,
  localparam int NE   = cni_amap_pkg::NUM_ENGINES,
  localparam int NetW = NetBytes * 8,
  localparam int EW   = (NE > 1) ? $clog2(NE) : 1
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  output logic                       m_axis_net_tvalid_o,
  input  wire logic                  m_axis_net_tready_i,
  output logic [NetW-1:0]            m_axis_net_tdata_o,
  output logic [NetBytes-1:0]        m_axis_net_tkeep_o,
  output logic                       m_axis_net_tlast_o,
  output logic [15:0]                m_axis_net_tdest_o,
  input  wire logic [1:0]            tx_room_i,
  input  wire logic                  s_axis_net_tvalid_i,
  output logic                       s_axis_net_tready_o,
  input  wire logic [NetW-1:0]       s_axis_net_tdata_i,
  input  wire logic [NetBytes-1:0]   s_axis_net_tkeep_i,
  input  wire logic                  s_axis_net_tlast_i,
  input  wire logic                  s_axis_net_tuser_i,
  output logic [1:0]                 rx_room_o,
  input  wire logic [NE-1:0]         eb_ntx_valid_i,
  output logic [NE-1:0]              eb_ntx_ready_o,
  input  wire logic [NE*NetW-1:0]    eb_ntx_data_i,
  input  wire logic [NE*NetBytes-1:0] eb_ntx_keep_i,
  input  wire logic [NE-1:0]         eb_ntx_last_i,
  input  wire logic [NE*16-1:0]      eb_ntx_dest_i,
  output logic [NE-1:0]              eb_nrx_valid_o,
  input  wire logic [2*NE-1:0]       eb_nrx_ready_i,
  output logic [NetW-1:0]            nrx_data_o,
  output logic [NetBytes-1:0]        nrx_keep_o,
  output logic                       nrx_last_o,
  output logic                       nrx_user_o,
  output logic                       nrx_chan_o,
  output logic                       cnt_drop_o,
  output logic                       idle_o
);

  if (NetBytes < 8) $error("cni_net_switch: a beat must hold the frame's type (byte 6)");
  localparam int ChanBit = 6 * 8 + 7;   // type bit 7 of a first beat: the frame's channel

  // ---- transmit: one engine's frame at a time -------------------------------------------------
  // tx_busy_q: a frame from engine tx_own_q is under way -- its first beat has been offered (so
  // tdata, tdest and tlast hold while the MAC stalls it) and its last not yet taken.
  logic          tx_busy_q;
  logic [EW-1:0] tx_own_q, tx_rr_q, tx_pick;
  logic          tx_any;
  always_comb begin
    // round robin: the first engine with a frame whose channel has room, from tx_rr_q on
    tx_any  = 1'b0;
    tx_pick = '0;
    for (int i = NE - 1; i >= 0; i--) begin
      logic [EW:0] k;
      k = (EW + 1)'(tx_rr_q) + (EW + 1)'(i);
      if (32'(k) >= NE) k = k - (EW + 1)'(NE);
      if (eb_ntx_valid_i[k[EW-1:0]] &&
          tx_room_i[eb_ntx_data_i[NetW * 32'(k[EW-1:0]) + ChanBit]]) begin
        tx_any  = 1'b1;
        tx_pick = k[EW-1:0];
      end
    end
  end
  wire [EW-1:0] tx_sel = tx_busy_q ? tx_own_q : tx_pick;
  wire          tx_go  = tx_busy_q || tx_any;
  assign m_axis_net_tvalid_o = tx_go && eb_ntx_valid_i[tx_sel];
  assign m_axis_net_tdata_o  = eb_ntx_data_i[NetW * tx_sel +: NetW];
  assign m_axis_net_tkeep_o  = eb_ntx_keep_i[NetBytes * tx_sel +: NetBytes];
  assign m_axis_net_tlast_o  = eb_ntx_last_i[tx_sel];
  assign m_axis_net_tdest_o  = eb_ntx_dest_i[16 * tx_sel +: 16];
  always_comb begin
    eb_ntx_ready_o = '0;
    eb_ntx_ready_o[tx_sel] = tx_go && m_axis_net_tready_i;
  end
  wire tx_fire = m_axis_net_tvalid_o && m_axis_net_tready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_busy_q <= 1'b0;
      tx_own_q  <= '0;
      tx_rr_q   <= '0;
    end else if (m_axis_net_tvalid_o) begin
      tx_busy_q <= !(m_axis_net_tready_i && m_axis_net_tlast_o);
      tx_own_q  <= tx_sel;
      if (tx_fire && m_axis_net_tlast_o) tx_rr_q <= (32'(tx_sel) == NE - 1) ? '0 : tx_sel + 1'b1;
    end
  end

  // ---- receive: a frame to the engine that owns its type --------------------------------------
  logic          rx_busy_q;   // a frame of channel rx_ch_q is under way to rx_own_q (NE: dropped)
  logic [EW:0]   rx_own_q;
  logic          rx_ch_q;
  wire  [EW:0]   rx_type = (EW + 1)'(cni_amap_pkg::net_owner(s_axis_net_tdata_i[6*8 +: 8]));
  wire  [EW:0]   rx_head = (32'(rx_type) < NE && Present[rx_type[EW-1:0]]) ? rx_type : (EW + 1)'(NE);
  wire  [EW:0]   rx_to   = rx_busy_q ? rx_own_q : rx_head;
  wire           rx_drop = 32'(rx_to) >= NE;
  wire           rx_ch   = rx_busy_q ? rx_ch_q : s_axis_net_tdata_i[ChanBit];
  always_comb begin
    eb_nrx_valid_o = '0;
    if (!rx_drop) eb_nrx_valid_o[rx_to[EW-1:0]] = s_axis_net_tvalid_i;
  end
  assign s_axis_net_tready_o = rx_drop || eb_nrx_ready_i[2 * 32'(rx_to[EW-1:0]) + 32'(rx_ch)];
  assign nrx_chan_o = rx_ch;
  // room: every present owner of a type of the channel takes a frame of it
  always_comb begin
    rx_room_o = '1;
    for (int k = 0; k < NE; k++) begin
      if (Present[k] && cni_amap_pkg::ENG_NET_REQ[k] && !eb_nrx_ready_i[2 * k])
        rx_room_o[0] = 1'b0;
      if (Present[k] && cni_amap_pkg::ENG_NET_RSP[k] && !eb_nrx_ready_i[2 * k + 1])
        rx_room_o[1] = 1'b0;
    end
  end
  assign nrx_data_o = s_axis_net_tdata_i;
  assign nrx_keep_o = s_axis_net_tkeep_i;
  assign nrx_last_o = s_axis_net_tlast_i;
  assign nrx_user_o = s_axis_net_tuser_i;
  wire rx_fire = s_axis_net_tvalid_i && s_axis_net_tready_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_busy_q  <= 1'b0;
      rx_own_q   <= '0;
      rx_ch_q    <= 1'b0;
      cnt_drop_o <= 1'b0;
    end else begin
      cnt_drop_o <= rx_fire && s_axis_net_tlast_i && rx_drop;
      if (rx_fire) begin
        rx_busy_q <= !s_axis_net_tlast_i;
        rx_own_q  <= rx_to;
        rx_ch_q   <= rx_ch;
      end
    end
  end

  assign idle_o = !tx_busy_q && !rx_busy_q && !cnt_drop_o;

endmodule
