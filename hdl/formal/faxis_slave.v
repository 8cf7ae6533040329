// faxis_slave: the rules the slave (consumer) of an AXI4-Stream keeps.
//
// AXI4-Stream lets a slave hold TREADY low for as long as it likes (ARM IHI
// 0051A §2.2.1), so the only rule here is an optional bound on a stall:
// with F_MAX_STALL = N > 0, TVALID is never left waiting for TREADY for N
// cycles or more. N = 1 means TREADY is high whenever TVALID is: a consumer
// that never pushes back.
//
// Reusable on either side of a design under proof:
//   * F_ASSUME = 1: the environment is the slave (attach it to the design's
//     m_axis port), and the bound is ASSUMED: it limits the backpressure the
//     proof considers.
//   * F_ASSUME = 0: the design is the slave (attach it to its s_axis port),
//     and the bound is ASSERTED.
//
// Parameters:
//   F_ASSUME     0: assert the bound (design is slave); 1: assume it
//   F_MAX_STALL  0: no bound; N > 0: a stall lasts fewer than N cycles
`default_nettype none

module faxis_slave #(
    parameter F_ASSUME = 1,
    parameter F_MAX_STALL = 0
) (
    input wire clk,
    input wire rst,
    input wire tvalid,
    input wire tready
);
`ifdef FORMAL
    generate
        if (F_MAX_STALL > 0) begin : stall_bound
            localparam W = $clog2(F_MAX_STALL + 1);
            // Cycles that TVALID has already waited, not counting this one.
            reg [W-1:0] f_waited = 0;
            always @(posedge clk)
                if (rst || !tvalid || tready) f_waited <= 0;
                else if (f_waited < F_MAX_STALL) f_waited <= f_waited + 1'b1;
            wire f_stalls_too_long = !rst && tvalid && !tready && f_waited + 1 >= F_MAX_STALL;
            if (F_ASSUME) begin : consumer_is_environment
                always @(*) assume (!f_stalls_too_long);
            end else begin : consumer_is_design
                always @(*) stall_is_bounded: assert (!f_stalls_too_long);
            end
        end
    endgenerate
`endif
endmodule
