// char_properties_properties: the formal properties of the character-
// properties core, for its exported Verilog: the module UTF8_DUT
// (char_properties), whose latency is F_LATENCY; `utf8hdl formal --core
// properties` defines both from the core's Rust description
// (sim/src/cores/char_properties.rs).
//
// Every property reads the core's ports only, never its internal signals.
//
//   P1, P2        the AXI4-Stream rules, shared with every core
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them.
//   P3  `P3       one word per clock: when m_axis_tready has been high for
//                 the last F_LATENCY cycles, s_axis_tready is high.
//   P4  `P4       every word leaves unchanged, in order (the k-th word out
//                 is the k-th word in, for a free k), with the flags that
//                 f_flags computes from the Unicode ranges as magnitudes.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, and catch up once the input has been
//                 quiet for F_DRAIN cycles (faxis_core_harness.vh).
//   P7  `P7       covers: each flag, and a TLAST.
`default_nettype none

module char_properties_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, m_axis_tready);
    // Words in; the same words out, with their flags.
    input wire [31:0] s_axis_tdata;
    wire [31:0] m_axis_tdata;
    wire [3:0] m_axis_tuser;
    // What it holds past its latency: the word in the skid buffer, the one
    // between its two stages, the one in the output register and the one in
    // its spare.
    localparam F_DRAIN_PAST_LATENCY = 4;
    // Words inside, and so messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 5;
`include "faxis_core_harness.vh"

    // The flags of v, from the Unicode Standard's ranges, written as
    // magnitudes (the core uses bit masks).
    function [3:0] f_flags(input [31:0] v);
        reg control, private_use, noncharacter, non_bmp;
        begin
            control = v <= 32'h1F || v == 32'h7F || (v >= 32'h80 && v <= 32'h9F);
            private_use = (v >= 32'hE000 && v <= 32'hF8FF)
                || (v >= 32'hF0000 && v <= 32'hFFFFD)
                || (v >= 32'h100000 && v <= 32'h10FFFD);
            noncharacter = (v >= 32'hFDD0 && v <= 32'hFDEF)
                || (v <= 32'h10FFFF && v[15:0] >= 16'hFFFE);
            non_bmp = v > 32'hFFFF;
            f_flags = {non_bmp, noncharacter, private_use, control};
        end
    endfunction

`ifdef FORMAL
    // ---- P3: one word per clock ----
`ifdef P3
    always @(*) if (f_full_rate) p3_one_word_per_clock: assert (s_axis_tready);
`endif

    // ---- P4: the word unchanged, in order, with its flags ----
`ifdef P4
    // Words in and out, counted modulo 8: at most F_MAX_IN_FLIGHT are
    // inside, so the count names a word without doubt.
    (* anyconst *) reg [2:0] f_k;
    reg [2:0] f_in_count = 0;
    reg [2:0] f_out_count = 0;
    reg f_seen = 1'b0;
    reg [31:0] f_word = 0;
    always @(posedge clk)
        if (rst) begin
            f_in_count <= 0;
            f_out_count <= 0;
            f_seen <= 1'b0;
        end else begin
            if (s_handshake) begin
                f_in_count <= f_in_count + 1;
                if (f_in_count == f_k) begin
                    f_seen <= 1'b1;
                    f_word <= s_axis_tdata;
                end
            end
            if (m_handshake) begin
                f_out_count <= f_out_count + 1;
                if (f_out_count == f_k) f_seen <= 1'b0;
            end
        end
    wire [2:0] f_in_flight = f_in_count - f_out_count;
    always @(*) begin
        p4_in_flight_bounded: assert (f_in_flight <= F_MAX_IN_FLIGHT);
        if (m_axis_tvalid) begin
            p4_flags: assert (m_axis_tuser == f_flags(m_axis_tdata));
            if (f_out_count == f_k) begin
                p4_kth_word_is_there: assert (f_seen);
                p4_kth_word_unchanged: assert (m_axis_tdata == f_word);
            end
        end
    end
`endif

    // ---- P7: covers ----
`ifdef P7
    always @(*) begin
        p7_control: cover (m_handshake && m_axis_tuser[0]);
        p7_private_use: cover (m_handshake && m_axis_tuser[1]);
        p7_noncharacter: cover (m_handshake && m_axis_tuser[2]);
        p7_non_bmp: cover (m_handshake && m_axis_tuser[3]);
        p7_tlast: cover (m_handshake && m_axis_tlast);
    end
`endif
`endif
endmodule
