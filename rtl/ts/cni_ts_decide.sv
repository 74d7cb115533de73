// SPDX-License-Identifier: Apache-2.0
// The tag store's decision of a handler command (docs/tagstore.md, "Handler operations"): from
// the command and its block's tag word, whether it is refused (and why), or the steps of its job,
// the tag word to write, the POLICY and the answer. Purely combinational; the engine
// (cni_ts_engine) registers what it returns in its SCRd state.
//
// Ports: op_i, tag_i, flag_i, line_i - the command's op, tag, flag and line flag; tw_i - the
// block's tag word {write, pending, tag}; cause_o - the refusal (0: none); steps_o, tw_o, pol_o,
// ans_op_o, ans_arg_o - the job.
`default_nettype none

module cni_ts_decide (
  input  wire logic [3:0]                   op_i,
  input  wire logic [1:0]                   tag_i,
  input  wire logic                         flag_i,
  input  wire logic                         line_i,
  input  wire logic [3:0]                   tw_i,
  output logic [3:0]                        cause_o,
  output cni_ts_pkg::steps_t                            steps_o,
  output logic [3:0]                        tw_o,
  output logic [cni_coh_pkg::POL_W-1:0]     pol_o,
  output logic [cni_coh_pkg::CMD_W-1:0]     ans_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]     ans_arg_o
);

  wire [1:0] tw_tag  = tw_i[1:0];
  wire       tw_pend = tw_i[2];
  wire       tw_wr   = tw_i[3];

  // refused: nothing suspended to answer; an answer the tag does not allow; a fill of a block
  // that is not Invalid
  always_comb begin
    cause_o = '0;
    unique case (op_i)
      cni_ts_pkg::OP_SET_TAG: if (flag_i && !tw_pend) cause_o = cni_ts_pkg::CA_NOTHING;
                  else if (flag_i && !cni_ts_pkg::permits(tag_i, tw_wr))
                    cause_o = cni_ts_pkg::CA_BAD_RESUME;
      cni_ts_pkg::OP_RESUME:  if (!tw_pend) cause_o = cni_ts_pkg::CA_NOTHING;
                  else if (!cni_ts_pkg::permits(tw_tag, tw_wr)) cause_o = cni_ts_pkg::CA_BAD_RESUME;
      cni_ts_pkg::OP_NACK:    if (!tw_pend) cause_o = cni_ts_pkg::CA_NOTHING;
      cni_ts_pkg::OP_FILL:    if (!tw_pend) cause_o = cni_ts_pkg::CA_NOTHING;
                  else if (tw_tag != cni_ts_pkg::TAG_I) cause_o = cni_ts_pkg::CA_BAD_FILL;
                  else if (!cni_ts_pkg::permits(tag_i, tw_wr)) cause_o = cni_ts_pkg::CA_BAD_RESUME;
      default: ;
    endcase
  end

  always_comb begin
    steps_o   = '0;
    // the line flag (WRITE, FILL and READ only: checked as the command is queued): WRITE and
    // FILL take the data from the buffer line, READ hands it over there
    steps_o.ld = line_i && op_i != cni_ts_pkg::OP_READ;
    tw_o      = {2'b00, tag_i};
    pol_o     = cni_ts_pkg::pol_of(tag_i);
    ans_op_o  = op_i == cni_ts_pkg::OP_NACK ? cni_coh_pkg::CMD_NACK : cni_coh_pkg::CMD_RESUME;
    ans_arg_o = op_i == cni_ts_pkg::OP_NACK ?
                    (flag_i ? cni_coh_pkg::NACK_ERROR : cni_coh_pkg::NACK_RETRY) :
                op_i == cni_ts_pkg::OP_RESUME ? cni_ts_pkg::gnt_of(tw_tag) :
                                                cni_ts_pkg::gnt_of(tag_i);
    unique case (op_i)
      cni_ts_pkg::OP_READ: begin
        steps_o.rec    = 1'b1;
        steps_o.rec_dn = !flag_i;
        steps_o.rd     = 1'b1;
        steps_o.wbl    = line_i;
      end
      cni_ts_pkg::OP_WRITE: begin
        // a block tagged Invalid has no host copy: written at once; else the locked write
        steps_o.wdir  = tw_tag == cni_ts_pkg::TAG_I;
        steps_o.rec   = tw_tag != cni_ts_pkg::TAG_I;
        steps_o.lockw = tw_tag != cni_ts_pkg::TAG_I;
      end
      cni_ts_pkg::OP_SET_TAG: begin
        // without the resume flag a fault the new tag still does not allow stays pending: its
        // request stays suspended for a later FILL or RESUME, and the block's new faults are
        // duplicates (a DSM invalidating a block whose own request is out)
        if (!flag_i && tw_pend && !cni_ts_pkg::permits(tag_i, tw_wr))
          tw_o = {tw_wr, tw_pend, tag_i};
        steps_o.tag    = 1'b1;
        steps_o.pol    = 1'b1;
        // a decrease recalls what the new tag does not allow
        steps_o.rec    = tag_i < tw_tag;
        steps_o.rec_dn = tag_i == cni_ts_pkg::TAG_RO;
        // a tag change that ends a pending fault answers it (the new tag allows the access)
        steps_o.ans    = flag_i || (tw_pend && cni_ts_pkg::permits(tag_i, tw_wr));
      end
      cni_ts_pkg::OP_RESUME, cni_ts_pkg::OP_NACK: begin
        tw_o        = {2'b00, tw_tag};   // pending cleared
        steps_o.tag = 1'b1;
        steps_o.ans = 1'b1;
      end
      cni_ts_pkg::OP_SEND: steps_o.snd = 1'b1;
      cni_ts_pkg::OP_FILL: begin
        steps_o.wdir = 1'b1;
        steps_o.tag  = 1'b1;
        steps_o.pol  = 1'b1;
        steps_o.ans  = 1'b1;
      end
      default: ;
    endcase
  end

endmodule
