// faxis_core_harness.vh: what the properties of every 1-lane core share,
// `included at the top of the core's properties module, so that its file
// states only the core's own properties: the core's instance, its ports as
// the properties read them, the AXI4-Stream rules
// (faxis_stream_properties.vh), and the histories that its rate (P3) and
// drain (P5) properties read.
//
// The including module lists the ports clk, rst, s_axis_tdata,
// s_axis_tvalid, s_axis_tlast and m_axis_tready, declares at the core's
// widths
//   input s_axis_tdata                  what a beat of s_axis carries
//   wire m_axis_tdata, m_axis_tuser     what a beat of m_axis carries
// and the localparams
//   F_DRAIN_PAST_LATENCY  cycles past its latency that the core may take to
//                         send what it holds
//   F_MAX_IN_FLIGHT       messages the core can hold at most
// and, if its properties read the core's internal signals, defines
//   F_DUT_INTERNALS       the instance's further connections, each
//                         `, .name(wire)` on a line of its own, with the
//                         wires declared before the `include (the runner
//                         makes each name an output of the core's formal
//                         build, and fails on a name the core does not
//                         declare: synth/src/formal/bind.rs),
// and gets, from the defines that the sby file sets (UTF8_DUT, F_LATENCY and,
// in the iso10646 profile, UTF8_ISO10646):
//   ISO10646        1 in the iso10646 profile, else 0
//   F_LATENCY       the core's latency, in cycles (Core::LATENCY)
//   F_DRAIN         quiet cycles after which every accepted beat's units are
//                   out: the latency, F_DRAIN_PAST_LATENCY, and the cycle in
//                   which the last handshake counts
//   dut             the core, the module UTF8_DUT, and its other ports
//   f_full_rate     m_axis_tready was high for the last F_LATENCY cycles
//   f_offered       s_axis_tvalid was high for the last F_LATENCY cycles
//   f_drained       quiet (no beat taken, m_axis_tready high, no reset) for
//                   the last F_DRAIN cycles
// and all that faxis_stream_properties.vh gives (f_past_valid, s_handshake,
// m_handshake, f_messages_in_flight).
//
//   P1, P2        the AXI4-Stream rules (faxis_stream_properties.vh).
//   P5  `P5       framing: faxis_stream_properties.vh's TLAST count, and
//                 every message's TLAST is out once the input has been
//                 quiet for F_DRAIN cycles.
    input wire clk;
    input wire rst;
    input wire s_axis_tvalid;
    input wire s_axis_tlast;
    input wire m_axis_tready;

`ifdef UTF8_ISO10646
    localparam ISO10646 = 1;
`else
    localparam ISO10646 = 0;
`endif
    localparam F_LATENCY = `F_LATENCY;
    localparam F_DRAIN = F_LATENCY + F_DRAIN_PAST_LATENCY + 1;

    wire s_axis_tready;
    wire m_axis_tvalid;
    wire m_axis_tlast;

`ifndef F_DUT_INTERNALS
`define F_DUT_INTERNALS
`endif
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
        `F_DUT_INTERNALS
    );
`undef F_DUT_INTERNALS

    // What a stalled beat holds.
    localparam F_S_PAYLOAD_BITS = $bits(s_axis_tdata);
    localparam F_M_PAYLOAD_BITS = $bits(m_axis_tuser) + $bits(m_axis_tdata);
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = s_axis_tdata;
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
    // P1, P2 and P5's TLAST count.
`include "faxis_stream_properties.vh"

    // The last F_LATENCY cycles, for P3: m_axis_tready high, words offered
    // on s_axis (never during a reset: P1).
    reg [F_LATENCY-1:0] f_ready_history = 0;
    reg [F_LATENCY-1:0] f_offer_history = 0;
    always @(posedge clk) begin
        f_ready_history <= {f_ready_history, m_axis_tready};
        f_offer_history <= {f_offer_history, !rst && s_axis_tvalid};
    end
    wire f_full_rate = &f_ready_history;
    wire f_offered = &f_offer_history;

    // Quiet: no beat taken, the consumer ready, no reset. After F_DRAIN quiet
    // cycles every accepted beat's units are out.
    reg [F_DRAIN-1:0] f_quiet_history = 0;
    always @(posedge clk) f_quiet_history <= {f_quiet_history, !rst && !s_handshake && m_axis_tready};
    wire f_drained = &f_quiet_history;

    // ---- P5: framing (and faxis_stream_properties.vh) ----
`ifdef P5
    always @(*) if (f_drained) p5_tlast_catches_up: assert (f_messages_in_flight == 0);
`endif
`endif
