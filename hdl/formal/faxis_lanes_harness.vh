// faxis_lanes_harness.vh: what the properties of every N-lane core share
// (the wide decoder, the validator), `included at the top of the core's
// properties module, so that its file states only the core's own
// properties: its ports, the core's instance, what a stalled beat holds,
// and the AXI4-Stream rules (faxis_stream_properties.vh).
//
// The including module lists the ports clk, rst, s_axis_tdata,
// s_axis_tkeep, s_axis_tvalid, s_axis_tlast and m_axis_tready, and declares
//   F_M_LANE_BITS    localparam: the bits of a lane of m_axis_tdata
//   F_MAX_IN_FLIGHT  localparam: messages the core can hold at most
// and, if its properties read the core's internal signals, defines
//   F_DUT_INTERNALS  the instance's further connections, each
//                    `, .name(wire)` on a line of its own, with the wires
//                    declared before the `include (the runner makes each
//                    name an output of the core's formal build, and fails
//                    on a name the core does not declare:
//                    synth/src/formal/bind.rs).
// It gets, from the defines that the sby file sets (UTF8_DUT, LANES,
// F_LATENCY and, in the iso10646 profile, UTF8_ISO10646):
//   N               the lanes
//   ISO10646        1 in the iso10646 profile, else 0
//   F_LATENCY       the core's latency, in cycles (Core::LATENCY)
//   s_axis_tready, m_axis_tdata, m_axis_tuser (4 bits a lane),
//   m_axis_tkeep, m_axis_tvalid, m_axis_tlast   the core's other ports
//   dut             the core, the module UTF8_DUT
// and all that faxis_stream_properties.vh gives (f_past_valid, s_handshake,
// m_handshake, f_messages_in_flight).
    input wire clk;
    input wire rst;
    input wire [8*`LANES-1:0] s_axis_tdata;
    input wire [`LANES-1:0] s_axis_tkeep;
    input wire s_axis_tvalid;
    input wire s_axis_tlast;
    input wire m_axis_tready;

    localparam N = `LANES;
`ifdef UTF8_ISO10646
    localparam ISO10646 = 1;
`else
    localparam ISO10646 = 0;
`endif
    localparam F_LATENCY = `F_LATENCY;

    wire s_axis_tready;
    wire [F_M_LANE_BITS*N-1:0] m_axis_tdata;
    wire [4*N-1:0] m_axis_tuser;
    wire [N-1:0] m_axis_tkeep;
    wire m_axis_tvalid;
    wire m_axis_tlast;

`ifndef F_DUT_INTERNALS
`define F_DUT_INTERNALS
`endif
    `UTF8_DUT dut (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tkeep(s_axis_tkeep),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast)
        `F_DUT_INTERNALS
    );
`undef F_DUT_INTERNALS

    // What a stalled beat holds.
    localparam F_S_PAYLOAD_BITS = 9 * N;
    localparam F_M_PAYLOAD_BITS = (F_M_LANE_BITS + 5) * N;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = {s_axis_tkeep, s_axis_tdata};
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tkeep, m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
`include "faxis_stream_properties.vh"
`endif
