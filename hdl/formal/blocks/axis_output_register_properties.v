// axis_output_register_properties: the contract of AxisOutputRegister
// (hdl/src/stream/axis_output_register.rs) on its ports, for all time, by
// k-induction: `utf8hdl formal --block axis_output_register`.
//
// The core's logic offers a beat on s_axis whenever it likes; the consumer
// on m_axis may stall on any cycle. A shadow of what the block holds is
// kept from the ports: f_count beats taken and not yet sent (0 to 2), the
// oldest in f_first, the next in f_second. Then:
//   P2 (faxis_master.v, asserted)  m_axis keeps the AXI4-Stream rules: a
//                     stalled beat holds, no TVALID after a reset cycle;
//   valid_is_held     m_axis_tvalid is high exactly when a beat is inside;
//   ready_is_room     s_axis_tready is low exactly when two are inside,
//                     and more never are;
//   ready_ahead       s_axis_tready_next is the next cycle's s_axis_tready;
//   oldest_first      m_axis shows the oldest beat inside, unchanged:
//                     beats leave in order, each once, none lost. A beat
//                     taken while m_axis is empty or leaving is the oldest
//                     the next cycle, so it is on m_axis then: latency one.
// The induction also reads the spare register (bound by its exported
// name): it is in use exactly when two beats are inside
// (spare_is_second), and then holds the second (spare_holds_second);
// and tdata's byte's copy of tvalid, which equals it (copy_is_tvalid).
`default_nettype none

module axis_output_register_properties (clk, rst, s_axis_tdata, s_axis_tuser, s_axis_tvalid,
                                        s_axis_tlast, m_axis_tready);
    input wire clk;
    input wire rst;
    input wire [7:0] s_axis_tdata;
    input wire [1:0] s_axis_tuser;
    input wire s_axis_tvalid;
    input wire s_axis_tlast;
    input wire m_axis_tready;

    wire s_axis_tready;
    wire s_axis_tready_next;
    wire [7:0] m_axis_tdata;
    wire [1:0] m_axis_tuser;
    wire m_axis_tvalid;
    wire m_axis_tlast;
    wire f_spare_valid;
    wire [7:0] f_spare_tdata;
    wire [1:0] f_spare_tuser;
    wire f_spare_tlast;
    wire f_byte_valid;

    axis_output_register dut (
        .clock(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tuser(s_axis_tuser),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tlast(s_axis_tlast),
        .s_axis_tready(s_axis_tready),
        .s_axis_tready_next(s_axis_tready_next),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast),
        .m_axis_tready(m_axis_tready),
        .spare_valid$q(f_spare_valid),
        .spare_tdata$q(f_spare_tdata),
        .spare_tuser$q(f_spare_tuser),
        .spare_tlast$q(f_spare_tlast),
        .tdata$valid$0$q(f_byte_valid)
    );

`ifdef FORMAL
`define F_TDATA_BITS 8
`define F_TUSER_BITS 2
`include "fblock_m_axis.vh"

    // A beat is its tdata, tuser and tlast side by side.
    wire f_taken = s_axis_tvalid && s_axis_tready;
    wire f_sent = m_axis_tvalid && m_axis_tready;
    wire [10:0] f_offered = {s_axis_tlast, s_axis_tuser, s_axis_tdata};
    wire [10:0] f_shown = {m_axis_tlast, m_axis_tuser, m_axis_tdata};
    wire [10:0] f_spare = {f_spare_tlast, f_spare_tuser, f_spare_tdata};
    reg [1:0] f_count = 2'd0;
    reg [10:0] f_first;
    reg [10:0] f_second;
    always @(posedge clk)
        if (rst)
            f_count <= 2'd0;
        else begin
            f_count <= f_count + f_taken - f_sent;
            if (f_sent) f_first <= f_second;
            if (f_taken) begin
                if (f_count == 2'd0 || (f_count == 2'd1 && f_sent)) f_first <= f_offered;
                else f_second <= f_offered;
            end
        end

    always @(posedge clk)
        if (f_past_valid) ready_ahead: assert ($past(s_axis_tready_next) == s_axis_tready);

    always @(*)
        if (f_past_valid) begin
            valid_is_held: assert (m_axis_tvalid == (f_count != 2'd0));
            ready_is_room: assert (f_count <= 2'd2 && s_axis_tready == (f_count != 2'd2));
            if (m_axis_tvalid) oldest_first: assert (f_shown == f_first);
            spare_is_second: assert (f_spare_valid == (f_count == 2'd2));
            copy_is_tvalid: assert (f_byte_valid == m_axis_tvalid);
            if (f_count == 2'd2) spare_holds_second: assert (f_spare == f_second);
        end
`endif
endmodule
