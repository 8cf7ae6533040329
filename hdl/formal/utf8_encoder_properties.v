// utf8_encoder_properties: the formal properties of the UTF-8 encoder, for
// its exported Verilog: the module UTF8_DUT (utf8_encoder, or
// utf8_encoder_iso10646 with UTF8_ISO10646 defined), whose latency is
// F_LATENCY; utf8_encoder.sby defines both from the core's Rust description
// (sim/src/encoder.rs).
//
// Every property reads the core's ports only, never its internal signals.
//
//   P1, P2        the AXI4-Stream rules, shared with every decoder
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them.
//   P3  `P3       one octet per clock: when words have been offered and
//                 m_axis_tready high for the last F_LATENCY cycles,
//                 m_axis_tvalid is high.
//   P4  `P4       every octet is one UTF-8 can carry (never C0, C1, FE, FF;
//                 never F5 to FD in rfc3629), and a flagged octet is one
//                 of U+FFFD's, EF BF BD.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes (faxis_stream_properties.vh), and catch
//                 up once the input has been quiet for F_DRAIN cycles.
//   P7  `P7       covers: a flagged octet, a TLAST, a four-octet lead.
`default_nettype none

module utf8_encoder_properties (
    input wire clk,
    input wire rst,
    input wire [31:0] s_axis_tdata,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire m_axis_tready
);
`ifdef UTF8_ISO10646
    localparam ISO10646 = 1;
`else
    localparam ISO10646 = 0;
`endif
    // The latency of the datasheet (hdl/src/utf8_encoder.rs): a word
    // accepted in cycle t shows its first octet in cycle t + F_LATENCY.
    localparam F_LATENCY = `F_LATENCY;
    // Quiet cycles after which every accepted word's octets are out: the
    // latency, six octets for the word being sent and six for the one
    // waiting behind it, and the cycle in which the last handshake counts.
    localparam F_DRAIN = F_LATENCY + 6 + 6 + 1;
    // Words inside (waiting, being sent, in the output register), and so
    // messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 4;

    wire s_axis_tready;
    wire [7:0] m_axis_tdata;
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
    localparam F_M_PAYLOAD_BITS = 8 + 1;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = s_axis_tdata;
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
    // P1, P2 and P5's TLAST count.
`include "faxis_stream_properties.vh"

    // ---- P3: one octet per clock ----
`ifdef P3
    reg [F_LATENCY-1:0] f_ready_history = 0;
    reg [F_LATENCY-1:0] f_offer_history = 0;
    always @(posedge clk) begin
        f_ready_history <= {f_ready_history[F_LATENCY-2:0], !rst && m_axis_tready};
        f_offer_history <= {f_offer_history[F_LATENCY-2:0], !rst && s_axis_tvalid};
    end
    always @(*)
        if (&f_ready_history && &f_offer_history) p3_one_octet_per_clock: assert (m_axis_tvalid);
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
        p7_flagged_octet: cover (m_handshake && m_axis_tuser);
        p7_tlast: cover (m_handshake && m_axis_tlast);
        p7_four_octet_lead: cover (m_handshake && m_axis_tdata == 8'hF0);
    end
`endif
`endif
endmodule
