// utf16_decoder_properties: the formal properties of the UTF-16 decoder, for
// its exported Verilog: the module UTF8_DUT (utf16_decoder), whose latency
// is F_LATENCY; `utf8hdl formal --core utf16-decoder` defines both from the
// core's Rust description (sim/src/cores/utf16_decoder.rs).
//
// Every property reads the core's ports only, never its internal signals.
//
//   P1, P2        the AXI4-Stream rules, shared with every core
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them.
//   P3  `P3       one code unit per clock: when m_axis_tready has been high
//                 for the last F_LATENCY cycles, s_axis_tready is high.
//   P4  `P4       no unflagged error: a word with TUSER[0] = 0 is neither a
//                 surrogate nor above 10FFFF and has TUSER[3:1] = 0; a word
//                 with TUSER[0] = 1 is U+FFFD with kind 5 (surrogate).
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, and catch up once the input has been
//                 quiet for F_DRAIN cycles (faxis_core_harness.vh).
//   P7  `P7       covers: a pair decoded, an unpaired surrogate, a TLAST.
`default_nettype none

module utf16_decoder_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, m_axis_tready);
    // Code units in; words out, with an error flag and kind.
    input wire [15:0] s_axis_tdata;
    wire [31:0] m_axis_tdata;
    wire [3:0] m_axis_tuser;
    // What it holds past its latency: the unit in the skid buffer, the one
    // in the classifying stage, the one held, and the word in the output
    // register's spare.
    localparam F_DRAIN_PAST_LATENCY = 4;
    // Units inside (the skid buffer, the classifying stage, held, the
    // output register and its spare), and so messages, at most; one more
    // for margin.
    localparam F_MAX_IN_FLIGHT = 6;
`include "faxis_core_harness.vh"

`ifdef FORMAL
    // ---- P3: one code unit per clock ----
`ifdef P3
    always @(*) if (f_full_rate) p3_one_unit_per_clock: assert (s_axis_tready);
`endif

    // ---- P4: no unflagged error ----
`ifdef P4
    always @(*)
        if (m_axis_tvalid) begin
            if (m_axis_tuser[0]) begin
                p4_error_is_replacement: assert (m_axis_tdata == 32'hFFFD);
                p4_error_is_surrogate_kind: assert (m_axis_tuser == 4'b1011);
            end else begin
                p4_no_surrogate: assert (m_axis_tdata[31:11] != 21'h1B);
                p4_in_range: assert (m_axis_tdata <= 32'h10FFFF);
                p4_no_kind_without_error: assert (m_axis_tuser == 4'b0000);
            end
        end
`endif

    // ---- P7: covers ----
`ifdef P7
    always @(*) begin
        p7_pair: cover (m_handshake && m_axis_tdata[31:16] != 0);
        p7_unpaired_surrogate: cover (m_handshake && m_axis_tuser[0]);
        p7_tlast: cover (m_handshake && m_axis_tlast);
    end
`endif
`endif
endmodule
