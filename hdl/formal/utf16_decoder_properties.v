// utf16_decoder_properties: the formal properties of the UTF-16 decoder, for
// its exported Verilog: the module UTF8_DUT (utf16_decoder), whose latency
// is F_LATENCY; utf16_decoder.sby defines both from the core's Rust
// description (sim/src/utf16.rs).
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
//                 TLAST handshakes (faxis_stream_properties.vh), and catch
//                 up once the input has been quiet for F_DRAIN cycles.
//   P7  `P7       covers: a pair decoded, an unpaired surrogate, a TLAST.
`default_nettype none

module utf16_decoder_properties (
    input wire clk,
    input wire rst,
    input wire [15:0] s_axis_tdata,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire m_axis_tready
);
    // The latency of the datasheet (hdl/src/utf16_decoder.rs).
    localparam F_LATENCY = `F_LATENCY;
    // Quiet cycles after which every unit of a message whose TLAST went in
    // is out: the unit in the skid buffer, the one held, the output
    // register, and the cycle in which the last handshake counts.
    localparam F_DRAIN = F_LATENCY + 2 + 1;
    // Units inside, and so messages, at most; one more for margin.
    localparam F_MAX_IN_FLIGHT = 4;

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
    localparam F_S_PAYLOAD_BITS = 16;
    localparam F_M_PAYLOAD_BITS = 32 + 4;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = s_axis_tdata;
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
    // P1, P2 and P5's TLAST count.
`include "faxis_stream_properties.vh"

    // ---- P3: one code unit per clock ----
`ifdef P3
    reg [F_LATENCY-1:0] f_ready_history = 0;
    always @(posedge clk) f_ready_history <= {f_ready_history[F_LATENCY-2:0], m_axis_tready};
    always @(*) if (&f_ready_history) p3_one_unit_per_clock: assert (s_axis_tready);
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
        p7_pair: cover (m_handshake && m_axis_tdata[31:16] != 0);
        p7_unpaired_surrogate: cover (m_handshake && m_axis_tuser[0]);
        p7_tlast: cover (m_handshake && m_axis_tlast);
    end
`endif
`endif
endmodule
