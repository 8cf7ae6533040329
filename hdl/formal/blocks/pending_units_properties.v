// pending_units_properties: the contract of PendingUnits
// (hdl/src/stream/pending_units.rs), for words of up to 3 units of 8 bits,
// for all time, by k-induction: `utf8hdl formal --block pending_units`.
//
// The encoder around the block keeps its side (assumed): an offered word
// has its first unit, and its keep_in flags are a run from keep_in[0].
// The consumer on m_axis may stall on any cycle. A shadow keeps, from the
// ports, every unit taken and not yet sent (f_count of them, the oldest in
// f_unit[0]), each with its flag and whether it ends its message. Then:
//   AXI4-Stream       m_axis keeps the master's rules (faxis_master): a
//                     stalled unit holds, no TVALID after a reset cycle;
//   oldest_first      m_axis shows the oldest unit not yet sent, with its
//                     word's error flag, and tlast only on the last unit
//                     of a message's last word: units leave in order, each
//                     once, none lost;
//   take_when_free    take is high exactly when no unit waits behind the
//                     output register after this cycle: a word is taken
//                     only when it does not wait behind another (take is
//                     a register, figured a cycle ahead);
// and, on the block's registers (bound by their exported names), the
// invariants that make the induction hold:
//   keep_is_run       the keep flags are a run from keep[0];
//   counts_units      the units inside are the kept ones, the output
//                     register's and its spare's;
//   spare_is_second   the spare holds the second oldest unit;
//   copy_is_tvalid    the output register's copy of tvalid for its tdata
//                     byte equals it;
//   kept_are_next_k   the kept units are the next ones, in order, each
//                     with its word's flag, the last with its last_in.
`default_nettype none

module pending_units_properties (clk, rst, units_in$0, units_in$1, units_in$2, keep_in$0,
                                 keep_in$1, keep_in$2, error_in, last_in, valid_in,
                                 m_axis_tready);
    input wire clk;
    input wire rst;
    input wire [7:0] units_in$0;
    input wire [7:0] units_in$1;
    input wire [7:0] units_in$2;
    input wire keep_in$0;
    input wire keep_in$1;
    input wire keep_in$2;
    input wire error_in;
    input wire last_in;
    input wire valid_in;
    input wire m_axis_tready;

    wire take;
    wire [7:0] m_axis_tdata;
    wire [0:0] m_axis_tuser;
    wire m_axis_tvalid;
    wire m_axis_tlast;
    wire [7:0] f_units$0;
    wire [7:0] f_units$1;
    wire [7:0] f_units$2;
    wire f_keep$0;
    wire f_keep$1;
    wire f_keep$2;
    wire f_error;
    wire f_last;
    wire f_spare_valid;
    wire [7:0] f_spare_tdata;
    wire [0:0] f_spare_tuser;
    wire f_spare_tlast;
    wire f_byte_valid;

    pending_units dut (
        .clock(clk),
        .rst(rst),
        .units_in$0(units_in$0),
        .units_in$1(units_in$1),
        .units_in$2(units_in$2),
        .keep_in$0(keep_in$0),
        .keep_in$1(keep_in$1),
        .keep_in$2(keep_in$2),
        .error_in(error_in),
        .last_in(last_in),
        .valid_in(valid_in),
        .take(take),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast),
        .m_axis_tready(m_axis_tready),
        // Internal, by their exported names.
        .units$0$q(f_units$0),
        .units$1$q(f_units$1),
        .units$2$q(f_units$2),
        .keep$0$q(f_keep$0),
        .keep$1$q(f_keep$1),
        .keep$2$q(f_keep$2),
        .error$q(f_error),
        .last$q(f_last),
        .output_register$spare_valid$q(f_spare_valid),
        .output_register$spare_tdata$q(f_spare_tdata),
        .output_register$spare_tuser$q(f_spare_tuser),
        .output_register$spare_tlast$q(f_spare_tlast),
        .output_register$tdata$valid$0$q(f_byte_valid)
    );

`ifdef FORMAL
`define F_TDATA_BITS 8
`define F_TUSER_BITS 1
`include "fblock_m_axis.vh"

    // The encoder's side: a word has its first unit, and its flags are a
    // run from the first.
    always @(*)
        if (valid_in) assume (keep_in$0 && (!keep_in$2 || keep_in$1));

    // A unit as the shadow keeps it: {tlast, tuser, tdata}.
    wire f_taken = take && valid_in;
    wire f_sent = m_axis_tvalid && m_axis_tready;
    wire [1:0] f_offered = keep_in$0 + keep_in$1 + keep_in$2;
    wire [9:0] f_in0 = {last_in && !keep_in$1, error_in, units_in$0};
    wire [9:0] f_in1 = {last_in && !keep_in$2, error_in, units_in$1};
    wire [9:0] f_in2 = {last_in, error_in, units_in$2};
    reg [2:0] f_count = 3'd0;
    reg [9:0] f_unit [0:4];
    reg [9:0] f_shifted [0:4];
    integer i;
    always @(*) begin
        for (i = 0; i < 4; i = i + 1) f_shifted[i] = f_unit[i + 1];
        f_shifted[4] = f_unit[4];
        if (!f_sent)
            for (i = 0; i < 5; i = i + 1) f_shifted[i] = f_unit[i];
    end
    always @(posedge clk) begin
        for (i = 0; i < 5; i = i + 1) f_unit[i] <= f_shifted[i];
        if (f_taken) begin
            f_unit[f_count - f_sent] <= f_in0;
            if (keep_in$1) f_unit[f_count - f_sent + 1] <= f_in1;
            if (keep_in$2) f_unit[f_count - f_sent + 2] <= f_in2;
        end
        if (rst)
            f_count <= 3'd0;
        else
            f_count <= f_count - f_sent + (f_taken ? f_offered : 2'd0);
    end

    wire [1:0] f_kept = f_keep$0 + f_keep$1 + f_keep$2;
    wire [1:0] f_registered = m_axis_tvalid + f_spare_valid;
    // Pending offers a unit, and the output register takes it.
    wire f_moves = f_keep$0 && !f_spare_valid;
    wire [9:0] f_shown = {m_axis_tlast, m_axis_tuser, m_axis_tdata};
    wire [9:0] f_spare = {f_spare_tlast, f_spare_tuser, f_spare_tdata};
    wire [9:0] f_pending0 = {f_last && !f_keep$1, f_error, f_units$0};
    wire [9:0] f_pending1 = {f_last && !f_keep$2, f_error, f_units$1};
    wire [9:0] f_pending2 = {f_last, f_error, f_units$2};

    always @(*)
        if (f_past_valid && !rst) begin
            if (m_axis_tvalid) oldest_first: assert (f_shown == f_unit[0]);
            take_when_free: assert (take == (f_count - f_registered - f_moves == 3'd0));
            keep_is_run: assert ((!f_keep$2 || f_keep$1) && (!f_keep$1 || f_keep$0));
            counts_units: assert (f_count == f_kept + f_registered && (!f_spare_valid || m_axis_tvalid));
            if (f_spare_valid) spare_is_second: assert (f_spare == f_unit[1]);
            copy_is_tvalid: assert (f_byte_valid == m_axis_tvalid);
            if (f_keep$0) kept_are_next_0: assert (f_pending0 == f_unit[f_registered]);
            if (f_keep$1) kept_are_next_1: assert (f_pending1 == f_unit[f_registered + 1]);
            if (f_keep$2) kept_are_next_2: assert (f_pending2 == f_unit[f_registered + 2]);
        end
`endif
endmodule
