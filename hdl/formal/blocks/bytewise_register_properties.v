// bytewise_register_properties: the contract of BytewiseRegister
// (hdl/src/stream/bytewise_register.rs) for a payload of two bytes, for
// all time, by k-induction: `utf8hdl formal --block bytewise_register`.
//
// The block around it keeps a flag for the stage, loaded as the block's
// bytes are (when the flag is low or `advance` is high, it takes
// `d_valid`) and cleared by `rst`; a shadow of that flag and of the
// payload the stage last loaded is kept here from the ports. Then, on the
// block's registers (bound by their exported names):
//   copies_are_flag   each byte's copy of the flag equals it;
//   holds_loaded      while the flag is set, q is the payload the stage
//                     last loaded.
`default_nettype none

module bytewise_register_properties (clk, rst, d, d_valid, advance);
    input wire clk;
    input wire rst;
    input wire [15:0] d;
    input wire d_valid;
    input wire advance;

    wire [15:0] q;
    wire f_copy$0;
    wire f_copy$1;

    bytewise_register dut (
        .clock(clk),
        .rst(rst),
        .d(d),
        .d_valid(d_valid),
        .advance(advance),
        .q(q),
        .valid$0$q(f_copy$0),
        .valid$1$q(f_copy$1)
    );

`ifdef FORMAL
    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);

    // The owner's flag, and the payload loaded with it.
    reg f_flag = 1'b0;
    reg [15:0] f_loaded;
    always @(posedge clk) begin
        if (!f_flag || advance) begin
            f_flag <= d_valid;
            f_loaded <= d;
        end
        if (rst) f_flag <= 1'b0;
    end

    always @(*)
        if (f_past_valid) begin
            copies_are_flag: assert (f_copy$0 == f_flag && f_copy$1 == f_flag);
            if (f_flag) holds_loaded: assert (q == f_loaded);
        end
`endif
endmodule
