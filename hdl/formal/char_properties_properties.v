// char_properties_properties: the formal properties of the character-
// properties core, for its exported Verilog: the module UTF8_DUT
// (char_properties), whose latency is F_LATENCY; char_properties.sby
// defines both from the core's Rust description (sim/src/properties.rs).
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
//                 TLAST handshakes (faxis_stream_properties.vh), and catch
//                 up once the input has been quiet for F_DRAIN cycles.
//   P7  `P7       covers: each flag, and a TLAST.
`default_nettype none

module char_properties_properties (
    input wire clk,
    input wire rst,
    input wire [31:0] s_axis_tdata,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire m_axis_tready
);
    // The latency of the datasheet (hdl/src/char_properties.rs).
    localparam F_LATENCY = `F_LATENCY;
    // Quiet cycles after which every accepted word is out: the one in the
    // skid buffer, the output register, and the cycle the handshake counts.
    localparam F_DRAIN = F_LATENCY + 2 + 1;
    // Words inside, and so messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 3;

    wire s_axis_tready;
    wire [31:0] m_axis_tdata;
    wire [3:0] m_axis_tuser;
    wire m_axis_tvalid;
    wire m_axis_tlast;

    `UTF8_DUT dut (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast)
    );

    // What a stalled beat holds.
    localparam F_S_PAYLOAD_BITS = 32;
    localparam F_M_PAYLOAD_BITS = 32 + 4;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = s_axis_tdata;
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tuser, m_axis_tdata};

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
    // P1, P2 and P5's TLAST count.
`include "faxis_stream_properties.vh"

    // ---- P3: one word per clock ----
`ifdef P3
    reg [F_LATENCY-1:0] f_ready_history = 0;
    always @(posedge clk) f_ready_history <= {f_ready_history, m_axis_tready};
    always @(*) if (&f_ready_history) p3_one_word_per_clock: assert (s_axis_tready);
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

    // ---- P5: framing (and faxis_stream_properties.vh) ----
`ifdef P5
    reg [F_DRAIN-1:0] f_quiet_history = 0;
    always @(posedge clk)
        f_quiet_history <= {f_quiet_history[F_DRAIN-2:0], !rst && !s_handshake && m_axis_tready};
    always @(*) if (&f_quiet_history) p5_tlast_catches_up: assert (f_messages_in_flight == 0);
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
