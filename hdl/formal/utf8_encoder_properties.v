// utf8_encoder_properties: the formal properties of the UTF-8 encoder, for
// its exported Verilog: the module UTF8_DUT (utf8_encoder, or
// utf8_encoder_iso10646 with UTF8_ISO10646 defined), whose latency is
// F_LATENCY; `utf8hdl formal --core encoder` defines both from the core's
// Rust description (sim/src/cores/utf8_encoder.rs).
//
// Every property but one reads the core's ports only, never its internal
// signals. That one is an invariant of its two stages:
//
//   COPIES `COPIES each byte register of the classifying stage's word, and
//                 of the octet stage's octets, has its own copy of its
//                 stage's valid (its enable reaches fewer flops); every
//                 copy equals its valid (fbytewise_stage.vh, shared with
//                 the UTF-16 encoder, for the classifying stage). Each
//                 stage's enable is a flop figured a cycle ahead; each
//                 equals what it stands for: the octet stage's
//                 octets_move = !octets_valid | pending's take, the
//                 classifying stage's moves = !valid | octets_move. All
//                 bound by their exported names.
//
//   P1, P2        the AXI4-Stream rules, shared with every core
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them.
//   P3  `P3       one octet per clock: when words have been offered and
//                 m_axis_tready high for the last F_LATENCY cycles,
//                 m_axis_tvalid is high.
//   P4  `P4       every octet is one UTF-8 can carry (never C0, C1, FE, FF;
//                 never F5 to FD in rfc3629), and a flagged octet is one
//                 of U+FFFD's, EF BF BD.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, and catch up once the input has been
//                 quiet for F_DRAIN cycles (faxis_core_harness.vh).
//   P7  `P7       covers: a flagged octet, a TLAST, a four-octet lead.
`default_nettype none

module utf8_encoder_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, m_axis_tready);
    // Words in; octets out, flagged when they are U+FFFD's.
    input wire [31:0] s_axis_tdata;
    wire [7:0] m_axis_tdata;
    wire m_axis_tuser;
    // What it holds past its latency (a word accepted in cycle t shows its
    // first octet in cycle t + F_LATENCY): six octets for the word being
    // sent, six for the one waiting behind it, six for the one in the
    // octet stage, six for the one in the classifying stage, and the octet
    // in the output register's spare.
    localparam F_DRAIN_PAST_LATENCY = 6 + 6 + 6 + 6 + 1;
    // Words inside (in the skid buffer, in the classifying stage, in the
    // octet stage, being sent, in the output register and its spare), and
    // so messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 7;
`include "fbytewise_stage.vh"
    // The octet stage's valid and its six byte registers' copies of it;
    // the two enables figured a cycle ahead, and pending's take.
    wire f_octets_valid, f_octets_move, f_take;
    wire [5:0] f_octet_valid;
`define F_DUT_INTERNALS `F_BYTEWISE_STAGE_INTERNALS \
        , .octets_valid$q(f_octets_valid) \
        , .octets$valid$0$q(f_octet_valid[0]) \
        , .octets$valid$1$q(f_octet_valid[1]) \
        , .octets$valid$2$q(f_octet_valid[2]) \
        , .octets$valid$3$q(f_octet_valid[3]) \
        , .octets$valid$4$q(f_octet_valid[4]) \
        , .octets$valid$5$q(f_octet_valid[5]) \
        , .octets_move$q(f_octets_move) \
        , .pending$take(f_take)
`include "faxis_core_harness.vh"

`ifdef FORMAL
`ifdef COPIES
    // From the first cycle's reset on (the flops start at 0).
    always @(*) if (f_past_valid) begin
        octet_copies_equal_valid: assert (f_octet_valid == {6{f_octets_valid}});
        octets_move_ahead: assert (f_octets_move == (!f_octets_valid || f_take));
        moves_ahead: assert (f_stage_moves == (!f_stage_valid || f_octets_move));
    end
`endif

    // ---- P3: one octet per clock ----
`ifdef P3
    always @(*) if (f_full_rate && f_offered) p3_one_octet_per_clock: assert (m_axis_tvalid);
`endif

    // ---- P4: only octets UTF-8 can carry; flags only on U+FFFD's ----
`ifdef P4
    wire f_never_in_utf8 = m_axis_tdata == 8'hC0 || m_axis_tdata == 8'hC1
        || m_axis_tdata >= 8'hFE || (!ISO10646 && m_axis_tdata >= 8'hF5);
    always @(*)
        if (m_axis_tvalid) begin
            p4_octet_is_utf8: assert (!f_never_in_utf8);
            if (m_axis_tuser)
                p4_flag_only_on_replacement: assert (m_axis_tdata == 8'hEF
                    || m_axis_tdata == 8'hBF || m_axis_tdata == 8'hBD);
        end
`endif

    // ---- P7: covers ----
`ifdef P7
    always @(*) begin
        p7_flagged_octet: cover (m_handshake && m_axis_tuser);
        p7_tlast: cover (m_handshake && m_axis_tlast);
        p7_four_octet_lead: cover (m_handshake && m_axis_tdata == 8'hF0);
    end
`endif
`endif
endmodule
