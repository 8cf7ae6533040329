// skid_buffer_properties: the contract of SkidBuffer
// (hdl/src/stream/skid_buffer.rs) on its ports, for all time, by
// k-induction: `utf8hdl formal --block skid_buffer`.
//
// The producer keeps the AXI4-Stream rules (assumed, faxis_master.v); the
// pipeline behind the buffer may take a beat (`advance`) on any cycle. A
// shadow of what the buffer holds is kept from the ports: f_held, a beat
// was accepted and not yet taken, and its payload. Then:
//   ready_is_room     s_axis_tready is high exactly when nothing is held:
//                     a beat is accepted only when there is room, and at
//                     most one is ever held;
//   held_beat_first   while a beat is held, it is the one offered to the
//                     pipeline, payload unchanged: beats leave in order,
//                     none lost or duplicated;
//   pass_through      with nothing held, the incoming beat is offered as
//                     it is, valid only when it is accepted;
//   full_rate         with `advance` high on every cycle since the reset,
//                     s_axis_tready stays high.
// A reset empties the buffer: the shadow is emptied by it, so
// ready_is_room says so.
`default_nettype none

module skid_buffer_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, advance);
    input wire clk;
    input wire rst;
    input wire [7:0] s_axis_tdata;
    input wire s_axis_tvalid;
    input wire s_axis_tlast;
    input wire advance;

    wire s_axis_tready;
    wire [7:0] byte_tdata;
    wire byte_tvalid;
    wire byte_tlast;

    skid_buffer dut (
        .clock(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tlast(s_axis_tlast),
        .s_axis_tready(s_axis_tready),
        .advance(advance),
        .byte$tdata(byte_tdata),
        .byte$tvalid(byte_tvalid),
        .byte$tlast(byte_tlast)
    );

`ifdef FORMAL
    faxis_master #(.DATA_WIDTH(8), .USER_WIDTH(1), .F_ASSUME(1), .F_RESET_CYCLES(0)) producer (
        .clk(clk), .rst(rst), .tvalid(s_axis_tvalid), .tready(s_axis_tready),
        .tdata(s_axis_tdata), .tuser(1'b0), .tlast(s_axis_tlast)
    );

    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    // The design starts in reset, as every core's proof does.
    always @(*) if (!f_past_valid) assume (rst);

    wire f_accepted = s_axis_tvalid && s_axis_tready;
    reg f_held = 1'b0;
    reg [7:0] f_held_tdata;
    reg f_held_tlast;
    reg f_always_advanced = 1'b0;
    always @(posedge clk) begin
        if (rst || advance) f_held <= 1'b0;
        else if (f_accepted) begin
            f_held <= 1'b1;
            f_held_tdata <= s_axis_tdata;
            f_held_tlast <= s_axis_tlast;
        end
        f_always_advanced <= rst || (f_always_advanced && advance);
    end

    always @(*)
        if (f_past_valid) begin
            ready_is_room: assert (s_axis_tready == !f_held);
            if (f_held)
                held_beat_first: assert (byte_tvalid && byte_tdata == f_held_tdata
                    && byte_tlast == f_held_tlast);
            else
                pass_through: assert (byte_tvalid == f_accepted
                    && byte_tdata == s_axis_tdata && byte_tlast == s_axis_tlast);
            if (f_always_advanced)
                full_rate: assert (s_axis_tready);
        end
`endif
endmodule
