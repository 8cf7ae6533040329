// utf8_validator_properties: the formal properties of the N-lane UTF-8
// validator (hdl/src/utf8_validator), for its exported Verilog: the module
// UTF8_DUT (utf8_validator_x<N>, or utf8_validator_iso10646_x<N>) of
// LANES = N lanes and a latency of F_LATENCY cycles; `utf8hdl formal
// --core validator --lanes N` defines the three from the core's Rust
// description (sim/src/cores/utf8_validator.rs). ZipCPU style: everything
// under `ifdef FORMAL, one property group per check of its formal plan.
//
// Every property reads the core's ports only. The invariants that make the
// k-induction of P3 hold (`INVARIANTS) read the core's registers, bound
// by their exported names (the runner checks that each exists), and the
// probes that the runner adds from the core's formal plan
// (sim/src/cores/utf8_validator.rs, PROBES): the credits' and the queue's
// (beat_queue_rate.vh), and the hold's and the marks' (below).
//
//   P1, P2   the AXI4-Stream rules (faxis_stream_properties.vh): P1 the
//            producer keeps them (assumed; TKEEP is free: null lanes
//            anywhere, beats of no byte), P2 m_axis keeps them: a stalled
//            beat holds TVALID, TDATA, TUSER, TKEEP and TLAST.
//   P3 `P3   full rate: when m_axis_tready was high in the last cycle,
//            s_axis_tready is high (beat_queue_rate.vh).
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

module utf8_validator_properties (clk, rst, s_axis_tdata, s_axis_tkeep, s_axis_tvalid, s_axis_tlast,
    m_axis_tready);
    // Bytes in, the same bytes out.
    localparam F_M_LANE_BITS = 8;
    // The output queue's beats (hdl/src/utf8_validator/mod.rs, QUEUE_BEATS),
    // which the credits never let the beats inside pass: at most this many
    // messages are inside the core.
    localparam F_QUEUE_BEATS = 32;
    localparam F_MAX_IN_FLIGHT = F_QUEUE_BEATS;

    // The internal signals of P3's invariants: the probes (the beats
    // before the queue, the queue's lanes in step, and the hold's places,
    // place k at bit k: in use, with an open lane, the oldest, the next to
    // write, the last written with an open lane), the marks' carry and
    // output register, the credits and the queue.
    wire [7:0] f_pipeline_beats;
    wire f_queue_lanes_agree;
    wire [7:0] f_hold_full, f_hold_open, f_hold_read_at, f_hold_write_at, f_hold_open_at;
    wire [16:0] f_carry;
    wire [2:0] f_carry_room;
    wire f_marks_write, f_marks_resolved;
    wire f_hold_idle, f_hold_out_valid, f_marks_closed;
    wire [`LANES-1:0] f_marks_open;
`include "beat_queue_internals.vh"
`define F_DUT_INTERNALS \
        , .f_pipeline_beats(f_pipeline_beats) \
        , .f_queue_lanes_agree(f_queue_lanes_agree) \
        , .f_hold_full(f_hold_full) \
        , .f_hold_open(f_hold_open) \
        , .f_hold_read_at(f_hold_read_at) \
        , .f_hold_write_at(f_hold_write_at) \
        , .f_hold_open_at(f_hold_open_at) \
        , .marks$carry$q(f_carry) \
        , .marks$carry_room$q(f_carry_room) \
        , .marks$write_out$q(f_marks_write) \
        , .marks$resolved_out$q(f_marks_resolved) \
        , .hold$idle_reg$q(f_hold_idle) \
        , .marks$closed_out$q(f_marks_closed) \
        , .hold$out_valid$q(f_hold_out_valid) \
        , .marks$open(f_marks_open) \
        `F_BEAT_QUEUE_INTERNALS
`include "faxis_lanes_harness.vh"

`ifdef FORMAL
    // ---- P3: full rate, and the invariants of its induction ----
`include "beat_queue_rate.vh"
`ifdef INVARIANTS
    // The hold (OpenLeadHold) has F_PLACES places, one per octet of the
    // profile's longest sequence. The places in use run from the oldest to
    // the next to write (all of them when the two meet and the oldest is
    // in use); a place with an open lane is in use, and the last written
    // with one. It is idle exactly when no place is in use and its output
    // register is empty, so a beat that passes it by has none before it;
    // and a beat passes it by only when the marks say it is closed, exactly
    // when no first octet is open after it.
    // BeatMarks' carry: its room is its open first octet's need less the
    // continuing octets after it (0 when none is open), and it needs at
    // most the longest sequence's continuing octets. The first octet open
    // in the hold is carry's, unless the beat in the marks' output register
    // resolves it; the beats behind it are its continuing octets' (each
    // beat has one at least), so it and the beats behind it fill at most
    // F_PLACES - 1 places until then, and all of them once the resolving
    // beat is written.
    localparam F_PLACES = ISO10646 ? 6 : 4;
    function [2:0] f_place(input [7:0] one_hot);
        integer k;
        begin
            f_place = 0;
            for (k = 0; k < 8; k = k + 1) if (one_hot[k]) f_place = k;
        end
    endfunction
    // The steps around the ring from place `from` to place `to`.
    function [3:0] f_steps(input [2:0] from, input [2:0] to);
        f_steps = to >= from ? to - from : to + F_PLACES - from;
    endfunction
    wire [2:0] f_oldest = f_place(f_hold_read_at);
    wire [2:0] f_next = f_place(f_hold_write_at);
    wire f_all_in_use = f_next == f_oldest && f_hold_full[f_oldest];
    wire [3:0] f_in_use = f_all_in_use ? F_PLACES : f_steps(f_oldest, f_next);
    // From the place with the open lane to the newest, both included.
    wire [3:0] f_open_to_next = f_steps(f_place(f_hold_open_at), f_next);
    wire [3:0] f_from_open = f_open_to_next == 0 ? F_PLACES : f_open_to_next;
    wire [7:0] f_ring;
    genvar place;
    generate
        for (place = 0; place < 8; place = place + 1) begin : ring
            assign f_ring[place] = place < F_PLACES && f_steps(f_oldest, place) < f_in_use;
        end
    endgenerate
    wire f_open_held = f_hold_open != 0;
    wire f_resolving = f_marks_write && f_marks_resolved;
    wire f_marks_opening = f_marks_write && f_marks_open != 0;
    wire [2:0] f_trail = f_carry[3:1];
    wire [2:0] f_need = f_carry[6:4];
    wire f_carry_open = f_carry_room != 0;
    // carry's open first octet as ByteSummary's fields define it: not all
    // continuing octets, fewer after it than it needs, and its second
    // octet, if any, in its range.
    wire f_carry_ends_open = !f_carry[0] && f_trail < f_need
        && (f_trail == 0 || (f_carry[16:12] & f_carry[11:7]) != 0);
    always @(*)
        if (f_past_valid && !rst) begin
            hold_pointers_one_hot: assert (f_hold_read_at != 0
                && (f_hold_read_at & (f_hold_read_at - 1)) == 0
                && f_hold_write_at != 0 && (f_hold_write_at & (f_hold_write_at - 1)) == 0
                && (f_hold_open_at & (f_hold_open_at - 1)) == 0);
            hold_in_use_is_ring: assert (f_hold_full == f_ring);
            hold_idle_is_empty: assert (f_hold_idle == (f_hold_full == 0 && !f_hold_out_valid));
            marks_closed_is_carry_shut: assert (f_marks_closed == (f_marks_write && !f_carry_open));
            hold_open_is_last_opened: assert ((f_hold_open & ~(f_hold_full & f_hold_open_at)) == 0);
            carry_room_is_need_less_trail: assert (f_carry_room
                == (f_carry_ends_open ? f_need - f_trail : 3'd0) && (!f_carry_open || f_need <= F_PLACES - 1));
            carry_open_is_held: assert (!f_carry_open || f_marks_opening
                || (f_open_held && !f_resolving));
            marks_open_is_carried: assert (!f_marks_opening || f_carry_open);
            resolving_what_is_held: assert (!f_resolving || f_open_held);
            hold_open_is_carried: assert (!f_open_held || f_resolving
                || (f_carry_open && f_from_open - 1 + f_marks_write <= f_trail));
            hold_open_resolving_near: assert (!(f_open_held && f_resolving)
                || f_from_open <= F_PLACES - 1);
        end
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
