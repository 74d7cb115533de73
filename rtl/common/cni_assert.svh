// SPDX-License-Identifier: Apache-2.0
// The project's assertions, one macro set for every tool (in the manner of OpenTitan's
// prim_assert): a property is written once and serves simulation and the formal models.
//
//   `CNI_ASSERT(Name, Prop, Msg)      Prop holds at every clock edge out of reset. Simulation
//                                     (Verilator): an $error naming the instance, the check and
//                                     Msg. Formal (FORMAL): an immediate assertion the checks
//                                     prove. Synthesis: nothing.
//   `CNI_ASSERT_SIM(Name, Prop, Msg)  the same in simulation only: a check the formal models do not
//                                     carry (too wide to prove, or about what they abstract away)
//   `CNI_ASSERT_KNOWN(Name, Sig)      Sig holds no X or Z out of reset (simulation)
//   `CNI_ASSERT_INIT(Name, Cond, Msg) an elaboration-time check of parameters
//   `CNI_ASSERT_HOLD(Name, Valid, Ready, Data)
//                                     what a valid/ready output offers (Data, an expression)
//                                     holds until it is taken (simulation): an instance Name of
//                                     cni_assert_hold
//
// Clocked checks use the enclosing module's clk_i and its asynchronous active-low rst_ni (the
// same sensitivity as its flops, so Verilator sees one kind of reset). Msg is a string literal.
`ifndef CNI_ASSERT_SVH
`define CNI_ASSERT_SVH

`ifdef SYNTHESIS
  `define CNI_ASSERT(Name, Prop, Msg)
  `define CNI_ASSERT_SIM(Name, Prop, Msg)
  `define CNI_ASSERT_KNOWN(Name, Sig)
  `define CNI_ASSERT_HOLD(Name, Valid, Ready, Data)
`elsif FORMAL
  `define CNI_ASSERT(Name, Prop, Msg) always_comb Name: assert (Prop);
  `define CNI_ASSERT_SIM(Name, Prop, Msg)
  `define CNI_ASSERT_KNOWN(Name, Sig)
  `define CNI_ASSERT_HOLD(Name, Valid, Ready, Data)
`else
  `define CNI_ASSERT(Name, Prop, Msg) \
    always_ff @(posedge clk_i or negedge rst_ni) if (!rst_ni) begin end else Name: assert (Prop) else $error("%m: %s: %s", `"Name`", Msg);
  `define CNI_ASSERT_SIM(Name, Prop, Msg) `CNI_ASSERT(Name, Prop, Msg)
  `define CNI_ASSERT_KNOWN(Name, Sig) \
    always_ff @(posedge clk_i or negedge rst_ni) if (!rst_ni) begin end else Name: assert (!$isunknown(Sig)) else $error("%m: %s: %s has X or Z", `"Name`", `"Sig`");
  `define CNI_ASSERT_HOLD(Name, Valid, Ready, Data) \
    cni_assert_hold #(.Width($bits(Data))) Name (.clk_i, .rst_ni, .valid_i(Valid), .ready_i(Ready), .data_i(Data));
`endif

`define CNI_ASSERT_INIT(Name, Cond, Msg) if (!(Cond)) begin : Name $error(Msg); end

`endif
