// utf16_encoder_properties: the formal properties of the UTF-16 encoder, for
// its exported Verilog: the module UTF8_DUT (utf16_encoder), whose latency
// is F_LATENCY; `utf8hdl formal --core utf16-encoder` defines both from the
// core's Rust description (sim/src/cores/utf16_encoder.rs).
//
// Every property but one reads the core's ports only, never its internal
// signals. That one is an invariant of the classifying stage:
//
//   COPIES `COPIES each byte register of the word has its own copy of the
//                 stage's valid (its enable reaches fewer flops); every
//                 copy equals valid; the stage's enable, a flop figured a
//                 cycle ahead, equals !valid | pending's take (bound by
//                 their exported names; fbytewise_stage.vh, shared with
//                 the UTF-8 encoder).
//
//   P1, P2        the AXI4-Stream rules, shared with every core
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them.
//   P3  `P3       one code unit per clock: when words have been offered and
//                 m_axis_tready high for the last F_LATENCY cycles,
//                 m_axis_tvalid is high.
//   P4  `P4       well-formed UTF-16: a high surrogate is always followed
//                 by a low one, in the same message, and a low one always
//                 follows a high one; a flagged unit is FFFD.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, and catch up once the input has been
//                 quiet for F_DRAIN cycles (faxis_core_harness.vh).
//   P7  `P7       covers: a flagged unit, a TLAST, a pair's low half.
`default_nettype none

module utf16_encoder_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, m_axis_tready);
    // Words in; code units out, flagged when they are U+FFFD's.
    input wire [31:0] s_axis_tdata;
    wire [15:0] m_axis_tdata;
    wire m_axis_tuser;
    // What it holds past its latency: two units for the word being sent,
    // two for the one waiting behind it, two for the one in the
    // classifying stage, and the unit in the output register's spare.
    localparam F_DRAIN_PAST_LATENCY = 2 + 2 + 2 + 1;
    // Words inside (in the skid buffer, in the classifying stage, being
    // sent, in the output register and its spare), and so messages, at
    // most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 6;
`include "fbytewise_stage.vh"
    wire f_take;
`define F_DUT_INTERNALS `F_BYTEWISE_STAGE_INTERNALS \
        , .pending$take(f_take)
`include "faxis_core_harness.vh"

`ifdef FORMAL
`ifdef COPIES
    // From the first cycle's reset on (the flop starts at 0).
    always @(*) if (f_past_valid) moves_ahead: assert (f_stage_moves == (!f_stage_valid || f_take));
`endif

    // ---- P3: one code unit per clock ----
`ifdef P3
    always @(*) if (f_full_rate && f_offered) p3_one_unit_per_clock: assert (m_axis_tvalid);
`endif

    // ---- P4: well-formed UTF-16 ----
`ifdef P4
    wire f_high = m_axis_tdata[15:10] == 6'b110110;
    wire f_low = m_axis_tdata[15:10] == 6'b110111;
    // The last unit sent was a high surrogate.
    reg f_after_high = 1'b0;
    always @(posedge clk)
        if (rst) f_after_high <= 1'b0;
        else if (m_handshake) f_after_high <= f_high;
    always @(*)
        if (m_axis_tvalid) begin
            p4_low_after_high: assert (f_low == f_after_high);
            p4_no_tlast_on_high: assert (!(f_high && m_axis_tlast));
            if (m_axis_tuser) p4_flag_only_on_replacement: assert (m_axis_tdata == 16'hFFFD);
        end
`endif

    // ---- P7: covers ----
`ifdef P7
    always @(*) begin
        p7_flagged_unit: cover (m_handshake && m_axis_tuser);
        p7_tlast: cover (m_handshake && m_axis_tlast);
        p7_low_surrogate: cover (m_handshake && m_axis_tdata[15:10] == 6'b110111);
    end
`endif
`endif
endmodule
