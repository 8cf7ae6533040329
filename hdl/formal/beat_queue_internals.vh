// beat_queue_internals.vh: the internal signals of the credits and the
// output queue (BeatCredits, BeatFifo: hdl/src/utf8_decoder_wide/queue/)
// of an N-lane core, for beat_queue_rate.vh. `included by the core's
// property file before its harness (faxis_lanes_harness.vh): it declares
// the wires and defines F_BEAT_QUEUE_INTERNALS, their connections to the
// core's registers by their exported names (the queue's lane 0: that its
// other lanes' copies agree is the probe f_queue_lanes_agree, which the
// runner adds from the core's formal plan), for the file's
// F_DUT_INTERNALS.
    wire [6:0] f_in_flight;
    wire f_early, f_late, f_ready;
    wire [7:0] f_write_pointer, f_read_pointer_ahead, f_read_pointer_two_ahead;
    wire [4:0] f_read_address_0, f_write_address_0;
    wire f_fetched_0, f_not_empty_0, f_one_left, f_tvalid_out_0;
`define F_BEAT_QUEUE_INTERNALS \
        , .credits$in_flight$q(f_in_flight) \
        , .credits$early$q(f_early) \
        , .credits$late$q(f_late) \
        , .credits$ready$q(f_ready) \
        , .queue$write_pointer$q(f_write_pointer) \
        , .queue$read_pointer_ahead$q(f_read_pointer_ahead) \
        , .queue$read_pointer_two_ahead$q(f_read_pointer_two_ahead) \
        , .queue$read_address$0$q(f_read_address_0) \
        , .queue$write_address$0$q(f_write_address_0) \
        , .queue$fetched$0$q(f_fetched_0) \
        , .queue$not_empty$0$q(f_not_empty_0) \
        , .queue$one_left$q(f_one_left) \
        , .queue$tvalid_out$0$q(f_tvalid_out_0)
