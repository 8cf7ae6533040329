// faxis_stream_properties.vh: the AXI4-Stream properties that every core
// shares, whatever its lanes: `included inside the properties module of a
// core, after the core's instance (by faxis_core_harness.vh for the 1-lane
// cores, by faxis_lanes_harness.vh for the N-lane ones), so that no
// property file restates them.
//
// The including module declares the core's handshake ports (clk, rst,
// s_axis_tvalid, s_axis_tready, s_axis_tlast, m_axis_tvalid, m_axis_tready,
// m_axis_tlast) and
//   f_s_payload [F_S_PAYLOAD_BITS-1:0]  what a stalled s_axis beat holds
//   f_m_payload [F_M_PAYLOAD_BITS-1:0]  what a stalled m_axis beat holds
//   F_MAX_IN_FLIGHT                     messages the core can hold at most
//   F_LATENCY                           the core's latency, in cycles
// and gets f_past_valid, s_handshake, m_handshake and, with P5 or P5_UNITS,
// f_messages_in_flight.
//
//   P1 (assumed)  reset on the first cycle; the producer on s_axis keeps
//                 the rules (faxis_master, F_ASSUME = 1), with TVALID low
//                 during reset only.
//   P2  `P2       m_axis keeps the rules (faxis_master asserted): no TVALID
//                 on the two cycles after a reset cycle (one, for a core of
//                 latency 1); a stalled beat holds TVALID, its payload and
//                 TLAST.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, nor do more than F_MAX_IN_FLIGHT
//                 messages wait inside.
// `ALWAYS_READY (a task option): the consumer never stalls: m_axis_tready is
// high whenever m_axis_tvalid is (faxis_slave, F_MAX_STALL = 1, assumed).
`ifdef FORMAL
    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);

    wire s_handshake = !rst && s_axis_tvalid && s_axis_tready;
    wire m_handshake = !rst && m_axis_tvalid && m_axis_tready;

    // ---- P1: the producer keeps the rules (assumed) ----
    // TVALID is low during reset, but may rise on the very next cycle: the
    // least that AXI4-Stream promises a slave.
    faxis_master #(
        .DATA_WIDTH(F_S_PAYLOAD_BITS),
        .USER_WIDTH(1),
        .F_ASSUME(1),
        .F_RESET_CYCLES(0)
    ) s_axis_rules (
        .clk(clk),
        .rst(rst),
        .tvalid(s_axis_tvalid),
        .tready(s_axis_tready),
        .tdata(f_s_payload),
        .tuser(1'b0),
        .tlast(s_axis_tlast)
    );

`ifdef ALWAYS_READY
    faxis_slave #(
        .F_ASSUME(1),
        .F_MAX_STALL(1)
    ) m_axis_consumer (
        .clk(clk),
        .rst(rst),
        .tvalid(m_axis_tvalid),
        .tready(m_axis_tready)
    );
`endif

    // ---- P2: m_axis keeps the rules ----
`ifdef P2
    // No word can come out sooner than the core's latency after the first
    // input after a reset, so none in that many cycles (at most two).
    faxis_master #(
        .DATA_WIDTH(F_M_PAYLOAD_BITS),
        .USER_WIDTH(1),
        .F_ASSUME(0),
        .F_RESET_CYCLES(F_LATENCY < 2 ? F_LATENCY : 2)
    ) m_axis_rules (
        .clk(clk),
        .rst(rst),
        .tvalid(m_axis_tvalid),
        .tready(m_axis_tready),
        .tdata(f_m_payload),
        .tuser(1'b0),
        .tlast(m_axis_tlast)
    );
`endif

    // ---- P5: framing ----
`ifdef P5
`define FAXIS_MESSAGES
`endif
`ifdef P5_UNITS
`define FAXIS_MESSAGES
`endif
`ifdef FAXIS_MESSAGES
    // Messages whose TLAST went in and has not come out, wide enough for one
    // past the bound, so that passing it shows.
    reg [$clog2(F_MAX_IN_FLIGHT + 2)-1:0] f_messages_in_flight = 0;
    always @(posedge clk)
        if (rst) f_messages_in_flight <= 0;
        else
            f_messages_in_flight <= f_messages_in_flight
                + (s_handshake && s_axis_tlast) - (m_handshake && m_axis_tlast);
`undef FAXIS_MESSAGES
`endif
`ifdef P5
    always @(*) begin
        if (m_handshake && m_axis_tlast) p5_tlast_follows_input: assert (f_messages_in_flight != 0);
        p5_tlast_in_flight_bounded: assert (f_messages_in_flight <= F_MAX_IN_FLIGHT);
    end
`endif
`endif
