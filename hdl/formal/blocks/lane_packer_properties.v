// lane_packer_properties: the contract of LanePacker
// (hdl/src/utf8_decoder_wide/packing/lane_packer.rs, with its LaneSkips),
// 8 lanes of 8 bits, for all time, by k-induction: `utf8hdl formal
// --block lane_packer`.
//
// Any lanes, any `tkeep` (holes anywhere), a beat or none on every cycle,
// a reset on any cycle. The packer is a pipeline of F_LATENCY registered
// levels (2 log2 N = 6) with no state but what it carries, so a shadow of
// the last F_LATENCY inputs is all the proof needs; the packing of the
// oldest is computed here as the datasheet states it (lane `i` of the
// output is the `i`-th kept lane of the input). Then:
//   beat_in_order     `beat_out` and `last_out` are `beat_in` and
//                     `last_in` of F_LATENCY cycles before, and a reset
//                     cycle clears every beat inside;
//   lanes_packed      with a beat out, `lane_out[i]` is the `i`-th kept
//                     lane of the beat, 0 past the kept lanes: lanes keep
//                     their order and no two meet;
//   keep_packed       `keep_out` is the kept lanes, packed to the front;
//   nulls_counted     `nulls_out` is the beat's dropped lanes.
`default_nettype none

module lane_packer_properties (clk, rst, lanes, keep, beat_in, last_in);
    localparam N = 8;
    localparam W = 8;
    localparam F_LATENCY = 6;
    input wire clk;
    input wire rst;
    input wire [N*W-1:0] lanes;
    input wire [N-1:0] keep;
    input wire beat_in;
    input wire last_in;

    wire [N*W-1:0] lane_out;
    wire [N-1:0] keep_out;
    wire [5:0] nulls_out;
    wire beat_out;
    wire last_out;

    lane_packer dut (
        .clock(clk),
        .rst(rst),
        .lane_in$0(lanes[0*W +: W]),
        .lane_in$1(lanes[1*W +: W]),
        .lane_in$2(lanes[2*W +: W]),
        .lane_in$3(lanes[3*W +: W]),
        .lane_in$4(lanes[4*W +: W]),
        .lane_in$5(lanes[5*W +: W]),
        .lane_in$6(lanes[6*W +: W]),
        .lane_in$7(lanes[7*W +: W]),
        .keep_in$0(keep[0]),
        .keep_in$1(keep[1]),
        .keep_in$2(keep[2]),
        .keep_in$3(keep[3]),
        .keep_in$4(keep[4]),
        .keep_in$5(keep[5]),
        .keep_in$6(keep[6]),
        .keep_in$7(keep[7]),
        .beat_in(beat_in),
        .last_in(last_in),
        .lane_out$0(lane_out[0*W +: W]),
        .lane_out$1(lane_out[1*W +: W]),
        .lane_out$2(lane_out[2*W +: W]),
        .lane_out$3(lane_out[3*W +: W]),
        .lane_out$4(lane_out[4*W +: W]),
        .lane_out$5(lane_out[5*W +: W]),
        .lane_out$6(lane_out[6*W +: W]),
        .lane_out$7(lane_out[7*W +: W]),
        .keep_out$0(keep_out[0]),
        .keep_out$1(keep_out[1]),
        .keep_out$2(keep_out[2]),
        .keep_out$3(keep_out[3]),
        .keep_out$4(keep_out[4]),
        .keep_out$5(keep_out[5]),
        .keep_out$6(keep_out[6]),
        .keep_out$7(keep_out[7]),
        .nulls_out(nulls_out),
        .beat_out(beat_out),
        .last_out(last_out)
    );

`ifdef FORMAL
    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);

    // The last F_LATENCY inputs, newest in the low bits; a reset clears
    // the beats.
    reg [F_LATENCY*N*W-1:0] f_lanes;
    reg [F_LATENCY*N-1:0] f_keep;
    reg [F_LATENCY-1:0] f_beat = {F_LATENCY{1'b0}};
    reg [F_LATENCY-1:0] f_last;
    always @(posedge clk) begin
        f_lanes <= {f_lanes, lanes};
        f_keep <= {f_keep, keep};
        f_beat <= rst ? {F_LATENCY{1'b0}} : {f_beat, beat_in};
        f_last <= {f_last, last_in};
    end

    // The beat that is due out, packed: lane i is the kept lane with i
    // kept lanes before it.
    wire [N*W-1:0] f_in = f_lanes[(F_LATENCY-1)*N*W +: N*W];
    wire [N-1:0] f_in_keep = f_keep[(F_LATENCY-1)*N +: N];
    reg [N*W-1:0] f_packed;
    reg [5:0] f_kept;
    integer i, j;
    always @(*) begin
        f_packed = {N*W{1'b0}};
        f_kept = 6'd0;
        for (j = 0; j < N; j = j + 1)
            if (f_in_keep[j]) begin
                for (i = 0; i < N; i = i + 1)
                    if (f_kept == i) f_packed[i*W +: W] = f_in[j*W +: W];
                f_kept = f_kept + 6'd1;
            end
    end

    always @(*)
        if (f_past_valid && !rst) begin
            beat_in_order: assert (beat_out == f_beat[F_LATENCY-1]
                && (!beat_out || last_out == f_last[F_LATENCY-1]));
            if (beat_out) begin
                lanes_packed: assert (lane_out == f_packed);
                keep_packed: assert (keep_out == (({{N{1'b0}}, 1'b1} << f_kept) - 1'b1));
                nulls_counted: assert (nulls_out == N - f_kept);
            end
        end
`endif
endmodule
