// beat_credits_properties: the contract of BeatCredits
// (hdl/src/utf8_decoder_wide/queue/beat_credits.rs), for a queue of 4
// beats, for all time, by k-induction: `utf8hdl formal --block
// beat_credits`.
//
// The core around the counter keeps its side (assumed): a beat is accepted
// only while s_axis_tready is high, and only beats inside leave (returned
// on m_axis, or dropped early or late, up to three in a cycle). A shadow
// counts the beats truly in flight from these ports (f_inside). Then, on
// the ports:
//   ready_only_with_room  s_axis_tready is high only while fewer than 4
//                         beats are in flight: an accepted beat always
//                         finds room in the queue, whatever leaves when;
//   ready_when_room       with fewer than 4 in flight and no drop in the
//                         cycle before, s_axis_tready is high: a drop,
//                         counted a cycle late, delays it by one cycle at
//                         most, and a reset leaves it high;
// and, on the counter's register (bound by its exported name, which the
// runner checks exists), the invariant that makes the induction hold:
//   counts_in_flight      the count is the beats in flight plus the drops
//                         of the cycle before, not yet counted (credits
//                         taken = beats inside + returns not yet counted),
//                         and never more than 4;
//   ready_is_count        s_axis_tready, a flop decided a cycle ahead, is
//                         high exactly when the count is below 4.
`default_nettype none

module beat_credits_properties (clk, rst, accepted, returned, dropped_early, dropped_late);
    input wire clk;
    input wire rst;
    input wire accepted;
    input wire returned;
    input wire dropped_early;
    input wire dropped_late;

    wire s_axis_tready;
    wire [6:0] in_flight;

    beat_credits dut (
        .clock(clk),
        .rst(rst),
        .accepted(accepted),
        .returned(returned),
        .dropped_early(dropped_early),
        .dropped_late(dropped_late),
        .s_axis_tready(s_axis_tready),
        // Internal, by its exported name.
        .in_flight$q(in_flight)
    );

`ifdef FORMAL
    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);

    // The beats truly in flight, from the ports; the core's side.
    reg [7:0] f_inside = 8'd0;
    wire [7:0] f_leaving = returned + dropped_early + dropped_late;
    always @(posedge clk)
        f_inside <= rst ? 8'd0 : f_inside + accepted - f_leaving;
    always @(*) begin
        if (accepted) assume (s_axis_tready);
        assume (f_leaving <= f_inside);
    end

    // Drops of the cycle before: the counter sees them now.
    reg f_early_1 = 1'b0, f_late_1 = 1'b0;
    always @(posedge clk) begin
        f_early_1 <= !rst && dropped_early;
        f_late_1 <= !rst && dropped_late;
    end

    always @(*)
        if (f_past_valid && !rst) begin
            if (s_axis_tready)
                ready_only_with_room: assert (f_inside < 8'd4);
            if (f_inside < 8'd4 && !f_early_1 && !f_late_1)
                ready_when_room: assert (s_axis_tready);
            counts_in_flight: assert (in_flight == f_inside + f_early_1 + f_late_1
                && in_flight <= 7'd4);
            ready_is_count: assert (s_axis_tready == (in_flight < 7'd4));
        end
`endif
endmodule
