// utf8_validator_properties: the formal properties of the N-lane UTF-8
// validator (hdl/src/utf8_validator), for its exported Verilog: the module
// UTF8_DUT (utf8_validator_x<N>, or utf8_validator_iso10646_x<N>) of
// LANES = N lanes and a latency of F_LATENCY cycles; `utf8hdl formal
// --core validator --lanes N` defines the three from the core's Rust
// description (sim/src/cores/utf8_validator.rs). ZipCPU style: everything
// under `ifdef FORMAL, one property group per check of its formal plan.
//
// Every property reads the core's ports only.
//
//   P1, P2   the AXI4-Stream rules (faxis_stream_properties.vh): P1 the
//            producer keeps them (assumed; TKEEP is free: null lanes
//            anywhere, beats of no byte), P2 m_axis keeps them: a stalled
//            beat holds TVALID, TDATA, TUSER, TKEEP and TLAST.
//   P5 `P5   framing: m_axis TLAST handshakes never outnumber s_axis TLAST
//            handshakes.
`default_nettype none

module utf8_validator_properties (
    input wire clk,
    input wire rst,
    input wire [8*`LANES-1:0] s_axis_tdata,
    input wire [`LANES-1:0] s_axis_tkeep,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire m_axis_tready
);
    localparam N = `LANES;
    localparam F_LATENCY = `F_LATENCY;
    // The output queue's beats (hdl/src/utf8_validator/mod.rs, QUEUE_BEATS),
    // which the credits never let the beats inside pass: at most this many
    // messages are inside the core.
    localparam F_MAX_IN_FLIGHT = 32;

    wire s_axis_tready;
    wire [8*N-1:0] m_axis_tdata;
    wire [4*N-1:0] m_axis_tuser;
    wire [N-1:0] m_axis_tkeep;
    wire m_axis_tvalid;
    wire m_axis_tlast;

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
    );

    // What a stalled beat holds.
    localparam F_S_PAYLOAD_BITS = 9 * N;
    localparam F_M_PAYLOAD_BITS = 13 * N;
    wire [F_S_PAYLOAD_BITS-1:0] f_s_payload = {s_axis_tkeep, s_axis_tdata};
    wire [F_M_PAYLOAD_BITS-1:0] f_m_payload = {m_axis_tkeep, m_axis_tuser, m_axis_tdata};

`ifdef FORMAL
    // P1, P2 and P5.
`include "faxis_stream_properties.vh"
`endif
endmodule
