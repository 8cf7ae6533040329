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
//   P4 `P4   the shape of a beat: a lane's TUSER is 0 or an error of the
//            profile ({kind, 1}, kind 1-6; 1-5 for iso10646), and 0 on a
//            null lane; a beat of no byte has TLAST.
//   P5 `P5   framing: m_axis TLAST handshakes never outnumber s_axis TLAST
//            handshakes.
//   P6 `P6   every byte leaves as it came, with the specification's mark
//            (utf8_validator_spec_model): for a byte the solver picks
//            (its number in the byte stream), when it is on m_axis the
//            model has seen it and decided it, and its lane's TDATA and
//            TUSER are the model's. Under any m_axis_tready.
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

`ifdef UTF8_ISO10646
    localparam ISO10646 = 1;
`else
    localparam ISO10646 = 0;
`endif

    // ---- P4: the shape of a beat ----
`ifdef P4
    localparam [2:0] F_MAX_KIND = ISO10646 ? 3'd5 : 3'd6;
    // One bit per lane for each rule, so that each assertion has one label.
    wire [N-1:0] f_null_lane_marked, f_kind_unknown;
    genvar shape_lane;
    generate
        for (shape_lane = 0; shape_lane < N; shape_lane = shape_lane + 1) begin : p4_lane
            wire [3:0] f_user = m_axis_tuser[4*shape_lane+:4];
            assign f_null_lane_marked[shape_lane] = !m_axis_tkeep[shape_lane] && f_user != 0;
            assign f_kind_unknown[shape_lane] = f_user != 0
                && (!f_user[0] || f_user[3:1] == 0 || f_user[3:1] > F_MAX_KIND);
        end
    endgenerate
    always @(*)
        if (m_axis_tvalid) begin
            p4_null_lane_unmarked: assert (f_null_lane_marked == 0);
            p4_mark_is_an_error: assert (f_kind_unknown == 0);
            if (m_axis_tkeep == 0) p4_null_beat_has_tlast: assert (m_axis_tlast);
        end
`endif

    // ---- P6: each byte's mark is the specification's ----
`ifdef P6
    (* anyconst *) wire [7:0] f_pick;
    wire f_known;
    wire [3:0] f_mark;
    wire [7:0] f_value;
    utf8_validator_spec_model #(
        .N(N),
        .ISO10646(ISO10646)
    ) spec (
        .clk(clk),
        .rst(rst),
        .in_valid(s_handshake),
        .in_data(s_axis_tdata),
        .in_keep(s_axis_tkeep),
        .in_last(s_axis_tlast),
        .pick(f_pick),
        .known(f_known),
        .mark(f_mark),
        .value(f_value)
    );
    // The byte number of each lane of m_axis: the kept lanes of the beats
    // it has passed on, and those before it in its beat.
    reg [7:0] f_passed = 0;
    wire [8*N-1:0] f_lane_number;
    wire [7:0] f_next_passed;
    faxis_lane_numbers #(
        .N(N)
    ) f_numbers (
        .first(f_passed),
        .keep(m_axis_tkeep),
        .number(f_lane_number),
        .next(f_next_passed)
    );
    always @(posedge clk)
        if (rst) f_passed <= 0;
        else if (m_handshake) f_passed <= f_next_passed;
    wire [N-1:0] f_picked_unknown, f_picked_wrong;
    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : p6_lane
            wire f_picked = m_axis_tvalid && m_axis_tkeep[lane]
                && f_lane_number[8*lane+:8] == f_pick;
            assign f_picked_unknown[lane] = f_picked && !f_known;
            assign f_picked_wrong[lane] = f_picked && f_known
                && (m_axis_tdata[8*lane+:8] != f_value || m_axis_tuser[4*lane+:4] != f_mark);
        end
    endgenerate
    always @(*)
        if (f_past_valid && !rst) begin
            p6_byte_decided: assert (f_picked_unknown == 0);
            p6_mark_is_spec: assert (f_picked_wrong == 0);
        end
`endif
`endif
endmodule
