// beat_queue_rate.vh: full rate (P3) of an N-lane core whose s_axis_tready
// is a credit count's flop (BeatCredits) and whose m_axis is a queue of
// beats (BeatFifo), with the invariants that make its k-induction hold.
// `included by the core's property file after its harness
// (faxis_lanes_harness.vh), with beat_queue_internals.vh's wires bound,
// the localparam F_QUEUE_BEATS (the queue's beats: the credits there are)
// and two probes that the runner adds from the core's formal plan:
//   f_pipeline_beats [7:0]  the beats inside the core before its queue;
//   f_queue_lanes_agree     every lane's copy of the queue's pointers and
//                           flags is lane 0's.
//
// The invariants are the contracts of BeatCredits and BeatFifo, proven
// alone (hdl/formal/blocks/), stated on the core:
//   credits_count_beats   the credits in use are the beats before the
//                         queue, in the queue, and dropped but not yet
//                         counted;
//   credits_within_queue  never more credits in use than the queue holds;
//   ready_is_count        s_axis_tready is high exactly when a credit is
//                         free;
//   queue_*               the queue's count is its pointers', within its
//                         size; its flags and copies agree with them; and
//                         m_axis_tvalid is low only while at most two beats
//                         are on their way through the RAM.
//
//   P3  `P3       full rate: when m_axis_tready was high in the last
//                 cycle, s_axis_tready is high (the credits' flop rises on
//                 the cycle after m_axis takes a beat, whatever is inside).
`ifdef FORMAL
`ifdef INVARIANTS
    // The queue's read pointer, and the beats written and not yet fetched.
    wire [7:0] f_read_pointer = f_read_pointer_ahead - 8'd1;
    wire [7:0] f_unfetched = f_write_pointer - f_read_pointer;
    wire [7:0] f_queue_beats = f_unfetched + f_fetched_0 + f_tvalid_out_0;
    always @(*)
        if (f_past_valid && !rst) begin
            credits_count_beats: assert (f_in_flight
                == f_pipeline_beats + f_queue_beats + f_early + f_late);
            credits_within_queue: assert (f_in_flight <= F_QUEUE_BEATS);
            ready_is_count: assert (f_ready == (f_in_flight < F_QUEUE_BEATS));
            queue_within_size: assert (f_unfetched <= F_QUEUE_BEATS);
            queue_flags_match_pointers: assert (f_not_empty_0 == (f_unfetched != 0)
                && f_one_left == (f_unfetched == 1));
            queue_pointers_in_step: assert (f_read_pointer_two_ahead == f_read_pointer_ahead + 8'd1
                && f_read_address_0 == f_read_pointer[4:0]
                && f_write_address_0 == f_write_pointer[4:0]);
            queue_lane_copies_agree: assert (f_queue_lanes_agree);
            queue_no_bubble_when_full: assert (f_tvalid_out_0 || f_queue_beats <= 2);
        end
`endif

`ifdef P3
    reg f_was_ready = 1'b0;
    always @(posedge clk) f_was_ready <= m_axis_tready;
    always @(*) if (f_past_valid && f_was_ready) p3_full_rate: assert (s_axis_tready);
`endif
`endif
