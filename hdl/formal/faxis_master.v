// faxis_master: the rules the master (producer) of an AXI4-Stream must keep
// (AMBA AXI4-Stream Protocol Specification, ARM IHI 0051A, §2.2 handshake and
// §2.7 reset).
//
// Reusable on either side of a design under proof:
//   * F_ASSUME = 0: the design drives the stream (it is the master), and the
//     rules are ASSERTED: attach it to the design's m_axis port.
//   * F_ASSUME = 1: the environment drives the stream into the design, and
//     the rules are ASSUMED: attach it to the design's s_axis port.
//
// The rules, for a synchronous, active-high reset:
//   * no TVALID on the F_RESET_CYCLES cycles after a cycle with the reset
//     high (so, with 1 or more, none during a reset of more than one cycle);
//   * once TVALID is high and TREADY low, TVALID stays high and TDATA, TUSER
//     and TLAST hold until the handshake.
// With F_ASSUME = 1, TVALID is also low during the reset itself: a master in
// reset drives TVALID low (§2.7.2), and a design may assume it.
//
// Parameters:
//   DATA_WIDTH      width of TDATA, in bits
//   USER_WIDTH      width of TUSER, in bits
//   F_ASSUME        0: assert the rules (design is master); 1: assume them
//   F_RESET_CYCLES  0, 1 or 2: cycles after a reset cycle with TVALID low
`default_nettype none

module faxis_master #(
    parameter DATA_WIDTH = 8,
    parameter USER_WIDTH = 1,
    parameter F_ASSUME = 0,
    parameter F_RESET_CYCLES = 1
) (
    input wire clk,
    input wire rst,
    input wire tvalid,
    input wire tready,
    input wire [DATA_WIDTH-1:0] tdata,
    input wire [USER_WIDTH-1:0] tuser,
    input wire tlast
);
`ifdef FORMAL
    reg f_past_valid = 1'b0;
    reg f_rst_1 = 1'b0;
    reg f_rst_2 = 1'b0;
    reg f_stalled = 1'b0;
    reg [DATA_WIDTH-1:0] f_tdata;
    reg [USER_WIDTH-1:0] f_tuser;
    reg f_tlast;
    always @(posedge clk) begin
        f_past_valid <= 1'b1;
        f_rst_1 <= rst;
        f_rst_2 <= f_rst_1;
        f_stalled <= !rst && tvalid && !tready;
        f_tdata <= tdata;
        f_tuser <= tuser;
        f_tlast <= tlast;
    end

    wire f_after_reset = (F_RESET_CYCLES > 0 && f_rst_1) || (F_RESET_CYCLES > 1 && f_rst_2);
    wire f_holds = tvalid && tdata == f_tdata && tuser == f_tuser && tlast == f_tlast;

    generate
        if (F_ASSUME) begin : producer_is_environment
            always @(*) if (rst || f_after_reset) assume (!tvalid);
            always @(*) if (f_stalled) assume (f_holds);
        end else begin : producer_is_design
            always @(*) if (f_past_valid && f_after_reset) reset_clears_tvalid: assert (!tvalid);
            always @(*) if (f_stalled) stall_holds_payload: assert (f_holds);
        end
    endgenerate
`endif
endmodule
