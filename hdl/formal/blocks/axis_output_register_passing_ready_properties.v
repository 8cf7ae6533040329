// axis_output_register_passing_ready_properties: the contract of
// AxisOutputRegister::passing_ready
// (hdl/src/stream/axis_output_register.rs) on its ports, for all time, by
// k-induction: `utf8hdl formal --block
// axis_output_register_passing_ready`.
//
// The core's logic offers a beat on s_axis whenever it likes; the consumer
// on m_axis may stall on any cycle. Then:
//   P2 (faxis_master.v, asserted)  m_axis keeps the AXI4-Stream rules: a
//                     stalled beat holds, no TVALID after a reset cycle;
//   ready_is_room     s_axis_tready is high exactly when the register is
//                     empty or its beat leaves this cycle;
//   loads_offer       a beat accepted in one cycle is on m_axis, unchanged,
//                     in the next: latency one, none lost;
//   sent_once         a beat that leaves with nothing accepted behind it
//                     is not sent again;
//   spare_unused      the spare register (bound by its exported name) is
//                     never in use: Yosys removes it;
//   copy_is_tvalid    tdata's byte's copy of tvalid (bound likewise)
//                     equals it.
`default_nettype none

module axis_output_register_passing_ready_properties (clk, rst, s_axis_tdata, s_axis_tuser, s_axis_tvalid,
                                        s_axis_tlast, m_axis_tready);
    input wire clk;
    input wire rst;
    input wire [7:0] s_axis_tdata;
    input wire [1:0] s_axis_tuser;
    input wire s_axis_tvalid;
    input wire s_axis_tlast;
    input wire m_axis_tready;

    wire s_axis_tready;
    wire [7:0] m_axis_tdata;
    wire [1:0] m_axis_tuser;
    wire m_axis_tvalid;
    wire m_axis_tlast;
    wire f_spare_valid;
    wire f_byte_valid;

    axis_output_register_passing_ready dut (
        .clock(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tuser(s_axis_tuser),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tlast(s_axis_tlast),
        .s_axis_tready(s_axis_tready),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast),
        .m_axis_tready(m_axis_tready),
        .spare_valid$q(f_spare_valid),
        .tdata$valid$0$q(f_byte_valid)
    );

`ifdef FORMAL
`define F_TDATA_BITS 8
`define F_TUSER_BITS 2
`include "fblock_m_axis.vh"

    always @(*)
        if (f_past_valid) begin
            spare_unused: assert (!f_spare_valid);
            copy_is_tvalid: assert (f_byte_valid == m_axis_tvalid);
            ready_is_room: assert (s_axis_tready == (!m_axis_tvalid || m_axis_tready));
        end
    always @(posedge clk)
        if (f_past_valid && !$past(rst)) begin
            if ($past(s_axis_tvalid && s_axis_tready))
                loads_offer: assert (m_axis_tvalid && m_axis_tdata == $past(s_axis_tdata)
                    && m_axis_tuser == $past(s_axis_tuser) && m_axis_tlast == $past(s_axis_tlast));
            else if ($past(m_axis_tvalid && m_axis_tready))
                sent_once: assert (!m_axis_tvalid);
        end
`endif
endmodule
