// faxis_lane_numbers: the number, in the byte stream, of each kept lane of
// a beat: `first` (the stream's bytes before the beat) plus the kept lanes
// before it. For the properties that follow one byte of a stream through
// a core whose beats have null lanes anywhere. Without a clock. The
// numbers are 8 bits: a proof of fewer than 256 bytes never wraps.
`default_nettype none

module faxis_lane_numbers #(
    parameter N = 2
) (
    input wire [7:0] first,
    input wire [N-1:0] keep,
    output wire [8*N-1:0] number,
    // The number of the next beat's first byte.
    output wire [7:0] next
);
`ifdef FORMAL
    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : numbered
            integer i;
            reg [7:0] counted;
            always @(*) begin
                counted = first;
                for (i = 0; i < lane; i = i + 1) counted = counted + keep[i];
            end
            assign number[8*lane+:8] = counted;
        end
    endgenerate
    assign next = number[8*(N-1)+:8] + keep[N-1];
`endif
endmodule
