// utf8_spec_lanes: one beat of N byte lanes through the specification's
// steps (utf8_spec_step), one step per lane in lane order, the state
// carried from lane to lane: what the N-lane models (utf8_wide_spec_model,
// utf8_validator_spec_model) share. A null lane is no step; a beat of
// null lanes with TLAST ends the message at lane 0's step; otherwise
// TLAST is the last kept lane's.
//
// Per lane: the units its step gives (0-2) with their {user, data}, whether
// unit 0 is a sequence the lane's byte broke, and whether a sequence is
// open before and after the step. Without a clock; `state_in` is the state
// before the beat, `state_out` after it.
`default_nettype none

module utf8_spec_lanes #(
    parameter N = 2,
    parameter ISO10646 = 0
) (
    input wire [43:0] state_in,
    output wire [43:0] state_out,
    input wire in_valid,
    input wire [8*N-1:0] in_data,
    input wire [N-1:0] in_keep,
    input wire in_last,
    output wire [2*N-1:0] units,
    output wire [36*N-1:0] unit0,
    output wire [36*N-1:0] unit1,
    output wire [N-1:0] broken,
    output wire [N-1:0] open_before,
    output wire [N-1:0] open_after
);
`ifdef FORMAL
    // The state before each lane's step; state[N] is after the beat.
    wire [44*(N+1)-1:0] state;
    assign state[43:0] = state_in;
    assign state_out = state[44*N+:44];

    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : step
            wire later_kept = (in_keep >> lane) >> 1 != 0;
            wire lane_last = in_last && (in_keep[lane] ? !later_kept
                : lane == 0 && in_keep == 0);
            utf8_spec_step #(
                .ISO10646(ISO10646)
            ) spec (
                .state(state[44*lane+:44]),
                .next_state(state[44*(lane+1)+:44]),
                .in_valid(in_valid && in_keep[lane]),
                .in_byte(in_data[8*lane+:8]),
                .in_last(in_valid && lane_last),
                .units(units[2*lane+:2]),
                .unit0_data(unit0[36*lane+:32]),
                .unit0_user(unit0[36*lane+32+:4]),
                .unit0_last(),  // the beat's TLAST is the message's
                .unit1_data(unit1[36*lane+:32]),
                .unit1_user(unit1[36*lane+32+:4]),
                .unit1_last(),
                .unit0_broken(broken[lane]),
                .open(open_before[lane])
            );
            assign open_after[lane] = state[44*(lane+1)+41+:3] != 0;
        end
    endgenerate
`endif
endmodule
