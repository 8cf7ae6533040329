// beat_fifo_properties: the contract of BeatFifo
// (hdl/src/utf8_decoder_wide/queue/beat_fifo.rs), 2 lanes and 4 beats, for
// all time, by k-induction: `utf8hdl formal --block beat_fifo`; and, with
// PASSING_WHEN_EMPTY defined, of its passing form, whose beats go straight
// into the m_axis registers while the queue is empty:
// `utf8hdl formal --block beat_fifo_passing`.
//
// The queue has no `full`: its writer (the wide core's BeatCredits) never
// lets more than 4 beats be written and not yet returned, which is assumed
// here. The consumer on m_axis may stall on any cycle. A shadow kept from
// the ports counts the beats inside (f_count) and follows one beat, chosen
// by the solver among all those written (f_track): its payload (f_value)
// and how many beats are ahead of it (f_ahead). Then, on the ports:
//   P2 (faxis_master.v, asserted)  m_axis keeps the AXI4-Stream rules: a
//                     stalled beat holds, no TVALID after a reset cycle;
//   returned_is_handshake  `returned` is high exactly when a beat leaves;
//   leaves_in_order   the beat at the head, with none ahead of it, is the
//                     followed beat, payload unchanged: beats leave in the
//                     order they were written, none lost, none changed;
//   no_bubble         when a beat written three or more cycles ago is
//                     inside and m_axis was free in the cycle before,
//                     m_axis_tvalid is high: after a stall, a beat leaves
//                     on every cycle again (in the passing form too: its
//                     one bubble follows a beat written two cycles before);
//   passes_when_empty (the passing form) a beat written while the queue
//                     was empty, or held only the beat leaving m_axis, is
//                     on m_axis in the next cycle;
// and, on the queue's registers (bound by their exported names, which the
// runner checks exist), the invariants that make the induction hold:
//   count_is_pointers      the beats inside are the write pointer less the
//                          read pointer (the RAM's beats not yet fetched),
//                          plus the RAM's read register and the m_axis
//                          registers when they hold one (a passing beat
//                          moves neither pointer);
//   within_size            the RAM never holds more than 4 beats not yet
//                          fetched: the pointers never overflow or
//                          underflow;
//   flags_match_pointers   `not_empty` and `one_left` are the pointers'
//                          compares, kept as flops;
//   pointers_in_step       the read pointer's copies (one ahead, two
//                          ahead, each lane's read address) and the write
//                          addresses agree with the pointers;
//   lane_copies_agree      each lane's copy of the read state is lane 0's;
//   tracked_in_memory      while not yet fetched, the followed beat is in
//                          the RAM, as many addresses past the head's as
//                          there are beats ahead of it;
//   tracked_in_read_register  once fetched, it is in the RAM's read
//                          register until the m_axis registers take it.
// The read pointer is `read_pointer_ahead$q - 1`.
`default_nettype none

`ifdef PASSING_WHEN_EMPTY
module beat_fifo_passing_properties (clk, rst, write, tdata, tuser, tkeep, tlast, m_axis_tready, f_track);
`else
module beat_fifo_properties (clk, rst, write, tdata, tuser, tkeep, tlast, m_axis_tready, f_track);
`endif
    input wire clk;
    input wire rst;
    input wire write;
    input wire [63:0] tdata;
    input wire [7:0] tuser;
    input wire [1:0] tkeep;
    input wire tlast;
    input wire m_axis_tready;
    // The solver's choice: follow the beat written in this cycle.
    input wire f_track;

    wire [63:0] m_axis_tdata;
    wire [7:0] m_axis_tuser;
    wire [1:0] m_axis_tkeep;
    wire m_axis_tvalid;
    wire m_axis_tlast;
    wire returned;

    wire [7:0] write_pointer, read_pointer_ahead, read_pointer_two_ahead;
    wire one_left;
    wire [1:0] read_address_0, read_address_1, write_address_0, write_address_1;
    wire fetched_0, fetched_1, not_empty_0, not_empty_1, tvalid_out_1;
    wire [31:0] read_tdata_0, read_tdata_1;
    wire [3:0] read_tuser_0, read_tuser_1;
    wire read_tkeep_0, read_tkeep_1, read_tlast;
    wire [4*38-1:0] beats_0;
    wire [4*37-1:0] beats_1;

`ifdef PASSING_WHEN_EMPTY
    beat_fifo_passing dut (
`else
    beat_fifo dut (
`endif
        .clock(clk),
        .rst(rst),
        .write(write),
        .tdata(tdata),
        .tuser(tuser),
        .tkeep(tkeep),
        .tlast(tlast),
`ifdef PASSING_WHEN_EMPTY
        // The writer's promise: the lanes again, as the beat has them.
        .lane_tdata$0(tdata[31:0]),
        .lane_tdata$1(tdata[63:32]),
        .lane_tuser$0(tuser[3:0]),
        .lane_tuser$1(tuser[7:4]),
        .lane_tkeep$0(tkeep[0]),
        .lane_tkeep$1(tkeep[1]),
`endif
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tlast(m_axis_tlast),
        .m_axis_tready(m_axis_tready),
        .returned(returned),
        // Internal, by their exported names.
        .write_pointer$q(write_pointer),
        .read_pointer_ahead$q(read_pointer_ahead),
        .read_pointer_two_ahead$q(read_pointer_two_ahead),
        .one_left$q(one_left),
        .read_address$0$q(read_address_0),
        .read_address$1$q(read_address_1),
        .write_address$0$q(write_address_0),
        .write_address$1$q(write_address_1),
        .fetched$0$q(fetched_0),
        .fetched$1$q(fetched_1),
        .not_empty$0$q(not_empty_0),
        .not_empty$1$q(not_empty_1),
        .tvalid_out$1$q(tvalid_out_1),
        .ram$read_tdata$0(read_tdata_0),
        .ram$read_tdata$1(read_tdata_1),
        .ram$read_tuser$0(read_tuser_0),
        .ram$read_tuser$1(read_tuser_1),
        .ram$read_tkeep$0(read_tkeep_0),
        .ram$read_tkeep$1(read_tkeep_1),
        .ram$read_tlast(read_tlast),
        .beats$0(beats_0),
        .beats$1(beats_1)
    );

`ifdef FORMAL
`define F_TDATA_BITS 64
`define F_TUSER_BITS 10
`define F_M_AXIS_TUSER {m_axis_tkeep, m_axis_tuser}
`include "fblock_m_axis.vh"

    // The beats inside, from the ports; the writer's promise.
    reg [7:0] f_count = 8'd0;
    always @(posedge clk)
        f_count <= rst ? 8'd0 : f_count + write - returned;
    always @(*) if (write) assume (f_count - returned < 8'd4);

    // The followed beat: its payload as the RAM's lanes store it, its
    // write address, and the beats ahead of it.
    reg f_tracking = 1'b0;
    reg [7:0] f_ahead;
    reg [63:0] f_tdata;
    reg [7:0] f_tuser;
    reg [1:0] f_tkeep;
    reg f_tlast;
    always @(posedge clk)
        if (rst)
            f_tracking <= 1'b0;
        else if (!f_tracking) begin
            if (write && f_track) begin
                f_tracking <= 1'b1;
                f_ahead <= f_count - returned;
                {f_tdata, f_tuser, f_tkeep, f_tlast} <= {tdata, tuser, tkeep, tlast};
            end
        end else if (returned) begin
            if (f_ahead == 8'd0)
                f_tracking <= 1'b0;
            f_ahead <= f_ahead - 8'd1;
        end
    wire [37:0] f_word_0 = {f_tlast, f_tkeep[0], f_tuser[3:0], f_tdata[31:0]};
    wire [36:0] f_word_1 = {f_tkeep[1], f_tuser[7:4], f_tdata[63:32]};

    // A beat written three or more cycles ago is inside, and m_axis was
    // free in the cycle before.
    reg f_written_1 = 1'b0, f_written_2 = 1'b0, f_free_1 = 1'b0;
    // A beat was written into a queue empty but for the beat leaving.
    reg f_into_empty_1 = 1'b0;
    always @(posedge clk) begin
        f_written_1 <= write;
        f_written_2 <= f_written_1;
        f_free_1 <= !rst && (!m_axis_tvalid || m_axis_tready);
        f_into_empty_1 <= !rst && write && f_count == returned;
    end

    wire [7:0] read_pointer = read_pointer_ahead - 8'd1;
    wire [7:0] unfetched = write_pointer - read_pointer;
    wire [7:0] head_pointer = read_pointer - fetched_0 - m_axis_tvalid;
    wire [1:0] f_address = head_pointer[1:0] + f_ahead[1:0];

    always @(*)
        if (f_past_valid && !rst) begin
            returned_is_handshake: assert (returned == (m_axis_tvalid && m_axis_tready));
            if (f_tracking && f_ahead == 8'd0 && m_axis_tvalid)
                leaves_in_order: assert (m_axis_tdata == f_tdata && m_axis_tuser == f_tuser
                    && m_axis_tkeep == f_tkeep && m_axis_tlast == f_tlast);
            if (f_free_1 && f_count > f_written_1 + f_written_2)
                no_bubble: assert (m_axis_tvalid);
`ifdef PASSING_WHEN_EMPTY
            if (f_into_empty_1)
                passes_when_empty: assert (m_axis_tvalid);
`endif

            count_is_pointers: assert (f_count == unfetched + fetched_0 + m_axis_tvalid);
            within_size: assert (unfetched <= 8'd4);
            flags_match_pointers: assert (not_empty_0 == (unfetched != 8'd0)
                && one_left == (unfetched == 8'd1));
            pointers_in_step: assert (read_pointer_two_ahead == read_pointer_ahead + 8'd1
                && read_address_0 == read_pointer[1:0] && write_address_0 == write_pointer[1:0]);
            lane_copies_agree: assert (read_address_1 == read_address_0
                && write_address_1 == write_address_0 && fetched_1 == fetched_0
                && not_empty_1 == not_empty_0 && tvalid_out_1 == m_axis_tvalid);
            if (f_tracking) begin
                // The shadow's own consistency, true by its construction
                // (both counts follow the same ports): not an invariant of
                // the queue, which no bug of it can fail.
                assert (f_ahead < f_count);
                if (f_ahead >= fetched_0 + m_axis_tvalid)
                    tracked_in_memory: assert (beats_0[38*f_address +: 38] == f_word_0
                        && beats_1[37*f_address +: 37] == f_word_1);
                else if (f_ahead == m_axis_tvalid)
                    tracked_in_read_register: assert (
                        {read_tlast, read_tkeep_0, read_tuser_0, read_tdata_0} == f_word_0
                        && {read_tkeep_1, read_tuser_1, read_tdata_1} == f_word_1);
            end
        end
`endif
endmodule
