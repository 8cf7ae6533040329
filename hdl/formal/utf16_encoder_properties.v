// utf16_encoder_properties: the formal properties of the UTF-16 encoder, for
// its exported Verilog: the module UTF8_DUT (utf16_encoder), whose latency
// is F_LATENCY; utf16_encoder.sby defines both from the core's Rust
// description (sim/src/utf16.rs).
//
// Every property reads the core's ports only, never its internal signals.
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
//                 TLAST handshakes (faxis_stream_properties.vh), and catch
//                 up once the input has been quiet for F_DRAIN cycles.
//   P7  `P7       covers: a flagged unit, a TLAST, a pair's low half.
`default_nettype none

module utf16_encoder_properties (
    input wire clk,
    input wire rst,
    input wire [31:0] s_axis_tdata,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire m_axis_tready
);
    // The latency of the datasheet (hdl/src/utf16_encoder.rs).
    localparam F_LATENCY = `F_LATENCY;
    // Quiet cycles after which every accepted word's units are out: the
    // latency, two units for the word being sent and two for the one
    // waiting behind it, and the cycle in which the last handshake counts.
    localparam F_DRAIN = F_LATENCY + 2 + 2 + 1;
    // Words inside (waiting, being sent, in the output register), and so
    // messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 4;

    wire s_axis_tready;
    wire [15:0] m_axis_tdata;
    wire m_axis_tuser;
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
    localparam F_M_PAYLOAD_BITS = 16 + 1;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = s_axis_tdata;
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
    // P1, P2 and P5's TLAST count.
`include "faxis_stream_properties.vh"

    // ---- P3: one code unit per clock ----
`ifdef P3
    reg [F_LATENCY-1:0] f_ready_history = 0;
    reg [F_LATENCY-1:0] f_offer_history = 0;
    always @(posedge clk) begin
        f_ready_history <= {f_ready_history[F_LATENCY-2:0], !rst && m_axis_tready};
        f_offer_history <= {f_offer_history[F_LATENCY-2:0], !rst && s_axis_tvalid};
    end
    always @(*)
        if (&f_ready_history && &f_offer_history) p3_one_unit_per_clock: assert (m_axis_tvalid);
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
        p7_flagged_unit: cover (m_handshake && m_axis_tuser);
        p7_tlast: cover (m_handshake && m_axis_tlast);
        p7_low_surrogate: cover (m_handshake && m_axis_tdata[15:10] == 6'b110111);
    end
`endif
`endif
endmodule
