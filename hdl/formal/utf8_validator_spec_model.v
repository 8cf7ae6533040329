// utf8_validator_spec_model: the specification of the validator's mark of
// one byte, for the formal check that every byte leaves with the mark the
// specification gives it.
//
// The units are utf8_spec_step's (written from RFC 3629 §3 and §4, ISO/IEC
// 10646-1 Annex R and Unicode §3.9's maximal subparts), one step per lane
// in lane order (a null lane is no step; utf8_spec_lanes), the state
// carried from lane to lane and from beat to beat. What the
// validator adds is where a unit starts: a byte's mark is the TUSER of the
// unit that starts at it when that unit is U+FFFD (a malformed maximal
// subpart), and 0 for every other byte. A unit that a byte completes, or
// that an open sequence's end closes, starts at the sequence's first byte;
// one that a byte is alone, or is read again as after a broken sequence,
// starts at that byte.
//
// The model follows one byte, the message stream's byte number `pick`
// (counting the non-null lanes of the beats taken since reset, from 0; the
// proof leaves it free; faxis_lane_numbers): `known` once that byte has
// come and the unit it starts, if any, has ended; then `mark` is its mark
// and `value` the byte.
`default_nettype none

module utf8_validator_spec_model #(
    parameter N = 2,
    parameter ISO10646 = 0
) (
    input wire clk,
    input wire rst,
    input wire in_valid,
    input wire [8*N-1:0] in_data,
    input wire [N-1:0] in_keep,
    input wire in_last,
    input wire [7:0] pick,
    output wire known,
    output reg [3:0] mark,
    output reg [7:0] value
);
`ifdef FORMAL
    // The beat's steps, lane by lane, after the state the beats before
    // left (utf8_spec_lanes).
    reg [43:0] carried = 0;
    wire [43:0] after;
    wire [2*N-1:0] units;
    wire [36*N-1:0] unit0, unit1;
    wire [N-1:0] open_before, open_after;
    utf8_spec_lanes #(
        .N(N),
        .ISO10646(ISO10646)
    ) steps (
        .state_in(carried),
        .state_out(after),
        .in_valid(in_valid),
        .in_data(in_data),
        .in_keep(in_keep),
        .in_last(in_last),
        .units(units),
        .unit0(unit0),
        .unit1(unit1),
        .broken(),
        .open_before(open_before),
        .open_after(open_after)
    );

    // Each lane's byte number; `taken`, the bytes of the beats before.
    reg [7:0] taken = 0;
    wire [8*N-1:0] number;
    wire [7:0] next_taken;
    faxis_lane_numbers #(
        .N(N)
    ) numbers (
        .first(taken),
        .keep(in_keep),
        .number(number),
        .next(next_taken)
    );

    // The byte number of the open sequence's first byte, before each
    // lane's step; lane N's is after the beat.
    reg [7:0] carried_start = 0;
    wire [8*(N+1)-1:0] start;
    assign start[7:0] = carried_start;

    reg arrived = 1'b0;
    // The followed byte starts a sequence that is still open.
    reg pending = 1'b0;
    assign known = arrived && !pending;

    wire [N-1:0] arrive, opens, ends0, ends1;
    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : unit_starts
            wire [1:0] lane_units = units[2*lane+:2];
            wire [7:0] here = number[8*lane+:8];
            wire [7:0] before = start[8*lane+:8];
            // Unit 0 is the open sequence's, or this byte alone; unit 1 is
            // this byte, read again. A sequence open after the step is the
            // one before, if the byte ended no unit, or else this byte's.
            wire [7:0] start0 = open_before[lane] ? before : here;
            assign start[8*(lane+1)+:8] = open_before[lane] && lane_units == 0 ? before : here;
            assign arrive[lane] = in_valid && in_keep[lane] && here == pick;
            assign ends0[lane] = in_valid && lane_units != 0 && start0 == pick;
            assign ends1[lane] = in_valid && lane_units == 2 && here == pick;
            assign opens[lane] = in_valid && in_keep[lane] && open_after[lane]
                && start[8*(lane+1)+:8] == pick;
        end
    endgenerate

    integer k;
    always @(posedge clk)
        if (rst) begin
            carried <= 0;
            carried_start <= 0;
            taken <= 0;
            arrived <= 1'b0;
            pending <= 1'b0;
        end else if (in_valid) begin
            carried <= after;
            carried_start <= start[8*N+:8];
            taken <= next_taken;
            // Lane by lane: a later lane's step overrides an earlier one's.
            for (k = 0; k < N; k = k + 1) begin
                if (arrive[k]) begin
                    arrived <= 1'b1;
                    value <= in_data[8*k+:8];
                    mark <= 4'd0;
                end
                if (ends0[k]) begin
                    mark <= unit0[36*k+32+:4];
                    pending <= 1'b0;
                end
                if (ends1[k]) mark <= unit1[36*k+32+:4];
                if (opens[k]) pending <= 1'b1;
            end
        end
`endif
endmodule
