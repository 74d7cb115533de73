// SPDX-License-Identifier: Apache-2.0
// DRAM-backed device lines, the memory side (design (F), docs/dram.md): a direct-mapped cache of
// frames, each holding one DRAM line's data and directory word, and the fill unit that evicts a
// frame's line (written back when dirty) and fetches another into it through cni_mem_port. Every
// DRAM line has a slot of Stride bytes: its data, then its directory word in the next beat, so a
// write-back or a fetch is one burst and nothing is read-modified-written. A bit per DRAM line
// says whether its slot was ever written: a line never written is filled with zeros and DirInit
// without reading the DRAM, whose contents are garbage at power-up. One miss at a time.
//
// Parameters:
//   LineBytes  - bytes per line (64 or 128); DataBytes - bytes per AXI beat
//   DramIdxW   - DRAM line index bits (2**DramIdxW lines); FrameW - frame index bits (2**FrameW
//                frames, line d in frame d mod 2**FrameW)
//   DirW, DirInit - bits of a directory word; the word of a line never written
//   AddrW, Base   - AXI address bits; AXI address of line 0's slot (Stride-aligned)
//   MaxWr      - write-backs in flight at most
//   PoisonN    - lines whose DRAM read or write failed that are remembered one by one; after
//                more, every line counts as failed
// Ports:
//   look_line_i, look_present_o, look_err_o
//                - a line is present (its frame valid, holding it, and not busy); the frame's
//                  line failed in the DRAM (the home answers its requests Error)
//   miss_*       - fetch this line (absent) into its frame; taken in IDLE when its frame is not
//                  reserved; the caller holds it until taken
//   rsv_valid_o, rsv_line_o
//                - the line just filled keeps its frame until the home takes a message on it
//                  (take_i with take_line_i), or, filled for an engine, until an engine access to
//                  it is granted: a later miss of another line of that frame waits
//   quiet_req_o, quiet_frame_o, quiet_i
//                - the fill unit waits to evict this frame: the home says when none of its
//                  stages holds a line of it and no write to it is pending (it may still write
//                  the frame's line while quiet_req_o is high, never after quiet_i)
//   hd_*         - the home's access to a present line's data (synchronous read; a write marks
//                  the frame's data dirty)
//   hdir_*       - the home's read (registered) and write of a present line's directory word (a
//                  write marks it dirty)
//   eb_*         - an engine's access (port B of the line memory, through the engine bus), held
//                  until granted: granted when the line is present and the fill unit does not use
//                  its port of the data RAM; an absent line is fetched (when the home also asks,
//                  the two take turns); read data on eb_rdata_o the cycle after the grant; a
//                  write marks the frame's data dirty
//   m_axi_*      - the AXI4 master (cni_mem_port)
//   cnt_o        - one-cycle pulses: [0] a fill read from the DRAM, [1] a fill of a line never
//                  written (no read), [2] a write-back, [3] a read or write-back answered an
//                  AXI error, [4] a fill of a failed line (present with look_err_o)
//   err_o        - sticky: a write-back failed
//   init_done_o  - the written bits are cleared after reset; idle_o - no miss or access in flight
`default_nettype none
`include "cni_assert.svh"

module cni_mem_frames #(
  parameter int          LineBytes = 128,
  parameter int          DataBytes = 64,
  parameter int          DramIdxW  = 20,
  parameter int          FrameW    = 6,
  parameter int          DirW      = 24,
  parameter logic [DirW-1:0] DirInit = '0,
  parameter int          AddrW     = 34,
  parameter logic [63:0] Base      = '0,
  parameter int          MaxWr     = 4,
  parameter int          PoisonN   = 4,
  localparam int LineBits = LineBytes * 8,
  localparam int DW       = DataBytes * 8,
  localparam int Beats    = LineBytes / DataBytes,
  // a slot: the line's beats and the directory beat, rounded up to a power of two of beats
  localparam int SlotBeats = 1 << $clog2(Beats + 1),
  localparam int SlotBytes = SlotBeats * DataBytes
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic [DramIdxW-1:0] look_line_i,
  output logic                     look_present_o,
  output logic                     look_err_o,
  input  wire logic                miss_valid_i,
  output logic                     miss_ready_o,
  input  wire logic [DramIdxW-1:0] miss_line_i,
  output logic                     rsv_valid_o,
  output logic [DramIdxW-1:0]      rsv_line_o,
  input  wire logic                take_i,
  input  wire logic [DramIdxW-1:0] take_line_i,
  output logic                     quiet_req_o,
  output logic [FrameW-1:0]        quiet_frame_o,
  input  wire logic                quiet_i,
  input  wire logic                hd_en_i,
  input  wire logic                hd_we_i,
  input  wire logic [DramIdxW-1:0] hd_line_i,
  input  wire logic [LineBits-1:0] hd_wdata_i,
  output logic [LineBits-1:0]      hd_rdata_o,
  input  wire logic                hdir_re_i,
  input  wire logic [DramIdxW-1:0] hdir_rline_i,
  output logic [DirW-1:0]          hdir_rdata_o,
  input  wire logic                hdir_we_i,
  input  wire logic [DramIdxW-1:0] hdir_wline_i,
  input  wire logic [DirW-1:0]     hdir_wd_i,
  input  wire logic                eb_en_i,
  input  wire logic                eb_we_i,
  input  wire logic [DramIdxW-1:0] eb_line_i,
  input  wire logic [LineBits-1:0] eb_wdata_i,
  output logic                     eb_gnt_o,
  output logic [LineBits-1:0]      eb_rdata_o,
  // AXI4 master
  output logic                     m_axi_arvalid_o,
  input  wire logic                m_axi_arready_i,
  output logic [AddrW-1:0]         m_axi_araddr_o,
  output logic [7:0]               m_axi_arlen_o,
  output logic [2:0]               m_axi_arsize_o,
  output logic [1:0]               m_axi_arburst_o,
  input  wire logic                m_axi_rvalid_i,
  output logic                     m_axi_rready_o,
  input  wire logic [DW-1:0]       m_axi_rdata_i,
  input  wire logic [1:0]          m_axi_rresp_i,
  input  wire logic                m_axi_rlast_i,
  output logic                     m_axi_awvalid_o,
  input  wire logic                m_axi_awready_i,
  output logic [AddrW-1:0]         m_axi_awaddr_o,
  output logic [7:0]               m_axi_awlen_o,
  output logic [2:0]               m_axi_awsize_o,
  output logic [1:0]               m_axi_awburst_o,
  output logic                     m_axi_wvalid_o,
  input  wire logic                m_axi_wready_i,
  output logic [DW-1:0]            m_axi_wdata_o,
  output logic [DataBytes-1:0]     m_axi_wstrb_o,
  output logic                     m_axi_wlast_o,
  input  wire logic                m_axi_bvalid_i,
  output logic                     m_axi_bready_o,
  input  wire logic [1:0]          m_axi_bresp_i,
  output logic [4:0]               cnt_o,
  output logic                     err_o,
  output logic                     init_done_o,
  output logic                     idle_o
);

  localparam int Frames = 1 << FrameW;
  localparam int TagBits = DramIdxW - FrameW;
  // the written bits, 64 a RAM word
  localparam int WBitW  = (DramIdxW < 6) ? DramIdxW : 6;
  localparam int WWords = 1 << (DramIdxW - WBitW);
  localparam int WIdxW  = (DramIdxW > WBitW) ? DramIdxW - WBitW : 1;
  localparam int PoisW  = (PoisonN > 1) ? $clog2(PoisonN) : 1;

  if (LineBytes != 64 && LineBytes != 128) $error("LineBytes must be 64 or 128");
  if (LineBytes % DataBytes != 0 || Beats < 1) $error("LineBytes must be a multiple of DataBytes");
  if (DirW > DW) $error("a directory word must fit in one beat");
  if (FrameW < 1 || FrameW >= DramIdxW) $error("FrameW must be 1..DramIdxW-1");
  if (Base % 64'(SlotBytes) != 0) $error("Base must be aligned to a slot");
  if (PoisonN < 1) $error("PoisonN must be >= 1");

  // (each takes the bits of a line it names)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [FrameW-1:0] frame_of(input logic [DramIdxW-1:0] line);
    frame_of = line[FrameW-1:0];
  endfunction
  function automatic logic [TagBits-1:0] tag_of(input logic [DramIdxW-1:0] line);
    tag_of = line[DramIdxW-1:FrameW];
  endfunction
  function automatic logic [WIdxW-1:0] widx_of(input logic [DramIdxW-1:0] line);
    widx_of = (DramIdxW > WBitW) ? WIdxW'(line >> WBitW) : '0;
  endfunction
  function automatic logic [5:0] wbit_of(input logic [DramIdxW-1:0] line);
    wbit_of = 6'(line[WBitW-1:0]);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the frames: tag, valid, busy, dirty and failed bits; directory words; data RAM ----------
  logic [Frames-1:0]  valid_q, busy_q, ddirty_q, rdirty_q, ferr_q;
  logic [Frames-1:0]  fnew_q;  // filled as never written: the DRAM holds no line of it yet
  logic [TagBits-1:0] tag_q [Frames];
  logic [DirW-1:0]    fdir_q [Frames];

  function automatic logic present(input logic [DramIdxW-1:0] line);
    present = valid_q[frame_of(line)] && !busy_q[frame_of(line)]
              && tag_q[frame_of(line)] == tag_of(line);
  endfunction

  assign look_present_o = present(look_line_i);
  assign look_err_o     = ferr_q[frame_of(look_line_i)];

  // the fill unit's port of the data RAM: reads the victim, writes the fetched line; the engines'
  // accesses when the fill unit leaves it free
  logic                fb_en, fb_we, eb_port;
  logic [LineBits-1:0] fb_wd, fb_rd;
  logic [FrameW-1:0]   fb_addr;
  cni_dpram #(.Width (LineBits), .Words (Frames)) u_data (
    .clk_i,
    .a_en_i (hd_en_i), .a_we_i (hd_we_i), .a_addr_i (frame_of(hd_line_i)), .a_wd_i (hd_wdata_i),
    .a_rd_o (hd_rdata_o),
    .b_en_i (fb_en || eb_gnt_o), .b_we_i (eb_port ? eb_we_i : fb_we),
    .b_addr_i (eb_port ? frame_of(eb_line_i) : fb_addr), .b_wd_i (eb_port ? eb_wdata_i : fb_wd),
    .b_rd_o (fb_rd)
  );

  always_ff @(posedge clk_i) begin
    if (hdir_re_i) hdir_rdata_o <= fdir_q[frame_of(hdir_rline_i)];
  end

  // ---- the written bits, a RAM word a cycle (single port, registered read) --------------------
  logic [63:0]      wbits_q [WWords];
  logic [63:0]      wrd_q;
  logic             w_re, w_we;
  logic [WIdxW-1:0] w_addr;
  logic [63:0]      w_wd;
  always_ff @(posedge clk_i) begin
    if (w_we) wbits_q[w_addr] <= w_wd;
    else if (w_re) wrd_q <= wbits_q[w_addr];
  end

  // ---- lines that failed (a DRAM read or write answered an error) ------------------------------
  logic [PoisonN-1:0]  pois_v_q;
  logic [DramIdxW-1:0] pois_line_q [PoisonN];
  logic                pois_all_q;  // more failed than the list holds
  function automatic logic poisoned(input logic [DramIdxW-1:0] line);
    poisoned = pois_all_q;
    for (int i = 0; i < PoisonN; i++) if (pois_v_q[i] && pois_line_q[i] == line) poisoned = 1'b1;
  endfunction

  // ---- the device-memory port ----------------------------------------------------------------
  localparam int SBeatW = $clog2(SlotBeats);
  logic                 mp_req_valid, mp_req_ready, mp_req_we;
  logic [DramIdxW-1:0]  mp_req_line;
  logic [SBeatW-1:0]    mp_req_beat, mp_req_len;
  logic [SlotBytes*8-1:0] mp_wdata;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [SlotBytes*8-1:0] mp_rdata;  // (a fetch reads the line and the directory beat only)
  logic [3:0]           mp_cnt;      // (counted here per access, not per beat)
  /* verilator lint_on UNUSEDSIGNAL */
  logic                 mp_rd_valid, mp_rd_err, mp_wr_valid, mp_wr_err, mp_idle;
  logic [DramIdxW-1:0]  mp_rd_tag, mp_wr_tag;
  cni_mem_port #(
    .LineBytes (SlotBytes), .DataBytes (DataBytes), .AddrW (AddrW), .LineIdxW (DramIdxW),
    .Base (Base), .TagW (DramIdxW), .MaxRd (1), .MaxWr (MaxWr)
  ) u_port (
    .clk_i, .rst_ni,
    .req_valid_i (mp_req_valid), .req_ready_o (mp_req_ready), .req_we_i (mp_req_we),
    .req_line_i (mp_req_line), .req_beat_i (mp_req_beat), .req_len_i (mp_req_len),
    .req_tag_i (mp_req_line), .req_wdata_i (mp_wdata),
    .rd_valid_o (mp_rd_valid), .rd_ready_i (1'b1), .rd_tag_o (mp_rd_tag), .rd_data_o (mp_rdata),
    .rd_err_o (mp_rd_err),
    .wr_valid_o (mp_wr_valid), .wr_ready_i (1'b1), .wr_tag_o (mp_wr_tag), .wr_err_o (mp_wr_err),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o,
    .m_axi_arburst_o, .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i,
    .m_axi_rlast_i, .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awaddr_o, .m_axi_awlen_o,
    .m_axi_awsize_o, .m_axi_awburst_o, .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o,
    .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bresp_i,
    .cnt_o (mp_cnt), .idle_o (mp_idle)
  );
  // what a write-back writes: the line and the directory word in the beat after it, or (the
  // line clean, and in the DRAM already) the directory word's beat alone
  logic wb_data;  // the victim's line is dirty
  assign mp_wdata = wb_data ? (SlotBytes*8)'({(DW)'(fdir_q[fb_addr]), fb_rd})
                            : (SlotBytes*8)'(fdir_q[fb_addr]);

  // ---- the fill unit ----------------------------------------------------------------------------
  // INIT clears the written bits; IDLE takes a miss and marks its frame busy; QUIET waits for the
  // home to let go of the frame, reading its line and the victim's written bits as it leaves;
  // EVICT hands a dirty victim's slot to the port and marks it written; LOOK reads the missed
  // line's written bit; FETCH asks for its slot (or fills at once when it was never written or
  // has failed); WAIT fills the frame with the answer.
  typedef enum logic [2:0] {
    StInit, StIdle, StQuiet, StEvict, StLook, StFetch, StWait
  } state_e;
  state_e              state_q, state_d;
  logic [WIdxW-1:0]    init_q;
  logic [DramIdxW-1:0] line_q;      // the missed line
  logic [DramIdxW-1:0] vic_q;       // the frame's previous line
  logic                vic_v_q;     // ... was valid and had not failed
  logic                wb_data_q;   // ... its line is dirty (sampled when the home is quiet)
  logic                rsv_q;
  logic                rsv_eng_q;   // the reserved line was filled for an engine
  logic [DramIdxW-1:0] rsv_line_q;
  logic                miss_eng_q;  // the miss being served is an engine's
  logic                turn_q;      // the next miss: the engine's first when both ask
  wire  [FrameW-1:0]   f = frame_of(line_q);

  // the misses of the home and of the engine bus, taking turns when both ask; while a frame is
  // reserved for one of them the other's miss waits (the fill after it would end the
  // reservation before the access it was for is served)
  wire home_present = present(miss_line_i);
  wire eb_present   = present(eb_line_i);
  wire home_ok  = miss_valid_i && !home_present
                  && !(rsv_q && (rsv_eng_q || frame_of(rsv_line_q) == frame_of(miss_line_i)));
  wire eng_ok   = eb_en_i && !eb_present
                  && !(rsv_q && (!rsv_eng_q || frame_of(rsv_line_q) == frame_of(eb_line_i)));
  wire take_eng = eng_ok && (!home_ok || turn_q);
  wire miss_ok  = home_ok || eng_ok;
  wire [DramIdxW-1:0] m_line = take_eng ? eb_line_i : miss_line_i;
  // the line its frame holds, the victim (read at each requester's frame: the pinned Yosys
  // leaves a read whose address depends on another read of the tags undriven)
  logic [TagBits-1:0] m_vic_tag, home_tag, eb_tag;
  assign home_tag  = tag_q[frame_of(miss_line_i)];
  assign eb_tag    = tag_q[frame_of(eb_line_i)];
  assign m_vic_tag = take_eng ? eb_tag : home_tag;
  wire vic_dirty = vic_v_q && (ddirty_q[f] || rdirty_q[f]);
  wire written   = wrd_q[wbit_of(line_q)];
  wire fail_now  = poisoned(line_q);
  // the fill: at FETCH for a line never written or failed (zeros), at WAIT with the answer
  logic fill, fill_err;
  logic [LineBits-1:0] fill_data;
  logic [DirW-1:0]     fill_dir;
  // a line fails: a write-back's error answer, or a fill's of a line not failed before
  wire pois_wr   = mp_wr_valid && mp_wr_err;
  wire pois_fill = fill && fill_err && !fail_now;
  logic [PoisW-1:0] pois_free;  // the lowest free entry of the list
  always_comb begin
    pois_free = '0;
    for (int i = PoisonN - 1; i >= 0; i--) if (!pois_v_q[i]) pois_free = PoisW'(i);
  end

  always_comb begin
    state_d      = state_q;
    miss_ready_o = 1'b0;
    quiet_req_o  = 1'b0;
    fb_en        = 1'b0;
    fb_we        = 1'b0;
    fb_addr      = f;
    fb_wd        = '0;
    w_re         = 1'b0;
    w_we         = 1'b0;
    w_addr       = widx_of(line_q);
    w_wd         = '0;
    mp_req_valid = 1'b0;
    mp_req_we    = 1'b0;
    mp_req_line  = line_q;
    mp_req_beat  = '0;
    mp_req_len   = SBeatW'(Beats);  // a fetch: the line's beats and the directory beat
    fill         = 1'b0;
    fill_err     = 1'b0;
    fill_data    = '0;
    fill_dir     = DirInit;
    unique case (state_q)
      StInit: begin
        w_we   = 1'b1;
        w_addr = init_q;
        if (init_q == WIdxW'(WWords - 1)) state_d = StIdle;
      end
      StIdle: begin
        miss_ready_o = home_ok && !take_eng;
        if (miss_ok) state_d = StQuiet;
      end
      StQuiet: begin
        quiet_req_o = 1'b1;
        if (quiet_i) begin
          // read the victim's line and its written bits (used only when it is dirty)
          fb_en   = 1'b1;
          w_re    = 1'b1;
          w_addr  = widx_of(vic_q);
          state_d = vic_dirty ? StEvict : StLook;
        end
      end
      StEvict: begin
        mp_req_valid = 1'b1;
        mp_req_we    = 1'b1;
        mp_req_line  = vic_q;
        if (!wb_data) begin
          mp_req_beat = SBeatW'(Beats);
          mp_req_len  = '0;
        end
        if (mp_req_ready) begin
          w_we    = 1'b1;
          w_addr  = widx_of(vic_q);
          w_wd    = wrd_q | (64'(1) << wbit_of(vic_q));
          state_d = StLook;
        end
      end
      StLook: begin
        w_re    = 1'b1;
        state_d = StFetch;
      end
      StFetch: begin
        if (!written || fail_now) begin
          fill     = 1'b1;
          fill_err = fail_now;
          state_d  = StIdle;
        end else begin
          mp_req_valid = 1'b1;
          if (mp_req_ready) state_d = StWait;
        end
      end
      StWait: begin
        if (mp_rd_valid) begin
          fill      = 1'b1;
          fill_err  = mp_rd_err || poisoned(line_q);
          fill_data = mp_rdata[LineBits-1:0];
          fill_dir  = mp_rdata[LineBits +: DirW];
          state_d   = StIdle;
        end
      end
      default: state_d = StInit;
    endcase
    if (fill) begin
      fb_en = 1'b1;
      fb_we = 1'b1;
      fb_wd = fill_data;
    end
  end
  // an engine's access: the port is free outside QUIET (the victim's read), EVICT (its data held
  // on the port's output for the write-back) and a fill; the port's address and data follow the
  // engine whenever it may have the port (no tag compare on their path), its enable the grant
  assign eb_port  = eb_en_i && state_q != StQuiet && state_q != StEvict && !fill;
  assign eb_gnt_o = eb_port && eb_present;
  assign eb_rdata_o = fb_rd;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StInit;
      init_q     <= '0;
      valid_q    <= '0;
      busy_q     <= '0;
      ddirty_q   <= '0;
      rdirty_q   <= '0;
      ferr_q     <= '0;
      fnew_q     <= '0;
      rsv_q      <= 1'b0;
      turn_q     <= 1'b0;
      pois_v_q   <= '0;
      pois_all_q <= 1'b0;
      err_o      <= 1'b0;
    end else begin
      state_q <= state_d;
      if (state_q == StInit) init_q <= init_q + 1'b1;
      if (hd_en_i && hd_we_i) ddirty_q[frame_of(hd_line_i)] <= 1'b1;
      if (eb_gnt_o && eb_we_i) ddirty_q[frame_of(eb_line_i)] <= 1'b1;
      if (hdir_we_i) rdirty_q[frame_of(hdir_wline_i)] <= 1'b1;
      if (state_q == StIdle && miss_ok) begin
        busy_q[frame_of(m_line)] <= 1'b1;
        turn_q <= !take_eng;
      end
      if (fill) begin
        valid_q[f]  <= 1'b1;
        busy_q[f]   <= 1'b0;
        ddirty_q[f] <= 1'b0;
        rdirty_q[f] <= 1'b0;
        ferr_q[f]   <= fill_err;
        fnew_q[f]   <= state_q == StFetch;
        rsv_q       <= 1'b1;
      end else if (rsv_q && (rsv_eng_q ? eb_gnt_o && eb_line_i == rsv_line_q
                                        : take_i && take_line_i == rsv_line_q)) begin
        rsv_q <= 1'b0;
      end
      // a failed read or write-back: the line is remembered as failed (all of them, when the
      // list is full or two fail in one cycle)
      if (pois_wr && pois_fill) pois_all_q <= 1'b1;
      else if (pois_wr || pois_fill) begin
        if (&pois_v_q) pois_all_q <= 1'b1;
        else pois_v_q[pois_free] <= 1'b1;
      end
      if (pois_wr) err_o <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == StIdle && miss_ok) begin
      line_q     <= m_line;
      miss_eng_q <= take_eng;
      vic_q      <= {m_vic_tag, frame_of(m_line)};
      vic_v_q    <= valid_q[frame_of(m_line)] && !ferr_q[frame_of(m_line)];
    end
    if (fill) begin
      tag_q[f]   <= tag_of(line_q);
      fdir_q[f]  <= fill_dir;
      rsv_line_q <= line_q;
      rsv_eng_q  <= miss_eng_q;
    end
    if (hdir_we_i) fdir_q[frame_of(hdir_wline_i)] <= hdir_wd_i;
    if (state_q == StQuiet) wb_data_q <= ddirty_q[f] || fnew_q[f];
    if (pois_wr != pois_fill && !(&pois_v_q)) pois_line_q[pois_free] <= pois_wr ? mp_wr_tag : line_q;
  end

  assign wb_data       = wb_data_q;
  assign rsv_valid_o   = rsv_q && !rsv_eng_q;  // (the home's take serves its reserved line first)
  assign rsv_line_o    = rsv_line_q;
  assign quiet_frame_o = f;
  assign cnt_o = {fill && fill_err, pois_wr || (state_q == StWait && mp_rd_valid && mp_rd_err),
                  mp_wr_valid, fill && state_q == StFetch && !fail_now,
                  fill && state_q == StWait};
  assign init_done_o = state_q != StInit;
  assign idle_o      = state_q == StIdle && mp_idle;

  // The home touches a frame only while it holds the line it names, and the fill unit's own
  // accesses to it start only after the home let go (QUIET).
  wire hd_busy_ok = !busy_q[frame_of(hd_line_i)]
                    || (state_q == StQuiet && frame_of(hd_line_i) == f);
  `CNI_ASSERT(hd_line_held, !hd_en_i || (valid_q[frame_of(hd_line_i)]
              && tag_q[frame_of(hd_line_i)] == tag_of(hd_line_i) && hd_busy_ok),
              "the home accessed the data of a line not in its frame")
  `CNI_ASSERT(hdir_line_held, !hdir_we_i || (valid_q[frame_of(hdir_wline_i)]
              && tag_q[frame_of(hdir_wline_i)] == tag_of(hdir_wline_i)
              && (!busy_q[frame_of(hdir_wline_i)]
                  || (state_q == StQuiet && frame_of(hdir_wline_i) == f))),
              "the home wrote the directory word of a line not in its frame")
  `CNI_ASSERT(rd_is_fetch, !mp_rd_valid || (state_q == StWait && mp_rd_tag == line_q),
              "a read answer the fill unit did not wait for")

endmodule

`default_nettype wire
