// utf8_wide_spec_model: the specification of the N-lane decoder's output
// beats, for the formal proof that every m_axis beat is the model's.
//
// The units are utf8_spec_step's, one step per lane in lane order (a null
// lane is no step; utf8_spec_lanes), the state carried from lane to lane
// and from beat to beat. What the wide core adds is which beat carries a
// unit, and when the beat leaves, from its datasheets (hdl/src/utf8_decoder_wide/mod.rs, "Why
// no carry" and "Messages"; stages/s2_lookahead_hold.rs):
//   * a unit leaves in the beat of its last byte, packed in lane order
//     (TKEEP = 2^k - 1, lanes past it zero): so the U+FFFD of a sequence
//     that a beat's first byte breaks, or that an empty TLAST beat closes,
//     belongs to the byte beat before;
//   * a beat with a byte, or an empty beat with TLAST, is held for what
//     follows: it leaves on the next cycle, unless its last byte has bit 7
//     set (it may leave a sequence open) and it has no TLAST: then it waits
//     until a beat with a byte, or an empty beat with TLAST, comes;
//   * an empty beat with TLAST that comes while a beat without TLAST is
//     held gives its TLAST to that beat (merged), and is nothing itself;
//     an empty beat without TLAST is nothing;
//   * a beat leaves only with a unit or a TLAST.
// The outputs are the beat that leaves the hold in this cycle (`out_*`).
//
`default_nettype none

module utf8_wide_spec_model #(
    parameter N = 2,
    parameter ISO10646 = 0
) (
    input wire clk,
    input wire rst,
    input wire in_valid,
    input wire [8*N-1:0] in_data,
    input wire [N-1:0] in_keep,
    input wire in_last,
    output reg out_valid,
    output reg out_last,
    output reg [N-1:0] out_keep,
    output reg [32*N-1:0] out_data,
    output reg [4*N-1:0] out_user
);
`ifdef FORMAL
    localparam CW = $clog2(N + 1);

    // The beat's steps, lane by lane, after the state the beats before
    // left.
    reg [43:0] carried = 0;
    wire [43:0] after;
    wire [2*N-1:0] lane_units;
    wire [N-1:0] units_2, units_any, broken;
    wire [36*N-1:0] unit0, unit1;  // {user, data} of each lane's units
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
        .units(lane_units),
        .unit0(unit0),
        .unit1(unit1),
        .broken(broken),
        .open_before(),
        .open_after()
    );
    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : count
            assign units_any[lane] = lane_units[2*lane+:2] != 0;
            assign units_2[lane] = lane_units[2*lane+:2] == 2;
        end
    endgenerate

    // The held beat.
    reg held = 1'b0;
    reg held_last = 1'b0;
    reg held_open = 1'b0;
    reg [CW-1:0] held_units = 0;
    reg [32*N-1:0] held_data = 0;
    reg [4*N-1:0] held_user = 0;

    function [N-1:0] packed_keep(input [CW-1:0] units);
        packed_keep = (1 << units) - 1;
    endfunction

    // This beat's units, and those of the held beat with the units that
    // this beat ends for it.
    reg [CW-1:0] units, out_units;
    reg [32*N-1:0] data;
    reg [4*N-1:0] user;
    reg [7:0] last_byte;
    reg has_byte, ends, release, merged;
    integer i, k;
    always @(*) begin
        out_units = held_units;
        out_data = held_data;
        out_user = held_user;
        units = 0;
        data = 0;
        user = 0;
        last_byte = 0;
        for (i = 0; i < N; i = i + 1) begin
            if (in_keep[i]) last_byte = in_data[8*i+:8];
            if (units_any[i]) begin
                if (broken[i] && (in_keep & ((1 << i) - 1)) == 0) begin
                    for (k = 0; k < N; k = k + 1)
                        if (k == out_units) begin
                            out_data[32*k+:32] = unit0[36*i+:32];
                            out_user[4*k+:4] = unit0[36*i+32+:4];
                        end
                    out_units = out_units + 1'b1;
                end else begin
                    for (k = 0; k < N; k = k + 1)
                        if (k == units) begin
                            data[32*k+:32] = unit0[36*i+:32];
                            user[4*k+:4] = unit0[36*i+32+:4];
                        end
                    units = units + 1'b1;
                end
            end
            if (units_2[i]) begin
                for (k = 0; k < N; k = k + 1)
                    if (k == units) begin
                        data[32*k+:32] = unit1[36*i+:32];
                        user[4*k+:4] = unit1[36*i+32+:4];
                    end
                units = units + 1'b1;
            end
        end
        has_byte = in_valid && in_keep != 0;
        ends = in_valid && in_keep == 0 && in_last;
        release = held && (held_last || !held_open || has_byte || ends);
        merged = held && !held_last && ends;
        out_last = held_last || merged;
        out_valid = release && (out_units != 0 || out_last);
        out_keep = packed_keep(out_units);
    end

    always @(posedge clk)
        if (rst) begin
            carried <= 0;
            held <= 1'b0;
        end else begin
            if (in_valid) carried <= after;
            if (release) held <= 1'b0;
            if (has_byte || (ends && !merged)) begin
                held <= 1'b1;
                held_last <= in_last;
                held_open <= last_byte[7];
                held_units <= units;
                held_data <= data;
                held_user <= user;
            end
        end
`endif
endmodule
